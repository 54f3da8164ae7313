// GPU NTT host side (cuzk/gpu/ntt.hpp): pass planning, twiddles, coset tables, H.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.cuh"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/field_ops.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "dev_cast.cuh"
#include "kernels.cuh"
#include "ntt_pass.cuh"
#include "ntt_passes.hpp"
#include "pow_tab.cuh"

namespace cuzk::gpu {

namespace {
constexpr unsigned kThreads = 256;
unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// The pass kernel for a direction, a radix, a tile of 2^log_tile elements and a twiddle table
// (split: NttPlan's compact one): compiled for tiles of 2^10 and 2^11 (the default shapes'
// tiles from 2^14 points on), generic otherwise. With the size a constant the radix-2 kernel
// needs 56 registers instead of 80 (ptxas, BLS12-381 Fr); the radix-4 one is bounded to 80 (3
// blocks of 256 per SM).
template <class F, bool kSplit>
using PassKernel = void (*)(D<F>*, int, int, int, int, kern::Twiddles<D<F>, kSplit>, int, kern::PowTab<D<F>>, bool);
template <class F, bool kGs, bool kR4, bool kSplit>
PassKernel<F, kSplit> pass_kernel_of(int log_tile) {
  switch (log_tile) {
    case 10: return kern::ntt_pass_kernel<D<F>, kGs, 10, kR4, kSplit>;
    case 11: return kern::ntt_pass_kernel<D<F>, kGs, 11, kR4, kSplit>;
    default: return kern::ntt_pass_kernel<D<F>, kGs, 0, kR4, kSplit>;
  }
}
template <class F, bool kSplit>
PassKernel<F, kSplit> pass_kernel(bool gs, bool r4, int log_tile) {
  if (r4)
    return gs ? pass_kernel_of<F, true, true, kSplit>(log_tile) : pass_kernel_of<F, false, true, kSplit>(log_tile);
  return gs ? pass_kernel_of<F, true, false, kSplit>(log_tile) : pass_kernel_of<F, false, false, kSplit>(log_tile);
}
}  // namespace

template <class F>
PowerTable<F>::PowerTable(const F& w, const F& c, std::uint64_t count) {
  int L = 0;
  while ((std::uint64_t{1} << L) < count) ++L;
  bits_ = (L + 1) / 2;
  std::vector<F> lo(std::size_t{1} << bits_), hi(std::max<std::uint64_t>(1, (count + lo.size() - 1) >> bits_));
  lo[0] = F::one();
  for (std::size_t j = 1; j < lo.size(); ++j) lo[j] = lo[j - 1] * w;
  const F step = lo.back() * w;  // w^(2^bits)
  hi[0] = c;
  for (std::size_t j = 1; j < hi.size(); ++j) hi[j] = hi[j - 1] * step;
  lo_ = DeviceBuffer<F>(std::span<const F>(lo), DeviceAlloc::kStreamOrdered);
  hi_ = DeviceBuffer<F>(std::span<const F>(hi), DeviceAlloc::kStreamOrdered);
}

// Measured on the H200 (bench/RESULTS.md: `gpu_bench 25 10 sizes` under
// 13 shapes, forward, medians of 10): small sizes want smaller final tiles (more blocks: at
// 2^14 a 2^11 tile leaves 8 blocks for 132 SMs; 9,8,3 took 0.031 ms against 0.060), 2^19-2^21
// two passes (2^20: 0.283 against 0.339 ms), 2^23-2^24 three passes of 10, 7, 7 levels (2^24:
// 5.01 against 5.18 ms); 2^22 and from 2^25 on the fields' defaults were fastest.
NttPassShape NttPassShape::for_size(std::size_t log_n) {
  if (log_n <= 16) return {9, 8, 3};
  if (log_n == 17) return {10, 7, 3};
  if (log_n == 18) return {10, 8, 2};
  if (log_n <= 20) return {10, 10, 1};
  if (log_n == 21) return {11, 10, 1};
  if (log_n == 23 || log_n == 24) return {10, 7, 3};
  return NttPassShape{};
}

// SMs that hold 3 tiles of 2^10 elements but not of 2^11 (sm_80 and the consumer cards):
// measured on an H100 with a consumer card's 100 KiB SM emulated (bench/RESULTS.md:
// `gpu_bench 27 5 sizes` under CUZK_EMULATE_SMEM_PER_SM_KIB=100 (Tuning) and each of 10,7,3,
// 10,8,2, 10,9,1, 10,10,0 and 10,6,4): 2^20 0.378 -> 0.299 ms with one inner pass of 10 levels
// (single columns), 2^21 0.807 -> 0.723, 2^26 24.3 -> 22.1, 2^27 50.6 -> 47.7 ms against the
// H200's table with its tiles cut to 2^10.
namespace {
NttPassShape small_sm_shape(std::size_t log_n) {
  if (log_n <= 16) return {9, 7, 3};
  if (log_n == 17 || log_n == 23 || log_n == 24) return {10, 7, 3};
  if (log_n == 19) return {10, 9, 1};
  if (log_n == 20) return {10, 10, 0};
  if (log_n <= 26) return {10, 8, 2};  // 18, 21, 22, 25, 26
  return {10, 6, 4};
}
}  // namespace

NttPassShape NttPassShape::for_device(std::size_t log_n, const SmemLimits& smem) {
  auto blocks = [&](int log_tile) { return blocks_per_sm((std::size_t{1} << log_tile) * 32, smem); };
  int cap = kMaxTileLog;
  while (cap > 1 && blocks(cap) < 3) --cap;
  if (cap == 10) return small_sm_shape(log_n);
  NttPassShape sh = for_size(log_n);
  sh.last = std::min(sh.last, cap);
  sh.log_cols = std::min(sh.log_cols, cap - 1);
  sh.inner = std::min(sh.inner, cap - sh.log_cols);
  return sh;
}

NttPassShape NttPassShape::for_tuning(std::size_t log_n, const Tuning& tuning) {
  if (tuning.ntt_passes) return *tuning.ntt_passes;
  return for_device(log_n, device_smem_limits(tuning.emulate_smem_per_sm_kib));
}

template <class F>
NttPlan<F>::NttPlan(std::size_t log_n, NttPassShape shape, TwiddleTable twiddles, const Tuning& tuning)
    : log_n_(log_n), shape_(shape), twiddle_table_(twiddles), emulate_smem_kib_(tuning.emulate_smem_per_sm_kib) {
  if (log_n > F::kTwoAdicity || log_n > 31)
    throw std::invalid_argument("gpu::NttPlan: 2^" + std::to_string(log_n) + " points exceed the field's 2-adicity (2^" +
                                std::to_string(F::kTwoAdicity) + ") or 2^31");
  static_assert(sizeof(F) == 32, "NttPassShape::kMaxTileLog assumes 32-byte elements");
  if (!shape.valid()) throw std::invalid_argument("gpu::NttPlan: pass shape out of range");
  const int tile_log = std::max(shape.last, shape.inner + shape.log_cols);
  // The largest tile's launch size (padded while emulating another card's SM); the kernels
  // allow the device's maximum, so that plans of other shapes never lower each other's limit.
  const std::size_t shmem = launch_smem_bytes((std::size_t{1} << tile_log) * sizeof(F), emulate_smem_kib_);
  if (shmem > (std::size_t{48} << 10)) {
    int dev = 0, most = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&dev));
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    auto allow = [&](auto kernel) {
      CUZK_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, most));
    };
    for (const bool gs : {false, true})
      for (const int lt : {0, 10, 11}) {
        allow(pass_kernel<F, false>(gs, shape.radix == 4, lt));
        allow(pass_kernel<F, true>(gs, shape.radix == 4, lt));
      }
  }
  const std::uint64_t n = std::uint64_t{1} << log_n;
  n_inv_ = F::from_u64(n).inverse();
  const int top = twiddle_index_bits(log_n);  // k < 2^top
  const int lo = twiddle_lo_bits(log_n, twiddles), hi = top - lo;
  const PowerTable<F> w(F::root_of_unity(log_n), F::one(), std::uint64_t{1} << top);
  // twiddles_[k] = w^bitrev(k) over top bits (k < 2^lo); hi_[j] = w^bitrev(j) over hi bits.
  auto fill = [&](DeviceBuffer<F>& table, int log_len, int bits) {
    const std::uint64_t len = std::uint64_t{1} << log_len;
    table = DeviceBuffer<F>(len);
    kern::twiddle_kernel<D<F>><<<blocks_for(len), kThreads>>>(dev(table.data()), len, bits, tab_of(w));
    CUZK_CUDA_LAUNCH_CHECK("twiddle_kernel");
  };
  fill(twiddles_, lo, top);
  if (hi > 0) fill(hi_, hi, hi);
  stream_synchronize();  // the table w goes out of scope
}

