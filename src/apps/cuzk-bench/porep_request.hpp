// cuzk-bench's Filecoin PoRep requests: a PorepRequest carrying a C1 file's bytes as they are
// (filecoin-ffi's JSON, Curio's envelope or supraseal's bincode: the daemon decodes and judges
// them), and what the returned proofs must verify against: the C1 decoded here as well
// (decode_c1), each partition's public inputs derived with porep_public_inputs from its comm_d,
// comm_r and seed and the replica id, which, given the prover and the sector, is the one derived
// from them (porep_id.hpp), as a chain verifier has it. A C1 that does not decode here is still
// sent (the daemon says why it refuses it), but its proofs cannot be checked here. The checking
// itself is porep_verify.hpp's.
#pragma once

#include <memory>
#include <string>

#include "cuzk/v1/proving.pb.h"

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

// What the proofs of the request must verify against (porep_verify.hpp).
struct PorepExpectation;

// The one request of a run (a batch sends it N times, each with its own id from the daemon).
struct PorepJob {
  pb::PorepRequest request;
  std::shared_ptr<const PorepExpectation> expect;
  // E.g. "StackedDrg2KiBV1_1 (porep-2kib), 1 partition of 2 challenges: the json C1 of c1.json
  // (100497 bytes), the same in every request; replica id of prover f01000's sector 1".
  std::string description;
};

// Reads the file once. Throws DecodeError / std::invalid_argument for a bad option value (an
// unreadable file, an unknown proof, a bad prover id or sector number); a C1 that does not decode
// here, or whose replica id is not the prover's sector's, is only warned about on stderr.
PorepJob make_porep_job(const PorepOptions& o);

}  // namespace cuzk::bench
