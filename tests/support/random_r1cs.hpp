// Random sparse R1CS with a dense mirror and a satisfying witness, and the naive dense reference
// computations (the r1cs, groth16, prover and GPU suites).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::test {

template <class F>
using Dense = std::vector<std::vector<F>>;  // [row][col]

template <class F>
struct RandomSystem {
  cuzk::r1cs::R1CS<F> r1cs;
  Dense<F> A, B, C;    // the same matrices, dense, built from the generated terms (not from the CSR)
  std::vector<F> w;    // a satisfying witness, w[0] == 1
};

// Random system: rows of up to max_terms terms (duplicate columns allowed; they add up), with the
// C row adjusted through one wire with non-zero value so that w satisfies every constraint.
template <class F>
RandomSystem<F> random_system(std::mt19937_64& rng, std::uint32_t num_vars, std::uint32_t num_public,
                              std::uint32_t num_constraints, std::uint32_t max_terms, bool with_names = false) {
  RandomSystem<F> s;
  s.r1cs = r1cs::make_empty_r1cs<F>(num_vars, num_public);
  s.w.resize(num_vars);
  s.w[0] = F::one();
  for (std::uint32_t j = 1; j < num_vars; ++j) {
    // Mix small values (booleans, like real witnesses) and full-size ones.
    const auto kind = rng() % 3;
    s.w[j] = kind == 0 ? F::from_u64(rng() % 2) : kind == 1 ? F::from_u64(rng() % 1000) : F::random(rng);
  }
  std::uniform_int_distribution<std::uint32_t> wire(0, num_vars - 1);
  auto rand_coeff = [&]() {
    const auto k = rng() % 4;
    return k == 0 ? F::one() : k == 1 ? -F::one() : k == 2 ? F::from_u64(rng() % 100) : F::random(rng);
  };
  auto rand_lc = [&](std::vector<F>& dense_row) {
    std::vector<r1cs::Term<F>> lc;
    const std::uint32_t n = static_cast<std::uint32_t>(rng() % (max_terms + 1));
    for (std::uint32_t t = 0; t < n; ++t) {
      r1cs::Term<F> term{wire(rng), rand_coeff()};
      dense_row[term.wire] += term.coeff;
      lc.push_back(term);
    }
    return lc;
  };
  auto dense_dot = [&](const std::vector<F>& row) {
    F acc = F::zero();
    for (std::uint32_t j = 0; j < num_vars; ++j) acc += row[j] * s.w[j];
    return acc;
  };
  for (std::uint32_t i = 0; i < num_constraints; ++i) {
    std::vector<F> da(num_vars), db(num_vars), dc(num_vars);
    auto a = rand_lc(da);
    auto b = rand_lc(db);
    auto c = rand_lc(dc);
    // Fix C: add a term on a wire with non-zero value so that <C,w> == <A,w>·<B,w>.
    std::uint32_t j;
    do j = wire(rng);
    while (s.w[j].is_zero());
    const F need = dense_dot(da) * dense_dot(db) - dense_dot(dc);
    r1cs::Term<F> fix{j, need * s.w[j].inverse()};
    dc[j] += fix.coeff;
    c.push_back(fix);
    r1cs::add_constraint<F>(s.r1cs, a, b, c, with_names ? "c" + std::to_string(i) : std::string());
    s.A.push_back(std::move(da));
    s.B.push_back(std::move(db));
    s.C.push_back(std::move(dc));
  }
  return s;
}

template <class F>
std::vector<F> dense_mul(const Dense<F>& m, const std::vector<F>& w) {
  std::vector<F> out;
  for (const auto& row : m) {
    F acc = F::zero();
    for (std::size_t j = 0; j < row.size(); ++j) acc += row[j] * w[j];
    out.push_back(acc);
  }
  return out;
}

// Index of the first row with (Aw)·(Bw) != Cw, or -1.
template <class F>
std::int64_t dense_first_unsatisfied(const RandomSystem<F>& s, const std::vector<F>& w) {
  const auto a = dense_mul(s.A, w), b = dense_mul(s.B, w), c = dense_mul(s.C, w);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] * b[i] != c[i]) return static_cast<std::int64_t>(i);
  return -1;
}

}  // namespace cuzk::test
