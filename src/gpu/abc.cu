// a/b/c evaluation from device CSR matrices and the bellperson H (cuzk/gpu/abc.hpp).
#include <optional>
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

// A matrix's values: vals[k], or table[idx[k]] for an indexed matrix (vals null). The choice
// is the same for every thread of a launch.
template <class Dv>
struct TermValues {
  const Dv* vals;
  const std::uint16_t* idx;
  const Dv* table;
  __device__ Dv at(std::uint64_t k) const { return vals != nullptr ? kern::ld(vals + k) : kern::ld(table + idx[k]); }
};

template <class Dv>
__global__ void eval_rows_kernel(const std::uint64_t* row_ptr, const std::uint32_t* cols, TermValues<Dv> v,
                                 const Dv* w, Dv* out, std::uint64_t rows, std::uint64_t n) {
  const std::uint64_t i = kern::global_id();
  if (i >= n) return;
  Dv acc = Dv::zero();
  if (i < rows) {
    const std::uint64_t e = row_ptr[i + 1];
    for (std::uint64_t k = row_ptr[i]; k < e; ++k) acc += v.at(k) * kern::ld(w + cols[k]);
  }
  kern::st(out + i, acc);
}

// One chunk of a streamed matrix (csr_chunks.hpp): thread i sums row r0 + i's terms in
// [z0, z1); rp = row_ptr[r0 .. r1], cols and the values (v) from term z0 on.
template <class Dv>
__global__ void eval_chunk_kernel(const std::uint64_t* rp, const std::uint32_t* cols, TermValues<Dv> v,
                                  std::uint64_t z0, std::uint64_t z1, std::uint64_t rows, bool continued, bool split,
                                  bool mul, const Dv* carry_in, Dv* carry_out, const Dv* w, Dv* out) {
  const std::uint64_t i = kern::global_id();
  if (i >= rows) return;
  const std::uint64_t b = max(rp[i], z0), e = min(rp[i + 1], z1);
  Dv acc = Dv::zero();
  for (std::uint64_t k = b; k < e; ++k) acc += v.at(k - z0) * kern::ld(w + cols[k - z0]);
  if (i == 0 && continued) acc += kern::ld(carry_in);
  if (i + 1 == rows && split) {
    kern::st(carry_out, acc);
    return;
  }
  kern::st(out + i, mul ? kern::ld(out + i) * acc : acc);
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
  const TermValues<D<Fr>> v{dev(m.vals()), m.idx(), dev(m.table())};
  eval_rows_kernel<<<blocks_for(n), kThreads>>>(m.row_ptr(), m.cols(), v, dev(w), dev(out), m.num_rows(), n);
  CUZK_CUDA_LAUNCH_CHECK("eval_rows_kernel");
}

template <class Fr>
void eval_rows_chunk_device(const unsigned char* buf, const CsrChunk& c, const Fr* w, Fr* out, Fr* carry,
                            std::size_t k, bool mul, const Fr* table) {
  const std::uint64_t rows = c.r1 - c.r0;
  if (rows == 0) return;
  const auto* rp = reinterpret_cast<const std::uint64_t*>(buf);
  const auto* cols = reinterpret_cast<const std::uint32_t*>(buf + c.cols_off);
  using V = TermValues<D<Fr>>;
  const V v = table != nullptr ? V{nullptr, reinterpret_cast<const std::uint16_t*>(buf + c.vals_off), dev(table)}
                               : V{dev(reinterpret_cast<const Fr*>(buf + c.vals_off)), nullptr, nullptr};
  eval_chunk_kernel<<<blocks_for(rows), kThreads>>>(rp, cols, v, c.z0, c.z1, rows, c.continued, c.split, mul,
                                                    dev(carry + (k + 1) % 2), dev(carry + k % 2), dev(w),
                                                    dev(out + c.r0));
  CUZK_CUDA_LAUNCH_CHECK("eval_chunk_kernel");
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

namespace {
// Bellperson H from a and b (poly::compute_h_classic_ab), its two halves: A B on the coset
// into a (forward transform, bit-reversed), then h from that and t = a.b over the domain.
template <class F>
struct ClassicAb {
  const NttPlan<F>& plan;
  F g, zg, n_inv;
  std::optional<PowerTable<F>> to_coset;
  ClassicAb(const NttPlan<F>& p, const F& g_, const char* who) : plan(p), g(g_), zg(vanishing_at(p, g_)) {
    if (zg.is_zero()) throw std::invalid_argument(std::string(who) + ": g^n == 1, the coset meets the domain");
    n_inv = F::from_u64(plan.size()).inverse();
    to_coset.emplace(g, n_inv, plan.size());
  }
  void coset_product(F* a, F* b) const {
    for (F* v : {a, b}) plan.evals_to_coset_evals_negated(v, *to_coset);
    field_op_device<F>(FieldOp::kMul, a, b, a, plan.size());  // A B on the coset, position i at g w^-i
    plan.forward_bitrev(a);
  }
  void finish(F* a, F* t) const {
    const F scale = zg.inverse() * n_inv;
    plan.forward_bitrev(t);
    const PowerTable<F> from_coset(g.inverse(), scale, plan.size());
    h_from_transforms_kernel<<<blocks_for(plan.size()), kThreads>>>(
        dev(a), dev(t), static_cast<int>(plan.log_size()), to_dev(scale), tab_of(from_coset));
    CUZK_CUDA_LAUNCH_CHECK("h_from_transforms_kernel");
    stream_synchronize();  // the power tables go out of scope
  }
};
}  // namespace

template <class F>
void compute_h_classic_ab_device(const NttPlan<F>& plan, F* a, F* b, F* t, const F& g) {
  const ClassicAb<F> h(plan, g, "compute_h_classic_ab_device");
  field_op_device<F>(FieldOp::kMul, a, b, t, plan.size());  // C's values on the domain
  h.coset_product(a, b);
  h.finish(a, t);
}

template <class F>
void compute_h_classic_ab_lean_device(const NttPlan<F>& plan, F* a, F* b, const std::function<void(F*)>& ab_into,
                                      const F& g) {
  const ClassicAb<F> h(plan, g, "compute_h_classic_ab_lean_device");
  h.coset_product(a, b);
  ab_into(b);  // C's values on the domain, where B's coset values were
  h.finish(a, b);
}

#define CUZK_GPU_INSTANTIATE(F)                                                              \
  template void eval_rows_device<F>(const DeviceCsr<F>&, const F*, F*, std::size_t);         \
  template void compute_h_classic_device<F>(const NttPlan<F>&, F*, F*, F*, const F&);            \
  template void compute_h_classic_ab_device<F>(const NttPlan<F>&, F*, F*, F*, const F&);                 \
  template void compute_h_classic_ab_lean_device<F>(const NttPlan<F>&, F*, F*, const std::function<void(F*)>&, \
                                                    const F&);                                               \
  template void eval_rows_chunk_device<F>(const unsigned char*, const CsrChunk&, const F*, F*, F*, std::size_t, bool, \
                                         const F*);
CUZK_GPU_INSTANTIATE(ff::bls12_381::Fr)
CUZK_GPU_INSTANTIATE(ff::bn254::Fr)
#undef CUZK_GPU_INSTANTIATE

}  // namespace cuzk::gpu
