// The CUDA Groth16 backend: a proving key on one GPU, and a groth16::Backend that proves
// with it (a/b/c evaluation from device CSR matrices, the H polynomial in the key's
// convention, the five MSMs, all on the device). Plain C++: include it without nvcc and
// link cuzk_gpu. Instantiated for groth16::Bls12_381 and groth16::Bn254.
//
// Key placement:
//   kResident      the query points, CSR matrices and NTT twiddles live in VRAM.
//   kStreamPoints  only the NTT twiddles live in VRAM (cards too small for the key, e.g. 16
//                  GiB for a 2^27 PoRep partition; the layouts that choose_layout and
//                  stream_layout pick may keep them compact, KeyLayout::compact_twiddles,
//                  256 MiB instead of 2 GiB at 2^27): the point arrays and the constraint
//                  matrices stay in the host ProvingKey and pass through two device chunk
//                  buffers, chunk j+1 uploaded on a copy stream while chunk j's MSM (or a/b/c
//                  evaluation) runs; H runs in two domain-sized arrays instead of three, the
//                  matrices evaluated a second time for its second half, and each chunk's
//                  scalars are classified as its points arrive.
//                  Register the key's point arrays (HostRegistration) for truly
//                  asynchronous copies; pageable points are staged through pinned buffers.
//   A KeyLayout (key_layout.hpp) mixes the two part by part: the matrices and each point
//   array resident or streamed. choose_layout() picks the layout for a VRAM budget: all
//   resident when the key and one proof fit, else the parts that save the most link bytes
//   per proof resident and the rest streamed (e.g. a 2^27 partition on an 80 GiB card).
//
// The daemon's sequence:
//   const KeyLayout l = DeviceProvingKey<E>::choose_layout(pk, vram_budget);
//   const size_t need = DeviceProvingKey<E>::estimate_bytes(pk, l)
//                     + DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk, l) * workers;
//   DeviceContext ctx(device, tuning, workers)   (one per device, context.hpp)
//   reserve(need) -> DeviceProvingKey<E> key(pk, device, l)   (uploads once)
//   CudaBackend<E> backend(key, ctx); prove_verified(pk, w, backend, t)   (many times; one
//   backend per worker thread, reserving CudaBackend<E>::kStagingBytes of pinned host
//   memory each) -> ~DeviceProvingKey frees the VRAM -> release(need).
// Device faults throw cuzk::gpu::CudaError (runtime.hpp), never abort. Every entry point
// selects the key's device for the calling thread and restores the previous selection.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/gpu/context.hpp"
#include "cuzk/gpu/key_layout.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/staged_upload.hpp"

namespace cuzk::gpu {

template <class E>
struct DeviceKeyParts;  // the device buffers (src/gpu/device_key_parts.hpp)

enum class KeyPlacement { kResident, kStreamPoints };

template <class E>
class DeviceProvingKey {
 public:
  // Points per streamed chunk when the caller gives 0 (clamped to the longest point array).
  static constexpr std::size_t kDefaultStreamChunk = std::size_t{1} << 22;
  // The largest chunk fitting_stream_chunk and choose_layout pick by default: larger chunks
  // cut a streamed MSM's per-chunk work (H200, 2^27, pinned: a streamed G2 MSM 827 ms in
  // chunks of 2^22, 571 in 2^23, 523 in 2^24, near the link's ~470; G1 witness MSMs 288 ->
  // 223-252 ms), so a card with room for them takes them before keeping parts resident.
  static constexpr std::size_t kMaxStreamChunk = std::size_t{1} << 24;

