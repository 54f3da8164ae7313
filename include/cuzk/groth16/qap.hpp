// From an R1CS to the QAP the Groth16 keys are built over: the circuit's rows followed
// by the public-input binding rows (A = x_j, B = C = 0 for j = 0..num_public), the
// domain size, and the evaluation of the u_j, v_j, w_j polynomials at a point tau.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::groth16 {

// Smallest power of two >= rows; snarkjs: 2^ceil(log2(nConstraints + nPublic + 1)).
inline std::size_t qap_domain_size(std::size_t constraints, std::size_t num_public) {
  std::size_t rows = constraints + num_public + 1;
  std::size_t n = 1;
  while (n < rows) n <<= 1;
  return n;
}

// Appends the binding rows to a copy of the constraint matrices.
template <class F>
struct QapMatrices {
  r1cs::CsrMatrix<F> a, b, c;
  std::size_t num_vars = 0;
  std::size_t num_public = 0;
  std::size_t domain_size = 0;
};

// The circuit's matrices are moved (not copied) when it is passed as an rvalue: a 32 GiB PoRep
// partition's A, B and C are 27 GiB.
template <class F>
QapMatrices<F> make_qap(r1cs::R1CS<F>&& cs) {
  cs.validate();
  QapMatrices<F> q;
  q.num_vars = cs.num_vars;
  q.num_public = cs.num_public;
  q.domain_size = qap_domain_size(cs.num_constraints, cs.num_public);
  q.a = std::move(cs.A);
  q.b = std::move(cs.B);
  q.c = std::move(cs.C);
  for (std::uint32_t j = 0; j <= q.num_public; ++j) {
    q.a.push_term(j, F::one());
    q.a.end_row();
    q.b.end_row();
    q.c.end_row();
  }
  return q;
}

template <class F>
QapMatrices<F> make_qap(const r1cs::R1CS<F>& cs) {
  return make_qap(r1cs::R1CS<F>(cs));
}

// out[j] = sum_i M[i][j] * weights[i]  (column combination of the rows).
template <class F>
std::vector<F> combine_columns(const r1cs::CsrMatrix<F>& m, const std::vector<F>& weights, std::size_t num_vars) {
  if (weights.size() < m.num_rows()) throw std::invalid_argument("combine_columns: fewer weights than rows");
  std::vector<F> out(num_vars, F::zero());
  for (std::size_t i = 0; i < m.num_rows(); ++i) {
    const auto row = m.row(i);
    for (std::size_t k = 0; k < row.size(); ++k) out[row.cols[k]] += row.vals[k] * weights[i];
  }
  return out;
}

}  // namespace cuzk::groth16
