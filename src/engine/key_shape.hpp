// The KeyShape of a loaded proving key (for the exact memory figures of shape.hpp).
#pragma once

#include "cuzk/groth16/keys.hpp"
#include "curve_values.hpp"
#include "shape.hpp"

namespace cuzk::engine {

template <class E>
KeyShape shape_of(const groth16::ProvingKey<E>& pk) {
  KeyShape s;
  s.curve = curve_of<E>();
  s.num_vars = pk.num_vars;
  s.num_public = pk.num_public();
  s.domain_size = pk.domain_size;
  s.h_len = pk.h_query.size();
  s.rows = pk.a.num_rows();
  s.nnz = pk.a.nnz() + pk.b.nnz() + (pk.c_stored ? pk.c.nnz() : 0);
  s.g1_bytes = sizeof(typename E::G1Affine);
  s.g2_bytes = sizeof(typename E::G2Affine);
  s.fr_bytes = sizeof(typename E::Fr);
  return s;
}

// Bytes of the key's point arrays, exactly (what the pinned tier page-locks).
template <class E>
std::uint64_t point_bytes(const groth16::ProvingKey<E>& pk) {
  return (pk.a_query.size() + pk.b_g1_query.size() + pk.l_query.size() + pk.h_query.size()) *
             sizeof(typename E::G1Affine) +
         pk.b_g2_query.size() * sizeof(typename E::G2Affine);
}

}  // namespace cuzk::engine
