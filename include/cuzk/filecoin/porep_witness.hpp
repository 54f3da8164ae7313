// The full assignment of a StackedDRG partition, challenges in parallel: the header (replica id
// bits, comm_d, comm_r, comm_c, comm_r_last) in one witness system, then every challenge in its
// own, concurrently (oneTBB); the challenges share only the header's wires, and in witness mode
// a gadget reads only its operands' values, never their wire numbers, so each challenge's values
// are what a sequential synthesis computes. The parts are joined in allocation order: ONE, the
// header's inputs, each challenge's inputs, then the header's aux wires and each challenge's
// (the R1CS wire order). Tested equal to cs::witness(circuit).full().
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "cuzk/filecoin/porep_circuit.hpp"

namespace cuzk::filecoin {

inline std::vector<Fr> porep_witness_full(const StackedCircuit& c) {
  cs::WitnessCS<Fr> head;
  const PorepHeader h = c.synthesize_header(head);
  const std::size_t n = c.num_challenges();
  std::vector<cs::Assignment<Fr>> parts(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      cs::WitnessCS<Fr> w;
      c.synthesize_challenge(w, i, h);
      parts[i] = std::move(w).take_assignment();
    }
  });
  const cs::Assignment<Fr>& ha = head.assignment();
  std::size_t inputs = ha.inputs.size(), aux = ha.aux.size();
  for (const auto& p : parts) inputs += p.inputs.size() - 1, aux += p.aux.size();
  std::vector<Fr> w;
  w.reserve(inputs + aux);
  w.insert(w.end(), ha.inputs.begin(), ha.inputs.end());
  for (const auto& p : parts) w.insert(w.end(), p.inputs.begin() + 1, p.inputs.end());
  w.insert(w.end(), ha.aux.begin(), ha.aux.end());
  for (auto& p : parts) {
    w.insert(w.end(), p.aux.begin(), p.aux.end());
    p = {};
  }
  return w;
}

}  // namespace cuzk::filecoin
