// A synthetic BLS12-381 proving key and witness of real size for GPU timings (prove_bench,
// stream_bench): a mul-chain circuit z_j = z_{j-2} z_{j-1} filling a 2^k domain, its CSR
// matrices exact, its query points 2^16 distinct G1 (2^14 G2) points tiled, so a 2^24 key
// takes seconds, not minutes, of host time. Proofs made with it do not verify; the device
// work is that of a real proof. Witness values are dense field elements (no 0/1 help).
#pragma once

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/key_value_index.hpp"
#include "host_points.hpp"

namespace cuzk::bench {

struct SyntheticProof {
  using E = groth16::Bls12_381;
  groth16::ProvingKey<E> pk;
  std::vector<E::Fr> w;
  E::G1Affine h_fill;  // the point set_convention pads the H query with
};

template <class A>
std::vector<A> tiled(const std::vector<A>& base, std::size_t n) {
  std::vector<A> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = base[i % base.size()];
  return v;
}

// The key in the bellperson convention (C stored, H of n - 1 points).
inline SyntheticProof synthetic_mul_chain(std::size_t k) {
  using E = SyntheticProof::E;
  using Fr = E::Fr;
  const std::size_t n = std::size_t{1} << k, np = 1, nc = n - 3, nv = nc + 4;
  SyntheticProof out;
  // w = (1, out, x0, y0, z...), z_j = w[j-2] w[j-1]; constraint i: w[2+i] * w[3+i] = w[4+i];
  // then w[nv-1] * 1 = out; then the binding rows A = w_j (j <= np).
  std::vector<Fr>& w = out.w;
  w = fill<Fr>(nv, 3);
  w[0] = Fr::one();
  for (std::size_t j = 4; j < nv; ++j) w[j] = w[j - 2] * w[j - 1];
  w[1] = w[nv - 1];
  groth16::ProvingKey<E>& pk = out.pk;
  auto one_term = [](r1cs::CsrMatrix<Fr>& m, std::uint32_t col) {
    m.push_term(col, Fr::one());
    m.end_row();
  };
  for (auto* m : {&pk.a, &pk.b, &pk.c}) {
    m->num_cols = static_cast<std::uint32_t>(nv);
    m->row_ptr.reserve(n + 1), m->cols.reserve(n), m->vals.reserve(n);
  }
  for (std::size_t i = 0; i < nc; ++i) {
    one_term(pk.a, static_cast<std::uint32_t>(2 + i));
    one_term(pk.b, static_cast<std::uint32_t>(3 + i));
    one_term(pk.c, static_cast<std::uint32_t>(4 + i));
  }
  one_term(pk.a, static_cast<std::uint32_t>(nv - 1)), one_term(pk.b, 0), one_term(pk.c, 1);
  for (std::uint32_t j = 0; j <= np; ++j) one_term(pk.a, j), pk.b.end_row(), pk.c.end_row();
  const auto g1 = distinct_points<E::G1Curve>(std::size_t{1} << 16, 1);
  const auto g2 = distinct_points<E::G2Curve>(std::size_t{1} << 14, 2);
  pk.vk.alpha_g1 = pk.vk.beta_g1 = pk.vk.delta_g1 = g1[0];
  pk.vk.beta_g2 = pk.vk.gamma_g2 = pk.vk.delta_g2 = g2[0];
  pk.vk.ic = {g1[1], g1[2]};
  pk.num_vars = nv;
  pk.domain_size = n;
  pk.a_query = tiled(g1, nv);
  pk.b_g1_query = tiled(g1, nv);
  pk.b_g2_query = tiled(g2, nv);
  pk.l_query = tiled(g1, nv - np - 1);
  pk.h_query = tiled(g1, n - 1);
  pk.h_convention = groth16::HConvention::kZDivided;
  out.h_fill = g1[3];
  return out;
}

// The matrices' value index, as the engine gives every loaded key one (engine::HostKey), unless
// CUZK_BENCH_INDEX=0 (values streamed and resident as 32-byte elements, as before the index).
inline void index_unless_disabled(SyntheticProof& s) {
  const char* e = std::getenv("CUZK_BENCH_INDEX");
  if (e != nullptr && std::string(e) == "0") return;
  groth16::index_key_values(s.pk);
}

// Switches the key between the bellperson convention (C stored, n - 1 H points) and the
// snarkjs one (no C kept, n H points), as the two kinds of keys come.
inline void set_convention(SyntheticProof& s, groth16::HConvention conv) {
  const std::size_t n = s.pk.domain_size;
  s.pk.h_convention = conv;
  s.pk.c_stored = conv == groth16::HConvention::kZDivided;
  s.pk.h_query.resize(conv == groth16::HConvention::kZDivided ? n - 1 : n, s.h_fill);
}

}  // namespace cuzk::bench
