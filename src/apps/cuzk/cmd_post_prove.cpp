// cuzk post prove --proof P --randomness R [--partition K] [--sector-ids 1,2] --vanilla FILE...
//                 [--params-dir DIR] [--out proof.bin] [--public public.json] [--backend auto|cpu|cuda] [--quiet]
// One PoSt SNARK (a WindowPoSt partition or a WinningPoSt) from the sectors' vanilla proofs,
// through the proving engine in this process (filecoin_prove.hpp: on the GPU where one is
// present, else the CPU). Everything is checked here before the engine starts, errors naming the
// files (prepare_post_partition); the engine checks the request again, derives the public inputs
// from it (randomness, partition, the sectors' ids and comm_r), never from what the witness
// exposes, and verifies the proof with the .vk against them; only then is it written.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "files.hpp"
#include "filecoin_prove.hpp"
#include "post_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

// The vanilla files, each checked for the size its registered proof has (bincode sizes are
// fixed by the shape), so a truncated or foreign file is named before decoding.
std::vector<std::string> read_vanilla_files(const std::vector<std::string>& files, const fc::PoStProofInfo& info) {
  const std::size_t want = fc::vanilla_proof_size(info.id);
  std::vector<std::string> out;
  out.reserve(files.size());
  for (const std::string& f : files) {
    out.push_back(read_text_file(f));
    if (out.back().size() != want)
      throw DecodeError(f + ": " + std::to_string(out.back().size()) + " bytes; a " + std::string(info.name) +
                        " vanilla proof is " + std::to_string(want) + " bytes (" +
                        (out.back().size() < want ? "truncated" : "trailing bytes, or another proof kind") + ")");
  }
  return out;
}

// prepare_post_partition names a bad proof by its position ("vanilla proof 3 of 8: ..."); the
// operator knows it by its file.
[[noreturn]] void rethrow_with_file(const DecodeError& e, const std::vector<std::string>& files) {
  const std::string w = e.what();
  constexpr std::string_view kPrefix = "vanilla proof ";
  if (w.starts_with(kPrefix)) {
    std::size_t i = 0, p = kPrefix.size();
    while (p < w.size() && w[p] >= '0' && w[p] <= '9') i = i * 10 + static_cast<std::size_t>(w[p++] - '0');
    if (p > kPrefix.size() && i < files.size()) throw DecodeError(files[i] + ": " + w);
  }
  throw e;
}

}  // namespace

int run_post_prove(const PostProveArgs& a) {
  const fc::PoStProofInfo& info = fc::post_proof_info(parse_post_proof(a.proof));
  const fc::Bytes32 randomness = parse_randomness(a.randomness, a.chain_randomness);
  groth16::PhaseTimings prep;

  engine::ProofRequest req;
  req.kind = info.type == fc::PoStType::Winning ? engine::ProofKind::kWinningPost : engine::ProofKind::kWindowPost;
  engine::PostRequest& post = req.post.emplace();
  post.registered_proof = static_cast<std::uint32_t>(info.id);
  post.randomness.assign(randomness.begin(), randomness.end());
  post.partition_index = a.partition;
  std::vector<fc::Fr> public_inputs;
  std::size_t sectors = 0;
  {
    groth16::ScopedPhase p(prep, "prepare");
    post.vanilla_proofs = read_vanilla_files(a.vanilla, info);
    fc::PostPartitionInputs in;
    in.proof = info.id;
    in.randomness = randomness;
    in.partition_index = a.partition;
    for (const std::string& f : post.vanilla_proofs) in.vanilla_proofs.push_back(as_bytes(f));
    if (!a.sector_ids.empty()) in.sector_ids = post.sector_ids = parse_sector_ids(a.sector_ids);
    try {
      fc::PostPartition part = fc::prepare_post_partition(in);
      public_inputs = std::move(part.public_inputs);
      sectors = part.sectors.size();
    } catch (const DecodeError& e) {
      rethrow_with_file(e, a.vanilla);
    }
  }
  const fc::KeyPaths key = fc::post_key_paths(a.params_dir, info);
  const bool test = require_cli_key(key, info.name, fc::kPostSetupCommand);
  const prover::InProcessResult r = prove_filecoin(a.params_dir, a.backend, std::move(req), a.quiet);
  const std::vector<std::uint8_t>& bytes = r.result.proof_bytes;
  write_text_file(a.out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!a.pub.empty())
    write_text_file(a.pub, nlohmann::json::parse(r.result.public_json).dump(1) + "\n");  // what the proof verified against
  if (!a.quiet) {
    std::fprintf(stderr, "proved %s partition %zu on the %s backend: %zu sector(s) in %zu slots, %zu public inputs%s\n",
                 std::string(info.name).c_str(), a.partition, r.backend.c_str(), sectors, info.circuit_sector_count,
                 public_inputs.size(), test ? " (TEST key)" : "");
    double total = 0;
    print_phases(prep, total);
    print_total(total + print_engine_phases(r.result.timings));
  }
  return 0;
}

}  // namespace cuzk::cli
