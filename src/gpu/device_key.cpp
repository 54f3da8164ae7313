// DeviceProvingKey (cuzk/gpu/backend.hpp): VRAM estimates per layout, the upload of a layout's
// resident parts, the streamed chunk size and the layout for a VRAM figure.
#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/staged_upload.hpp"
#include "cuzk/groth16/key_check.hpp"
#include "device_key_parts.hpp"

namespace cuzk::gpu {

namespace {
std::size_t log2_of(std::size_t n) {
  std::size_t k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

template <class E>
std::size_t longest_points(const groth16::ProvingKey<E>& pk) {
  return std::max({pk.a_query.size(), pk.b_g1_query.size(), pk.b_g2_query.size(), pk.l_query.size(),
                   pk.h_query.size(), std::size_t{1}});
}

TwiddleTable twiddles_of(const KeyLayout& l) {
  return l.compact_twiddles ? TwiddleTable::kCompact : TwiddleTable::kFull;
}

template <class E>
std::size_t resolve_chunk(const groth16::ProvingKey<E>& pk, std::size_t chunk) {
  const std::size_t c = chunk == 0 ? DeviceProvingKey<E>::kDefaultStreamChunk : chunk;
  return std::min(c, longest_points(pk));
}

// A device copy of host points, through the uploader (straight from registered memory,
// else staged); complete once the uploader is synchronised.
template <class T>
DeviceBuffer<T> upload_points(const std::vector<T>& host, StagedUploader& up) {
  DeviceBuffer<T> d(host.size());
  up.upload(d.data(), host.data(), host.size() * sizeof(T));
  return d;
}

void check_placement(KeyPlacement p) {
  if (p != KeyPlacement::kResident && p != KeyPlacement::kStreamPoints)
    throw std::invalid_argument("gpu: unknown key placement " + std::to_string(static_cast<int>(p)));
}

// VRAM a resident part takes (the matrices: A, B and, where the key's H reads it, C).
template <class E>
std::size_t part_bytes(const groth16::ProvingKey<E>& pk, KeyPart part) {
  using Fr = typename E::Fr;
  using G1A = typename E::G1Affine;
  switch (part) {
    case KeyPart::kMatrices:
      return DeviceCsr<Fr>::bytes(pk.a) + DeviceCsr<Fr>::bytes(pk.b) + (c_resident_for(pk) ? DeviceCsr<Fr>::bytes(pk.c) : 0);
    case KeyPart::kH: return pk.h_query.size() * sizeof(G1A);
    case KeyPart::kA: return pk.a_query.size() * sizeof(G1A);
    case KeyPart::kB1: return pk.b_g1_query.size() * sizeof(G1A);
    case KeyPart::kB2: return pk.b_g2_query.size() * sizeof(typename E::G2Affine);
    case KeyPart::kL: return pk.l_query.size() * sizeof(G1A);
  }
  return 0;
}
}  // namespace

template <class E>
KeyLayout DeviceProvingKey<E>::layout_of(const groth16::ProvingKey<E>& pk, KeyPlacement p, std::size_t chunk) {
  check_placement(p);
  return p == KeyPlacement::kResident ? KeyLayout::all_resident() : KeyLayout::all_streamed(resolve_chunk(pk, chunk));
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_bytes(const groth16::ProvingKey<E>& pk, KeyPlacement p, std::size_t chunk) {
  return estimate_bytes(pk, layout_of(pk, p, chunk));
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l) {
  using Fr = typename E::Fr;
  std::size_t b = NttPlan<Fr>::table_bytes(log2_of(pk.domain_size), twiddles_of(l));
  for (KeyPart part : kAllKeyParts)  // streamed parts stay in host memory
    if (l.resident(part)) b += part_bytes(pk, part);
  if (l.streamed(KeyPart::kMatrices))  // but the value tables of indexed matrices go up
    for (const auto* m : streamed_matrices(pk)) b += DeviceCsr<Fr>::table_bytes(*m);
  return b + (std::size_t{1} << 20);  // allocation granularity
}

template <class E>
std::size_t DeviceProvingKey<E>::stream_chunk_bytes(std::size_t c) {
  return 2 * stream_buffer_bytes<E>(c) + chunk_msm_scratch_bytes<E>(c);
}

template <class E>
std::vector<const r1cs::CsrMatrix<typename E::Fr>*> DeviceProvingKey<E>::streamed_matrices(
    const groth16::ProvingKey<E>& pk) {
  std::vector<const r1cs::CsrMatrix<typename E::Fr>*> m{&pk.a, &pk.b};
  if (c_resident_for(pk)) m.push_back(&pk.c);
  return m;
}

template <class E>
std::vector<std::span<const std::byte>> DeviceProvingKey<E>::streamed_host_arrays(const groth16::ProvingKey<E>& pk,
                                                                                  bool matrices) {
  std::vector<std::span<const std::byte>> v;
  auto add = [&](const auto& a) { v.push_back(std::as_bytes(std::span(a))); };
  add(pk.a_query), add(pk.b_g1_query), add(pk.b_g2_query), add(pk.l_query), add(pk.h_query);
  if (matrices)
    for (const auto* m : streamed_matrices(pk)) {
      add(m->row_ptr), add(m->cols);
      if (m->indexed()) add(m->val_idx);  // DeviceCsr::pass_bytes
      else add(m->vals);
    }
  return v;
}

template <class E>
std::size_t DeviceProvingKey<E>::stream_chunk_points(const groth16::ProvingKey<E>& pk, std::size_t vram_bytes) {
  if (stream_chunk_bytes(1) > vram_bytes)
    throw std::invalid_argument("gpu: " + std::to_string(vram_bytes) + " bytes of VRAM cannot hold even one streamed " +
                                "chunk (" + std::to_string(stream_chunk_bytes(1)) + " bytes for one point)");
  std::size_t lo = 1, hi = longest_points(pk);  // invariant: lo fits
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (stream_chunk_bytes(mid) <= vram_bytes) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk, KeyPlacement p,
                                                              std::size_t chunk_points) {
  return estimate_proof_scratch_bytes(pk, layout_of(pk, p, chunk_points));
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_proof_scratch_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l,
                                                              const Tuning& tuning) {
  using Fr = typename E::Fr;
  using S = DeviceScalars<Fr>;
  const std::size_t nv = pk.num_vars, n = pk.domain_size, nh = pk.h_query.size(), nl = pk.l_query.size();
  const std::size_t tables = 8 * (2 * (std::size_t{1} << ((log2_of(n) + 1) / 2)) + 2) * sizeof(Fr);
  if (l.is_all_resident()) {
    const std::size_t scalars = S::resident_bytes(nh) + S::resident_bytes(nv) + S::resident_bytes(nl);
    std::size_t phase1 = 3 * n * sizeof(Fr) + tables + S::resident_bytes(nh), phase2 = scalars;
    const std::size_t msm = proof_msm_scratch_bytes<E>(l, nv, nh, nl);
    phase1 += S::build_scratch_bytes(n);
    phase2 += S::build_scratch_bytes(std::max(nv, nh)) + msm;
    // The witness MSMs beside the H chain (CudaBackend::compute) hold one MSM scratch per side
    // thread through both phases, and their scalars from phase 1 on (phase 2 counts them).
    if (concurrent_witness_msms(nv, n, l, tuning)) {
      phase1 += S::resident_bytes(nv) + S::resident_bytes(nl) + kSideMsmThreads * msm;
      phase2 += kSideMsmThreads * msm;
    }
    return nv * sizeof(Fr) + std::max(phase1, phase2) + (std::size_t{16} << 20);
  }
  // Some part streams: the two chunk buffers stay for the whole proof. H: three arrays when
  // the matrices are resident, else two (compute_h_*_lean_device, the streamed matrices
  // evaluated twice). The MSMs, in order (H with h in the first array; A, B1, B2 with the
  // witness's scalars; L with its own): a resident part's scalars are classified over its
  // whole range, a streamed one's a chunk at a time; the MSM scratch is one workspace reserved
  // at the largest MSM's need after H (in a pool block of its own: CudaBackend::compute), so
  // H's phase does not hold it. After a streamed MSM its chunk scalars' blocks may stay cached
  // in the stream-ordered pool, too small for the larger allocations after them: the witness
  // and L phases count them too.
  const std::size_t c = resolve_chunk(pk, l.chunk);
  const std::size_t chunk_scalars = S::resident_bytes(c) + S::build_scratch_bytes(c);
  auto classified = [&](bool resident, std::size_t len) {
    return resident ? S::resident_bytes(len) + S::build_scratch_bytes(len) : chunk_scalars;
  };
  const std::size_t msm = proof_msm_scratch_bytes<E>(KeyLayout{l.resident_mask, c}, nv, nh, nl);
  const bool w_resident = l.any_resident(KeyLayout::kWitnessMask);
  const std::size_t h_phase =
      (l.resident(KeyPart::kMatrices) ? 3 : 2) * n * sizeof(Fr) + tables + 2 * sizeof(Fr);
  const std::size_t msm_h_phase = n * sizeof(Fr) + classified(l.resident(KeyPart::kH), nh) + msm;
  const std::size_t cached = l.all_resident(KeyLayout::kPointsMask) ? 0 : chunk_scalars;
  const std::size_t w_phase = (w_resident ? classified(true, nv) : 0) + cached + msm;
  const std::size_t l_phase = (l.resident(KeyPart::kL) ? classified(true, nl) : 0) + cached + msm;
  return nv * sizeof(Fr) + 2 * stream_buffer_bytes<E>(c) + std::max({h_phase, msm_h_phase, w_phase, l_phase}) +
         (std::size_t{16} << 20);
}

template <class E>
std::size_t DeviceProvingKey<E>::estimate_batch_scratch_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l,
                                                              const Tuning& tuning) {
  // Each proof alone first; then the shared MSMs hold what one proof's streamed witness MSMs
  // hold (its chunk buffers, MSM scratch, a chunk's classified scalars) without the witness on
  // the device, and with two chunks of scalars.
  const std::size_t one = estimate_proof_scratch_bytes(pk, l, tuning);
  if (l.all_resident(KeyLayout::kBatchMask)) return one;
  const std::size_t two_chunks = 2 * resolve_chunk(pk, l.chunk), nv = pk.num_vars;
  return one + (two_chunks > nv ? (two_chunks - nv) * sizeof(typename E::Fr) : 0);
}

namespace {
// VRAM of the key in layout l and one proof with it: what a budget must hold.
template <class E>
std::size_t key_and_proof_bytes(const groth16::ProvingKey<E>& pk, const KeyLayout& l, const Tuning& t) {
  return DeviceProvingKey<E>::estimate_bytes(pk, l) + DeviceProvingKey<E>::estimate_proof_scratch_bytes(pk, l, t);
}

// The twiddle tables a layout may take (compact or not), in order of preference (the full
// table's transforms are the faster): both, or the one the tuning names (to measure one against
// the other).
std::vector<bool> twiddle_choices(const Tuning& t) {
  switch (t.ntt_twiddles) {
    case TwiddleChoice::kAuto: return {false, true};
    case TwiddleChoice::kFull: return {false};
    case TwiddleChoice::kCompact: return {true};
  }
  throw std::invalid_argument("gpu: unknown twiddle choice " + std::to_string(static_cast<int>(t.ntt_twiddles)));
}

// The largest power-of-two chunk in [min_chunk, max_chunk] with which the all-streamed key
// (with the compact twiddle table or not) and one proof fit vram; min_chunk when none does.
template <class E>
KeyLayout streamed_fitting(const groth16::ProvingKey<E>& pk, std::size_t vram, std::size_t min_chunk,
                           std::size_t max_chunk, bool compact, const Tuning& t) {
  std::size_t chunk = max_chunk;
  while (chunk > min_chunk && key_and_proof_bytes(pk, KeyLayout{0, chunk, compact}, t) > vram) chunk /= 2;
  return KeyLayout{0, std::min(chunk, longest_points(pk)), compact};
}
// Whether layout a beats b (the one preferred on a tie) for vram: one that fits first, then
// the larger chunk, then the more link bytes saved (saved(mask)).
template <class E, class Saved>
bool better_layout(const groth16::ProvingKey<E>& pk, std::size_t vram, const KeyLayout& a, const KeyLayout& b,
                   Saved saved, const Tuning& t) {
  const bool fa = key_and_proof_bytes(pk, a, t) <= vram, fb = key_and_proof_bytes(pk, b, t) <= vram;
  if (fa != fb) return fa;
  if (a.chunk != b.chunk) return a.chunk > b.chunk;
  return saved(a.resident_mask) > saved(b.resident_mask);
}
}  // namespace

template <class E>
std::size_t DeviceProvingKey<E>::fitting_stream_chunk(const groth16::ProvingKey<E>& pk, std::size_t vram,
                                                      std::size_t min_chunk, std::size_t max_chunk) {
  // An all-streamed layout runs no side-thread MSMs: its estimates are the same for every tuning.
  return streamed_fitting(pk, vram, min_chunk, max_chunk, false, Tuning{}).chunk;
}

template <class E>
KeyLayout DeviceProvingKey<E>::stream_layout(const groth16::ProvingKey<E>& pk, std::size_t vram, std::size_t min_chunk,
                                             std::size_t max_chunk, const Tuning& tuning) {
  std::optional<KeyLayout> best;
  const auto none_saved = [](unsigned) { return 0; };
  for (const bool compact : twiddle_choices(tuning)) {
    const KeyLayout l = streamed_fitting(pk, vram, min_chunk, max_chunk, compact, tuning);
    if (!best || better_layout(pk, vram, l, *best, none_saved, tuning)) best = l;
  }
  return *best;
}

template <class E>
KeyLayout DeviceProvingKey<E>::choose_layout(const groth16::ProvingKey<E>& pk, std::size_t vram, std::size_t min_chunk,
                                             std::size_t max_chunk, const Tuning& tuning) {
  const std::vector<bool> choices = twiddle_choices(tuning);
  for (const bool compact : choices) {
    const KeyLayout all{KeyLayout::kAllMask, 0, compact};
    if (key_and_proof_bytes(pk, all, tuning) <= vram) return all;
  }
  std::array<std::uint64_t, kKeyParts> weight{};
  for (KeyPart part : kAllKeyParts) weight[static_cast<unsigned>(part)] = part_bytes(pk, part);
  // A streamed key reads its matrices twice per proof (their values or value positions).
  std::uint64_t pass = 0;
  for (const auto* m : streamed_matrices(pk)) pass += DeviceCsr<typename E::Fr>::pass_bytes(*m);
  weight[static_cast<unsigned>(KeyPart::kMatrices)] = 2 * pass;
  const auto saved = [&](unsigned mask) { return mask_weight(weight, mask); };
  std::optional<KeyLayout> best;
  for (const bool compact : choices) {
    const std::size_t chunk = streamed_fitting(pk, vram, min_chunk, max_chunk, compact, tuning).chunk;
    const auto need = [&](unsigned mask) { return key_and_proof_bytes(pk, KeyLayout{mask, chunk, compact}, tuning); };
    const KeyLayout l{choose_resident_mask(weight, need, vram), chunk, compact};
    if (!best || better_layout(pk, vram, l, *best, saved, tuning)) best = l;
  }
  return *best;
}

template <class E>
DeviceProvingKey<E>::DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device, KeyPlacement placement,
                                      std::size_t chunk_points, const Tuning& tuning)
    : DeviceProvingKey(pk, device, layout_of(pk, placement, chunk_points), tuning) {}

namespace {
// The layout as a key holds it: the mask checked, the chunk resolved (0 when all resident).
template <class E>
KeyLayout resolve_layout(const groth16::ProvingKey<E>& pk, const KeyLayout& l) {
  if (l.resident_mask > KeyLayout::kAllMask)
    throw std::invalid_argument("gpu: key layout mask " + std::to_string(l.resident_mask) + " names no part beyond the six");
  return l.is_all_resident() ? KeyLayout{KeyLayout::kAllMask, 0, l.compact_twiddles}
                            : KeyLayout{l.resident_mask, resolve_chunk(pk, l.chunk), l.compact_twiddles};
}
}  // namespace

template <class E>
DeviceProvingKey<E>::DeviceProvingKey(const groth16::ProvingKey<E>& pk, int device, const KeyLayout& layout,
                                      const Tuning& tuning)
    : device_(device), tuning_(tuning) {
  using Fr = typename E::Fr;
  const KeyLayout l = resolve_layout(pk, layout);
  bytes_ = estimate_bytes(pk, l);
  try {
    groth16::check_key_shape(pk);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("gpu: ") + e.what());
  }
  DeviceGuard guard(device);
  auto p = std::make_unique<DeviceKeyParts<E>>();
  p->num_vars = pk.num_vars;
  p->num_public = pk.num_public();
  p->domain = pk.domain_size;
  p->log_domain = log2_of(pk.domain_size);
  p->h_size = pk.h_query.size();
  p->l_size = pk.l_query.size();
  p->rows = pk.a.num_rows();
  p->conv = pk.h_convention;
  p->c_resident = c_resident_for(pk);
  p->layout = l;
  {
    // Resident points: uploaded; streamed: the host arrays, read chunk by chunk at every proof.
    StagedUploader up;
    auto place = [&](KeyPart part, const auto& host, auto& dev, auto& span) {
      if (l.resident(part)) dev = upload_points(host, up);
      else span = host;
    };
    place(KeyPart::kA, pk.a_query, p->a, p->host_a);
    place(KeyPart::kB1, pk.b_g1_query, p->b1, p->host_b1);
    place(KeyPart::kL, pk.l_query, p->l, p->host_l);
    place(KeyPart::kH, pk.h_query, p->h, p->host_h);
    place(KeyPart::kB2, pk.b_g2_query, p->b2, p->host_b2);
    up.synchronize();
  }
  if (l.resident(KeyPart::kMatrices)) {
    p->A = DeviceCsr<Fr>(pk.a);
    p->B = DeviceCsr<Fr>(pk.b);
    if (p->c_resident) p->C = DeviceCsr<Fr>(pk.c);
  } else {
    const std::size_t cap = stream_buffer_bytes<E>(l.chunk);
    auto cut = [&](const r1cs::CsrMatrix<Fr>& m) {
      HostCsr<Fr> h{&m, plan_csr_chunks(m.row_ptr, cap, DeviceCsr<Fr>::value_bytes(m)), {}};
      if (m.indexed()) h.table = DeviceBuffer<Fr>(std::span<const Fr>(m.val_table));
      return h;
    };
    p->host_A = cut(pk.a);
    p->host_B = cut(pk.b);
    if (p->c_resident) p->host_C = cut(pk.c);
  }
  p->plan.emplace(p->log_domain, twiddles_of(l), tuning_);
  stream_synchronize();
  parts_ = std::move(p);
}

