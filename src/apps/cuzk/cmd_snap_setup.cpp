// cuzk snap setup --proof P [--proof P ...] --dir DIR [--seed N]
// TEST keys of the SnapDeals (EmptySectorUpdate) partition circuits, under the official file names
// (v28-empty-sector-update-...), beside a marker that says they are TEST keys. Never over an
// official key (key_cli.hpp write_test_key_set). The setup of the 2 KiB circuit (1.7M constraints)
// takes a minute or two on 2 cores.
#include "commands.hpp"
#include "cuzk/filecoin/snap_keys.hpp"
#include "cuzk/filecoin/snap_record.hpp"
#include "key_cli.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

int run_snap_setup(const SnapSetupArgs& a) {
  namespace fc = filecoin;
  std::vector<TestKeyJob> jobs;
  for (const std::string& p : a.proofs) {
    const fc::UpdateProofInfo& info = fc::update_proof_info(parse_update_proof(p));
    jobs.push_back({std::string(info.name), fc::snap_key_paths(a.dir, info),
                    [&info] { return fc::record_snap_circuit(fc::snap_params(info.id)); }});
  }
  return write_test_key_set(jobs, a.seed, a.seed_given);
}

}  // namespace cuzk::cli
