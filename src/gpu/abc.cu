// a/b/c evaluation from device CSR matrices and the bellperson H (cuzk/gpu/abc.hpp).
#include <stdexcept>
#include <string>

#include "check.cuh"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/field_ops.hpp"
#include "dev_cast.cuh"
#include "kernels.cuh"
#include "pow_tab.cuh"

namespace cuzk::gpu {

namespace {
constexpr unsigned kThreads = 256;
unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

template <class Dv>
__global__ void eval_rows_kernel(const std::uint64_t* row_ptr, const std::uint32_t* cols, const Dv* vals,
                                 const Dv* w, Dv* out, std::uint64_t rows, std::uint64_t n) {
  const std::uint64_t i = kern::global_id();
  if (i >= n) return;
  Dv acc = Dv::zero();
  if (i < rows) {
    const std::uint64_t e = row_ptr[i + 1];
    for (std::uint64_t k = row_ptr[i]; k < e; ++k) acc += kern::ld(vals + k) * kern::ld(w + cols[k]);
  }
  kern::st(out + i, acc);
}

// a <- (a b - c) z
template <class Dv>
__global__ void mul_sub_scale_kernel(Dv* a, const Dv* b, const Dv* c, Dv z, std::uint64_t n) {
  const std::uint64_t i = kern::global_id();
  if (i < n) kern::st(a + i, (kern::ld(a + i) * kern::ld(b + i) - kern::ld(c + i)) * z);
}
// h[k] <- tab(k) y[bitrev(k)] - s t[bitrev((n - k) mod n)], in place over y (t read only):
// y and t hold forward transforms in bit-reversed order, of A B on the coset (negated order)
// and of a.b on the domain; tab(k) = g^-k z / n and s = z / n give
// h = (coset_intt(A B) - intt(a.b)) z with z = 1 / (g^n - 1).
template <class Dv>
__global__ void h_from_transforms_kernel(Dv* y, const Dv* t, int log_n, Dv s, kern::PowTab<Dv> tab) {
  const std::uint64_t i = kern::global_id();
  if (i >> log_n) return;
  const std::uint64_t j = kern::bitrev(i, log_n);
  if (i > j) return;
  const std::uint64_t mask = (std::uint64_t{1} << log_n) - 1;
  auto q1 = [&](std::uint64_t k) { return kern::ld(t + kern::bitrev((mask + 1 - k) & mask, log_n)) * s; };
  const Dv yi = kern::ld(y + i), yj = kern::ld(y + j);
  kern::st(y + i, yj * tab.at(i) - q1(i));
  if (i != j) kern::st(y + j, yi * tab.at(j) - q1(j));
}

template <class F>
F vanishing_at(const NttPlan<F>& plan, const F& g) {  // Z(g) = g^n - 1
  F p = g;
  for (std::size_t i = 0; i < plan.log_size(); ++i) p = p.square();
  return p - F::one();
}
}  // namespace

template <class Fr>
void eval_rows_device(const DeviceCsr<Fr>& m, const Fr* w, Fr* out, std::size_t n) {
  if (n < m.num_rows())
    throw std::invalid_argument("eval_rows_device: " + std::to_string(m.num_rows()) + " rows do not fit " +
                                std::to_string(n) + " outputs");
  if (n == 0) return;
  eval_rows_kernel<<<blocks_for(n), kThreads>>>(m.row_ptr(), m.cols(), dev(m.vals()), dev(w), dev(out), m.num_rows(), n);
  CUZK_CUDA_LAUNCH_CHECK("eval_rows_kernel");
}

template <class F>
void compute_h_classic_device(const NttPlan<F>& plan, F* a, F* b, F* c, const F& g) {
  const F zg = vanishing_at(plan, g);
  if (zg.is_zero()) throw std::invalid_argument("compute_h_classic_device: g^n == 1, the coset meets the domain");
  const F n_inv = F::from_u64(plan.size()).inverse();
  const PowerTable<F> to_coset(g, n_inv, plan.size());
  // Coset evaluations with position i holding the one at g w^-i: no permutation passes;
  // a*b-c and the division by Z(g) do not care about the order.
  for (F* v : {a, b, c}) plan.evals_to_coset_evals_negated(v, to_coset);
  mul_sub_scale_kernel<<<blocks_for(plan.size()), kThreads>>>(dev(a), dev(b), dev(c), to_dev(zg.inverse()),
                                                              plan.size());
  CUZK_CUDA_LAUNCH_CHECK("mul_sub_scale_kernel");
  const PowerTable<F> from_coset(g.inverse(), n_inv, plan.size());
  plan.coset_evals_negated_to_coeffs(a, from_coset);
  stream_synchronize();  // the power tables go out of scope
}

template <class F>
void compute_h_classic_ab_device(const NttPlan<F>& plan, F* a, F* b, F* t, const F& g) {
  const std::size_t n = plan.size();
  const F zg = vanishing_at(plan, g);
  if (zg.is_zero()) throw std::invalid_argument("compute_h_classic_ab_device: g^n == 1, the coset meets the domain");
  const F n_inv = F::from_u64(n).inverse();
  const F scale = zg.inverse() * n_inv;
  field_op_device<F>(FieldOp::kMul, a, b, t, n);  // C's values on the domain
  const PowerTable<F> to_coset(g, n_inv, n);
  for (F* v : {a, b}) plan.evals_to_coset_evals_negated(v, to_coset);
  field_op_device<F>(FieldOp::kMul, a, b, a, n);  // A B on the coset, position i at g w^-i
  plan.forward_bitrev(a);
  plan.forward_bitrev(t);
  const PowerTable<F> from_coset(g.inverse(), scale, n);
  h_from_transforms_kernel<<<blocks_for(n), kThreads>>>(dev(a), dev(t), static_cast<int>(plan.log_size()),
                                                        to_dev(scale), tab_of(from_coset));
  CUZK_CUDA_LAUNCH_CHECK("h_from_transforms_kernel");
  stream_synchronize();  // the power tables go out of scope
}

#define CUZK_GPU_INSTANTIATE(F)                                                              \
  template void eval_rows_device<F>(const DeviceCsr<F>&, const F*, F*, std::size_t);         \
  template void compute_h_classic_device<F>(const NttPlan<F>&, F*, F*, F*, const F&);            \
  template void compute_h_classic_ab_device<F>(const NttPlan<F>&, F*, F*, F*, const F&);
CUZK_GPU_INSTANTIATE(ff::bls12_381::Fr)
CUZK_GPU_INSTANTIATE(ff::bn254::Fr)
#undef CUZK_GPU_INSTANTIATE

}  // namespace cuzk::gpu
