// Filecoin SnapDeals requests at submit (cpu backend): a parameter directory whose snap-2kib key
// file has the circuit's counts in its headers serves the circuit (its points are a hole in the
// file: nothing at submit reads them, so no minutes-long setup is needed here); requests are
// refused with INVALID_ARGUMENT naming the field or the partition (counts, sizes, commitments
// that are not field elements, vanilla proofs that do not decode or do not check) and nothing is
// queued; a size without key files is FAILED_PRECONDITION naming its circuit and the directory; a
// good request is split into one job per partition. With real TEST keys (the filecoin_snap_cli
// fixture's), a request is proved and its proof verified (ctest engine_snap_prove).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "cuzk/filecoin/snap_keys.hpp"
#include "cuzk/filecoin/snap_record.hpp"
#include "cuzk/filecoin/snap_request.hpp"
#include "cuzk/filecoin/snap_vanilla_gen.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

namespace fc = filecoin;
using namespace std::chrono_literals;

const fc::UpdateProofInfo& info_2kib() { return fc::update_proof_info(fc::RegisteredUpdateProof::StackedDrg2KiBV1); }

// A .params of the 2 KiB circuit's counts (ic, h, l; no a or b points) whose points are holes, and
// an empty .vk: enough for the engine to serve the circuit until a key load is attempted.
const std::filesystem::path& params_dir() {
  static const ScratchDir dir("snap-params");
  static const bool written = [] {
    const fc::KeyPaths paths = fc::snap_key_paths(dir.path(), info_2kib());
    const fc::SnapCircuitSize c = fc::snap_circuit_size(fc::snap_params(info_2kib().id));
    write_hole_key(paths.params, paths.vk, c.public_inputs, c.constraints, c.vars);
    return true;
  }();
  (void)written;
  return dir.path();
}

std::vector<std::uint8_t> bytes_of(const fc::Fr& x) {
  const fc::Bytes32 b = x.to_bytes_le();
  return {b.begin(), b.end()};
}

// A consistent 2 KiB update and its request.
struct SnapCase {
  fc::SnapTestUpdate update;
  ProofRequest request;
};

SnapCase snap_case(std::uint64_t seed) {
  const fc::SnapParams p = fc::snap_params(info_2kib().id);
  SnapCase c{fc::make_snap_test_update(p, fc::snap_h_default(p.sector_nodes), seed), {}};
  c.request.kind = ProofKind::kSnapDeals;
  SnapRequest s;
  s.registered_proof = 0;
  s.comm_r_old = bytes_of(c.update.pub.comm_r_old);
  s.comm_r_new = bytes_of(c.update.pub.comm_r_new);
  s.comm_d_new = bytes_of(c.update.pub.comm_d_new);
  const std::vector<std::uint8_t> proof = fc::encode_snap_partition_proof(fc::make_snap_partition_proof(c.update, 0));
  s.partition_proofs.emplace_back(proof.begin(), proof.end());
  c.request.snap = std::move(s);
  return c;
}

EngineConfig snap_config() {
  EngineConfig c = small_config({});
  c.filecoin_parameter_dir = params_dir().string();
  c.host_budget_bytes = c.vram_budget_bytes = 8ull << 30;  // budgets, not allocations: a 2 KiB key is 1.3 GB
  return c;
}

