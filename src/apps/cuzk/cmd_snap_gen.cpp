// cuzk snap gen-vanilla --proof P --out-dir DIR [--seed N]
// A SYNTHETIC sector update and its vanilla partition proofs, as filecoin-proofs-api serializes
// them, in the directory snap_vanilla_dir.hpp describes (partition-<k>.vproof, commitments.txt):
// up to 8 MiB an update of a sector sealed in memory by the PoRep generator, above sparse trees.
#include <string>

#include "commands.hpp"
#include "seal_parse.hpp"
#include "snap_vanilla_dir.hpp"

namespace cuzk::cli {

int run_snap_gen_vanilla(const SnapGenVanillaArgs& a) {
  const SnapVanillaSet set = generate_snap_vanilla(parse_update_proof(a.proof), a.seed);
  write_snap_vanilla_dir(a.out_dir, set);
  print_snap_vanilla(set, a.out_dir);
  return 0;
}

}  // namespace cuzk::cli
