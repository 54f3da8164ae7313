// Number-theoretic transforms over an EvaluationDomain, in place, natural order in and out.
//
//   ntt(d, x):          x <- (P(omega^i))_i for the coefficients x of P
//   intt(d, x):         the inverse
//   coset_ntt(d, x, g): x <- (P(g*omega^i))_i
//   coset_intt(d, x, g): the inverse
//
// Layout (Cooley-Tukey, natural order in, bit-reversed out, then one bit-reversal pass):
// level s = 0..log n - 1 has 2^s butterfly groups of 2*len elements (len = n >> (s+1));
// group k uses the single twiddle omega_{2^(s+1)}^bitrev_s(k), which is twiddles()[k] of
// the domain's bit-reversed table, so twiddles are read sequentially, one per group.
// The first levels (groups larger than a block) go two at a time (radix-4 passes,
// parallel over butterflies), halving the passes over memory; the remaining levels run
// block by block (2^ntt_block_log(k) elements, cache-resident, one TBB task per block).
// The inverse is the forward transform followed by the index reversal i -> -i mod n,
// fused with the 1/n scaling (and optionally a coset shift).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "cuzk/poly/bitrev.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk::poly {

namespace detail {

template <class F>
void check_size(const EvaluationDomain<F>& d, std::size_t got, const char* what) {
  if (got != d.size())
    throw std::invalid_argument(std::string(what) + ": vector has " + std::to_string(got) +
                                " elements, the domain has " + std::to_string(d.size()));
}

template <class F>
inline void butterfly(F& a, F& b, const F& w) {
  F t = b * w;
  b = a - t;
  a += t;
}
template <class F>
inline void butterfly1(F& a, F& b) {  // w = 1
  F t = b;
  b = a - t;
  a += t;
}

// Level s alone (a pass over all n elements).
template <class F>
void ct_level(const EvaluationDomain<F>& d, std::span<F> x, std::size_t s) {
  const std::size_t len = d.size() >> (s + 1);
  const F* tw = d.twiddles().data();
  constexpr std::size_t kGrain = 1024;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, d.size() / 2, kGrain), [&](const auto& r) {
    std::size_t k = r.begin() / len, j = r.begin() % len;
    for (std::size_t t = r.begin(); t != r.end(); ++t) {
      F* p = x.data() + k * 2 * len + j;
      if (k == 0)
        butterfly1(p[0], p[len]);
      else
        butterfly(p[0], p[len], tw[k]);
      if (++j == len) j = 0, ++k;
    }
  });
}

// Levels s and s+1 fused (radix-4 pass): group k of level s splits into groups 2k, 2k+1.
template <class F>
void ct_level_pair(const EvaluationDomain<F>& d, std::span<F> x, std::size_t s) {
  const std::size_t len = d.size() >> (s + 1), h = len / 2;
  const F* tw = d.twiddles().data();
  constexpr std::size_t kGrain = 256;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, d.size() / 4, kGrain), [&](const auto& r) {
    std::size_t k = r.begin() / h, j = r.begin() % h;
    for (std::size_t t = r.begin(); t != r.end(); ++t) {
      F* p = x.data() + k * 2 * len + j;
      if (k == 0) {
        butterfly1(p[0], p[len]);
        butterfly1(p[h], p[len + h]);
        butterfly1(p[0], p[h]);
      } else {
        butterfly(p[0], p[len], tw[k]);
        butterfly(p[h], p[len + h], tw[k]);
        butterfly(p[0], p[h], tw[2 * k]);
      }
      butterfly(p[len], p[len + h], tw[2 * k + 1]);
      if (++j == h) j = 0, ++k;
    }
  });
}

// Levels first..log n - 1, whose groups fit in blocks of B = 2^ntt_block_log(k) elements.
template <class F>
void ct_blocked_levels(const EvaluationDomain<F>& d, std::span<F> x, std::size_t first) {
  const std::size_t n = d.size(), L = d.log_size();
  const std::size_t B = std::size_t{1} << ntt_block_log(L);
  const F* tw = d.twiddles().data();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n / B, 1), [&](const auto& r) {
    for (std::size_t blk = r.begin(); blk != r.end(); ++blk) {
      F* base = x.data() + blk * B;
      for (std::size_t s = first; s < L; ++s) {
        const std::size_t len = n >> (s + 1), groups = B / (2 * len);
        const std::size_t k0 = blk * groups;
        for (std::size_t g = 0; g < groups; ++g) {
          F* p = base + g * 2 * len;
          const std::size_t k = k0 + g;
          if (k == 0) {
            for (std::size_t j = 0; j < len; ++j) butterfly1(p[j], p[j + len]);
          } else {
            const F w = tw[k];
            for (std::size_t j = 0; j < len; ++j) butterfly(p[j], p[j + len], w);
          }
        }
      }
    }
  });
}

