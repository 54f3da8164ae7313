// circomlib's Poseidon for BN254 (poseidon.circom: t = nInputs + 1, R_F = 8, R_P per circomlib's
// N_ROUNDS_P table, state[0] = 0, digest = state[0]); constants generated into
// poseidon_bn254_constants.hpp by tests/oracle/gen_poseidon_constants.mjs. Parsed once per width.
#pragma once

#include <stdexcept>
#include <string>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/gadgets/poseidon_bn254_constants.hpp"

namespace cuzk::gadgets::circomlib {

using Fr = ff::bn254::Fr;

namespace detail {
template <std::size_t NC, std::size_t NM>
PoseidonParams<Fr> make(std::size_t t, int rp, const std::array<std::string_view, NC>& c,
                        const std::array<std::string_view, NM>& m) {
  PoseidonParams<Fr> p;
  p.t = t;
  p.full_rounds = 8;
  p.partial_rounds = static_cast<std::size_t>(rp);
  for (auto s : c) p.round_constants.push_back(Fr::from_string(s));
  for (auto s : m) p.mds.push_back(Fr::from_string(s));
  p.first = Fr::zero();
  p.output = 0;
  p.validate();
  return p;
}
}  // namespace detail

// Parameters for Poseidon(arity) with arity in {2, 4, 8}.
inline const PoseidonParams<Fr>& params(std::size_t arity) {
  using namespace poseidon_bn254;
  switch (arity) {
    case 2: { static const auto p = detail::make(3, kPartialRounds3, kC3, kM3); return p; }
    case 4: { static const auto p = detail::make(5, kPartialRounds5, kC5, kM5); return p; }
    case 8: { static const auto p = detail::make(9, kPartialRounds9, kC9, kM9); return p; }
    default: throw std::invalid_argument("circomlib Poseidon: arity " + std::to_string(arity) + " not generated (2, 4, 8)");
  }
}

}  // namespace cuzk::gadgets::circomlib
