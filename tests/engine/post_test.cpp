// Filecoin PoSt through the engine (cpu backend): TEST keys under the official names in a
// parameter directory serve the WinningPoSt and WindowPoSt circuits; requests carry vanilla
// proofs; every proof verifies with the directory's .vk against the inputs a chain verifier
// derives. Bad requests are refused at submit or before proving, with what is wrong; a size with
// no key files is refused naming the directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_public_inputs.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

namespace fc = filecoin;

const std::filesystem::path& post_params_dir() {
  static const ScratchDir dir("post-params");
  static const bool written = [] {
    for (auto p : {fc::RegisteredPoStProof::StackedDrgWindow2KiBV1, fc::RegisteredPoStProof::StackedDrgWinning2KiBV1}) {
      const auto& info = fc::post_proof_info(p);
      fc::write_test_post_keys(dir.path(), info, fc::record_post_circuit(fc::post_shape(info)), 3);
    }
    return true;
  }();
  (void)written;
  return dir.path();
}

EngineConfig post_config() {
  EngineConfig c = small_config({});
  c.filecoin_parameter_dir = post_params_dir().string();
  return c;
}

fc::Bytes32 randomness(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  fc::Bytes32 b{};
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  b[31] &= 0x3f;
  return b;
}

struct PostCase {
  ProofRequest request;
  std::vector<fc::PublicSector> sectors;
};

PostCase post_request(fc::RegisteredPoStProof proof, std::vector<std::uint64_t> sectors, std::size_t partition,
                      std::uint64_t seed) {
  const auto& info = fc::post_proof_info(proof);
  const fc::Bytes32 r = randomness(seed);
  PostCase c;
  c.request.kind = info.type == fc::PoStType::Winning ? ProofKind::kWinningPost : ProofKind::kWindowPost;
  PostRequest p;
  p.registered_proof = static_cast<std::uint32_t>(proof);
  p.randomness.assign(r.begin(), r.end());
  p.partition_index = partition;
  p.sector_ids = sectors;
  for (const auto& s : fc::generate_post_vanilla_proofs(proof, r, sectors, partition, seed)) {
    p.vanilla_proofs.emplace_back(s.vanilla_proof.begin(), s.vanilla_proof.end());
    c.sectors.push_back({s.sector_id, s.comm_r});
  }
  c.request.post = std::move(p);
  return c;
}

// The chain verifier's view: the proof bytes against the .vk and the inputs derived from the
// randomness and the sectors alone.
bool chain_verifies(const ProofResult& r, const PostCase& c) {
  const auto proof = static_cast<fc::RegisteredPoStProof>(c.request.post->registered_proof);
  const auto& info = fc::post_proof_info(proof);
  fc::Bytes32 rand{};
  std::copy(c.request.post->randomness.begin(), c.request.post->randomness.end(), rand.begin());
  const auto inputs = info.type == fc::PoStType::Window
                          ? fc::partition_public_inputs(fc::fallback_post_params(info), rand, c.sectors,
                                                        c.request.post->partition_index)
                          : fc::post_public_inputs(info, rand, c.sectors, 0);
  const auto vk = fc::read_post_vk(fc::post_key_paths(post_params_dir(), info), info);
  return groth16::verify(vk, groth16::read_bellperson_proof(r.proof_bytes), inputs);
}

