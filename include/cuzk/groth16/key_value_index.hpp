// A proving key's constraint matrices with their value index (r1cs::index_values: each term's
// value as a 16-bit position in a table of the matrix's distinct values), as the engine holds
// every loaded key (engine::HostKey) and the CUDA backend uploads and streams it.
#pragma once

#include "cuzk/groth16/keys.hpp"
#include "cuzk/r1cs/value_dictionary.hpp"

namespace cuzk::groth16 {

// Indexes A, B and C (C only where it holds terms); returns how many got an index (a matrix
// with more than 65536 distinct values or no terms keeps none).
template <class E>
int index_key_values(ProvingKey<E>& pk) {
  int n = 0;
  for (auto* m : {&pk.a, &pk.b, &pk.c}) n += r1cs::index_values(*m) ? 1 : 0;
  return n;
}

}  // namespace cuzk::groth16
