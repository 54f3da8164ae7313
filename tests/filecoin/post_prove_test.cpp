// PoSt SNARKs end to end on the CPU backend, with TEST keys written under the official names:
// the keys are read back as a node would read Filecoin's (.params with its points at infinity
// dropped, joined with the recorded circuit; .vk), a partition of synthetic vanilla proofs is
// proved and the proof verifies with the .vk against the inputs a chain verifier derives; a
// changed input or proof byte does not verify; a key of another circuit is refused at load.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/filecoin/post_vanilla_gen.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::filecoin {
namespace {

class PostProve : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("cuzk-post-prove-" + std::to_string(::getpid()));
    for (auto p : {RegisteredPoStProof::StackedDrgWindow2KiBV1, RegisteredPoStProof::StackedDrgWinning2KiBV1}) {
      const auto& info = post_proof_info(p);
      write_test_post_keys(dir_, info, record_post_circuit(post_shape(info)), 7);
    }
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static std::filesystem::path dir_;
};
std::filesystem::path PostProve::dir_;

Bytes32 seed_bytes(std::uint64_t s) {
  std::mt19937_64 rng(s);
  Bytes32 b{};
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  b[31] &= 0x3f;
  return b;
}

TEST_F(PostProve, PartitionsProveAndVerifyWithTheVk) {
  struct Case {
    RegisteredPoStProof proof;
    std::vector<std::uint64_t> sectors;
    std::size_t partition;
  };
  const Case cases[] = {
      {RegisteredPoStProof::StackedDrgWindow2KiBV1, {3, 9}, 0},
      {RegisteredPoStProof::StackedDrgWindow2KiBV1_2, {5}, 1},  // one sector: the partition is padded
      {RegisteredPoStProof::StackedDrgWinning2KiBV1, {42}, 0},
  };
  for (const auto& c : cases) {
    const PoStProofInfo& info = post_proof_info(c.proof);
    const PostKeyPaths paths = post_key_paths(dir_, info);
    ASSERT_TRUE(is_test_key(paths));
    const auto r1cs = record_post_circuit(post_shape(info));
    const auto pk = load_post_proving_key(paths, info, r1cs);
    const auto vk = read_post_vk(paths, info);

    const Bytes32 randomness = seed_bytes(c.sectors[0]);
    const auto synth = generate_post_vanilla_proofs(c.proof, randomness, c.sectors, c.partition, 11);
    PostPartitionInputs in;
    in.proof = c.proof;
    in.randomness = randomness;
    in.partition_index = c.partition;
    for (const auto& s : synth) in.vanilla_proofs.emplace_back(s.vanilla_proof);
    in.sector_ids = c.sectors;
    const PostPartition part = prepare_post_partition(in);

    const auto w = gadgets::circuits::parallel_witness<Fr>(part.circuit).full();
    groth16::CpuBackend<Bls12> cpu;
    groth16::PhaseTimings t;
    const auto proof = groth16::prove(pk, std::span<const Fr>(w), cpu, t);
    EXPECT_TRUE(groth16::verify(vk, proof, part.public_inputs)) << info.name;

    // A chain verifier's inputs: from the randomness and the sectors alone.
    std::vector<PublicSector> sectors;
    for (const auto& s : synth) sectors.push_back({s.sector_id, s.comm_r});
    const auto derived = info.type == PoStType::Window
                             ? partition_public_inputs(fallback_post_params(info), randomness, sectors, c.partition)
                             : post_public_inputs(info, randomness, sectors, 0);
    EXPECT_EQ(derived, part.public_inputs) << info.name;

    auto other = derived;
    other[1] += Fr::one();  // another challenged leaf
    EXPECT_FALSE(groth16::verify(vk, proof, other)) << info.name;
    auto bytes = groth16::write_bellperson_proof(proof);
    bytes[100] ^= 0x04;
    bool rejected = true;
    try {
      rejected = !groth16::verify(vk, groth16::read_bellperson_proof(bytes), derived);
    } catch (const DecodeError&) {
    }
    EXPECT_TRUE(rejected) << info.name;
  }
}

TEST_F(PostProve, AKeyOfAnotherCircuitIsRefusedAtLoad) {
  const auto& window = post_proof_info(RegisteredPoStProof::StackedDrgWindow2KiBV1);
  const auto& winning = post_proof_info(RegisteredPoStProof::StackedDrgWinning2KiBV1);
  // The Winning key's files named as the Window key's: a node with a mislabelled file.
  const auto wrong = std::filesystem::temp_directory_path() / ("cuzk-post-wrong-" + std::to_string(::getpid()));
  std::filesystem::create_directories(wrong);
  const PostKeyPaths from = post_key_paths(dir_, winning), to = post_key_paths(wrong, window);
  std::filesystem::copy_file(from.params, to.params);
  std::filesystem::copy_file(from.vk, to.vk);
  EXPECT_THROW(load_post_proving_key(to, window, record_post_circuit(post_shape(window))), std::invalid_argument);
  // A .vk that is not the .params file's own.
  std::filesystem::copy_file(post_key_paths(dir_, window).params, to.params, std::filesystem::copy_options::overwrite_existing);
  EXPECT_THROW(load_post_proving_key(to, window, record_post_circuit(post_shape(window))), DecodeError);
  std::filesystem::remove_all(wrong);
  // No key at all: the message names the file looked for.
  try {
    (void)read_post_vk(post_key_paths(wrong, window), window);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(post_key_paths(wrong, window).vk.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::filecoin