TEST(EnginePost, WinningAndWindowPostProveAndVerifyWithTheVk) {
  Engine e(post_config());
  const PostCase cases[] = {
      post_request(fc::RegisteredPoStProof::StackedDrgWinning2KiBV1, {7}, 0, 1),
      post_request(fc::RegisteredPoStProof::StackedDrgWindow2KiBV1, {1, 2}, 0, 2),
      post_request(fc::RegisteredPoStProof::StackedDrgWindow2KiBV1_2, {9}, 3, 3),  // padded partition
  };
  for (const auto& c : cases) {
    const ProofResult r = e.prove(c.request, 120s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(r.proof_bytes.size(), 192u);
    EXPECT_TRUE(chain_verifies(r, c));
    EXPECT_GE(timing(r, "vanilla_check"), 0);
    EXPECT_GE(timing(r, "verify"), 0);
    EXPECT_EQ(r.circuit_id, c.request.kind == ProofKind::kWinningPost ? "winning-post-2kib" : "window-post-2kib");
    EXPECT_EQ(r.priority, c.request.kind == ProofKind::kWinningPost ? Priority::kCritical : Priority::kHigh);
  }
  // The same request again is the same job (idempotent); another randomness is another job.
  PostCase c = post_request(fc::RegisteredPoStProof::StackedDrgWinning2KiBV1, {7}, 0, 1);
  c.request.request_id = "winning-a";
  ASSERT_EQ(e.submit(c.request).code, ErrorCode::kOk);
  EXPECT_TRUE(e.submit(c.request).duplicate);
  c.request.post->randomness[0] ^= 1;
  EXPECT_EQ(e.submit(c.request).code, ErrorCode::kAlreadyExists);
}

TEST(EnginePost, BadRequestsAreRefusedWithWhatIsWrong) {
  Engine e(post_config());
  auto refused = [&](ProofRequest r, ErrorCode code, const std::string& needle) {
    const SubmitOutcome o = e.submit(std::move(r));
    EXPECT_EQ(o.code, code) << o.error;
    EXPECT_NE(o.error.find(needle), std::string::npos) << o.error;
  };
  const PostCase good = post_request(fc::RegisteredPoStProof::StackedDrgWindow2KiBV1, {1, 2}, 0, 5);

  ProofRequest no_post = good.request;
  no_post.post.reset();
  refused(no_post, ErrorCode::kInvalidArgument, "carries its PoSt inputs");
  ProofRequest wrong_kind = good.request;
  wrong_kind.kind = ProofKind::kWinningPost;
  refused(wrong_kind, ErrorCode::kInvalidArgument, "is a window_post proof");
  ProofRequest bad_id = good.request;
  bad_id.post->registered_proof = 99;
  refused(bad_id, ErrorCode::kInvalidArgument, "not a registered PoSt proof");
  ProofRequest short_proof = good.request;
  short_proof.post->vanilla_proofs[1].pop_back();
  refused(short_proof, ErrorCode::kInvalidArgument, "vanilla_proofs[1]");
  ProofRequest bad_rand = good.request;
  bad_rand.post->randomness[31] |= 0x80;
  refused(bad_rand, ErrorCode::kInvalidArgument, "canonical");
  ProofRequest too_many = good.request;
  too_many.post->vanilla_proofs.push_back(too_many.post->vanilla_proofs[0]);
  too_many.post->sector_ids.push_back(3);
  refused(too_many, ErrorCode::kInvalidArgument, "takes 1 to 2");
  ProofRequest unserved = post_request(fc::RegisteredPoStProof::StackedDrgWindow8MiBV1, {1}, 0, 6).request;
  refused(unserved, ErrorCode::kFailedPrecondition, post_params_dir().string());

  // Well-formed but inconsistent: the paths do not prove the challenges of this randomness.
  // Refused before any proving, as INVALID_ARGUMENT with the checker's reason.
  ProofRequest other_rand = good.request;
  other_rand.post->randomness[0] ^= 1;
  const ProofResult r = e.prove(other_rand, 60s);
  EXPECT_EQ(r.state, JobState::kFailed);
  EXPECT_EQ(r.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error.find("the PoSt inputs are refused"), std::string::npos) << r.error;
  EXPECT_LT(timing(r, "eval_abc"), 0) << "no proving phase ran";
  // Sector ids that are not the proofs'.
  ProofRequest ids = good.request;
  ids.post->sector_ids = {2, 1};
  const ProofResult r2 = e.prove(ids, 60s);
  EXPECT_EQ(r2.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r2.error.find("sector"), std::string::npos) << r2.error;
}

// filecoin_circuits serves only the circuits listed: the other one, its files there, is refused
// saying so; filecoin_circuit_id names a request's circuit (what the CLI lists), or refuses.
TEST(EnginePost, OnlyTheListedCircuitsAreServed) {
  EngineConfig c = post_config();
  c.filecoin_circuits = {"winning-post-2kib"};
  Engine e(std::move(c));
  const PostCase winning = post_request(fc::RegisteredPoStProof::StackedDrgWinning2KiBV1, {7}, 0, 1);
  const PostCase window = post_request(fc::RegisteredPoStProof::StackedDrgWindow2KiBV1, {1, 2}, 0, 2);
  EXPECT_EQ(filecoin_circuit_id(winning.request), "winning-post-2kib");
  EXPECT_EQ(filecoin_circuit_id(window.request), "window-post-2kib");
  const std::vector<std::string> ids = e.circuit_ids();
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "window-post-2kib"), 0);
  const ProofResult r = e.prove(winning.request, 120s);
  ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
  EXPECT_TRUE(chain_verifies(r, winning));
  const SubmitOutcome o = e.submit(window.request);
  EXPECT_EQ(o.code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(o.error.find("window-post-2kib is not served: not among the circuits served"), std::string::npos) << o.error;
  ProofRequest bad = window.request;
  bad.post->registered_proof = 99;
  EXPECT_THROW(filecoin_circuit_id(bad), std::invalid_argument);
  EXPECT_EQ(filecoin_circuit_id(ProofRequest{}), "");
}

TEST(EnginePost, NoParameterDirectoryServesNoPoSt) {
  Engine e(small_config({}));
  const SubmitOutcome o = e.submit(post_request(fc::RegisteredPoStProof::StackedDrgWinning2KiBV1, {7}, 0, 1).request);
  EXPECT_EQ(o.code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(o.error.find("parameter_dir"), std::string::npos) << o.error;
}

}  // namespace
}  // namespace cuzk::engine::test
