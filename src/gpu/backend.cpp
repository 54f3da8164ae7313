// CudaBackend::compute (cuzk/gpu/backend.hpp): one proof's device work over a DeviceProvingKey
// (device_key.cpp) whose parts are resident or streamed (KeyLayout). Plain C++ over the device
// APIs (msm.hpp, abc.hpp, ntt.hpp, field_ops.hpp, point_stream.hpp).
#include "cuzk/gpu/backend.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gpu/field_ops.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/poly/generator.hpp"
#include "device_key_parts.hpp"
#include "point_stream.hpp"

namespace cuzk::gpu {

using groth16::HConvention;

namespace {
// One MSM of a proof: a resident part (its host span empty) over its device points with the
// scalars sc; a streamed part from its host points through ps with the device scalars d (each
// chunk's classified as it comes). next_first: the first chunk of the next streamed MSM, uploaded
// during this one's last chunk. o: the scratch the proof's MSMs share (reserved at the largest
// one's need) and the key's tuning.
template <class C>
ec::Jacobian<C> key_msm(const DeviceBuffer<ec::Affine<C>>& resident, std::span<const ec::Affine<C>> host,
                        const DeviceScalars<typename C::Scalar>& sc, const typename C::Scalar* d, PointStream* ps,
                        std::span<const std::byte> next_first, const MsmOptions& o) {
  if (!host.empty()) return ps->msm<C>(host, d, next_first, o);
  if (resident.size() != 0 && sc.size() == 0)
    throw std::logic_error("gpu: a resident MSM part without classified scalars");
  return sc.size() == 0 ? ec::Jacobian<C>::infinity() : msm<C>(resident, sc, o);
}

// The first chunk of the next streamed MSM after MSM i (firsts: each MSM's first chunk in
// order, empty for resident parts), prefetched during MSM i; empty when none follows.
template <std::size_t N>
std::span<const std::byte> first_after(const std::array<std::span<const std::byte>, N>& firsts, std::size_t i) {
  for (std::size_t j = i + 1; j < N; ++j)
    if (!firsts[j].empty()) return firsts[j];
  return {};
}

// What a batch's proofs share (CudaBackend::compute_batch): the point stream; each proof then
// leaves its streamed witness MSMs (A, B1, B2, L) to the batch, which runs them over one upload
// of each point chunk.
struct BatchShared {
  PointStream* ps = nullptr;
};

// One proof's device work (CudaBackend::compute) with the key's device selected and the
// backend's uploader; batch: the batch's shared state, or null for a proof alone.
template <class E>
groth16::ProofTerms<E> prove_on_device(const DeviceProvingKey<E>* key, std::span<const typename E::Fr> w,
                                       groth16::PhaseTimings& t, StagedUploader& up, const BatchShared* batch) {
  using groth16::ScopedPhase;
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  using Fr = typename E::Fr;
  const StreamDrain drain;  // after the proof's stream-ordered frees: nothing of it stays queued
  const DeviceKeyParts<E>& K = key->parts();
  const KeyLayout& L = K.layout;
  // The options of an MSM with workspace m (the key's tuning).
  auto msm_opts = [&](MsmWorkspace& m) { return MsmOptions{0, 0, &m, key->tuning()}; };
  // An MSM's scalars: for resident parts a range classified once (A, B1 and B2 share the
  // witness's); streamed parts classify each chunk as its points arrive (one chunk's on the
  // device at a time).
  struct Scalars {
    DeviceScalars<Fr> sc;
    const Fr* d = nullptr;
  };
  auto scalars = [&](bool classify, const Fr* d, std::size_t len) {
    return classify ? Scalars{DeviceScalars<Fr>::from_device(d, len), d} : Scalars{{}, d};
  };
  using P = KeyPart;
  const bool witness_classified = L.any_resident(KeyLayout::kWitnessMask);
  const std::size_t n = K.domain;
  groth16::ProofTerms<E> out;
  // A streamed proof starts from an empty pool cache (see msm_ws below; this waits for the
  // device's queued work once, a few times per proof of seconds).
  if (L.any_streamed()) release_cached_device_memory();
  // The proof's temporaries are stream-ordered (runtime.hpp): freeing them does not wait for
  // other workers' kernels, nor for this proof's side threads.
  DeviceBuffer<Fr> dw(w.size(), DeviceAlloc::kStreamOrdered);
  stream_synchronize();  // the uploader's stream writes dw: its allocation comes first
  {
    ScopedPhase p(t, "transfer_witness");  // pinned: straight; pageable: through the staging
    up.upload(dw.data(), w.data(), w.size_bytes());
    up.synchronize();
  }
  // The four witness MSMs, each written once. Keys with streamed parts run them in this thread
  // (s: the point stream; next(i): the first chunk of the streamed MSM after MSM i in the order
  // H, A, B1, B2, L, prefetched during MSM i); small all-resident proofs on side threads (s
  // stays null and every host span empty there).
  std::optional<PointStream> ps;
  PointStream* s = nullptr;
  const std::array<std::span<const std::byte>, 5> firsts{
      first_chunk(K.host_h, L.chunk), first_chunk(K.host_a, L.chunk), first_chunk(K.host_b1, L.chunk),
      first_chunk(K.host_b2, L.chunk), first_chunk(K.host_l, L.chunk)};
  // In a batch only H streams here (its MSM runs last): nothing of this proof follows it.
  auto next = [&](std::size_t i) { return batch != nullptr ? std::span<const std::byte>{} : first_after(firsts, i); };
  // A streamed witness part of a batched proof: left to the batch (its term stays infinity).
  auto deferred = [&](std::span<const std::byte> first) { return batch != nullptr && !first.empty(); };
  using PT = groth16::PhaseTimings;
  auto run_a = [&](PT& pt, MsmWorkspace& m, const Scalars& ws) {
    if (deferred(firsts[1])) return;
    ScopedPhase p(pt, "msm_a");
    out.a = key_msm<G1C>(K.a, K.host_a, ws.sc, ws.d, s, next(1), msm_opts(m));
  };
  auto run_b1 = [&](PT& pt, MsmWorkspace& m, const Scalars& ws) {
    if (deferred(firsts[2])) return;
    ScopedPhase p(pt, "msm_b_g1");
    out.b1 = key_msm<G1C>(K.b1, K.host_b1, ws.sc, ws.d, s, next(2), msm_opts(m));
  };
  auto run_b2 = [&](PT& pt, MsmWorkspace& m, const Scalars& ws) {
    if (deferred(firsts[3])) return;
    ScopedPhase p(pt, "msm_b_g2");
    out.b2 = key_msm<G2C>(K.b2, K.host_b2, ws.sc, ws.d, s, next(3), msm_opts(m));
  };
  auto run_l = [&](PT& pt, MsmWorkspace& m, const Scalars& ls) {
    if (deferred(firsts[4])) return;
    ScopedPhase p(pt, "msm_l");
    out.l = key_msm<G1C>(K.l, K.host_l, ls.sc, ls.d, s, next(4), msm_opts(m));
  };
  // Small resident proofs (concurrent_witness_msms): the witness MSMs start now, right after
  // the witness upload, on three threads of their own (own streams and scratch: B2; B1; A then
  // L), beside a/b/c, H and MSM H on this one. The proof's temporaries are stream-ordered, so
  // neither side waits for the other's frees (with cudaFree they did: h_poly 3.4 ms instead of
  // 0.3 at 2^12, bench/RESULTS.md). Their phases are timed on their threads (wall times that
  // overlap this thread's) and listed after msm_h.
  std::array<PT, kSideMsmThreads> side_t;
  Scalars side_ws, side_ls;
  std::vector<std::future<void>> side;  // after what its threads use: joined first on unwinding
  if (concurrent_witness_msms(K.num_vars, n, L, key->tuning())) {
    side_ws = scalars(true, dw.data(), K.num_vars);  // synchronised: the side streams may read them
    side_ls = scalars(true, dw.data() + K.num_public + 1, K.l_size);
    const int dev = key->device();
    auto launch = [&](std::size_t i, auto body) {
      side_t[i].cancel = t.cancel;
      side.push_back(std::async(std::launch::async, [&pt = side_t[i], dev, body] {
        DeviceGuard g(dev);
        const StreamDrain drain;  // the scratch's free lands before the thread exits
        MsmWorkspace m;
        body(pt, m);
      }));
    };
    launch(0, [&](PT& pt, MsmWorkspace& m) { run_b2(pt, m, side_ws); });
    launch(1, [&](PT& pt, MsmWorkspace& m) { run_b1(pt, m, side_ws); });
    launch(2, [&](PT& pt, MsmWorkspace& m) {
      run_a(pt, m, side_ws);
      run_l(pt, m, side_ls);
    });
  }
  if (batch != nullptr) {
    s = batch->ps;
  } else if (L.any_streamed()) {
    ps.emplace(L.chunk, stream_buffer_bytes<E>(1), up, key->device());
    s = &*ps;
  }
  // The MSMs' scratch, reserved at the largest need once H's arrays but its first are freed
  // (proof_msm_scratch_bytes, as the estimate counts it, in the MSM phases and not in H's); with
  // side threads this thread runs only MSM H. When a part streams it must not come from a freed
  // array's cached pool block: it would keep that block mapped, and a later allocation larger
  // than the block's rest would need memory a budget at the estimate does not have
  // (gpu_layout_budget_test, H streamed). So a streamed proof starts from an empty pool cache
  // (each of its arrays then maps a block of its own) and returns the freed arrays' blocks to
  // the driver before the reservation, which then maps a block of its own too. (Reserving it
  // before H's arrays also avoids this, but holds it through H: at 2^27 on a 16 GiB card that
  // cut the streamed chunk from 2^22 to 2^20 points.)
  MsmWorkspace msm_ws;
  const std::size_t msm_bytes = proof_msm_scratch_bytes<E>(L, K.num_vars, K.h_size, K.l_size);
  const bool classic = K.conv == HConvention::kZDivided;
  DeviceBuffer<Fr> a(n, DeviceAlloc::kStreamOrdered);  // a, then h's coefficients
  if (L.resident(P::kMatrices)) {  // three arrays
    DeviceBuffer<Fr> bc(2 * n, DeviceAlloc::kStreamOrdered);
    Fr* b = bc.data();
    Fr* c = b + n;
    {
      ScopedPhase p(t, "eval_abc");  // classic: no c (its H takes c = a.b itself)
      eval_rows_device<Fr>(K.A, dw.data(), a.data(), n);
      eval_rows_device<Fr>(K.B, dw.data(), b, n);
      if (K.c_resident) eval_rows_device<Fr>(K.C, dw.data(), c, n);
      else if (!classic) field_op_device<Fr>(FieldOp::kMul, a.data(), b, c, n);
      stream_synchronize();
    }
    ScopedPhase p(t, "h_poly");
    if (classic) compute_h_classic_ab_device<Fr>(*K.plan, a.data(), b, c, poly::multiplicative_generator<Fr>());
    else compute_h_snarkjs_device<Fr>(*K.plan, a.data(), b, c);
  } else {
    // Two arrays: the matrices stream through the chunk buffers, twice for the second half.
    DeviceBuffer<Fr> b(n, DeviceAlloc::kStreamOrdered);
    auto eval = [&](const HostCsr<Fr>& m, Fr* o, bool mul) {
      s->eval_rows<Fr>(*m.m, m.chunks, dw.data(), o, n, mul, m.table.data());
    };
    // C's values on the domain into o (the stored C, else a.b), timed as eval_abc, not h_poly.
    using Clock = std::chrono::steady_clock;
    auto ms_since = [](Clock::time_point t0) {
      return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };
    double c_ms = 0;
    auto c_into = [&](Fr* o) {
      stream_synchronize();  // the transforms queued before are h_poly's
      const auto t0 = Clock::now();
      if (K.c_resident) {
        eval(K.host_C, o, false);
      } else {
        eval(K.host_A, o, false);
        eval(K.host_B, o, true);
      }
      stream_synchronize();
      c_ms = ms_since(t0);
    };
    {
      ScopedPhase p(t, "eval_abc");
      eval(K.host_A, a.data(), false);
      eval(K.host_B, b.data(), false);
      stream_synchronize();
    }
    t.check_cancel();
    const auto t0 = Clock::now();
    if (classic)
      compute_h_classic_ab_lean_device<Fr>(*K.plan, a.data(), b.data(), c_into, poly::multiplicative_generator<Fr>());
    else
      compute_h_snarkjs_lean_device<Fr>(*K.plan, a.data(), b.data(), c_into);
    t.add("h_poly", ms_since(t0) - c_ms);
    t.add("eval_abc", c_ms);
  }
  if (side.empty()) {
    if (L.any_streamed()) release_cached_device_memory();  // H's freed arrays back to the driver
    msm_ws.reserve(msm_bytes);
  }
  {
    ScopedPhase p(t, "msm_h");
    const Scalars hs = scalars(L.resident(P::kH), a.data(), K.h_size);
    if (L.resident(P::kH)) a = DeviceBuffer<Fr>();  // classified: h itself is not read again
    out.h = key_msm<G1C>(K.h, K.host_h, hs.sc, hs.d, s, next(0), msm_opts(msm_ws));
  }
  a = DeviceBuffer<Fr>();
  if (!side.empty()) {
    for (auto& f : side) f.get();  // rethrows a side thread's error
    for (const std::string name : {"msm_a", "msm_b_g1", "msm_b_g2", "msm_l"})  // the sequential order
      for (const auto& pt : side_t)
        for (const auto& [pn, ms] : pt.phases)
          if (pn == name) t.add(pn, ms);
    return out;
  }
  {
    const Scalars ws = scalars(witness_classified, dw.data(), K.num_vars);  // after H's scalars
    run_a(t, msm_ws, ws);
    run_b1(t, msm_ws, ws);
    run_b2(t, msm_ws, ws);
  }
  run_l(t, msm_ws, scalars(L.resident(P::kL), dw.data() + K.num_public + 1, K.l_size));
  return out;
}
}  // namespace

template <class E>
StagedUploader& CudaBackend<E>::uploader() {
  if (!up_) up_.emplace();  // on the current device: compute() selected the key's
  return *up_;
}

template <class E>
const DeviceProvingKey<E>* CudaBackend<E>::key_for(const groth16::ProvingKey<E>& pk, groth16::PhaseTimings& t,
                                                   std::unique_ptr<DeviceProvingKey<E>>& own) const {
  if (key_ == nullptr) {
    groth16::ScopedPhase p(t, "upload_key");
    own = std::make_unique<DeviceProvingKey<E>>(pk, device_, KeyPlacement::kResident, 0, tuning_);
    return own.get();
  }
  if (!key_->matches(pk)) throw std::invalid_argument("gpu: CudaBackend: the proving key differs from the resident key");
  return key_;
}

template <class E>
void CudaBackend<E>::check_witness(const groth16::ProvingKey<E>& pk, std::span<const Fr> w) {
  if (w.size() != pk.num_vars)
    throw std::invalid_argument("gpu: witness has " + std::to_string(w.size()) + " values but the key expects " +
                                std::to_string(pk.num_vars));
}

template <class E>
groth16::ProofTerms<E> CudaBackend<E>::compute(const groth16::ProvingKey<E>& pk, std::span<const Fr> w,
                                               groth16::PhaseTimings& t) {
  std::unique_ptr<DeviceProvingKey<E>> own;
  const DeviceProvingKey<E>* key = key_for(pk, t, own);
  check_witness(pk, w);
  DeviceGuard guard(key->device());
  return prove_on_device<E>(key, w, t, uploader(), nullptr);
}

template <class E>
void CudaBackend<E>::compute_batch(const groth16::ProvingKey<E>& pk, std::span<const std::span<const Fr>> ws,
                                   std::span<groth16::PhaseTimings> ts, std::span<groth16::ProofTerms<E>> out) {
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  if (ws.size() != ts.size() || ws.size() != out.size())
    throw std::invalid_argument("gpu: compute_batch takes one timings and one result per witness");
  const std::size_t k = ws.size();
  if (k == 0) return;
  for (const auto& w : ws) check_witness(pk, w);
  std::unique_ptr<DeviceProvingKey<E>> own;
  const DeviceProvingKey<E>* key = key_for(pk, ts[0], own);
  DeviceGuard guard(key->device());
  const DeviceKeyParts<E>& K = key->parts();
  const KeyLayout& L = K.layout;
  if (k == 1 || L.all_resident(KeyLayout::kBatchMask)) {  // nothing to share: one proof after the other
    for (std::size_t i = 0; i < k; ++i) out[i] = prove_on_device<E>(key, ws[i], ts[i], uploader(), nullptr);
    return;
  }
  const StreamDrain drain;
  StagedUploader& up = uploader();
  PointStream ps(L.chunk, stream_buffer_bytes<E>(1), up, key->device());
  const BatchShared shared{&ps};
  for (std::size_t i = 0; i < k; ++i) out[i] = prove_on_device<E>(key, ws[i], ts[i], up, &shared);
  // Then the MSM scratch and the scalar chunk buffers, in blocks of their own (as
  // prove_on_device reserves its workspace): the proofs' arrays are gone, and with them the
  // witness on the device (estimate_batch_scratch_bytes).
  release_cached_device_memory();
  MsmWorkspace msm_ws;
  msm_ws.reserve(chunk_msm_scratch_bytes<E>(L.chunk));
  if (!scalar_up_) scalar_up_.emplace();
  ScalarChunks<Fr> sc(L.chunk, *scalar_up_);
  // The streamed witness MSMs, each point chunk uploaded once for the k proofs' scalars (read
  // from the witnesses in host memory); each proof's phase gets 1/k of the batch's time.
  std::vector<const Fr*> wit(k), lsc(k);
  for (std::size_t i = 0; i < k; ++i) wit[i] = ws[i].data(), lsc[i] = ws[i].data() + K.num_public + 1;
  const std::array<std::span<const std::byte>, 4> firsts{first_chunk(K.host_a, L.chunk), first_chunk(K.host_b1, L.chunk),
                                                         first_chunk(K.host_b2, L.chunk), first_chunk(K.host_l, L.chunk)};
  auto part = [&]<class C>(const char* phase, std::span<const ec::Affine<C>> host, const std::vector<const Fr*>& scal,
                           std::size_t i, auto field) {
    if (host.empty()) return;
    for (const auto& t : ts) t.check_cancel();
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<ec::Jacobian<C>> sums =
        ps.msm_batch<C>(host, scal, sc, first_after(firsts, i), MsmOptions{0, 0, &msm_ws, key->tuning()});
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t p = 0; p < k; ++p) {
      out[p].*field += sums[p];
      ts[p].add(phase, ms / static_cast<double>(k));
    }
  };
  using T = groth16::ProofTerms<E>;
  part.template operator()<G1C>("msm_a", K.host_a, wit, 0, &T::a);
  part.template operator()<G1C>("msm_b_g1", K.host_b1, wit, 1, &T::b1);
  part.template operator()<G2C>("msm_b_g2", K.host_b2, wit, 2, &T::b2);
  part.template operator()<G1C>("msm_l", K.host_l, lsc, 3, &T::l);
}

template class CudaBackend<groth16::Bls12_381>;
template class CudaBackend<groth16::Bn254>;

}  // namespace cuzk::gpu
