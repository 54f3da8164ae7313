// The Groth16 quotient H from the evaluation vectors a, b, c of A, B, C on the domain.
//
// Convention (1), classic / bellperson: returns the coefficients h_0..h_{n-1} of
//   h(X) = (A(X)B(X) - C(X)) / Z(X),  Z = X^n - 1  (h_{n-1} = 0),
// computed on the coset g*<omega> (g = the field's multiplicative generator).
//
// Convention (2), snarkjs / rapidsnark (shared/INTEROP.md 7.5): returns
//   q_i = (A*B - C)(omega_{2n}^{2i+1}),  i < n,
// the evaluations on the odd coset of the 2n-domain, NOT divided by Z. The snarkjs H
// points are Lagrange points of that coset, so MSM(H, q) = h(tau)Z(tau).
//
// Inputs shorter than n are zero-padded; longer ones are rejected. Every stage is
// exposed so a GPU implementation can be checked against it stage by stage.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/generator.hpp"
#include "cuzk/poly/ntt.hpp"

namespace cuzk::poly {

// Copy of v zero-padded to the domain size; throws if v is longer than the domain.
template <class F>
std::vector<F> pad_to_domain(const EvaluationDomain<F>& d, std::span<const F> v) {
  if (v.size() > d.size())
    throw std::invalid_argument("pad_to_domain: " + std::to_string(v.size()) +
                                " evaluations do not fit a domain of " + std::to_string(d.size()));
  std::vector<F> out(d.size());
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

namespace detail {
// f(i) for i < n, in parallel (the element-wise steps of the H pipelines).
template <class Fn>
void for_each_index(std::size_t n, const Fn& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
  });
}
}  // namespace detail

// a_i <- a_i * b_i - c_i (all of equal length).
template <class F>
void mul_sub_pointwise(std::span<F> a, std::span<const F> b, std::span<const F> c) {
  if (b.size() != a.size() || c.size() != a.size())
    throw std::invalid_argument("mul_sub_pointwise: vectors differ in length");
  detail::for_each_index(a.size(), [&](std::size_t i) { a[i] = a[i] * b[i] - c[i]; });
}

// ---- convention (1): classic, coset of the multiplicative generator -------------------

// Evaluations on the domain -> evaluations on the coset g*omega^i (iNTT, shift, NTT).
template <class F>
void classic_to_coset(const EvaluationDomain<F>& d, std::span<F> x, const F& g) {
  intt_distribute(d, x, g);
  ntt(d, x);
}

// a_i <- (a_i b_i - c_i) / (g^n - 1): the values of h on the coset (Z(g omega^i) = g^n - 1).
template <class F>
void classic_divide_on_coset(const EvaluationDomain<F>& d, std::span<F> a, std::span<const F> b,
                             std::span<const F> c, const F& g) {
  F zg = d.vanishing_at(g);
  if (zg.is_zero()) throw std::invalid_argument("classic_divide_on_coset: g^n == 1, the coset meets the domain");
  F zinv = zg.inverse();
  if (b.size() != a.size() || c.size() != a.size())
    throw std::invalid_argument("classic_divide_on_coset: vectors differ in length");
  detail::for_each_index(a.size(), [&](std::size_t i) { a[i] = (a[i] * b[i] - c[i]) * zinv; });
}

// In place: a, b, c (each resized to n, used as scratch) -> a holds h's coefficients.
template <class F>
void compute_h_classic_inplace(const EvaluationDomain<F>& d, std::vector<F>& a, std::vector<F>& b,
                               std::vector<F>& c, const F& g = multiplicative_generator<F>()) {
  for (auto* v : {&a, &b, &c}) {
    if (v->size() > d.size()) throw std::invalid_argument("compute_h_classic: more evaluations than the domain size");
    v->resize(d.size());
  }
  // The three transforms are independent: run them concurrently (each is parallel too).
  tbb::parallel_invoke([&] { classic_to_coset<F>(d, a, g); }, [&] { classic_to_coset<F>(d, b, g); },
                       [&] { classic_to_coset<F>(d, c, g); });
  classic_divide_on_coset<F>(d, a, b, c, g);
  coset_intt<F>(d, a, g);
}

template <class F>
std::vector<F> compute_h_classic(const EvaluationDomain<F>& d, std::span<const F> a, std::span<const F> b,
                                 std::span<const F> c, const F& g = multiplicative_generator<F>()) {
  std::vector<F> va = pad_to_domain(d, a), vb = pad_to_domain(d, b), vc = pad_to_domain(d, c);
  compute_h_classic_inplace(d, va, vb, vc, g);
  return va;
}

