// Groth16 verify: e(A, B) = e(alpha, beta) * e(vk_x, gamma) * e(C, delta),
// with vk_x = IC_0 + sum_i x_i IC_i, checked as one multi-pairing equal to 1. vk_x is a
// multi-scalar multiplication (multithreaded Pippenger) when there are many public inputs: a
// 32 GiB WindowPoSt partition has 25,839.
#pragma once

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/msm/msm.hpp"

namespace cuzk::groth16 {

// Throws std::invalid_argument when the public inputs do not match the key's count or the key
// is degenerate (degenerate_vk_reason);
// returns false for a proof that does not verify (including points that are not in
// the prime-order subgroups).
template <class E>
bool verify(const VerifyingKey<E>& vk, const Proof<E>& proof, std::span<const typename E::Fr> public_inputs) {
  using G1 = typename E::G1;
  if (vk.ic.empty()) throw std::invalid_argument("verifying key has no IC points");
  if (const std::string why = degenerate_vk_reason(vk); !why.empty()) throw std::invalid_argument("verifying key: " + why);
  if (public_inputs.size() != vk.num_public())
    throw std::invalid_argument("proof has " + std::to_string(public_inputs.size()) + " public inputs but the key expects " +
                                std::to_string(vk.num_public()));
  if (!E::in_subgroup(proof.a) || !E::in_subgroup(proof.b) || !E::in_subgroup(proof.c)) return false;

  G1 acc = G1::from_affine(vk.ic[0]);
  if (public_inputs.size() < 32) {
    for (std::size_t i = 0; i < public_inputs.size(); ++i) acc = acc + G1::from_affine(vk.ic[i + 1]) * public_inputs[i];
  } else {
    acc = acc + msm::msm<typename E::G1Curve>(std::span<const typename E::G1Affine>(vk.ic).subspan(1), public_inputs);
  }
  const typename E::G1Affine vk_x = acc.to_affine();

  const std::array<std::pair<typename E::G1Affine, typename E::G2Affine>, 4> pairs{{
      {-proof.a, proof.b},
      {vk.alpha_g1, vk.beta_g2},
      {vk_x, vk.gamma_g2},
      {proof.c, vk.delta_g2},
  }};
  return E::pairing_check(std::span<const std::pair<typename E::G1Affine, typename E::G2Affine>>(pairs));
}

}  // namespace cuzk::groth16
