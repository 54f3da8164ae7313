// cuzk-bench's Filecoin PoRep requests: a PorepRequest carrying a C1 file's bytes as they are
// (filecoin-ffi's JSON, Curio's envelope or supraseal's bincode: the daemon decodes and judges
// them), and what the returned proofs must verify against: the C1 decoded here as well
// (decode_c1), each partition's public inputs derived with porep_public_inputs from its comm_d,
// comm_r and seed and the replica id, which, given the prover and the sector, is the one derived
// from them (porep_id.hpp), as a chain verifier has it. A C1 that does not decode here is still
// sent (the daemon says why it refuses it), but its proofs cannot be checked here. The checking
// itself is partition_verify.hpp's.
#pragma once

#include <string>

#include "cuzk/v1/proving.pb.h"
#include "partition_verify.hpp"

namespace cuzk::bench {

namespace pb = ::cuzk::v1;

// The PoRep options of single and batch (--porep-c1 and the options that go with it).
struct PorepOptions {
  std::string c1;         // the C1 file; empty: not a PoRep request
  std::string proof;      // registered seal proof, number or name; "": the C1's own (bincode needs it)
  std::string prover_id;  // actor id (1000, f01000) or 64 hex digits; "": none sent
  std::string sector;     // sector number; "": none sent (a Curio envelope carries its own)
  bool enabled() const { return !c1.empty(); }
};

// Reads the file once. Throws DecodeError / std::invalid_argument for a bad option value (an
// unreadable file, an unknown proof, a bad prover id or sector number); a C1 that does not decode
// here, or whose replica id is not the prover's sector's, is only warned about on stderr.
PartitionedJob make_porep_job(const PorepOptions& o);

}  // namespace cuzk::bench