std::string refusal(Engine& e, const ProofRequest& r, ErrorCode want) {
  const SubmitOutcome o = e.submit(r);
  EXPECT_EQ(o.code, want) << o.error;
  return o.error;
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(EngineSnap, RefusalsAtSubmit) {
  Engine e(snap_config());
  const SnapCase good = snap_case(5);
  auto changed = [&](auto edit) {
    ProofRequest r = good.request;
    edit(*r.snap);
    return r;
  };
  const auto bad = ErrorCode::kInvalidArgument;
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.registered_proof = 5; }), bad),
             "snap.registered_proof 5 is not a registered update proof");
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.partition_proofs.push_back(s.partition_proofs[0]); }), bad),
             "snap.partition_proofs holds 2 proofs; a StackedDrg2KiBV1 update has 1 partitions");
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.partition_proofs.clear(); }), bad), "holds 0 proofs");
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.comm_r_new.pop_back(); }), bad),
             "snap.comm_r_new must be 32 bytes, not 31");
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.comm_d_new.assign(32, 0xff); }), bad),
             "snap.comm_d_new is not a canonical field element");
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.partition_proofs[0].pop_back(); }), bad),
             "snap.partition_proofs[0] is " + std::to_string(good.request.snap->partition_proofs[0].size() - 1) +
                 " bytes; a StackedDrg2KiBV1 partition proof is " +
                 std::to_string(good.request.snap->partition_proofs[0].size()));
  // A changed byte of comm_c (the proof's first field): the TreeR roots no longer give comm_r_old.
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.partition_proofs[0][0] ^= 1; }), bad),
             "snap.partition_proofs[0] is refused: SnapDeals partition 0");
  // The top byte of comm_c made 0xff: not a field element, named with its offset.
  EXPECT_HAS(refusal(e, changed([](SnapRequest& s) { s.partition_proofs[0][31] = '\xff'; }), bad),
             "comm_c is not a canonical field element");
  // Another update's comm_r_new: its challenges are not the proof's.
  const SnapCase other = snap_case(6);
  EXPECT_HAS(refusal(e, changed([&](SnapRequest& s) { s.comm_r_new = other.request.snap->comm_r_new; }), bad),
             "snap.partition_proofs[0] is refused: SnapDeals partition 0");
  // Other kinds' inputs, or a snap circuit named for a generic request.
  ProofRequest seeded = good.request;
  seeded.request_id = "seeded";
  seeded.native_seed = 1;
  EXPECT_HAS(refusal(e, seeded, bad), "takes a sector update's vanilla proofs (snap), not a witness");
  ProofRequest generic;
  generic.circuit_id = "snap-2kib";
  generic.native_seed = 1;
  EXPECT_HAS(refusal(e, generic, bad), "circuit snap-2kib proves Filecoin SnapDeals: use kind snap_deals");
  ProofRequest named = good.request;
  named.request_id = "named";
  named.circuit_id = "porep-2kib";
  EXPECT_HAS(refusal(e, named, bad), "circuit_id \"porep-2kib\" is not the request's circuit snap-2kib");
  // A size whose key files are not in the directory: its circuit and the directory are named.
  ProofRequest big = good.request;
  big.request_id = "big";
  big.snap->registered_proof = 3;
  const std::string why = refusal(e, big, ErrorCode::kFailedPrecondition);
  EXPECT_HAS(why, "snap-32gib is not served: its .params and .vk are not in " + params_dir().string());
  EXPECT_HAS(why, "cuzk snap setup");
  EXPECT_EQ(e.status().failed, 0u);
}

TEST(EngineSnap, AGoodRequestIsOneJobPerPartition) {
  Engine e(snap_config());
  const StatusSnapshot s = e.status();
  EXPECT_TRUE(
      std::any_of(s.keys.begin(), s.keys.end(), [](const KeyStatus& k) { return k.circuit_id == "snap-2kib"; }));
  SnapCase c = snap_case(7);
  c.request.request_id = "upd";
  const SubmitOutcome o = e.submit(c.request);
  ASSERT_EQ(o.code, ErrorCode::kOk) << o.error;
  EXPECT_TRUE(e.submit(c.request).duplicate);
  // The partition job exists; it fails at its key (the test key file has no points), and so does the request.
  const auto r = e.await("upd", 60s);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->state, JobState::kFailed);
  EXPECT_EQ(r->circuit_id, "snap-2kib");
  EXPECT_EQ(r->kind, ProofKind::kSnapDeals);
  EXPECT_HAS(r->error, ".vk");
  EXPECT_EQ(e.peek("upd/partition-0").state, JobState::kFailed);
  EXPECT_EQ(e.peek("upd/partition-1").code, ErrorCode::kNotFound);
}

// With the 2 KiB TEST keys of `cuzk snap setup` (CUZK_SNAP_TEST_KEYS: the filecoin_snap_cli
// fixture's directory), a request is proved: its one partition's 192-byte proof verifies with the
// directory's .vk against the inputs a verifier derives from the commitments, and not against
// another update's.
TEST(EngineSnapProve, AProofVerifiesWithTheDirectorysKey) {
  const char* dir = std::getenv("CUZK_SNAP_TEST_KEYS");
  if (dir == nullptr) GTEST_SKIP() << "CUZK_SNAP_TEST_KEYS is not set (ctest runs this as engine_snap_prove)";
  EngineConfig config = small_config({});
  config.filecoin_parameter_dir = dir;
  config.host_budget_bytes = config.vram_budget_bytes = 8ull << 30;
  Engine e(config);
  SnapCase c = snap_case(11);
  c.request.request_id = "update";
  const SubmitOutcome o = e.submit(c.request);
  ASSERT_EQ(o.code, ErrorCode::kOk) << o.error;
  const auto r = e.await("update", 280s);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->state, JobState::kSucceeded) << r->error;
  EXPECT_EQ(r->circuit_id, "snap-2kib");
  ASSERT_EQ(r->proof_bytes.size(), groth16::kBellpersonProofSize);
  const auto vk = fc::read_snap_vk(fc::snap_key_paths(dir, info_2kib()), info_2kib());
  const groth16::Proof<fc::Bls12> proof = groth16::read_bellperson_proof(r->proof_bytes);
  const fc::SnapPublic& pub = c.update.pub;
  EXPECT_TRUE(groth16::verify(vk, proof, std::span<const fc::Fr>(fc::snap_partition_inputs(info_2kib(), pub, 0))));
  const fc::SnapPublic other = snap_case(12).update.pub;
  EXPECT_FALSE(groth16::verify(vk, proof, std::span<const fc::Fr>(fc::snap_partition_inputs(info_2kib(), other, 0))));
}

}  // namespace
}  // namespace cuzk::engine::test
