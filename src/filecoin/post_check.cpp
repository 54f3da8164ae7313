// check_post_partition (post_check.hpp).
#include "cuzk/filecoin/post_check.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <mutex>

#include "cuzk/r1cs/eval.hpp"

namespace cuzk::filecoin {

PostCheckReport check_post_partition(const FallbackPostCircuit& circuit, std::size_t first_slot, std::size_t count) {
  const PostShape& shape = circuit.shape();
  first_slot = std::min(first_slot, shape.sectors);
  count = std::min(count, shape.sectors - first_slot);
  cs::RecordCS<Fr> rec(/*keep_names=*/true);
  FallbackPostCircuit::blank(PostShape{shape.tree, shape.sector_nodes, shape.challenges, 1}).synthesize_challenge(rec, 0);
  const r1cs::R1CS<Fr> slot = std::move(rec).finish();
  const std::size_t per_slot = slot.num_public;

  PostCheckReport report;
  report.constraints = std::uint64_t{slot.num_constraints} * shape.sectors;
  report.public_inputs.resize(per_slot * count);
  std::mutex m;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first_slot, first_slot + count), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      cs::WitnessCS<Fr> w;
      w.reserve(slot.num_vars);
      circuit.synthesize_challenge(w, k);
      const std::vector<Fr> full = w.assignment().full();
      std::copy(full.begin() + 1, full.begin() + 1 + static_cast<std::ptrdiff_t>(per_slot),
                report.public_inputs.begin() + static_cast<std::ptrdiff_t>((k - first_slot) * per_slot));
      const auto bad = full.size() == slot.num_vars ? r1cs::check<Fr>(slot, full) : std::nullopt;
      if (full.size() != slot.num_vars || bad) {
        std::lock_guard lock(m);
        if (!report.first_failure || report.first_failure->slot > k)
          report.first_failure = PostCheckReport::Failure{k, bad ? bad->index : 0,
                                                          bad ? bad->name : std::string("the slot allocates another number of wires")};
      }
    }
  });
  return report;
}

}  // namespace cuzk::filecoin
