// cuzk-bench's PoRep requests (porep_request.hpp).
#include "porep_request.hpp"

#include <iostream>
#include <optional>

#include "bench.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_output.hpp"
#include "cuzk/filecoin/porep_id.hpp"
#include "cuzk/filecoin/porep_public_inputs.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::bench {

namespace fc = filecoin;

namespace {

void warn(const std::string& what, const std::string& consequence) {
  std::cerr << "warning: " << what << "\n  (sent as it is: the daemon judges it; " << consequence << ")\n";
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

PartitionedJob make_porep_job(const PorepOptions& o) {
  PartitionedJob job;
  job.request.set_kind(pb::PROOF_KIND_POREP);
  pb::PorepRequest& r = *job.request.mutable_porep();
  std::optional<fc::RegisteredSealProof> named;
  if (!o.proof.empty()) {
    named = cli::parse_seal_proof(o.proof);
    r.set_registered_proof(static_cast<std::uint32_t>(*named));
  }
  std::optional<fc::Bytes32> prover;
  if (!o.prover_id.empty()) {
    prover = cli::parse_prover_id(o.prover_id);
    r.mutable_prover_id()->assign(reinterpret_cast<const char*>(prover->data()), prover->size());
  }
  std::optional<std::uint64_t> sector;
  if (!o.sector.empty()) {
    sector = cli::parse_u64(o.sector, "--sector");
    r.set_sector_number(*sector);
  }
  const std::vector<char> file = read_file_bytes(o.c1);
  r.mutable_c1()->assign(file.data(), file.size());

  auto e = std::make_shared<PartitionExpectation>();
  job.expect = e;
  fc::DecodedC1 d;
  try {
    d = fc::decode_c1(cli::as_bytes(r.c1()), fc::C1Format::kAuto, named);
  } catch (const DecodeError& ex) {
    e->underivable = o.c1 + ": " + ex.what();
    warn(e->underivable, "its proofs cannot be checked here");
    job.description = "the C1 of " + o.c1 + " (" + std::to_string(file.size()) + " bytes), which does not decode here";
    return job;
  }
  const fc::SealCommitPhase1& c1 = d.c1;
  const fc::SealProofInfo& info = fc::seal_proof_info(c1.registered_proof);
  e->circuit_id = fc::porep_circuit_name(info);

  // The replica id a chain verifier derives from the prover and the sector (a Curio envelope's own
  // sector unless --sector names one); without both, the C1's.
  if (sector && d.sector_num && *sector != *d.sector_num)
    warn("--sector " + o.sector + " but " + o.c1 + " is Curio's request for sector " + std::to_string(*d.sector_num),
         "the inputs are derived for sector " + o.sector);
  if (!sector) sector = d.sector_num;
  fc::Fr replica_id = c1.replica_id;
  std::string replica = "replica id not checked (give --prover-id and --sector)";
  if (prover && sector) {
    replica_id = fc::Fr::from_bytes_le(
        fc::replica_id(*prover, *sector, c1.ticket, c1.comm_d.to_bytes_le(), fc::porep_id(info.id)));
    const std::string whose = "prover " + o.prover_id + "'s sector " + std::to_string(*sector);
    replica = "replica id of " + whose;
    if (replica_id != c1.replica_id) {
      replica = "replica id NOT that of " + whose;
      warn(o.c1 + ": the C1's replica id is not the one of " + whose,
           "its proofs are checked against the inputs of " + whose);
    }
  }

  try {
    const fc::SdrGraph graph(info);
    for (std::size_t k = 0; k < c1.partitions.size(); ++k)
      e->partition_inputs.push_back(
          fc::porep_public_inputs(info.id, replica_id, c1.comm_d, c1.comm_r, c1.seed, k, &graph));
  } catch (const std::exception& ex) {
    e->partition_inputs.clear();
    e->underivable = o.c1 + ": " + ex.what();
    warn(e->underivable, "its proofs cannot be checked here");
  }
  const std::size_t challenges = c1.partitions.empty() ? 0 : c1.partitions.front().size();
  job.description = std::string(info.name) + " (" + e->circuit_id + "), " + plural(c1.partitions.size(), "partition") +
                    " of " + std::to_string(challenges) + " challenges: the " + std::string(fc::to_string(d.format)) +
                    " C1 of " + o.c1 + " (" + std::to_string(file.size()) + " bytes), the same in every request; " +
                    replica;
  return job;
}

}  // namespace cuzk::bench
