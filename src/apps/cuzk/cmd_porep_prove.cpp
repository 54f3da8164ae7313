// cuzk porep prove --c1 FILE [--format auto|json|curio|bincode] [--proof P] [--prover-id ID] [--sector N]
//                  [--params-dir DIR] [--out proof.bin] [--partition K] [--backend auto|cpu|cuda] [--quiet]
// A sector's PoRep C2: every partition's StackedDRG SNARK (or the one --partition names) from its
// C1 output (c1_output.hpp), through the proving engine in this process (filecoin_prove.hpp: on
// the GPU where one is present, else the CPU), as the daemon proves a porep request. The C1 is decoded and fully
// checked here before the engine starts, errors naming the file (c1_check.hpp verify_c1; with
// --prover-id and --sector also its replica id). The engine proves each partition as its own job:
// its witness, whose public inputs must equal those a chain verifier derives from replica id,
// comm_d, comm_r, seed and the partition, the proof, and its verification with the key's .vk.
// Only then are the proofs written: concatenated in partition order, 192 bytes each
// (filecoin-proofs' multi-partition proof bytes, as seal_commit_phase2 returns them); with
// --partition K (checked against the C1 here), partition K's proof alone (the engine's request
// for that partition: engine::PorepRequest::partition), 192 bytes.
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "files.hpp"
#include "filecoin_prove.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

// The C1 file's bytes in any form (c1_output.hpp decode_c1), errors prefixed with the file's name.
fc::DecodedC1 decode_c1_file(const PorepProveArgs& a, const std::string& bytes,
                             const std::optional<fc::RegisteredSealProof>& proof) {
  const auto format = fc::parse_c1_format(a.format);
  if (!format) throw DecodeError("--format " + a.format + ": expected auto, json, curio or bincode");
  try {
    return fc::decode_c1(as_bytes(bytes), *format, proof);
  } catch (const DecodeError& e) {
    throw DecodeError(a.c1 + ": " + e.what());
  }
}

fc::C1CheckOptions check_options(const PorepProveArgs& a, const fc::DecodedC1& d) {
  std::optional<std::uint64_t> sector;
  if (!a.sector.empty()) {
    sector = parse_u64(a.sector, "--sector");
    if (d.sector_num && *d.sector_num != *sector)
      throw DecodeError("--sector " + a.sector + " but " + a.c1 + " is Curio's request for sector " +
                        std::to_string(*d.sector_num));
  } else {
    sector = d.sector_num;
  }
  fc::C1CheckOptions o;
  if (a.prover_id.empty()) {
    if (!a.sector.empty()) throw DecodeError("--sector needs --prover-id: the replica id is derived from both");
    return o;
  }
  if (!sector) throw DecodeError("--prover-id needs --sector: the replica id is derived from both");
  o.prover_id = parse_prover_id(a.prover_id);
  o.sector_number = sector;
  return o;
}

}  // namespace

int run_porep_prove(const PorepProveArgs& a) {
  groth16::PhaseTimings prep;
  const std::optional<fc::RegisteredSealProof> given =
      a.proof.empty() ? std::nullopt : std::optional(parse_seal_proof(a.proof));

  engine::ProofRequest req;
  req.kind = engine::ProofKind::kPorep;
  engine::PorepRequest& porep = req.porep.emplace();
  porep.c1 = read_text_file(a.c1);
  std::size_t partitions = 0;
  const fc::SealProofInfo* info = nullptr;
  {
    fc::DecodedC1 d;
    {
      groth16::ScopedPhase p(prep, "decode");
      d = decode_c1_file(a, porep.c1, given);
    }
    info = &fc::seal_proof_info(d.c1.registered_proof);
    if (info->feature == fc::SealFeature::NonInteractivePoRep)
      throw std::invalid_argument(std::string(info->name) + ": non-interactive PoRep is not supported");
    const fc::C1CheckOptions options = check_options(a, d);
    {
      groth16::ScopedPhase p(prep, "check");
      try {
        fc::verify_c1(d.c1, options);
      } catch (const DecodeError& e) {
        throw DecodeError(a.c1 + ": " + e.what());
      }
    }
    if (!options.prover_id)
      std::fprintf(stderr,
                   "note: the replica id was not checked against the prover and sector (give --prover-id and "
                   "--sector)\n");
    partitions = d.c1.partitions.size();
    if (a.partition_given) {
      if (a.partition >= partitions)
        throw DecodeError("--partition " + std::to_string(a.partition) + ": a " + std::string(info->name) +
                          " C1 has " + std::to_string(partitions) + " partition(s)");
      porep.partition = static_cast<std::uint32_t>(a.partition);
    }
    porep.registered_proof = static_cast<std::uint32_t>(d.c1.registered_proof);
    if (options.prover_id) porep.prover_id.assign(options.prover_id->begin(), options.prover_id->end());
    porep.sector_number = options.sector_number;
  }  // the decoded C1 is dropped: the engine decodes the bytes again

  const fc::KeyPaths key = fc::porep_key_paths(a.params_dir, *info);
  const bool test = require_cli_key(key, info->name, fc::kPorepSetupCommand);
  PartitionPrintout printout(a.quiet, info->name, test);
  printout.header(partitions, fc::c1_shape(info->id).challenges_per_partition, prep);
  printout.write(a.out, prove_filecoin(a.params_dir, a.backend, std::move(req), a.quiet));
  return 0;
}

}  // namespace cuzk::cli