  // VRAM the key takes on the device (resident: query points, constraint matrices, NTT
  // twiddles; streamed: matrices and twiddles), computable before uploading.
  static std::size_t estimate_bytes(const groth16::ProvingKey<E>& pk, KeyPlacement p = KeyPlacement::kResident,
                                    std::size_t chunk_points = 0);
  // VRAM one proof with this key needs on top of the key (witness, a/b/c, scalars, MSM
  // scratch; streamed: the witness, two domain-sized arrays, the two chunk buffers, one
  // chunk's scalars and MSM scratch); each concurrent proof on the device needs its own.
  static std::size_t estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk,
                                                  KeyPlacement p = KeyPlacement::kResident,
                                                  std::size_t chunk_points = 0);
  // The same for any layout (its chunk 0: kDefaultStreamChunk). The all-resident and
  // all-streamed layouts give the figures above.
  static std::size_t estimate_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l);
  // With a tuning: the scratch of a key made with it (Tuning::sequential_msms: no side-thread
  // scratch).
  static std::size_t estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l,
                                                  const Tuning& tuning = {});
  // VRAM of a batch of proofs (CudaBackend's compute with k > 1; any number, one at a time on the
  // device): one proof's; where a witness part streams, at least that of its shared MSMs (two
  // chunks of scalars in the place of the witness on the device).
  static std::size_t estimate_batch_scratch_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l,
                                                  const Tuning& tuning = {});
  // The layout a placement stands for: all resident, or all streamed with the chunk resolved
  // (0: kDefaultStreamChunk; at most the longest point array).
  static KeyLayout layout_of(const groth16::ProvingKey<E>& pk, KeyPlacement p, std::size_t chunk_points = 0);
  // The largest power-of-two chunk, at most max_chunk (a power of two) and at least min_chunk,
  // with which the all-streamed key and one proof fit vram_bytes; min_chunk when none does.
  static std::size_t fitting_stream_chunk(const groth16::ProvingKey<E>& pk, std::size_t vram_bytes,
                                          std::size_t min_chunk = std::size_t{1} << 12,
                                          std::size_t max_chunk = kMaxStreamChunk);
  // The all-streamed layout for vram_bytes: fitting_stream_chunk's chunk, or a larger one where
  // the compact twiddle table (KeyLayout::compact_twiddles) lets it fit.
  static KeyLayout stream_layout(const groth16::ProvingKey<E>& pk, std::size_t vram_bytes,
                                 std::size_t min_chunk = std::size_t{1} << 12, std::size_t max_chunk = kMaxStreamChunk,
                                 const Tuning& tuning = {});
  // The layout for a device with vram_bytes for the key and one proof: all resident when that
  // fits (with the full twiddle table, else with the compact one); else, at the largest
  // chunk that fits all streamed, the resident set that saves the most link bytes per proof
  // (choose_resident_mask; the matrices weigh twice their size, as a streamed key reads them
  // twice per proof) among those that fit. The compact twiddle table is taken where it gives
  // a larger chunk, or more bytes saved at the same chunk. All streamed when only that fits
  // (or nothing does: the caller compares the estimates with its budget).
  // Tuning::ntt_twiddles = kFull or kCompact restricts both this and stream_layout to one table.
  // Sized for one proof, not for several running at once: a second concurrent proof gained
  // ~3% at 2^27 (H200, two partitions on two threads, resident) and streamed proofs are bound
  // by the link they would share, while room for its scratch (the witness, H's arrays, chunk
  // buffers) would cost resident parts (at 2^27, the 80 GiB layout is 16% slower than the
  // resident key, the 48 GiB one 33%). The engine runs further workers' proofs when their
  // scratch fits beside it and makes them wait otherwise.
  static KeyLayout choose_layout(const groth16::ProvingKey<E>& pk, std::size_t vram_bytes,
                                 std::size_t min_chunk = std::size_t{1} << 12, std::size_t max_chunk = kMaxStreamChunk,
                                 const Tuning& tuning = {});
  // The largest chunk (points) whose two chunk buffers (of the largest point type) plus
  // the MSM scratch of one chunk fit in vram_bytes; at most the longest point array.
  // Throws std::invalid_argument when not even a one-point chunk fits.
  static std::size_t stream_chunk_points(const groth16::ProvingKey<E>& pk, std::size_t vram_bytes);
  // VRAM of the chunk buffers plus one chunk's MSM scratch (what stream_chunk_points fits).
  static std::size_t stream_chunk_bytes(std::size_t chunk_points);
  // The constraint matrices a streamed key reads from pk at every proof (A, B, and C when the
  // key's H uses the stored C): what to page-lock, beside the points, for fast chunk copies.
  static std::vector<const r1cs::CsrMatrix<typename E::Fr>*> streamed_matrices(const groth16::ProvingKey<E>& pk);
  // The host arrays a streamed key reads at every proof: the five point arrays and, with
  // matrices, the streamed matrices' row pointers, columns, and values (of an indexed matrix
  // its 16-bit positions instead): what the pinned tier page-locks.
  static std::vector<std::span<const std::byte>> streamed_host_arrays(const groth16::ProvingKey<E>& pk, bool matrices);

  // Uploads pk to `device` (throws CudaError on a device fault or out of memory,
  // std::invalid_argument for a malformed key or an unknown placement). Resident points
  // go straight from registered memory, else through kStagingBytes of pinned staging
  // held during the upload.
  // kResident: pk need not outlive this object. kStreamPoints: pk's point arrays and
  // constraint matrices are read by every proof, so pk must outlive this object and stay
  // unchanged; chunk_points = 0 takes kDefaultStreamChunk. The key keeps `tuning`: its NTT plan
  // is made with it, and CudaBackend's proofs with the key run with it.
  DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device, KeyPlacement p = KeyPlacement::kResident,
                   std::size_t chunk_points = 0, const Tuning& tuning = {});
  // Any layout: its resident parts uploaded, its streamed parts read from pk (which must then
  // outlive this object, unchanged); chunk 0 takes kDefaultStreamChunk.
  DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device, const KeyLayout& layout, const Tuning& tuning = {});
  ~DeviceProvingKey();  // frees the VRAM on its device
  DeviceProvingKey(const DeviceProvingKey&) = delete;
  DeviceProvingKey& operator=(const DeviceProvingKey&) = delete;

  int device() const { return device_; }
  std::size_t bytes() const { return bytes_; }  // == estimate_bytes(pk, layout())
  KeyPlacement placement() const;    // kResident when every part is, else kStreamPoints
  std::size_t chunk_points() const;  // the resolved chunk (any part streamed), 0 when all resident
  const KeyLayout& layout() const;
  const Tuning& tuning() const { return tuning_; }
  // True when pk has the shape this key was uploaded from (sizes, convention).
  bool matches(const groth16::ProvingKey<E>& pk) const;
  const DeviceKeyParts<E>& parts() const { return *parts_; }

 private:
  int device_;
  std::size_t bytes_;
  Tuning tuning_;
  std::unique_ptr<DeviceKeyParts<E>> parts_;
};

