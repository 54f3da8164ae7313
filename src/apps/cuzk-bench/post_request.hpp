// cuzk-bench's Filecoin PoSt requests: a PostRequest built from vanilla proof files or from
// synthetic vanilla proofs made here (filecoin/post_vanilla_gen.hpp), and what the returned proof
// must verify against: the public inputs derived here from the randomness, the partition and the
// sectors (ids and comm_r) with the library's post_public_inputs / partition_public_inputs, never
// taken from the daemon's answer. The checking itself is post_verify.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/v1/proving.pb.h"

namespace cuzk::bench {

namespace pb = ::cuzk::v1;

// The PoSt options of single and batch (--post-proof and the options that go with it).
struct PostOptions {
  std::string proof;                 // registered PoSt proof, number or name; empty: not a PoSt request
  std::size_t partition = 0;         // WindowPoSt partition index
  std::size_t sectors = 1;           // synthetic: how many sectors (ids 1..N unless sector_ids)
  std::string sector_ids;            // "1,2,...": the sectors, in order (checked by the daemon)
  std::string randomness;            // 64 hex digits or base64; empty: derived from the request's seed
  bool chain_randomness = false;     // clear the top two bits of byte 31 first (as Lotus does)
  std::vector<std::string> vanilla;  // vanilla proof files, one per sector; empty: synthetic
  bool enabled() const { return !proof.empty(); }
};

// What the proof of one request must verify against (post_verify.hpp).
struct PostExpectation;

struct PostJob {
  pb::ProofKind kind = pb::PROOF_KIND_WINNING_POST;
  pb::PostRequest request;
  std::shared_ptr<const PostExpectation> expect;
};

// The requests of one run, from its options: the files read and everything parsed once (throws
// DecodeError / std::invalid_argument for a bad value, naming it). make(seed) is thread-safe.
class PostSource {
 public:
  explicit PostSource(const PostOptions& o);
  ~PostSource();
  PostSource(PostSource&&) noexcept;

  // One request. Synthetic: vanilla proofs made from `seed` (the randomness too, unless given);
  // files: the same proofs for every seed.
  PostJob make(std::uint64_t seed) const;
  // E.g. "StackedDrgWindow2KiBV1 partition 0, 2 synthetic sectors (seed per request)".
  std::string describe() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Stress: one synthetic sector of `registered_proof`, its id and randomness drawn from `seed`.
PostJob synthetic_post_job(std::uint32_t registered_proof, std::uint64_t seed);

// The registered proofs (go-state-types numbers) that a served circuit id proves: "window-post-2kib"
// -> {5, 10}; empty for an id that is no PoSt circuit.
std::vector<std::uint32_t> post_proofs_of_circuit(const std::string& circuit_id);

}  // namespace cuzk::bench