// Forward transform without the checks (x.size() == d.size()).
template <class F>
void ntt_core(const EvaluationDomain<F>& d, std::span<F> x);

// x_new[i] = c * g^i * x_old[(n - i) mod n]; ginv = g^-1. Turns a forward transform into
// the inverse one (g = 1, c = 1/n) and can fold in a coset shift of the coefficients.
template <class F>
void reverse_and_distribute(std::span<F> x, const F& g, const F& ginv, const F& c) {
  const std::size_t n = x.size();
  if (n == 0) return;
  x[0] *= c;
  if (n == 1) return;
  const bool plain = g.is_one();
  const F gn2 = g.pow(static_cast<std::uint64_t>(n / 2));
  x[n / 2] *= c * gn2;
  constexpr std::size_t kGrain = 2048;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(1, n / 2, kGrain), [&](const auto& r) {
    if (plain) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        F a = x[i];
        x[i] = x[n - i] * c;
        x[n - i] = a * c;
      }
      return;
    }
    F p = c * g.pow(static_cast<std::uint64_t>(r.begin()));
    F q = c * g.pow(static_cast<std::uint64_t>(n - r.begin()));
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      F a = x[i];
      x[i] = x[n - i] * p;
      x[n - i] = a * q;
      p *= g;
      q *= ginv;
    }
  });
}

}  // namespace detail

// x[k] *= c * g^k.
template <class F>
void distribute_powers(std::span<F> x, const F& g, const F& c = F::one()) {
  constexpr std::size_t kGrain = 4096;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, x.size(), kGrain), [&](const auto& r) {
    F cur = c * g.pow(static_cast<std::uint64_t>(r.begin()));
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      x[i] *= cur;
      cur *= g;
    }
  });
}

template <class F>
void detail::ntt_core(const EvaluationDomain<F>& d, std::span<F> x) {
  const std::size_t L = d.log_size();
  if (L == 0) return;
  const std::size_t outer = L - ntt_block_log(L);  // levels with groups larger than a block
  std::size_t s = 0;
  for (; s + 1 < outer; s += 2) ct_level_pair(d, x, s);
  if (s < outer) ct_level(d, x, s++);
  ct_blocked_levels(d, x, s);
  bit_reverse_permute(x);
}

// Coefficients -> evaluations at omega^i.
template <class F>
void ntt(const EvaluationDomain<F>& d, std::span<F> x) {
  detail::check_size(d, x.size(), "ntt");
  detail::ntt_core(d, x);
}

// Evaluations at omega^i -> coefficients.
template <class F>
void intt(const EvaluationDomain<F>& d, std::span<F> x) {
  detail::check_size(d, x.size(), "intt");
  detail::ntt_core(d, x);
  detail::reverse_and_distribute(x, F::one(), F::one(), d.n_inv());
}

// Evaluations at omega^i -> coefficients of P, each multiplied by g^k: the coefficients
// of P(g*X). One fused pass after the transform; g must be non-zero.
template <class F>
void intt_distribute(const EvaluationDomain<F>& d, std::span<F> x, const F& g) {
  detail::check_size(d, x.size(), "intt_distribute");
  if (g.is_zero()) throw std::invalid_argument("intt_distribute: shift is zero");
  detail::ntt_core(d, x);
  detail::reverse_and_distribute(x, g, g.inverse(), d.n_inv());
}

// Coefficients -> evaluations at g*omega^i.
template <class F>
void coset_ntt(const EvaluationDomain<F>& d, std::span<F> x, const F& g) {
  detail::check_size(d, x.size(), "coset_ntt");
  if (g.is_zero()) throw std::invalid_argument("coset_ntt: shift is zero");
  distribute_powers<F>(x, g);
  detail::ntt_core(d, x);
}

// Evaluations at g*omega^i -> coefficients.
template <class F>
void coset_intt(const EvaluationDomain<F>& d, std::span<F> x, const F& g) {
  detail::check_size(d, x.size(), "coset_intt");
  if (g.is_zero()) throw std::invalid_argument("coset_intt: shift is zero");
  detail::ntt_core(d, x);
  F ginv = g.inverse();
  detail::reverse_and_distribute(x, ginv, g, d.n_inv());
}

}  // namespace cuzk::poly
