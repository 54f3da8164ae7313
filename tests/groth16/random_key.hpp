// Random Groth16 keys for format tests: every point is a valid group element (random_points), the
// matrices are random sparse rows. The keys do not prove anything.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "support/random_points.hpp"

namespace cuzk::test {

template <class F, class Rng>
r1cs::CsrMatrix<F> random_matrix(std::size_t rows, std::uint32_t cols, Rng& rng) {
  r1cs::CsrMatrix<F> m;
  m.num_cols = cols;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t k = rng() % 4;
    for (std::size_t t = 0; t < k; ++t) m.push_term(static_cast<std::uint32_t>(rng() % cols), F::random(rng));
    m.end_row();
  }
  return m;
}

// nv wires, np public, domain n; odd-coset (snarkjs) shape unless z_divided.
template <class E, class Rng>
groth16::ProvingKey<E> random_key(std::size_t nv, std::size_t np, std::size_t n, Rng& rng, bool z_divided = false) {
  using G1C = typename E::G1Curve;
  using G2C = typename E::G2Curve;
  groth16::ProvingKey<E> pk;
  pk.vk.alpha_g1 = random_point<G1C>(rng);
  pk.vk.beta_g1 = random_point<G1C>(rng);
  pk.vk.beta_g2 = random_point<G2C>(rng);
  pk.vk.gamma_g2 = random_point<G2C>(rng);
  pk.vk.delta_g1 = random_point<G1C>(rng);
  pk.vk.delta_g2 = random_point<G2C>(rng);
  pk.vk.ic = random_points<G1C>(np + 1, rng);
  pk.num_vars = nv;
  pk.domain_size = n;
  pk.a_query = random_points<G1C>(nv, rng, z_divided);
  pk.b_g1_query = random_points<G1C>(nv, rng, z_divided);
  pk.b_g2_query = random_points<G2C>(nv, rng, z_divided);
  pk.l_query = random_points<G1C>(nv - np - 1, rng);
  pk.h_query = random_points<G1C>(z_divided ? n - 1 : n, rng);
  if (z_divided) {
    pk.h_convention = groth16::HConvention::kZDivided;
    pk.c_stored = true;
  } else {
    pk.h_convention = groth16::HConvention::kOddCoset;
    pk.c_stored = false;
    const std::size_t rows = n - 1;  // leave the last row empty: the reader infers rows from the data
    pk.a = random_matrix<typename E::Fr>(rows, static_cast<std::uint32_t>(nv), rng);
    pk.b = random_matrix<typename E::Fr>(rows, static_cast<std::uint32_t>(nv), rng);
    pk.a.push_term(0, E::Fr::one());  // make sure the last non-empty row is rows - 1 in both
    pk.a.end_row();
    pk.b.push_term(1, E::Fr::from_u64(7));
    pk.b.end_row();
  }
  return pk;
}

// The bellperson reading of a key: a/b queries without their infinity points, no matrices.
template <class E>
groth16::ProvingKey<E> drop_infinity_ab(groth16::ProvingKey<E> pk) {
  auto drop = [](auto& v) { std::erase_if(v, [](const auto& p) { return p.is_infinity(); }); };
  drop(pk.a_query);
  drop(pk.b_g1_query);
  drop(pk.b_g2_query);
  return pk;
}

}  // namespace cuzk::test
