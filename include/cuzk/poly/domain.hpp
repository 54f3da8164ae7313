// Radix-2 evaluation domains {omega^i : i < n}, n = 2^k, over a prime field F.
//
// omega = F::root_of_unity(k), ffjavascript's definition (w[s] = nqr^((p-1)/2^s),
// w[k] = w[k+1]^2), so evaluation vectors line up with snarkjs's Lagrange bases.
// The domain owns its twiddle tables; it is immutable after construction and can be
// shared by any number of threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "cuzk/poly/bitrev.hpp"

namespace cuzk::poly {

// The last NTT levels (butterfly groups of at most 2^kBlockLog elements) run block by
// block (kept in L2), all those levels per block before moving on.
inline constexpr std::size_t kBlockLog = 12;

// Block size (log2) used for a transform of 2^k points: at most kBlockLog, and small
// enough that mid-sized transforms still give at least 16 blocks to spread over cores.
constexpr std::size_t ntt_block_log(std::size_t k) {
  std::size_t b = k < kBlockLog ? k : kBlockLog;
  if (k > 10 && k - 4 < b) b = k - 4;
  return b;
}

// Fills out[i] = c * g^i for i < out.size(), in parallel (each chunk starts from a pow).
template <class F>
void fill_powers(std::span<F> out, const F& g, const F& c = F::one()) {
  constexpr std::size_t kGrain = 4096;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), kGrain), [&](const auto& r) {
    F cur = c * g.pow(static_cast<std::uint64_t>(r.begin()));
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      out[i] = cur;
      cur *= g;
    }
  });
}

template <class F>
class EvaluationDomain {
 public:
  // Smallest power-of-two domain with at least min_size points (min_size 0 or 1 -> n = 1).
  // Throws std::invalid_argument if that needs more than 2^F::kTwoAdicity points.
  explicit EvaluationDomain(std::size_t min_size) : log_n_(ceil_log2(min_size)) {
    n_ = std::size_t{1} << log_n_;
    omega_ = F::root_of_unity(log_n_);
    omega_inv_ = omega_.inverse();
    n_inv_ = F::from_u64(n_).inverse();
    // twiddles_[i] = omega^bitrev(i) over log n - 1 bits, i < n/2 (see twiddles()).
    twiddles_.resize(n_ / 2);
    fill_powers<F>(twiddles_, omega_);
    bit_reverse_permute<F>(twiddles_);
  }

  static EvaluationDomain from_log_size(std::size_t k) {
    if (k > F::kTwoAdicity || k >= 8 * sizeof(std::size_t) - 1) throw too_large(k);
    return EvaluationDomain(std::size_t{1} << k);
  }

  std::size_t size() const { return n_; }
  std::size_t log_size() const { return log_n_; }
  const F& omega() const { return omega_; }
  const F& omega_inv() const { return omega_inv_; }
  const F& n_inv() const { return n_inv_; }
  // omega^i for any i.
  F element(std::size_t i) const {
    i &= n_ - 1;
    if (n_ == 1) return F::one();
    const std::size_t bits = log_n_ - 1;
    if (i < n_ / 2) return twiddles_[bit_reverse(i, bits)];
    return -twiddles_[bit_reverse(i - n_ / 2, bits)];  // omega^(n/2) = -1
  }
  // Z(x) = x^n - 1, the vanishing polynomial of the domain.
  F vanishing_at(const F& x) const {
    F r = x;
    for (std::size_t i = 0; i < log_n_; ++i) r = r.square();
    return r - F::one();
  }
  // n/2 twiddles in bit-reversed order: twiddles()[i] = omega^bitrev(i), bitrev over
  // log n - 1 bits. Level s of the NTT (2^s butterfly groups) uses twiddles()[k] for its
  // group k = omega_{2^(s+1)}^bitrev_s(k): one twiddle per group, read sequentially.
  std::span<const F> twiddles() const { return twiddles_; }

 private:
  static std::invalid_argument too_large(std::size_t k) {
    return std::invalid_argument("EvaluationDomain: a domain of 2^" + std::to_string(k) +
                                 " points exceeds the field's 2-adicity (max 2^" +
                                 std::to_string(F::kTwoAdicity) + ")");
  }
  static std::size_t ceil_log2(std::size_t m) {
    std::size_t k = 0;
    while (k < 8 * sizeof(std::size_t) - 1 && (std::size_t{1} << k) < m) ++k;
    if (k > F::kTwoAdicity || (std::size_t{1} << k) < m) throw too_large(k);
    return k;
  }

  std::size_t log_n_;
  std::size_t n_ = 1;
  F omega_, omega_inv_, n_inv_;
  std::vector<F> twiddles_;
};

}  // namespace cuzk::poly