// Proves k >= 1 witnesses per call (groth16::Backend::compute; groth16::prove and prove_batch
// check their shape, which this backend relies on). Each witness is uploaded straight from its
// memory when page-locked (gpu::is_pinned), else through the staging buffers; the phase
// "transfer_witness" times it. Where A, B1, B2 or L stream, the proofs of a call with k > 1
// share work: each proof first runs its own (witness upload, a/b/c, H and its MSM, the resident
// parts' MSMs), then every streamed witness MSM runs once for the batch, each point chunk
// uploaded once and used with each proof's scalars of that chunk (read from the witnesses in
// host memory, page-locked ones at full link speed, through a second copy stream and two device
// buffers of one chunk of scalars: estimate_batch_scratch_bytes). Those phases' times are shared
// out equally between the proofs. A single proof, or an all-resident key (nothing to share):
// the proofs one after the other. The witnesses must stay unchanged until compute returns.
template <class E>
class CudaBackend final : public groth16::Backend<E> {
 public:
  using Fr = typename E::Fr;
  // Pinned host memory one backend holds for staging pageable witnesses (and streamed
  // points), allocated at its first pageable upload; a page-locked witness needs none. A
  // batch (k > 1) of pageable witnesses stages their scalar chunks through as much again.
  static constexpr std::size_t kStagingBytes = StagedUploader::kStagingBytes;

  // Proves with an uploaded key in the device's context (context.hpp: its executors, and a
  // lane of its memory leased for each call); `key` and `ctx` must outlive the backend, and ctx
  // be of the key's device (std::invalid_argument otherwise). The pk passed to compute() must
  // be the key it was uploaded from (its shape is checked). One thread at a time: compute()
  // reuses the backend's staging buffers and copy streams. The proofs run with the key's tuning
  // (DeviceProvingKey::tuning).
  CudaBackend(const DeviceProvingKey<E>& key, DeviceContext& ctx);
  // The same in a context of the backend's own, for one proof at a time on the device (made at
  // the first call).
  explicit CudaBackend(const DeviceProvingKey<E>& key) : key_(&key), device_(key.device()), tuning_(key.tuning()) {}
  // Uploads the key (resident, with `tuning`) at each call (tests, one-off proofs), timed as
  // the first proof's phase "upload_key"; a context of its own.
  explicit CudaBackend(int device, const Tuning& tuning = {}) : key_(nullptr), device_(device), tuning_(tuning) {}

  std::string_view name() const override { return "cuda"; }
  int device() const { return device_; }

 private:
  void compute_proofs(const groth16::ProvingKey<E>& pk, std::span<const std::span<const Fr>> witnesses,
                      std::span<groth16::PhaseTimings> timings, std::span<groth16::ProofTerms<E>> out) override;
  DeviceContext& context();
  StagedUploader& uploader();
  const DeviceProvingKey<E>* key_for(const groth16::ProvingKey<E>& pk, groth16::PhaseTimings& t,
                                     std::unique_ptr<DeviceProvingKey<E>>& own) const;

  const DeviceProvingKey<E>* key_;
  int device_;
  Tuning tuning_;  // of the keys it uploads itself (no key given), and of its own context
  DeviceContext* ctx_ = nullptr;
  std::unique_ptr<DeviceContext> own_ctx_;  // when none was given: made at the first compute()
  std::optional<StagedUploader> up_;  // on device_, made at the first compute()
  std::optional<StagedUploader> scalar_up_;  // a batch's scalar chunks (k > 1, a witness part streamed)
};

}  // namespace cuzk::gpu
