// cuzk-bench gen-vanilla snap: SYNTHETIC SnapDeals vanilla proofs (snap_vanilla_dir.hpp): up to
// 8 MiB the update of the sector gen-vanilla porep seals with the same --seed (so its comm_r is
// the update's comm_r_old), above a sparse update.
//
// cuzk-bench gen-vanilla porep: a SYNTHETIC PoRep C1 output (SealCommitPhase1) made here, for
// C2 requests without a sealing pipeline (porep_vanilla_gen.hpp): a test sector sealed in memory
// (up to 8 MiB; synthetic and NI proofs up to 512 MiB) or, for larger sectors, a sparse
// committed-capacity sector consistent for the challenged nodes only. It passes verify_c1 and
// satisfies the circuit with the public inputs a verifier derives from the C1, but it is not a
// sealed sector of anyone's: its comm_r is on no chain. Written as filecoin-ffi's JSON, Curio's
// C2 envelope or supraseal's bincode (c1_output.hpp).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"
#include "snap_vanilla_dir.hpp"

namespace cuzk::bench {

namespace {

namespace fc = filecoin;

fc::RegisteredSealProof pick_proof(const GenPorepArgs& a) {
  if (a.proof.empty() && a.sector_size.empty()) throw std::invalid_argument("give --sector-size or --proof");
  if (a.proof.empty()) {
    const std::uint64_t size = cli::parse_sector_size(a.sector_size);
    if (const auto p = fc::interactive_seal_proof_of_size(size)) return *p;
    throw std::logic_error("no V1_1 seal proof of sector size " + std::to_string(size));
  }
  const fc::RegisteredSealProof p = cli::parse_seal_proof(a.proof);
  const fc::SealProofInfo& info = fc::seal_proof_info(p);
  if (!a.sector_size.empty() && cli::parse_sector_size(a.sector_size) != info.sector_size)
    throw std::invalid_argument("--proof " + std::string(info.name) + " seals sectors of " +
                                std::to_string(info.sector_size) + " bytes, not " + a.sector_size);
  return p;
}

fc::PorepGenMode parse_mode(const std::string& m) {
  if (m == "auto") return fc::PorepGenMode::Auto;
  if (m == "sealed") return fc::PorepGenMode::Sealed;
  if (m == "sparse") return fc::PorepGenMode::Sparse;
  throw std::invalid_argument("--mode " + m + ": expected auto, sealed or sparse");
}

std::string curio_envelope(std::uint64_t sector, std::uint64_t sector_size, const std::string& c1_json) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(c1_json.data());
  return "{\"SectorNum\":" + std::to_string(sector) + ",\"Phase1Out\":\"" +
         fc::base64_encode(std::span<const std::uint8_t>(b, c1_json.size())) +
         "\",\"SectorSize\":" + std::to_string(sector_size) + "}";
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int run_gen_vanilla_porep(const GenPorepArgs& a) {
  const fc::RegisteredSealProof proof = pick_proof(a);
  const fc::SealProofInfo& info = fc::seal_proof_info(proof);
  if (a.format != "json" && a.format != "curio" && a.format != "bincode")
    throw std::invalid_argument("--format " + a.format + ": expected json, curio or bincode");
  fc::PorepGenParams p = fc::porep_gen_params(proof, a.seed);
  p.sector = a.sector;
  p.prover_id = cli::parse_prover_id(a.prover_id);
  if (!a.ticket.empty()) p.ticket = cli::parse_hex32(a.ticket, "--ticket");
  if (!a.porep_seed.empty()) p.seed = cli::parse_hex32(a.porep_seed, "--porep-seed");
  const fc::PorepGenMode mode = fc::resolve_porep_gen_mode(p, parse_mode(a.mode));

  auto t0 = std::chrono::steady_clock::now();
  const fc::SealCommitPhase1 c1 = fc::generate_porep_c1(p, mode);
  const double gen_s = since(t0);
  double check_s = -1;
  if (!a.no_check) {
    t0 = std::chrono::steady_clock::now();
    fc::C1CheckOptions o;
    o.prover_id = p.prover_id;
    o.sector_number = p.sector;
    fc::verify_c1(c1, o);
    check_s = since(t0);
  }

  std::string out;
  if (a.format == "bincode") {
    const std::vector<std::uint8_t> bin = fc::encode_c1_bincode(c1);
    out.assign(reinterpret_cast<const char*>(bin.data()), bin.size());
  } else {
    out = fc::encode_c1_json(c1);
    if (a.format == "curio") out = curio_envelope(p.sector, info.sector_size, out);
  }
  if (a.out.empty() || a.out == "-") {
    std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
    std::cout.flush();
  } else {
    std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
    if (!f.write(out.data(), static_cast<std::streamsize>(out.size())) || !f.flush())
      throw std::runtime_error("cannot write " + a.out);
  }

  const std::string how =
      mode == fc::PorepGenMode::Sparse ? "sparse: an all-zero (CC) sector, challenged nodes only" : "sealed in memory";
  char checked[64] = "";
  if (check_s >= 0) std::snprintf(checked, sizeof checked, ", checked (verify_c1) in %.2f s", check_s);
  const std::string dest = a.out.empty() || a.out == "-" ? "stdout" : a.out;
  std::fprintf(stderr,
               "SYNTHETIC PoRep C1 of %s (a test sector made here, not a sealed sector; %s): %zu partition(s) x %zu "
               "challenges\n"
               "  prover_id %s  sector %llu\n  ticket %s\n  seed %s\n  replica_id %s\n  comm_d %s\n  comm_r %s\n"
               "  made in %.2f s%s; %zu bytes of %s to %s\n",
               std::string(info.name).c_str(), how.c_str(), c1.partitions.size(), c1.partitions.front().size(),
               cli::to_hex(p.prover_id).c_str(), static_cast<unsigned long long>(p.sector),
               cli::to_hex(c1.ticket).c_str(), cli::to_hex(c1.seed).c_str(),
               cli::to_hex(c1.replica_id.to_bytes_le()).c_str(),
               fc::unsealed_cid_from_comm_d(c1.comm_d.to_bytes_le()).c_str(),
               fc::sealed_cid_from_comm_r(c1.comm_r.to_bytes_le()).c_str(), gen_s, checked, out.size(),
               a.format.c_str(), dest.c_str());
  return kExitOk;
}

int run_gen_vanilla_snap(const GenSnapArgs& a) {
  if (a.proof.empty() == a.sector_size.empty()) throw std::invalid_argument("give --sector-size or --proof");
  fc::RegisteredUpdateProof proof{};
  if (!a.proof.empty()) {
    proof = cli::parse_update_proof(a.proof);
  } else {
    const auto p = fc::update_proof_of_size(cli::parse_sector_size(a.sector_size));
    if (!p) throw std::invalid_argument("no SnapDeals proof for sectors of " + a.sector_size);
    proof = *p;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const cli::SnapVanillaSet set = cli::generate_snap_vanilla(proof, a.seed);
  cli::write_snap_vanilla_dir(a.out_dir, set);
  cli::print_snap_vanilla(set, a.out_dir);
  std::fprintf(stderr, "  made in %.2f s\n", since(t0));
  return kExitOk;
}

}  // namespace cuzk::bench