// Convention (1) from a and b alone, for a satisfying witness (c_i = a_i b_i on the domain):
// with P = A B = P_lo + X^n P_hi (degrees < n), h = P_hi. P's values on the domain are
// a_i b_i, so intt(a.b) = P mod (X^n - 1) = P_lo + P_hi; on the coset (x^n = g^n) its
// interpolant is P mod (X^n - g^n) = P_lo + g^n P_hi. Hence
//   h = (coset_intt(A B on the coset) - intt(a.b)) / (g^n - 1):
// six transforms instead of seven, and C is neither evaluated nor transformed. Equal to
// compute_h_classic exactly when c = a.b (for other c it is a different vector).
// In place: a, b, t (resized to n; b and t are scratch) -> a holds h's coefficients.
template <class F>
void compute_h_classic_ab_inplace(const EvaluationDomain<F>& d, std::vector<F>& a, std::vector<F>& b,
                                  std::vector<F>& t, const F& g = multiplicative_generator<F>()) {
  const F zg = d.vanishing_at(g);
  if (zg.is_zero()) throw std::invalid_argument("compute_h_classic_ab: g^n == 1, the coset meets the domain");
  for (auto* v : {&a, &b}) {
    if (v->size() > d.size()) throw std::invalid_argument("compute_h_classic_ab: more evaluations than the domain size");
    v->resize(d.size());
  }
  t.resize(d.size());
  const std::size_t n = d.size();
  detail::for_each_index(n, [&](std::size_t i) { t[i] = a[i] * b[i]; });
  tbb::parallel_invoke([&] { classic_to_coset<F>(d, a, g); }, [&] { classic_to_coset<F>(d, b, g); },
                       [&] { intt<F>(d, t); });
  detail::for_each_index(n, [&](std::size_t i) { a[i] *= b[i]; });
  coset_intt<F>(d, a, g);
  const F zinv = zg.inverse();
  detail::for_each_index(n, [&](std::size_t i) { a[i] = (a[i] - t[i]) * zinv; });
}

template <class F>
std::vector<F> compute_h_classic_ab(const EvaluationDomain<F>& d, std::span<const F> a, std::span<const F> b,
                                    const F& g = multiplicative_generator<F>()) {
  std::vector<F> va = pad_to_domain(d, a), vb = pad_to_domain(d, b), t;
  compute_h_classic_ab_inplace(d, va, vb, t, g);
  return va;
}

// ---- convention (2): snarkjs, odd coset of the 2n-domain -------------------------------

// omega_{2n} = F::root_of_unity(log n + 1); throws when log n equals the 2-adicity
// (snarkjs switches to a different layout there, which cuzk does not support).
template <class F>
F odd_coset_shift(const EvaluationDomain<F>& d) {
  if (d.log_size() + 1 > F::kTwoAdicity)
    throw std::invalid_argument("snarkjs H: a domain of 2^" + std::to_string(d.log_size()) +
                                " equals the field's 2-adicity; the odd coset does not exist");
  return F::root_of_unity(d.log_size() + 1);
}

// Evaluations on the domain -> evaluations at omega_{2n}^{2i+1}: iNTT, coefficient k
// times omega_{2n}^k, NTT (snarkjs groth16_prove.js, rapidsnark Prover::prove).
template <class F>
void snarkjs_to_odd_coset(const EvaluationDomain<F>& d, std::span<F> x, const F& shift) {
  intt_distribute(d, x, shift);
  ntt(d, x);
}
template <class F>
void snarkjs_to_odd_coset(const EvaluationDomain<F>& d, std::span<F> x) {
  snarkjs_to_odd_coset(d, x, odd_coset_shift(d));
}

// In place: a, b, c (each resized to n, used as scratch) -> a holds q (Montgomery form).
template <class F>
void compute_h_snarkjs_inplace(const EvaluationDomain<F>& d, std::vector<F>& a, std::vector<F>& b,
                               std::vector<F>& c) {
  for (auto* v : {&a, &b, &c}) {
    if (v->size() > d.size()) throw std::invalid_argument("compute_h_snarkjs: more evaluations than the domain size");
    v->resize(d.size());
  }
  const F shift = odd_coset_shift(d);
  // The three transforms are independent: run them concurrently (each is parallel too).
  tbb::parallel_invoke([&] { snarkjs_to_odd_coset<F>(d, a, shift); }, [&] { snarkjs_to_odd_coset<F>(d, b, shift); },
                       [&] { snarkjs_to_odd_coset<F>(d, c, shift); });
  mul_sub_pointwise<F>(a, b, c);
}

template <class F>
std::vector<F> compute_h_snarkjs(const EvaluationDomain<F>& d, std::span<const F> a, std::span<const F> b,
                                 std::span<const F> c) {
  std::vector<F> va = pad_to_domain(d, a), vb = pad_to_domain(d, b), vc = pad_to_domain(d, c);
  compute_h_snarkjs_inplace(d, va, vb, vc);
  return va;
}

}  // namespace cuzk::poly
