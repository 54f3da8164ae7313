// cuzk post prove --proof P --randomness R [--partition K] [--sector-ids 1,2] --vanilla FILE...
//                 [--params-dir DIR] [--out proof.bin] [--public public.json] [--quiet]
// One PoSt SNARK (a WindowPoSt partition or a WinningPoSt) from the sectors' vanilla proofs, on
// the CPU. Everything is checked before proving (prepare_post_partition); the proof is verified
// with the .vk against the public inputs derived from the request (randomness, partition, the
// sectors' ids and comm_r), never against what the witness exposes, and only then written.
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/post_keys.hpp"
#include "cuzk/filecoin/post_partition.hpp"
#include "cuzk/filecoin/post_record.hpp"
#include "cuzk/filecoin/vanilla.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "files.hpp"
#include "key_cli.hpp"
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
  groth16::PhaseTimings t;

  const fc::PostPartition part = [&] {
    groth16::ScopedPhase p(t, "prepare");
    const std::vector<std::string> files = read_vanilla_files(a.vanilla, info);
    fc::PostPartitionInputs in;
    in.proof = info.id;
    in.randomness = randomness;
    in.partition_index = a.partition;
    for (const std::string& f : files) in.vanilla_proofs.push_back(as_bytes(f));
    if (!a.sector_ids.empty()) in.sector_ids = parse_sector_ids(a.sector_ids);
    try {
      return fc::prepare_post_partition(in);
    } catch (const DecodeError& e) {
      rethrow_with_file(e, a.vanilla);
    }
  }();
  const CliProvingKey key =
      load_cli_proving_key(fc::post_key_paths(a.params_dir, info), info.name, fc::kPostSetupCommand,
                           [&] { return fc::record_post_circuit(fc::post_shape(info)); }, t);
  std::vector<fc::Fr> w;
  {
    groth16::ScopedPhase p(t, "witness");
    w = gadgets::circuits::parallel_witness_full<fc::Fr>(part.circuit);
  }
  const auto bytes = prove_and_verify(key, std::move(w), part.public_inputs, "", t);
  write_text_file(a.out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!a.pub.empty())
    write_text_file(a.pub, groth16::public_to_json<fc::Fr>(std::span<const fc::Fr>(part.public_inputs)).dump(1) + "\n");
  if (!a.quiet) {
    std::fprintf(stderr, "proved %s partition %zu: %zu sector(s) in %zu slots, %u constraints, %zu public inputs%s\n",
                 std::string(info.name).c_str(), a.partition, part.sectors.size(), info.circuit_sector_count,
                 key.num_constraints, part.public_inputs.size(), key.test ? " (TEST key)" : "");
    double total = 0;
    print_phases(t, total);
    std::fprintf(stderr, "  %-14s %10.2f ms\n", "total", total);
  }
  return 0;
}

}  // namespace cuzk::cli
