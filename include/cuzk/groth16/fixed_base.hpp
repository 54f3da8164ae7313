// Fixed-base scalar multiplication for key generation: k_i * G for many k_i and one G.
//
// A table of G * d * 2^(w*j) for every window j and digit d in [1, 2^w) turns each
// product into one mixed addition per window. Products are computed in parallel and
// converted to affine in batches (one field inversion per chunk).
#pragma once

#include <tbb/parallel_for.h>

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/ec/point.hpp"

namespace cuzk::groth16 {

template <class C>
class FixedBaseTable {
 public:
  using Scalar = typename C::Scalar;
  using Affine = ec::Affine<C>;
  using Jacobian = ec::Jacobian<C>;
  static constexpr std::size_t kWindow = 8;
  static constexpr std::size_t kDigits = std::size_t{1} << kWindow;
  static constexpr std::size_t kWindows = (Scalar::kBits + kWindow - 1) / kWindow;

  explicit FixedBaseTable(const Affine& base) : table_(kWindows * (kDigits - 1)) {
    std::vector<Jacobian> jac(table_.size());
    Jacobian row = Jacobian::from_affine(base);  // base * 2^(w*j)
    for (std::size_t j = 0; j < kWindows; ++j) {
      Jacobian acc = row;
      for (std::size_t d = 1; d < kDigits; ++d) {
        jac[j * (kDigits - 1) + (d - 1)] = acc;
        acc = acc + row;
      }
      row = acc;  // base * 2^(w*(j+1))
    }
    ec::batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(table_));
  }

  Jacobian mul(const Scalar& k) const {
    auto c = k.to_canonical();
    Jacobian acc = Jacobian::infinity();
    for (std::size_t j = 0; j < kWindows; ++j) {
      std::size_t bit = j * kWindow;
      std::size_t d = static_cast<std::size_t>((c[bit / 64] >> (bit % 64)) & (kDigits - 1));
      if (d != 0) acc = acc.add_mixed(table_[j * (kDigits - 1) + (d - 1)]);
    }
    return acc;
  }

  // out[i] = ks[i] * base, in affine form.
  void mul_many(std::span<const Scalar> ks, std::span<Affine> out) const {
    constexpr std::size_t kChunk = 1024;
    const std::size_t chunks = (ks.size() + kChunk - 1) / kChunk;
    tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t ci) {
      const std::size_t lo = ci * kChunk;
      const std::size_t hi = std::min(ks.size(), lo + kChunk);
      std::vector<Jacobian> jac(hi - lo);
      for (std::size_t i = lo; i < hi; ++i) jac[i - lo] = mul(ks[i]);
      ec::batch_to_affine(std::span<const Jacobian>(jac), out.subspan(lo, hi - lo));
    });
  }

  std::vector<Affine> mul_many(std::span<const Scalar> ks) const {
    std::vector<Affine> out(ks.size());
    mul_many(ks, std::span<Affine>(out));
    return out;
  }

 private:
  std::vector<Affine> table_;
};

}  // namespace cuzk::groth16
