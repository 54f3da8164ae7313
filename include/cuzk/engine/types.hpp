// The engine's vocabulary: proof kinds and priorities, requests, results with per-phase
// timings, error codes, and the status snapshot. Plain data, no curve types: the curve is
// chosen inside the engine from the circuit (DESIGN.md: one curve dispatch, at the boundary).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::engine {

enum class Priority : std::uint8_t { kLow = 0, kNormal = 1, kHigh = 2, kCritical = 3 };
inline constexpr int kNumPriorities = 4;

enum class ProofKind : std::uint8_t { kGroth16 = 0, kWinningPost, kWindowPost, kPorep, kSnapDeals };

// WinningPoSt CRITICAL, WindowPoSt HIGH, PoRep/SnapDeals/generic NORMAL.
Priority default_priority(ProofKind k);
std::string_view to_string(ProofKind k);  // "groth16", "winning_post", "window_post", "porep", "snap_deals"
std::string_view to_string(Priority p);   // "low", "normal", "high", "critical"
std::optional<ProofKind> parse_proof_kind(std::string_view s);
std::optional<Priority> parse_priority(std::string_view s);

enum class JobState : std::uint8_t { kQueued, kSynthesizing, kWaitingDevice, kProving, kSucceeded, kFailed, kCancelled };
std::string_view to_string(JobState s);
inline bool is_final(JobState s) {
  return s == JobState::kSucceeded || s == JobState::kFailed || s == JobState::kCancelled;
}

// Mirrors the gRPC status codes the server maps them to.
enum class ErrorCode : std::uint8_t {
  kOk = 0,
  kInvalidArgument,     // malformed witness, wrong length, unsatisfied witness, bad parameters
  kNotFound,            // unknown circuit or request id
  kAlreadyExists,       // request_id reused with a different request
  kFailedPrecondition,  // e.g. evicting a key in use
  kResourceExhausted,   // a job can never fit the configured budgets
  kCancelled,
  kDeadlineExceeded,
  kUnavailable,         // engine shutting down
  kInternal,            // device fault after the retry, a native circuit's proof failing verification twice, bug
};
std::string_view to_string(ErrorCode c);