template <class E>
DeviceProvingKey<E>::~DeviceProvingKey() {
  try {
    DeviceGuard guard(device_);
    // The plan's tables are stream-ordered (runtime.hpp): their frees land before this thread
    // goes on (it may be one that ends soon, e.g. a request thread evicting the key).
    const StreamDrain drain;
    parts_.reset();
  } catch (...) {
    parts_.reset();
  }
}

template <class E>
KeyPlacement DeviceProvingKey<E>::placement() const {
  return parts_->layout.is_all_resident() ? KeyPlacement::kResident : KeyPlacement::kStreamPoints;
}

template <class E>
std::size_t DeviceProvingKey<E>::chunk_points() const {
  return parts_->layout.chunk;
}

template <class E>
const KeyLayout& DeviceProvingKey<E>::layout() const {
  return parts_->layout;
}

template <class E>
bool DeviceProvingKey<E>::matches(const groth16::ProvingKey<E>& pk) const {
  const auto& p = *parts_;
  return p.num_vars == pk.num_vars && p.num_public == pk.num_public() && p.domain == pk.domain_size &&
         p.h_size == pk.h_query.size() && p.l_size == pk.l_query.size() && p.rows == pk.a.num_rows() &&
         p.conv == pk.h_convention && p.c_resident == c_resident_for(pk);
}

template class DeviceProvingKey<groth16::Bls12_381>;
template class DeviceProvingKey<groth16::Bn254>;

}  // namespace cuzk::gpu