template <class F>
void NttPlan<F>::core(F* x, const PowerTable<F>* coset) const {
  passes(x, false, coset ? kern::kScaleIndex : kern::kScaleNone, coset);
}

template <class F>
void NttPlan<F>::passes(F* x, bool gs, int scale_map, const PowerTable<F>* scale) const {
  const int L = static_cast<int>(log_n_);
  auto plan = plan_ntt_passes(L, shape_);
  if (gs) std::reverse(plan.begin(), plan.end());
  kern::PowTab<D<F>> tab{};
  if (scale) tab = tab_of(*scale);
  const int lo = twiddle_lo_bits(log_n_, twiddle_table_);
  const bool split = hi_.size() > 0;  // a compact table with a second part
  const D<F>* tw = dev(twiddles_.data());
  bool first = true;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const NttPass& p = plan[i];
    const std::uint32_t tile = 1u << (p.t + p.log_c);
    const unsigned threads = std::min<unsigned>(256, std::max<unsigned>(1, tile / 2));
    const unsigned blocks = static_cast<unsigned>((std::uint64_t{1} << L) / tile);
    const std::size_t shmem = launch_smem_bytes(std::size_t{tile} * sizeof(F), emulate_smem_kib_);
    const int map = first ? scale_map : kern::kScaleNone;
    const bool last = i + 1 == plan.size();
    const int lt = p.t + p.log_c;
    if (split && pass_composes_twiddles(p, lo))
      pass_kernel<F, true>(gs, shape_.radix == 4, lt)<<<blocks, threads, shmem>>>(dev(x), L, p.s, p.t, p.log_c,
                                                                                  {tw, dev(hi_.data()), lo}, map, tab, last);
    else
      pass_kernel<F, false>(gs, shape_.radix == 4, lt)<<<blocks, threads, shmem>>>(dev(x), L, p.s, p.t, p.log_c,
                                                                                   {tw, nullptr, lo}, map, tab, last);
    CUZK_CUDA_LAUNCH_CHECK("ntt_pass_kernel");
    first = false;
  }
}

