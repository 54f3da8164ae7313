// A bellperson .params key joined with the circuit it was made for.
//
// bellperson's generator drops the points at infinity from the A, B_G1 and B_G2 queries: a
// variable whose A (or B) polynomial is zero (it appears in no A, or no B, linear combination)
// has no point there, and the prover pairs the remaining points with the variables in order
// using the circuit's density. cuzk's prover wants one point per variable, and the QAP
// matrices; both come from the recorded circuit: a variable is dense in A (B) when its column
// of the QAP's A (B) matrix, binding rows included, holds a nonzero coefficient.
//
// Joining also checks that the file fits the circuit, so a key made for another circuit (or
// another version of it) is refused with the counts that differ, before any proof: public
// inputs, variables, domain size, and the number of A and B points against the densities.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/qap.hpp"

namespace cuzk::groth16 {

// dense[j]: column j of m holds a nonzero coefficient.
template <class F>
std::vector<bool> column_density(const r1cs::CsrMatrix<F>& m, std::size_t num_vars) {
  std::vector<bool> dense(num_vars, false);
  for (std::size_t k = 0; k < m.nnz(); ++k)
    if (!m.value(k).is_zero()) dense[m.cols[k]] = true;
  return dense;
}

namespace bellperson_key_detail {
template <class P>
std::vector<P> expand(std::vector<P>&& filtered, const std::vector<bool>& dense, const char* what) {
  std::size_t count = 0;
  for (bool d : dense) count += d;
  if (count != filtered.size())
    throw std::invalid_argument(std::string("the key's ") + what + " query holds " + std::to_string(filtered.size()) +
                                " points; the circuit has " + std::to_string(count) + " variables with a nonzero " +
                                what + " polynomial");
  std::vector<P> out(dense.size(), P::infinity());
  std::size_t next = 0;
  for (std::size_t j = 0; j < dense.size(); ++j)
    if (dense[j]) out[j] = filtered[next++];
  return out;
}
}  // namespace bellperson_key_detail

// Completes `pk` as read by read_bellperson_params (filtered queries, no matrices) with the
// circuit's QAP: one A/B point per variable (infinity where the variable has none) and the
// A, B, C matrices with the binding rows. Throws std::invalid_argument naming the first count
// that does not fit.
// The circuit's matrices move into the key when it is passed as an rvalue.
template <class E>
void join_bellperson_key(ProvingKey<E>& pk, r1cs::R1CS<typename E::Fr>&& circuit) {
  QapMatrices<typename E::Fr> q = make_qap(std::move(circuit));
  auto must = [](std::size_t got, std::size_t want, const char* what) {
    if (got != want)
      throw std::invalid_argument(std::string("the key does not fit the circuit: ") + what + " " + std::to_string(got) +
                                  ", the circuit's " + std::to_string(want));
  };
  must(pk.vk.ic.size(), q.num_public + 1, "public inputs (IC points, ONE included)");
  must(pk.num_vars, q.num_vars, "variables");
  must(pk.domain_size, q.domain_size, "domain size");
  pk.a_query = bellperson_key_detail::expand(std::move(pk.a_query), column_density(q.a, q.num_vars), "A");
  const std::vector<bool> b_dense = column_density(q.b, q.num_vars);
  pk.b_g1_query = bellperson_key_detail::expand(std::move(pk.b_g1_query), b_dense, "B");
  pk.b_g2_query = bellperson_key_detail::expand(std::move(pk.b_g2_query), b_dense, "B (G2)");
  pk.h_convention = HConvention::kZDivided;
  pk.a = std::move(q.a);
  pk.b = std::move(q.b);
  pk.c = std::move(q.c);
  pk.c_stored = true;
}

template <class E>
void join_bellperson_key(ProvingKey<E>& pk, const r1cs::R1CS<typename E::Fr>& circuit) {
  join_bellperson_key(pk, r1cs::R1CS<typename E::Fr>(circuit));
}

}  // namespace cuzk::groth16