// A request's bulk bytes (.wtns, C1 output, vanilla and partition proofs) are held in std::string,
// the type protobuf gives its `bytes` fields, so that a received message's buffer moves into the
// engine instead of being copied (src/server/convert.hpp). Their bytes, for the parsers:
inline std::span<const std::uint8_t> byte_span(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// A Filecoin PoSt SNARK as a node asks for it: WinningPoSt, or one WindowPoSt partition. The
// engine derives the challenges and public inputs itself and checks every vanilla proof before
// any proving (src/engine/post_circuit.hpp).
struct PostRequest {
  std::uint32_t registered_proof = 0;   // abi.RegisteredPoStProof id (e.g. 3 Winning 32 GiB, 8 Window 32 GiB)
  std::vector<std::uint8_t> randomness;  // 32 bytes: the challenge seed (canonical: byte 31 & 0xc0 == 0)
  std::vector<std::uint8_t> prover_id;   // 32 bytes or empty; not part of the SNARK
  std::uint64_t partition_index = 0;     // WindowPoSt: the partition of the deadline's sector list
  std::vector<std::uint64_t> sector_ids; // the partition's sectors in order, or empty (then taken from the proofs)
  std::vector<std::string> vanilla_proofs;  // bincode FallbackPoStSectorProof, one per sector (bytes)
};

// A Filecoin PoRep C2 as a node asks for it: the sector's C1 output. The engine decodes and checks
// it at submit (every path, label and challenge; the replica id when prover_id and sector_number
// are given), proves every partition as its own job (`<request_id>/partition-<k>`, shown in the
// status), and returns the partitions' 192-byte proofs concatenated in order, each verified with
// the parameter directory's .vk (src/engine/porep_circuit.hpp). With `partition`, that partition
// alone: one job, `<request_id>/partition-<partition>`, and its 192-byte proof.
struct PorepRequest {
  std::string c1;                                 // filecoin-ffi's SealCommitPhase1Output JSON, Curio's
                                                  // envelope of it, or supraseal's bincode
  std::optional<std::uint32_t> registered_proof;  // abi.RegisteredSealProof; needed for bincode (which does
                                                  // not name it), else checked against the C1's
  std::vector<std::uint8_t> prover_id;            // 32 bytes or empty; with sector_number: the replica
  std::optional<std::uint64_t> sector_number;     //   id is checked (Curio's envelope carries the number)
  std::optional<std::uint32_t> partition;         // prove only this partition of the C1 (its index, below
                                                  // the C1's partition count); absent: every partition
};

// A Filecoin SnapDeals (empty-sector update) proof as a node asks for it: what filecoin-proofs'
// generate_empty_sector_update_proof_with_vanilla takes. The engine checks the commitments and
// every vanilla partition proof at submit, proves every partition as its own job
// (`<request_id>/partition-<k>`), and returns the partitions' 192-byte proofs concatenated in order,
// each verified with the parameter directory's .vk (src/engine/snap_circuit.hpp).
struct SnapRequest {
  std::uint32_t registered_proof = 0;  // abi.RegisteredUpdateProof: 0-4 = 2KiB, 8MiB, 512MiB, 32GiB, 64GiB
  std::vector<std::uint8_t> comm_r_old, comm_r_new, comm_d_new;  // 32 bytes each, canonical field elements
  std::vector<std::string> partition_proofs;                     // bincode PartitionProof, one per partition (bytes)
};

struct ProofRequest {
  std::string request_id;               // idempotency key; empty: the engine assigns one
  ProofKind kind = ProofKind::kGroth16;
  std::optional<Priority> priority;     // default_priority(kind) when absent
  std::string circuit_id;               // registered circuit; Filecoin kinds: empty = the kind's configured circuit
  std::string wtns;                     // circom .wtns bytes, for circuits that take a witness
  std::string wtns_name;                // where they came from (a file's path): named in their errors
  std::optional<std::uint64_t> native_seed;  // input of a native circuit (the witness is synthesized from it)
  std::optional<PostRequest> post;      // kinds winning_post / window_post
  std::optional<PorepRequest> porep;    // kind porep
  std::optional<SnapRequest> snap;      // kind snap_deals
};

struct PhaseTiming {
  std::string phase;  // queue_wait, key_load, synthesis, eval_abc, h_poly, msm_h, msm_a, msm_b_g1,
                      // msm_b_g2, msm_l, transfer_*, assemble, verify, total (backend phases as reported)
  double ms = 0;
};

struct ProofResult {
  std::string request_id;
  JobState state = JobState::kQueued;
  ErrorCode code = ErrorCode::kOk;
  std::string error;                    // human-readable reason when code != kOk
  std::string circuit_id;
  ProofKind kind = ProofKind::kGroth16;
  Priority priority = Priority::kNormal;
  std::string curve;                    // "bls12_381" or "bn254"
  std::string proof_json;               // snarkjs proof.json (both curves)
  std::string public_json;              // snarkjs public.json
  std::vector<std::uint8_t> proof_bytes;  // BLS12-381: bellperson's 192-byte compressed proof; BN254: empty
  std::vector<PhaseTiming> timings;
  int device = -1;                      // device (or simulated device) that proved it
  int worker = -1;
  int attempts = 0;                     // 2 when a device fault was retried on another worker
  std::size_t batch_size = 0;           // jobs proved in the same batch
};

struct SubmitOutcome {
  std::string request_id;
  ErrorCode code = ErrorCode::kOk;
  std::string error;
  bool duplicate = false;               // the id was already known: nothing new was queued
};

struct KeyStatus {
  std::string circuit_id;
  std::string curve;
  std::string tier;                     // fastest tier: "vram", "pinned", "host", "mmap", "disk"
  std::uint64_t host_bytes = 0;         // resident in host memory (pinned or pageable)
  std::uint64_t pinned_bytes = 0;       // of which page-locked (the pinned tier)
  std::uint64_t mapped_bytes = 0;       // size of the mapped key file (the mmap tier; page cache)
  std::uint64_t vram_bytes = 0;         // resident on devices, all copies together
  std::string layout;                   // on its devices: "resident", "streamed (chunk N)" (the
                                        // points and matrices in host memory) or, resident in part,
                                        // "resident: matrices, H; streamed: A, B1, B2, L (chunk N)";
                                        // empty when on none
  std::vector<int> devices;             // devices holding a copy
  int refcount = 0;                     // jobs using it now
  std::uint64_t proofs = 0;
};

struct DeviceStatus {
  int index = 0;
  std::string name;                     // CUDA device name, or "cpu-sim-<i>"
  std::uint64_t vram_budget = 0;
  std::uint64_t vram_reserved = 0;
  int workers = 0;
  int busy_workers = 0;
  std::uint64_t proofs = 0;
  std::uint64_t device_faults = 0;         // attempts ended by a device fault (a batch counts once)
  std::uint64_t failed_verifications = 0;  // proofs made here that did not verify (a bad witness's too)
};

struct QueueStatus {
  Priority priority = Priority::kNormal;
  std::size_t depth = 0;
};

struct BudgetStatus {
  std::string name;                     // "host", "pinned"
  std::uint64_t budget = 0;
  std::uint64_t reserved = 0;
};

struct StatusSnapshot {
  std::string backend;                  // "cpu" or "cuda"
  double uptime_s = 0;
  std::vector<DeviceStatus> devices;
  std::vector<KeyStatus> keys;
  std::vector<QueueStatus> queues;
  std::vector<BudgetStatus> budgets;
  std::size_t synthesizing = 0, waiting_device = 0, proving = 0;
  std::uint64_t succeeded = 0, failed = 0, cancelled = 0;
};

}  // namespace cuzk::engine
