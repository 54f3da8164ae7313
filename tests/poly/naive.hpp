// Naive reference algorithms for the poly tests (independent of the NTT code):
// Horner evaluation, schoolbook multiplication, long division by X^n - 1, Lagrange bases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/ff/fields.hpp"

namespace cuzk::poly::test {

using Bls = ff::bls12_381::Fr;
using Bn = ff::bn254::Fr;

template <class F>
F horner(const std::vector<F>& coeffs, const F& x) {
  F r = F::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) r = r * x + coeffs[i];
  return r;
}

template <class F>
std::vector<F> poly_mul(const std::vector<F>& a, const std::vector<F>& b) {
  if (a.empty() || b.empty()) return {};
  std::vector<F> r(a.size() + b.size() - 1, F::zero());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) r[i + j] += a[i] * b[j];
  return r;
}

template <class F>
std::vector<F> poly_sub(std::vector<F> a, const std::vector<F>& b) {
  if (a.size() < b.size()) a.resize(b.size(), F::zero());
  for (std::size_t i = 0; i < b.size(); ++i) a[i] -= b[i];
  return a;
}

// p = q * (X^n - 1) + r with deg r < n. Returns {q (size max(len-n,0)), r (size n)}.
template <class F>
std::pair<std::vector<F>, std::vector<F>> divmod_vanishing(std::vector<F> p, std::size_t n) {
  std::vector<F> q(p.size() > n ? p.size() - n : 0, F::zero());
  for (std::size_t i = p.size(); i-- > n;) {
    // leading term p_i X^i = p_i X^(i-n) * (X^n - 1) + p_i X^(i-n)
    F c = p[i];
    q[i - n] = c;
    p[i] = F::zero();
    p[i - n] += c;
  }
  p.resize(n, F::zero());
  return {q, p};
}

// Lagrange basis of the points pts at tau, product formula: prod_{k!=j} (tau-p_k)/(p_j-p_k).
template <class F>
std::vector<F> lagrange_at(const std::vector<F>& pts, const F& tau) {
  std::vector<F> out(pts.size());
  for (std::size_t j = 0; j < pts.size(); ++j) {
    F num = F::one(), den = F::one();
    for (std::size_t k = 0; k < pts.size(); ++k) {
      if (k == j) continue;
      num *= tau - pts[k];
      den *= pts[j] - pts[k];
    }
    out[j] = num * den.inverse();
  }
  return out;
}

}  // namespace cuzk::poly::test
