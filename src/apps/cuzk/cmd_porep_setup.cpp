// cuzk porep setup --proof P [--proof P ...] --dir DIR [--seed N]
// TEST keys of the StackedDRG (PoRep) partition circuits, under the official file names, beside a
// marker that says they are TEST keys. Never over an official key: a directory that already holds
// a .params or .vk of the same name without the marker is refused before anything is written.
// The setup of a 2 KiB circuit (2.7M constraints) takes minutes on a few cores: each step is
// announced as it starts.
#include <stdexcept>

#include "commands.hpp"
#include "cuzk/filecoin/porep_circuit.hpp"
#include "cuzk/filecoin/porep_keys.hpp"
#include "cuzk/filecoin/porep_record.hpp"
#include "key_cli.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

int run_porep_setup(const PorepSetupArgs& a) {
  namespace fc = filecoin;
  std::vector<TestKeyJob> jobs;
  for (const std::string& p : a.proofs) {
    const fc::SealProofInfo& info = fc::seal_proof_info(parse_seal_proof(p));
    if (info.feature == fc::SealFeature::NonInteractivePoRep)
      throw std::invalid_argument(std::string(info.name) + ": non-interactive PoRep is not supported");
    jobs.push_back({std::string(info.name), fc::porep_key_paths(a.dir, info),
                    [&info] { return fc::record_porep_circuit(fc::porep_shape(info)); }});
  }
  // Proofs whose circuits are the same (e.g. V1 and V1_1 of one sector size) share their files.
  return write_test_key_set(jobs, a.seed, a.seed_given);
}

}  // namespace cuzk::cli
