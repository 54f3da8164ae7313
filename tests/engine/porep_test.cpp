// Filecoin PoRep requests for one partition of the sector (PorepRequest::partition), cpu backend.
// A partition the C1 does not have is refused at submit with INVALID_ARGUMENT naming it and the
// C1's partition count, and nothing is queued. A 32 GiB C1 (10 partitions; sparse, made here; opt-in: CUZK_ENGINE_LARGE_TESTS=1)
// split for partition 3 is that partition alone, one job named "<request>/partition-3", and the
// whole C1 is its 10 partitions in order. The parameter directories hold .params files of the
// circuits' counts whose points are holes (nothing here loads a key). With real TEST keys (the
// filecoin_porep_cli fixture's), partition 0 of a 2 KiB sector is proved alone and its proof
// verifies with the directory's .vk against that partition's public inputs (ctest
// engine_porep_prove).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include "cuzk/filecoin/c1_circuit.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "errors.hpp"
#include "filecoin_circuit.hpp"
#include "partition_group.hpp"
#include "porep_circuit.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

namespace fc = filecoin;
using fc::RegisteredSealProof;

const fc::SealProofInfo& info_of(RegisteredSealProof p) { return fc::seal_proof_info(p); }

// The proof's circuit as a hole key (support.hpp write_hole_key).
void write_hole_key(const std::filesystem::path& dir, const fc::SealProofInfo& info) {
  const fc::KeyPaths paths = fc::porep_key_paths(dir, info);
  const fc::PorepCircuitSize c = fc::porep_circuit_size(fc::porep_shape_of(fc::c1_shape(info.id)));
  test::write_hole_key(paths.params, paths.vk, c.public_inputs, c.constraints, c.vars);
}

// What `cuzk-bench gen-vanilla porep --seed N` makes: sealed in memory (2 KiB) or sparse (32 GiB).
fc::SealCommitPhase1 c1_of(RegisteredSealProof p, std::uint64_t seed) {
  return fc::generate_porep_c1(fc::porep_gen_params(p, seed));
}

// The request for `c1` (bincode, its registered proof named), for one partition or all.
ProofRequest porep_request(const fc::SealCommitPhase1& c1, std::optional<std::uint32_t> partition,
                           const std::string& id) {
  ProofRequest r;
  r.request_id = id;
  r.kind = ProofKind::kPorep;
  PorepRequest& p = r.porep.emplace();
  const std::vector<std::uint8_t> bytes = fc::encode_c1_bincode(c1);
  p.c1.assign(bytes.begin(), bytes.end());
  p.registered_proof = static_cast<std::uint32_t>(c1.registered_proof);
  p.partition = partition;
  return r;
}

