// porep_witness.hpp: a StackedDRG partition's assignment, step-parallel and written in place.
#include "cuzk/filecoin/porep_witness.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "cuzk/cs/placed_witness_cs.hpp"
#include "witness_vector.hpp"

namespace cuzk::filecoin {

namespace {

using PlacedWitnessCS = cs::PlacedWitnessCS<Fr>;

PorepWitnessLayout count_layout(const PorepShape& shape) {
  const StackedCircuit c = StackedCircuit::blank(shape);
  PorepWitnessLayout l;
  l.challenges = shape.challenges;
  cs::CountCS<Fr> head;
  const PorepHeader h = c.synthesize_header(head);
  l.header_inputs = head.num_inputs();
  l.header_aux = head.num_aux();
  // One challenge step by step, its counts relative to its start.
  cs::CountCS<Fr> one;
  PorepChallengeWires w = c.challenge_wires();
  l.steps = c.challenge_steps();
  for (const PorepStep& s : l.steps) {
    l.step_start.push_back({one.num_inputs() - 1, one.num_aux()});
    const std::size_t before = one.num_constraints();
    c.synthesize_step(one, 0, s, h, w);
    l.step_constraints.push_back(one.num_constraints() - before);
  }
  l.step_start.push_back({one.num_inputs() - 1, one.num_aux()});
  l.challenge_inputs = one.num_inputs() - 1;
  l.challenge_aux = one.num_aux();
  return l;
}

// The steps a challenge's others read from (run first, in order): the data leaf, the parent
// rows and the challenge bits. And the steps that read the labels (run after them).
bool is_source_step(const PorepStep& s) {
  return s.kind == PorepStep::kDataLeaf || s.kind == PorepStep::kParentRows || s.kind == PorepStep::kChallenge;
}
bool reads_labels(const PorepStep& s) { return s.kind == PorepStep::kCommRLast || s.kind == PorepStep::kColumnC; }

// A step's cost for the largest-first order: its constraints. (A Poseidon constraint's witness
// costs a few SHA-256 ones, but the Poseidon steps are 1% of a challenge: their order hardly
// matters; the TreeD proof is about 2.6 labelings, a labeling 90 parent proofs.)
std::size_t step_cost(const PorepWitnessLayout& l, std::size_t k) { return l.step_constraints[k]; }

}  // namespace

const PorepWitnessLayout& porep_witness_layout(const PorepShape& shape) {
  using Key = std::tuple<unsigned, unsigned, unsigned, std::uint64_t, std::size_t, std::size_t>;
  static std::mutex m;
  static std::map<Key, std::unique_ptr<const PorepWitnessLayout>> cache;  // entries are never removed
  const Key key{shape.tree.base_arity, shape.tree.sub_arity, shape.tree.top_arity, shape.nodes, shape.layers,
                shape.challenges};
  std::lock_guard<std::mutex> lock(m);
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<const PorepWitnessLayout>(count_layout(shape));
  return *slot;
}

void porep_witness_into(const StackedCircuit& c, std::span<Fr> out) {
  const PorepWitnessLayout& l = porep_witness_layout(c.shape());
  if (out.size() != l.size())
    throw std::invalid_argument("porep_witness_into: " + std::to_string(out.size()) + " elements for " +
                                std::to_string(l.size()) + " wires");
  const std::size_t n = c.num_challenges(), nsteps = l.steps.size(), aux_base = l.num_inputs();
  Fr* w = out.data();
  w[0] = Fr::one();
  auto place = [&](std::size_t ch, std::size_t k) {
    const auto& a = l.step_start[k];
    const auto& b = l.step_start[k + 1];
    const std::size_t in0 = l.header_inputs + ch * l.challenge_inputs, aux0 = l.header_aux + ch * l.challenge_aux;
    return PlacedWitnessCS(w, aux_base, in0 + a.inputs, in0 + b.inputs, aux0 + a.aux, aux0 + b.aux, "porep_witness");
  };
  auto check = [](const PlacedWitnessCS& s, std::size_t ch, std::size_t k) {
    if (!s.filled())
      throw std::logic_error("porep_witness: challenge " + std::to_string(ch) + " step " + std::to_string(k) +
                             " allocates fewer wires than counted");
  };

  PlacedWitnessCS head(w, aux_base, 1, l.header_inputs, 0, l.header_aux, "porep_witness");
  const PorepHeader h = c.synthesize_header(head);
  if (!head.filled()) throw std::logic_error("porep_witness: the header allocates fewer wires than counted");

  std::vector<PorepChallengeWires> wires(n, c.challenge_wires());
  auto run_step = [&](std::size_t ch, std::size_t k) {
    PlacedWitnessCS s = place(ch, k);
    c.synthesize_step(s, ch, l.steps[k], h, wires[ch]);
    check(s, ch, k);
  };
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t ch) {
    for (std::size_t k = 0; k < nsteps; ++k)
      if (is_source_step(l.steps[k])) run_step(ch, k);
  });

  // The independent steps of all challenges, largest first, taken in turn by one loop per thread;
  // a challenge's last labeling hands its two label-reading steps to the task group.
  struct Job {
    std::size_t ch, k;
  };
  std::vector<Job> jobs;
  std::vector<std::size_t> after;  // the label-reading steps
  for (std::size_t k = 0; k < nsteps; ++k) {
    if (reads_labels(l.steps[k])) after.push_back(k);
    else if (!is_source_step(l.steps[k]))
      for (std::size_t ch = 0; ch < n; ++ch) jobs.push_back({ch, k});
  }
  std::stable_sort(jobs.begin(), jobs.end(),
                   [&](const Job& a, const Job& b) { return step_cost(l, a.k) > step_cost(l, b.k); });
  std::vector<std::atomic<std::size_t>> labels_left(n);
  for (auto& x : labels_left) x = c.shape().layers;
  std::atomic<std::size_t> next{0};
  tbb::task_group tg;
  auto loop = [&] {
    for (std::size_t j; !tbb::is_current_task_group_canceling() &&
                        (j = next.fetch_add(1, std::memory_order_relaxed)) < jobs.size();) {
      const Job job = jobs[j];
      run_step(job.ch, job.k);
      if (l.steps[job.k].kind == PorepStep::kLabel && labels_left[job.ch].fetch_sub(1, std::memory_order_acq_rel) == 1)
        for (std::size_t k : after) tg.run([&run_step, ch = job.ch, k] { run_step(ch, k); });
    }
  };
  const int threads = std::max(1, tbb::this_task_arena::max_concurrency());
  for (int t = 0; t < threads; ++t) tg.run(loop);
  tg.wait();
}

std::vector<Fr> porep_witness_full(const StackedCircuit& c) {
  std::vector<Fr> w = detail::zeroed_witness_vector(porep_witness_layout(c.shape()).size());
  porep_witness_into(c, w);
  return w;
}

}  // namespace cuzk::filecoin
