// Poseidon parameters as Filecoin's neptune builds them (BLS12-381 scalar field, "Standard"
// strength, HashType::MerkleTree): round constants from the Grain LFSR of the Poseidon paper's
// reference script (field = 1, S-box code = 1 as neptune passes it, field size = F::kBits),
// MDS = Cauchy matrix 1/(x_i + y_j) with x_i = i, y_j = t + j, domain tag 2^arity - 1 in
// state[0], digest = state[1]. Round numbers are neptune's (parameters/round_numbers.txt).
// Computed once per arity at first use (function-local statics).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gadgets/poseidon.hpp"

namespace cuzk::gadgets::neptune {

// (R_F, R_P) for the supported arities.
inline std::pair<std::size_t, std::size_t> round_numbers(std::size_t arity) {
  switch (arity) {
    case 2: return {8, 55};
    case 4: return {8, 56};
    case 8: return {8, 57};
    case 11: return {8, 57};
    default: throw std::invalid_argument("neptune Poseidon: unsupported arity " + std::to_string(arity) + " (2, 4, 8, 11)");
  }
}

// Grain LFSR in self-shrinking mode (Poseidon paper, appendix F).
class Grain {
 public:
  Grain(unsigned field, unsigned sbox, unsigned field_size, unsigned t, unsigned rf, unsigned rp) {
    auto put = [&](unsigned nbits, std::uint64_t v) {
      for (int i = static_cast<int>(nbits) - 1; i >= 0; --i) state_.push_back(((v >> i) & 1) != 0);
    };
    put(2, field);
    put(4, sbox);
    put(12, field_size);
    put(12, t);
    put(10, rf);
    put(10, rp);
    put(30, (1u << 30) - 1);
    for (int i = 0; i < 160; ++i) step();
  }
  bool next() {
    for (;;) {
      const bool keep = step();
      const bool b = step();
      if (keep) return b;
    }
  }

 private:
  bool step() {
    const bool nb = state_[(pos_ + 62) % 80] ^ state_[(pos_ + 51) % 80] ^ state_[(pos_ + 38) % 80] ^
                    state_[(pos_ + 23) % 80] ^ state_[(pos_ + 13) % 80] ^ state_[pos_];
    state_[pos_] = nb;  // ring buffer: the oldest bit is replaced by the new one
    pos_ = (pos_ + 1) % 80;
    return nb;
  }
  std::vector<bool> state_;
  std::size_t pos_ = 0;
};

template <class F>
std::vector<F> grain_round_constants(std::size_t t, std::size_t rf, std::size_t rp) {
  Grain g(1, 1, F::kBits, static_cast<unsigned>(t), static_cast<unsigned>(rf), static_cast<unsigned>(rp));
  std::vector<F> out;
  out.reserve(t * (rf + rp));
  while (out.size() < t * (rf + rp)) {
    typename F::Repr c{};
    for (std::size_t i = 0; i < F::kBits; ++i) {  // big-endian: the first bit is the most significant
      const std::size_t bit = F::kBits - 1 - i;
      if (g.next()) c[bit / 64] |= std::uint64_t{1} << (bit % 64);
    }
    if (ff::big::cmp(c, F::kModulus) < 0) out.push_back(F::from_canonical(c));
  }
  return out;
}

template <class F>
std::vector<F> cauchy_mds(std::size_t t) {
  std::vector<F> m(t * t);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) m[i * t + j] = F::from_u64(i + t + j).inverse();
  return m;
}

template <class F>
PoseidonParams<F> make_params(std::size_t arity) {
  const auto [rf, rp] = round_numbers(arity);
  PoseidonParams<F> p;
  p.t = arity + 1;
  p.full_rounds = rf;
  p.partial_rounds = rp;
  p.round_constants = grain_round_constants<F>(p.t, rf, rp);
  p.mds = cauchy_mds<F>(p.t);
  p.first = F::from_u64((std::uint64_t{1} << arity) - 1);
  p.output = 1;
  p.validate();
  return p;
}

template <class F>
const PoseidonParams<F>& params(std::size_t arity) {
  switch (arity) {
    case 2: { static const auto p = make_params<F>(2); return p; }
    case 4: { static const auto p = make_params<F>(4); return p; }
    case 8: { static const auto p = make_params<F>(8); return p; }
    case 11: { static const auto p = make_params<F>(11); return p; }
    default: return params<F>(round_numbers(arity).first);  // throws for unsupported arities
  }
}

}  // namespace cuzk::gadgets::neptune