EngineConfig porep_config(const std::filesystem::path& dir) {
  EngineConfig c = small_config({});
  c.filecoin_parameter_dir = dir.string();
  c.host_budget_bytes = c.vram_budget_bytes = 8ull << 30;  // budgets, not allocations: a 2 KiB key is 2 GB
  return c;
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(EnginePorep, APartitionTheC1DoesNotHaveIsRefusedAtSubmit) {
  const ScratchDir dir("porep-params");
  write_hole_key(dir.path(), info_of(RegisteredSealProof::StackedDrg2KiBV1_1));
  Engine e(porep_config(dir.path()));
  const fc::SealCommitPhase1 c1 = c1_of(RegisteredSealProof::StackedDrg2KiBV1_1, 3);
  for (const std::uint32_t k : {1u, 7u}) {
    const SubmitOutcome o = e.submit(porep_request(c1, k, "beyond"));
    EXPECT_EQ(o.code, ErrorCode::kInvalidArgument) << o.error;
    EXPECT_HAS(o.error, numbered("porep.partition ", static_cast<int>(k),
                                 ": a StackedDrg2KiBV1_1 C1 has 1 partition(s), 0 to 0"));
  }
  // Nothing was queued under the id: neither the request nor a partition job.
  EXPECT_EQ(e.peek("beyond").code, ErrorCode::kNotFound);
  EXPECT_EQ(e.peek("beyond/partition-0").code, ErrorCode::kNotFound);
  EXPECT_EQ(e.peek("beyond/partition-1").code, ErrorCode::kNotFound);
  EXPECT_EQ(e.status().failed, 0u);
}

// Circuit::split of the porep-32gib circuit (served from hole keys; its split decodes and checks
// the C1, nothing more), and the partition jobs' ids the engine gives split()'s inputs
// (PartitionGroup).
// It records the 32 GiB circuit twice (~35 s on 2 cores): opt-in, CUZK_ENGINE_LARGE_TESTS=1
// (the job naming alone is PartitionGroup.InputsNameTheirJobsByPartitionNumber's).
TEST(EnginePorep, OnePartitionOfA32GiBSectorIsOneJobNamedForIt) {
  if (std::getenv("CUZK_ENGINE_LARGE_TESTS") == nullptr)
    GTEST_SKIP() << "records the 32 GiB PoRep circuit twice (~35 s): set CUZK_ENGINE_LARGE_TESTS=1";
  const ScratchDir dir("porep-params-32g");
  const fc::SealProofInfo& info = info_of(RegisteredSealProof::StackedDrg32GiBV1_1);
  write_hole_key(dir.path(), info);
  const std::vector<std::string> every;  // no filecoin_circuits list: all served
  std::map<std::string, std::string> left_out;
  const std::vector<std::unique_ptr<Circuit>> circuits = make_porep_circuits(dir.path(), {every, left_out});
  const auto it = std::find_if(circuits.begin(), circuits.end(), [](const auto& c) { return c->id() == "porep-32gib"; });
  ASSERT_NE(it, circuits.end()) << "porep-32gib is not served from the hole keys";
  const Circuit& circuit = **it;
  const fc::SealCommitPhase1 c1 = c1_of(RegisteredSealProof::StackedDrg32GiBV1_1, 3);
  ASSERT_EQ(c1.partitions.size(), 10u);

  const ProofRequest third = porep_request(c1, 3, "sector");
  circuit.check_request(third);
  const auto one = circuit.split(third);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]->index, 3u);
  const PartitionGroup group("sector", one);
  EXPECT_EQ(group.partition_ids(), std::vector<std::string>{"sector/partition-3"});

  try {
    circuit.split(porep_request(c1, 10, "beyond"));
    ADD_FAILURE() << "partition 10 of a 32 GiB C1 was split";
  } catch (const EngineError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    EXPECT_HAS(std::string(e.what()), "porep.partition 10: a StackedDrg32GiBV1_1 C1 has 10 partition(s), 0 to 9");
  }

  const auto all = circuit.split(porep_request(c1, std::nullopt, "sector"));
  ASSERT_EQ(all.size(), 10u);
  std::vector<std::string> ids;
  for (int k = 0; k < 10; ++k) ids.push_back(numbered("sector/partition-", k));
  EXPECT_EQ(PartitionGroup("sector", all).partition_ids(), ids);
}

// With the 2 KiB TEST keys of `cuzk porep setup` (CUZK_POREP_TEST_KEYS: the filecoin_porep_cli
// fixture's directory), partition 0 proved alone: one job, its 192-byte proof verifying with the
// directory's .vk against the partition's public inputs, and not against another sector's.
TEST(EnginePorepProve, OnePartitionsProofVerifiesWithItsInputs) {
  const char* dir = std::getenv("CUZK_POREP_TEST_KEYS");
  if (dir == nullptr) GTEST_SKIP() << "CUZK_POREP_TEST_KEYS is not set (ctest runs this as engine_porep_prove)";
  Engine e(porep_config(dir));
  const fc::SealCommitPhase1 c1 = c1_of(RegisteredSealProof::StackedDrg2KiBV1_1, 3);
  const SubmitOutcome o = e.submit(porep_request(c1, 0, "one"));
  ASSERT_EQ(o.code, ErrorCode::kOk) << o.error;
  const auto r = e.await("one", 280s);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
  EXPECT_EQ(r->circuit_id, "porep-2kib");
  EXPECT_EQ(e.peek("one/partition-0").state, JobState::kSucceeded);
  ASSERT_EQ(r->proof_bytes.size(), groth16::kBellpersonProofSize);
  const fc::SealProofInfo& info = info_of(c1.registered_proof);
  const auto vk = fc::read_porep_vk(fc::porep_key_paths(dir, info), info);
  const groth16::Proof<fc::Bls12> proof = groth16::read_bellperson_proof(r->proof_bytes);
  const auto inputs = fc::porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 0);
  EXPECT_TRUE(groth16::verify(vk, proof, std::span<const fc::Fr>(inputs)));
  const fc::SealCommitPhase1 other = c1_of(RegisteredSealProof::StackedDrg2KiBV1_1, 4);
  const auto others =
      fc::porep_public_inputs(other.registered_proof, other.replica_id, other.comm_d, other.comm_r, other.seed, 0);
  EXPECT_FALSE(groth16::verify(vk, proof, std::span<const fc::Fr>(others)));
}

}  // namespace
}  // namespace cuzk::engine::test