template <class F>
void NttPlan<F>::evals_to_coset_evals_negated(F* x, const PowerTable<F>& scaled) const {
  passes(x, false, kern::kScaleNone, nullptr);  // n = 1: no passes, and the scale is g^0 / 1
  passes(x, true, kern::kScaleNegRev, &scaled);
}

template <class F>
void NttPlan<F>::coset_evals_negated_to_coeffs(F* x, const PowerTable<F>& unscaled) const {
  passes(x, false, kern::kScaleNone, nullptr);
  kern::bitrev_scale_kernel<D<F>><<<blocks_for(size()), kThreads>>>(dev(x), static_cast<int>(log_n_), tab_of(unscaled));
  CUZK_CUDA_LAUNCH_CHECK("bitrev_scale_kernel");
}

template <class F>
void NttPlan<F>::forward_bitrev(F* x) const {
  passes(x, false, kern::kScaleNone, nullptr);
}

template <class F>
void NttPlan<F>::reverse_order(F* x) const {
  const std::uint64_t n = size();
  kern::reverse_scale_kernel<D<F>><<<blocks_for(n / 2 + 1), kThreads>>>(dev(x), n, true, D<F>::one(),
                                                                           kern::PowTab<D<F>>{});
  CUZK_CUDA_LAUNCH_CHECK("reverse_scale_kernel");
}

template <class F>
void NttPlan<F>::bit_reverse(F* x) const {
  if (log_n_ < 2) return;
  kern::bitrev_kernel<D<F>><<<blocks_for(size()), kThreads>>>(dev(x), static_cast<int>(log_n_));
  CUZK_CUDA_LAUNCH_CHECK("bitrev_kernel");
}

template <class F>
void NttPlan<F>::forward(F* x) const {
  core(x, nullptr);
  bit_reverse(x);
}

template <class F>
void NttPlan<F>::coset_forward(F* x, const PowerTable<F>& g_pows) const {
  if (log_n_ == 0) {  // x[0] * g^0
    return;
  }
  core(x, &g_pows);
  bit_reverse(x);
}

template <class F>
void NttPlan<F>::coset_forward(F* x, const F& g) const {
  if (g.is_zero()) throw std::invalid_argument("gpu::NttPlan::coset_forward: shift is zero");
  const PowerTable<F> t(g, F::one(), size());
  coset_forward(x, t);
  stream_synchronize();  // t goes out of scope
}

template <class F>
void NttPlan<F>::inverse(F* x) const {
  core(x, nullptr);
  bit_reverse(x);
  const std::uint64_t n = size();
  kern::reverse_scale_kernel<D<F>><<<blocks_for(n / 2 + 1), kThreads>>>(dev(x), n, true, to_dev(n_inv_),
                                                                           kern::PowTab<D<F>>{});
  CUZK_CUDA_LAUNCH_CHECK("reverse_scale_kernel");
}

template <class F>
void NttPlan<F>::inverse_distribute(F* x, const PowerTable<F>& scaled) const {
  core(x, nullptr);
  bit_reverse(x);
  const std::uint64_t n = size();
  kern::reverse_scale_kernel<D<F>><<<blocks_for(n / 2 + 1), kThreads>>>(dev(x), n, false, D<F>::zero(),
                                                                           tab_of(scaled));
  CUZK_CUDA_LAUNCH_CHECK("reverse_scale_kernel");
}

