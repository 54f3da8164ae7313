// Groth16 test setup: keys from an R1CS and "toxic waste" drawn from a seeded RNG.
// Reproducible (same seed, same key) and for testing and benchmarking only: a real
// deployment uses a ceremony (snarkjs .zkey, Filecoin's .params).
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/groth16/fixed_base.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/qap.hpp"

namespace cuzk::groth16 {

template <class Fr>
struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;

  template <class Rng>
  static ToxicWaste random(Rng& rng) {
    auto nz = [&] {
      for (;;) {
        Fr x = Fr::random(rng);
        if (!x.is_zero()) return x;
      }
    };
    return ToxicWaste{nz(), nz(), nz(), nz(), nz()};
  }
};

// Lagrange basis of the size-n domain {w^i} at tau (tau not in the domain):
// L_i(tau) = (tau^n - 1) * w^i / (n * (tau - w^i)).
template <class Fr>
std::vector<Fr> lagrange_at(std::size_t n, const Fr& omega, const Fr& tau) {
  std::vector<Fr> den(n), wi(n);
  Fr w = Fr::one();
  const Fr n_f = Fr::from_u64(n);
  for (std::size_t i = 0; i < n; ++i) {
    wi[i] = w;
    den[i] = n_f * (tau - w);
    if (den[i].is_zero()) throw std::invalid_argument("setup: tau lies in the evaluation domain");
    w *= omega;
  }
  ff::batch_inverse(std::span<Fr>(den));
  const Fr z = tau.pow(std::uint64_t{n}) - Fr::one();
  std::vector<Fr> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = z * wi[i] * den[i];
  return out;
}

inline std::size_t log2_exact(std::size_t n) {
  std::size_t k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

template <class E>
ProvingKey<E> setup_with_toxic_waste(const r1cs::R1CS<typename E::Fr>& cs, HConvention conv,
                                     const ToxicWaste<typename E::Fr>& tw) {
  using Fr = typename E::Fr;
  QapMatrices<Fr> q = make_qap(cs);
  const std::size_t n = q.domain_size;
  const std::size_t k = log2_exact(n);
  if (k + 1 > Fr::kTwoAdicity) throw std::invalid_argument("setup: circuit too large for the scalar field's 2-adicity");

  const std::vector<Fr> lag = lagrange_at(n, Fr::root_of_unity(k), tw.tau);
  const std::vector<Fr> u = combine_columns(q.a, lag, q.num_vars);
  const std::vector<Fr> v = combine_columns(q.b, lag, q.num_vars);
  const std::vector<Fr> w = combine_columns(q.c, lag, q.num_vars);

  const Fr gamma_inv = tw.gamma.inverse();
  const Fr delta_inv = tw.delta.inverse();
  std::vector<Fr> ic_s(q.num_public + 1), l_s(q.num_vars - q.num_public - 1);
  for (std::size_t j = 0; j < q.num_vars; ++j) {
    Fr t = tw.beta * u[j] + tw.alpha * v[j] + w[j];
    if (j <= q.num_public) ic_s[j] = t * gamma_inv;
    else l_s[j - q.num_public - 1] = t * delta_inv;
  }

  std::vector<Fr> h_s;
  if (conv == HConvention::kOddCoset) {
    // L^{(2n)}_{2i+1}(tau) / delta
    std::vector<Fr> lag2 = lagrange_at(2 * n, Fr::root_of_unity(k + 1), tw.tau);
    h_s.resize(n);
    for (std::size_t i = 0; i < n; ++i) h_s[i] = lag2[2 * i + 1] * delta_inv;
  } else {
    // tau^i * Z(tau) / delta, i < n - 1
    const Fr zd = (tw.tau.pow(std::uint64_t{n}) - Fr::one()) * delta_inv;
    h_s.resize(n - 1);
    Fr p = Fr::one();
    for (std::size_t i = 0; i + 1 < n; ++i) {
      h_s[i] = p * zd;
      p *= tw.tau;
    }
  }

  const FixedBaseTable<typename E::G1Curve> g1(E::G1Curve::generator());
  const FixedBaseTable<typename E::G2Curve> g2(E::G2Curve::generator());
  auto one1 = [&](const Fr& s) { return g1.mul(s).to_affine(); };
  auto one2 = [&](const Fr& s) { return g2.mul(s).to_affine(); };

  ProvingKey<E> pk;
  pk.vk.alpha_g1 = one1(tw.alpha);
  pk.vk.beta_g1 = one1(tw.beta);
  pk.vk.beta_g2 = one2(tw.beta);
  pk.vk.gamma_g2 = one2(tw.gamma);
  pk.vk.delta_g1 = one1(tw.delta);
  pk.vk.delta_g2 = one2(tw.delta);
  pk.vk.ic = g1.mul_many(ic_s);
  pk.h_convention = conv;
  pk.num_vars = q.num_vars;
  pk.domain_size = n;
  pk.a_query = g1.mul_many(u);
  pk.b_g1_query = g1.mul_many(v);
  pk.b_g2_query = g2.mul_many(v);
  pk.l_query = g1.mul_many(l_s);
  pk.h_query = g1.mul_many(h_s);
  pk.a = std::move(q.a);
  pk.b = std::move(q.b);
  pk.c = std::move(q.c);
  pk.c_stored = true;
  return pk;
}

// Seeded, reproducible test setup.
template <class E>
ProvingKey<E> setup(const r1cs::R1CS<typename E::Fr>& cs, HConvention conv, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return setup_with_toxic_waste<E>(cs, conv, ToxicWaste<typename E::Fr>::random(rng));
}

}  // namespace cuzk::groth16
