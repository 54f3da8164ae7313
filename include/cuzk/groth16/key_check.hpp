// The shape check every prover backend runs on a proving key before using it.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "cuzk/groth16/keys.hpp"

namespace cuzk::groth16 {

// Throws std::invalid_argument when the key's parts disagree in size.
template <class E>
void check_key_shape(const ProvingKey<E>& pk) {
  auto bad = [](const std::string& m) { throw std::invalid_argument("proving key: " + m); };
  const std::size_t nv = pk.num_vars, np = pk.num_public(), n = pk.domain_size;
  if (nv < np + 1) bad("fewer variables than public inputs + 1");
  if (pk.a_query.size() != nv || pk.b_g1_query.size() != nv || pk.b_g2_query.size() != nv)
    bad("A/B query sizes differ from the number of variables");
  if (pk.l_query.size() != nv - np - 1) bad("L query size differs from the number of private variables");
  if (n == 0 || (n & (n - 1)) != 0) bad("domain size is not a power of two");
  const std::size_t want_h = pk.h_convention == HConvention::kOddCoset ? n : n - 1;
  if (pk.h_query.size() != want_h) bad("H query has " + std::to_string(pk.h_query.size()) + " points, expected " + std::to_string(want_h));
  if (pk.a.num_rows() > n || pk.b.num_rows() != pk.a.num_rows() || (pk.c_stored && pk.c.num_rows() != pk.a.num_rows()))
    bad("constraint matrices do not fit the domain");
  if (pk.a.num_rows() == 0) bad("no constraint matrices (a key read from .params needs its circuit)");
  for (const auto* m : {&pk.a, &pk.b, &pk.c})
    if (m->num_cols > nv) bad("a constraint matrix has more columns than variables");
}

}  // namespace cuzk::groth16
