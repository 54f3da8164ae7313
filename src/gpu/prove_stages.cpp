// The stages of CudaBackend's proofs (proof_plan.hpp): one proof's device work over a
// DeviceProvingKey (device_key.cpp) whose parts are resident or streamed (KeyLayout), and a
// batch's shared streamed witness MSMs. Plain C++ over the device APIs (msm.hpp, abc.hpp,
// ntt.hpp, field_ops.hpp, point_stream.hpp).
#include <array>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gpu/field_ops.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/poly/generator.hpp"
#include "proof_plan.hpp"

namespace cuzk::gpu {

namespace {
using groth16::PhaseTimings;
using groth16::ScopedPhase;

// An MSM's scalars: for resident parts a range classified once (A, B1 and B2 share the
// witness's); streamed parts classify each chunk as its points arrive (one chunk's on the
// device at a time).
template <class Fr>
struct Scalars {
  DeviceScalars<Fr> sc;
  const Fr* d = nullptr;
};

template <class Fr>
Scalars<Fr> scalars(bool classify, const Fr* d, std::size_t len) {
  return classify ? Scalars<Fr>{DeviceScalars<Fr>::from_device(d, len), d} : Scalars<Fr>{{}, d};
}

// One MSM of a proof: a resident part (its host span empty) over its device points with the
// scalars sc; a streamed part from its host points through ps with the device scalars d (each
// chunk's classified as it comes). next_first: the first chunk of the next streamed MSM, uploaded
// during this one's last chunk. o: the scratch the proof's MSMs share (reserved at the largest
// one's need) and the key's tuning.
template <class C>
ec::Jacobian<C> key_msm(const DeviceBuffer<ec::Affine<C>>& resident, std::span<const ec::Affine<C>> host,
                        const DeviceScalars<typename C::Scalar>& sc, const typename C::Scalar* d, PointStream* ps,
                        std::span<const std::byte> next_first, const MsmOptions& o) {
  if (!host.empty()) {
    if (ps == nullptr) throw std::logic_error("gpu: a streamed MSM part without a point stream");
    return ps->msm<C>(host, d, next_first, o);
  }
  if (resident.size() != 0 && sc.size() == 0)
    throw std::logic_error("gpu: a resident MSM part without classified scalars");
  return sc.size() == 0 ? ec::Jacobian<C>::infinity() : msm<C>(resident, sc, o);
}

// The four witness MSMs of one proof, each written once, into its terms: A, B1, B2 over the
// witness's scalars, L over its private part's. Each is timed as its phase into pt, with
// workspace m; s: the proof's point stream (null in side tasks, where every part is
// resident). A part the batch defers is skipped.
template <class E>
struct WitnessMsms {
  using Fr = typename E::Fr;
  using G1C = typename E::G1Curve;
  const ProofPlan<E>& plan;
  groth16::ProofTerms<E>& out;

  void a(PhaseTimings& pt, MsmWorkspace& m, const Scalars<Fr>& ws, PointStream* s) const {
    run<G1C>(kMsmA, "msm_a", plan.K.a, plan.K.host_a, out.a, pt, m, ws, s);
  }
  void b1(PhaseTimings& pt, MsmWorkspace& m, const Scalars<Fr>& ws, PointStream* s) const {
    run<G1C>(kMsmB1, "msm_b_g1", plan.K.b1, plan.K.host_b1, out.b1, pt, m, ws, s);
  }
  void b2(PhaseTimings& pt, MsmWorkspace& m, const Scalars<Fr>& ws, PointStream* s) const {
    run<typename E::G2Curve>(kMsmB2, "msm_b_g2", plan.K.b2, plan.K.host_b2, out.b2, pt, m, ws, s);
  }
  void l(PhaseTimings& pt, MsmWorkspace& m, const Scalars<Fr>& ls, PointStream* s) const {
    run<G1C>(kMsmL, "msm_l", plan.K.l, plan.K.host_l, out.l, pt, m, ls, s);
  }

