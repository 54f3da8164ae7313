// Pairing engines for Groth16: the curve types and pairing of one curve under one name.
// This is the single curve dispatch point of the prover and verifier (DESIGN.md:
// "one curve dispatch, at the API boundary").
#pragma once

#include <span>
#include <string_view>
#include <utility>

#include "cuzk/ec/curves.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/poly/generator.hpp"

namespace cuzk::groth16 {

template <class G1C, class G2C>
struct PairingEngine {
  using G1Curve = G1C;
  using G2Curve = G2C;
  using Fr = typename G1C::Scalar;
  using Fq = typename G1C::Base;
  using G1Affine = ec::Affine<G1C>;
  using G2Affine = ec::Affine<G2C>;
  using G1 = ec::Jacobian<G1C>;
  using G2 = ec::Jacobian<G2C>;
  using Pair = std::pair<G1Affine, G2Affine>;

  // Points that are on the curve and in the prime-order subgroup (infinity included).
  static bool in_subgroup(const G1Affine& p) { return p.is_on_curve() && p.is_in_subgroup(); }
  static bool in_subgroup(const G2Affine& p) { return p.is_on_curve() && p.is_in_subgroup(); }

  // prod_i e(P_i, Q_i) == 1
  static bool pairing_check(std::span<const Pair> pairs) { return ec::pairing_check(pairs); }
  static auto pairing(const G1Affine& p, const G2Affine& q) { return ec::pairing(p, q); }
};

struct Bls12_381 : PairingEngine<ec::bls12_381::G1Curve, ec::bls12_381::G2Curve> {
  static constexpr std::string_view kName = "bls12_381";
  static constexpr std::string_view kSnarkjsName = "bls12381";
};

struct Bn254 : PairingEngine<ec::bn254::G1Curve, ec::bn254::G2Curve> {
  static constexpr std::string_view kName = "bn254";
  static constexpr std::string_view kSnarkjsName = "bn128";
};

}  // namespace cuzk::groth16