template <class F>
void NttPlan<F>::inverse_distribute(F* x, const F& g) const {
  if (g.is_zero()) throw std::invalid_argument("gpu::NttPlan::inverse_distribute: shift is zero");
  const PowerTable<F> t(g, n_inv_, size());
  inverse_distribute(x, t);
  stream_synchronize();
}

template <class F>
void NttPlan<F>::coset_inverse(F* x, const F& g) const {
  if (g.is_zero()) throw std::invalid_argument("gpu::NttPlan::coset_inverse: shift is zero");
  inverse_distribute(x, g.inverse());
}

namespace {
// PowerTable(shift, 1/n, n) for the odd coset's shift = omega_{2n}.
template <class F>
PowerTable<F> odd_coset_table(const NttPlan<F>& plan) {
  const std::size_t L = plan.log_size();
  if (L + 1 > F::kTwoAdicity)
    throw std::invalid_argument("gpu::compute_h_snarkjs: a domain of 2^" + std::to_string(L) +
                                " equals the field's 2-adicity; the odd coset does not exist");
  return PowerTable<F>(F::root_of_unity(L + 1), F::from_u64(plan.size()).inverse(), plan.size());
}
}  // namespace

template <class F>
void compute_h_snarkjs_device(const NttPlan<F>& plan, F* a, F* b, F* c) {
  const PowerTable<F> scaled = odd_coset_table(plan);
  // Evaluations on the odd coset, position i holding the one at shift w^-i (no
  // permutation passes), then a*b-c, then natural order.
  for (F* v : {a, b, c}) plan.evals_to_coset_evals_negated(v, scaled);
  mul_sub_device<F>(a, b, c, plan.size());
  plan.reverse_order(a);
  stream_synchronize();  // scaled goes out of scope
}

template <class F>
void compute_h_snarkjs_lean_device(const NttPlan<F>& plan, F* a, F* b, const std::function<void(F*)>& c_into) {
  const PowerTable<F> scaled = odd_coset_table(plan);
  for (F* v : {a, b}) plan.evals_to_coset_evals_negated(v, scaled);
  field_op_device<F>(FieldOp::kMul, a, b, a, plan.size());
  c_into(b);
  plan.evals_to_coset_evals_negated(b, scaled);
  field_op_device<F>(FieldOp::kSub, a, b, a, plan.size());
  plan.reverse_order(a);
  stream_synchronize();  // scaled goes out of scope
}

template <class F>
std::vector<F> compute_h_snarkjs(std::size_t domain_log, std::span<const F> a, std::span<const F> b,
                                 std::span<const F> c) {
  if (domain_log + 1 > F::kTwoAdicity)
    throw std::invalid_argument("gpu::compute_h_snarkjs: a domain of 2^" + std::to_string(domain_log) +
                                " equals or exceeds the field's 2-adicity; the odd coset does not exist");
  const std::size_t n = std::size_t{1} << domain_log;
  for (auto s : {a.size(), b.size(), c.size()})
    if (s > n)
      throw std::invalid_argument("gpu::compute_h_snarkjs: " + std::to_string(s) +
                                  " evaluations do not fit a domain of " + std::to_string(n));
  const NttPlan<F> plan(domain_log);
  DeviceBuffer<F> buf(3 * n, DeviceAlloc::kStreamOrdered);
  F* d[3] = {buf.data(), buf.data() + n, buf.data() + 2 * n};
  const std::span<const F> in[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) {
    copy_to_device(d[k], in[k].data(), in[k].size() * sizeof(F));
    device_memset_zero(d[k] + in[k].size(), (n - in[k].size()) * sizeof(F));
  }
  compute_h_snarkjs_device<F>(plan, d[0], d[1], d[2]);
  std::vector<F> q(n);
  copy_to_host(q.data(), d[0], n * sizeof(F));
  return q;
}

#define CUZK_GPU_INSTANTIATE(F)                                   \
  template class PowerTable<F>;                                   \
  template class NttPlan<F>;                                      \
  template void compute_h_snarkjs_device<F>(const NttPlan<F>&, F*, F*, F*); \
  template void compute_h_snarkjs_lean_device<F>(const NttPlan<F>&, F*, F*, const std::function<void(F*)>&); \
  template std::vector<F> compute_h_snarkjs<F>(std::size_t, std::span<const F>, std::span<const F>, std::span<const F>);
CUZK_GPU_INSTANTIATE(ff::bls12_381::Fr)
CUZK_GPU_INSTANTIATE(ff::bn254::Fr)
#undef CUZK_GPU_INSTANTIATE

}  // namespace cuzk::gpu