 private:
  template <class C>
  void run(std::size_t i, const char* phase, const DeviceBuffer<ec::Affine<C>>& resident,
           std::span<const ec::Affine<C>> host, ec::Jacobian<C>& term, PhaseTimings& pt, MsmWorkspace& m,
           const Scalars<Fr>& sc, PointStream* s) const {
    if (plan.deferred(i)) return;
    ScopedPhase p(pt, phase);
    term = key_msm<C>(resident, host, sc.sc, sc.d, s, plan.next(i), plan.msm_options(m));
  }
};

// The witness MSMs in side tasks (ProofPlan::side_msms): their phases, their scalars, and
// the tasks.
template <class Fr>
struct SideMsms {
  std::array<PhaseTimings, kSideMsmThreads> t;
  Scalars<Fr> ws, ls;
  std::vector<TaskFuture> tasks;  // after what its tasks use: waited for first on unwinding
};

// The witness on the device, in a stream-ordered buffer (as all the proof's temporaries,
// runtime.hpp: freeing them does not wait for other workers' kernels, nor for this proof's
// side tasks).
template <class Fr>
DeviceBuffer<Fr> upload_witness(std::span<const Fr> w, PhaseTimings& t, StagedUploader& up) {
  DeviceBuffer<Fr> dw(w.size(), DeviceAlloc::kStreamOrdered);
  stream_synchronize();  // the uploader's stream writes dw: its allocation comes first
  {
    ScopedPhase p(t, "transfer_witness");  // pinned: straight; pageable: through the staging
    up.upload(dw.data(), w.data(), w.size_bytes());
    up.synchronize();
  }
  return dw;
}

// Small resident proofs (concurrent_witness_msms): the witness MSMs start right after the
// witness upload, in three tasks on the device context's executor (each on its thread's own
// stream, with its own scratch from the proof's lane: B2; B1; A then L),
// beside a/b/c, H and MSM H on the proof's thread. The proof's temporaries are stream-ordered,
// so neither side waits for the other's frees (with cudaFree they did: h_poly 3.4 ms instead
// of 0.3 at 2^12, bench/RESULTS.md). Their phases are timed in their tasks (wall times that
// overlap the proof thread's) and listed after msm_h (join_side_msms).
template <class E>
void start_side_msms(const ProofPlan<E>& plan, const typename E::Fr* dw, const PhaseTimings& t, const ProofRun& run,
                     const WitnessMsms<E>& msms, SideMsms<typename E::Fr>& side) {
  using Fr = typename E::Fr;
  const DeviceKeyParts<E>& K = plan.K;
  side.ws = scalars<Fr>(true, dw, K.num_vars);  // synchronised: the side streams may read them
  side.ls = scalars<Fr>(true, dw + K.num_public + 1, K.l_size);
  auto launch = [&](std::size_t i, auto body) {
    side.t[i].cancel = t.cancel;
    side.tasks.push_back(run.ctx.tasks().submit([&pt = side.t[i], memory = &run.memory, body] {
      const PoolScope scope(memory);
      const StreamDrain drain;  // the scratch's free lands before the task ends
      MsmWorkspace m;
      body(pt, m);
    }));
  };
  launch(0, [&](PhaseTimings& pt, MsmWorkspace& m) { msms.b2(pt, m, side.ws, nullptr); });
  launch(1, [&](PhaseTimings& pt, MsmWorkspace& m) { msms.b1(pt, m, side.ws, nullptr); });
  launch(2, [&](PhaseTimings& pt, MsmWorkspace& m) {
    msms.a(pt, m, side.ws, nullptr);
    msms.l(pt, m, side.ls, nullptr);
  });
}

// Waits for the side tasks and lists their phases in t in the sequential order.
template <class Fr>
void join_side_msms(SideMsms<Fr>& side, PhaseTimings& t) {
  for (auto& f : side.tasks) f.get();  // rethrows a side task's error
  for (const std::string name : {"msm_a", "msm_b_g1", "msm_b_g2", "msm_l"})
    for (const auto& pt : side.t)
      for (const auto& [pn, ms] : pt.phases)
        if (pn == name) t.add(pn, ms);
}

// a/b/c from the device CSR matrices in three arrays (a, then bc's two), then H's
// coefficients into a.
template <class E>
void eval_abc_and_h_resident(const ProofPlan<E>& plan, const typename E::Fr* dw, DeviceBuffer<typename E::Fr>& a,
                             PhaseTimings& t) {
  using Fr = typename E::Fr;
  const DeviceKeyParts<E>& K = plan.K;
  const std::size_t n = K.domain;
  DeviceBuffer<Fr> bc(2 * n, DeviceAlloc::kStreamOrdered);
  Fr* b = bc.data();
  Fr* c = b + n;
  {
    ScopedPhase p(t, "eval_abc");  // classic: no c (its H takes c = a.b itself)
    eval_rows_device<Fr>(K.A, dw, a.data(), n);
    eval_rows_device<Fr>(K.B, dw, b, n);
    if (K.c_resident) eval_rows_device<Fr>(K.C, dw, c, n);
    else if (!plan.classic) field_op_device<Fr>(FieldOp::kMul, a.data(), b, c, n);
    stream_synchronize();
  }
  ScopedPhase p(t, "h_poly");
  if (plan.classic) compute_h_classic_ab_device<Fr>(*K.plan, a.data(), b, c, poly::multiplicative_generator<Fr>());
  else compute_h_snarkjs_device<Fr>(*K.plan, a.data(), b, c);
}

// The same in two arrays (a and b): the matrices stream through s's chunk buffers, twice for
// H's second half, which needs c again.
template <class E>
void eval_abc_and_h_streamed(const ProofPlan<E>& plan, const typename E::Fr* dw, DeviceBuffer<typename E::Fr>& a,
                             PointStream& s, PhaseTimings& t) {
  using Fr = typename E::Fr;
  using Clock = std::chrono::steady_clock;
  const DeviceKeyParts<E>& K = plan.K;
  const std::size_t n = K.domain;
  DeviceBuffer<Fr> b(n, DeviceAlloc::kStreamOrdered);
  auto eval = [&](const HostCsr<Fr>& m, Fr* o, bool mul) {
    s.eval_rows<Fr>(*m.m, m.chunks, dw, o, n, mul, m.table.data());
  };
  auto ms_since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  // C's values on the domain into o (the stored C, else a.b), timed as eval_abc, not h_poly.
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
  if (plan.classic)
    compute_h_classic_ab_lean_device<Fr>(*K.plan, a.data(), b.data(), c_into, poly::multiplicative_generator<Fr>());
  else
    compute_h_snarkjs_lean_device<Fr>(*K.plan, a.data(), b.data(), c_into);
  t.add("h_poly", ms_since(t0) - c_ms);
  t.add("eval_abc", c_ms);
}

// MSM H over h's coefficients in a.
template <class E>
void msm_h(const ProofPlan<E>& plan, DeviceBuffer<typename E::Fr>& a, PointStream* s, MsmWorkspace& msm_ws,
           PhaseTimings& t, groth16::ProofTerms<E>& out) {
  const DeviceKeyParts<E>& K = plan.K;
  ScopedPhase p(t, "msm_h");
  const Scalars<typename E::Fr> hs = scalars(plan.h_resident, a.data(), K.h_size);
  if (plan.h_resident) a = DeviceBuffer<typename E::Fr>();  // classified: h itself is not read again
  out.h = key_msm<typename E::G1Curve>(K.h, K.host_h, hs.sc, hs.d, s, plan.next(kMsmH), plan.msm_options(msm_ws));
}

// The witness MSMs on the proof's own thread, after MSM H (whose scalars come first).
template <class E>
void witness_msms(const ProofPlan<E>& plan, const typename E::Fr* dw, const WitnessMsms<E>& msms, PointStream* s,
                  MsmWorkspace& msm_ws, PhaseTimings& t) {
  const DeviceKeyParts<E>& K = plan.K;
  {
    const auto ws = scalars(plan.witness_classified, dw, K.num_vars);  // after H's scalars
    msms.a(t, msm_ws, ws, s);
    msms.b1(t, msm_ws, ws, s);
    msms.b2(t, msm_ws, ws, s);
  }
  msms.l(t, msm_ws, scalars(plan.l_resident, dw + K.num_public + 1, K.l_size), s);
}
}  // namespace

template <class E>
groth16::ProofTerms<E> prove_on_device(const ProofPlan<E>& plan, std::span<const typename E::Fr> w,
                                       groth16::PhaseTimings& t, const ProofRun& run, PointStream* batch_stream) {
  using Fr = typename E::Fr;
  const StreamDrain drain;  // after the proof's stream-ordered frees: nothing of it stays queued
  groth16::ProofTerms<E> out;
  // A streamed proof starts from an empty pool cache (see the MSM scratch's reservation below;
  // the pool is the proof's lane's: this waits for this thread's stream only).
  if (plan.streamed) run.memory.trim();
  const DeviceBuffer<Fr> dw = upload_witness<Fr>(w, t, run.up);
  std::optional<PointStream> own_stream;
  const WitnessMsms<E> msms{plan, out};
  SideMsms<Fr> side;
  if (plan.side_msms) start_side_msms<E>(plan, dw.data(), t, run, msms, side);
  // The point stream of the streamed parts: the batch's, else the proof's own (none when all
  // are resident, as with side tasks).
  PointStream* s = batch_stream;
  if (!plan.batched && plan.streamed)
    s = &own_stream.emplace(plan.K.layout.chunk, stream_buffer_bytes<E>(1), run.up, plan.key.device(), run.ctx.tasks());
  // The MSMs' scratch, reserved at the largest need once H's arrays but its first are freed
  // (proof_msm_scratch_bytes, as the estimate counts it, in the MSM phases and not in H's); with
  // side tasks this thread runs only MSM H. When a part streams it must not come from a freed
  // array's cached pool block: it would keep that block mapped, and a later allocation larger
  // than the block's rest would need memory a budget at the estimate does not have
  // (gpu_layout_budget_test, H streamed). So a streamed proof starts from an empty pool cache
  // (each of its arrays then maps a block of its own) and returns the freed arrays' blocks to
  // the driver before the reservation, which then maps a block of its own too. (Reserving it
  // before H's arrays also avoids this, but holds it through H: at 2^27 on a 16 GiB card that
  // cut the streamed chunk from 2^22 to 2^20 points.)
  MsmWorkspace msm_ws;
  DeviceBuffer<Fr> a(plan.K.domain, DeviceAlloc::kStreamOrdered);  // a, then h's coefficients
  if (plan.matrices_resident) eval_abc_and_h_resident<E>(plan, dw.data(), a, t);
  else eval_abc_and_h_streamed<E>(plan, dw.data(), a, *s, t);
  if (!plan.side_msms) {
    if (plan.streamed) run.memory.trim();  // H's freed arrays back to the driver
    msm_ws.reserve(plan.msm_bytes);
  }
  msm_h<E>(plan, a, s, msm_ws, t, out);
  a = DeviceBuffer<Fr>();
  if (plan.side_msms) join_side_msms(side, t);
  else witness_msms<E>(plan, dw.data(), msms, s, msm_ws, t);
  return out;
}

template <class E>
void batch_witness_msms(const ProofPlan<E>& plan, std::span<const std::span<const typename E::Fr>> ws,
                        std::span<groth16::PhaseTimings> ts, std::span<groth16::ProofTerms<E>> out, PointStream& ps,
                        const ProofRun& run, std::optional<StagedUploader>& scalar_up) {
  using Fr = typename E::Fr;
  const DeviceKeyParts<E>& K = plan.K;
  const std::size_t k = ws.size(), chunk = K.layout.chunk;
  // The MSM scratch and the scalar chunk buffers, in blocks of their own (as prove_on_device
  // reserves its workspace): the proofs' arrays are gone, and with them the witness on the
  // device (estimate_batch_scratch_bytes).
  run.memory.trim();
  MsmWorkspace msm_ws;
  msm_ws.reserve(chunk_msm_scratch_bytes<E>(chunk));
  if (!scalar_up) scalar_up.emplace(StagedUploader::kChunkBytes, &run.ctx.copies());
  ScalarChunks<Fr> sc(chunk, *scalar_up, run.ctx.tasks());
  // The streamed witness MSMs, each point chunk uploaded once for the k proofs' scalars (read
  // from the witnesses in host memory); each proof's phase gets 1/k of the batch's time.
  std::vector<const Fr*> wit(k), lsc(k);
  for (std::size_t i = 0; i < k; ++i) wit[i] = ws[i].data(), lsc[i] = ws[i].data() + K.num_public + 1;
  auto part = [&]<class C>(const char* phase, std::span<const ec::Affine<C>> host, const std::vector<const Fr*>& scal,
                           std::size_t i, auto field) {
    if (host.empty()) return;
    for (const auto& t : ts) t.check_cancel();
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<ec::Jacobian<C>> sums =
        ps.msm_batch<C>(host, scal, sc, plan.first_after(i), plan.msm_options(msm_ws));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t p = 0; p < k; ++p) {
      out[p].*field += sums[p];
      ts[p].add(phase, ms / static_cast<double>(k));
    }
  };
  using G1C = typename E::G1Curve;
  using T = groth16::ProofTerms<E>;
  part.template operator()<G1C>("msm_a", K.host_a, wit, kMsmA, &T::a);
  part.template operator()<G1C>("msm_b_g1", K.host_b1, wit, kMsmB1, &T::b1);
  part.template operator()<typename E::G2Curve>("msm_b_g2", K.host_b2, wit, kMsmB2, &T::b2);
  part.template operator()<G1C>("msm_l", K.host_l, lsc, kMsmL, &T::l);
}

#define CUZK_PROVE_STAGES(E)                                                                                 \
  template groth16::ProofTerms<E> prove_on_device<E>(const ProofPlan<E>&, std::span<const E::Fr>,            \
                                                     groth16::PhaseTimings&, const ProofRun&, PointStream*); \
  template void batch_witness_msms<E>(const ProofPlan<E>&, std::span<const std::span<const E::Fr>>,          \
                                      std::span<groth16::PhaseTimings>, std::span<groth16::ProofTerms<E>>,   \
                                      PointStream&, const ProofRun&, std::optional<StagedUploader>&);
CUZK_PROVE_STAGES(groth16::Bls12_381)
CUZK_PROVE_STAGES(groth16::Bn254)
#undef CUZK_PROVE_STAGES

}  // namespace cuzk::gpu
