// PoRep C1 output ("SealCommitPhase1Output") as nodes hand it over, decoded into the values the
// StackedDRG circuit takes (porep_circuit.hpp), in three forms:
//
// 1. filecoin-ffi (seal_commit_phase1 returns serde_json::to_vec of filecoin-proofs-api
//    seal.rs SealCommitPhase1Output; Lotus and Curio store and pass these bytes). Compact JSON,
//    fields in declaration order; every 32-byte value ([u8; 32] commitments and tickets, and the
//    Sha256Domain / PoseidonDomain newtypes around [u8; 32]) is an array of 32 numbers 0..255:
//
//    {"registered_proof": "StackedDrg32GiBV1_1",                 (RegisteredSealProof, a string)
//     "vanilla_proofs": {"StackedDrg32GiBV1": [[Proof, ...], ...]},  (VanillaSealProof: one key,
//                            "StackedDrg<size>V1" for every version; partitions, then challenges)
//     "comm_r": [32], "comm_d": [32], "replica_id": [32], "seed": [32], "ticket": [32]}
//    Proof (storage-proofs-porep stacked/vanilla/params.rs):
//     {"comm_d_proofs": MerkleProof, "comm_r_last_proof": MerkleProof,
//      "replica_column_proofs": {"c_x": ColumnProof, "drg_parents": [ColumnProof x6],
//                                "exp_parents": [ColumnProof x8]},
//      "labeling_proofs": [LabelingProof x layers], "encoding_proof": LabelingProof}
//    ColumnProof (column_proof.rs, column.rs; Column's PhantomData is not skipped, so "_h": null):
//     {"column": {"index": u32, "rows": [[32] x layers], "_h": null}, "inclusion_proof": MerkleProof}
//    LabelingProof / EncodingProof (labeling_proof.rs, encoding_proof.rs):
//     {"parents": [[32] x 37], "layer_index": u32, "node": u64}
//    MerkleProof (storage-proofs-core merkle/proof.rs; ProofData externally tagged):
//     {"data": {"Single": {"root": [32], "leaf": [32], "path": InclusionPath}}}
//     {"data": {"Sub": {"base_proof": InclusionPath, "sub_proof": InclusionPath, "root", "leaf"}}}
//     {"data": {"Top": {"base_proof", "sub_proof", "top_proof", "root", "leaf"}}}
//    InclusionPath: {"path": [{"hashes": [[32] x arity-1], "index": usize}, ...]}, leaf level first.
//
//    Curio re-marshals C1 through Go structs (lib/proof/porep_vproof_types.go Commit1OutRaw) when
//    it takes it from supraseal: the same keys and values, other field order. The decoder takes
//    fields in any order, ignores unknown keys (serde's default) and refuses duplicates.
//
// 2. Curio's envelope for a C2 request (curio lib/ffi/cuzk_funcs.go c1OutputWrapper):
//    {"SectorNum": n, "Phase1Out": "<base64 of form 1>", "SectorSize": bytes} (Go encodes []byte
//    as standard base64). Curio's cmd/curio debug-proofsvc.go reads the same envelope with form 3
//    inside (DecodeCommit1OutRaw); both are accepted (form 3 needs the registered proof from the
//    caller).
//
// 3. supraseal's C1 (supraseal c1/c1.hpp WriteProofs; read back by curio lib/proof/
//    porep_vproof_bin_decode.go and supraseal's c2-test as bincode of filecoin-proofs' own
//    SealCommitPhase1Output<Tree>): bincode 1.x default options (little-endian fixed-width
//    integers, u64 Vec lengths, u32 enum tags, usize as u64, no bytes for PhantomData), fields
//    vanilla_proofs, comm_r, comm_d, replica_id, seed, ticket: no registered proof and no
//    VanillaSealProof wrapper. A Merkle proof is tag u32 (0 Single {root, leaf, path}, 1 Sub
//    {base, sub, root, leaf}, 2 Top {base, sub, top, root, leaf}); a path is u64 count of
//    {u64 count, [32] hashes, u64 index}; a Column is {u32 index, u64 count, [32] rows}; a
//    labeling proof {u64 count, [32] parents, u32 layer_index, u64 node}.
//
// Decoding refuses, naming the byte offset and the field: malformed input, a value of the wrong
// type or range, a 32-byte value that must be a field element but is not canonical (every one
// but seed and ticket), and anything whose shape does not fit the registered proof (partitions,
// challenges per partition, path lengths and arities, rows per column, parents per labeling
// proof). Whether the proof is valid is c1_check.hpp's job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"  // kDrgDegree, kExpDegree
#include "cuzk/filecoin/vanilla.hpp"    // InclusionProof, MerkleProofKind

namespace cuzk::filecoin {

inline constexpr std::size_t kSdrLabelParents = 37;  // stacked/vanilla TOTAL_PARENTS (DRG: sdr_graph.hpp)

// A ColumnProof: one node's labels in every layer, and the column's hash proved in TreeC.
struct ColumnOpening {
  std::uint32_t index = 0;  // Column.index: the node
  std::vector<Fr> rows;     // Column.rows: its label in layer 1, 2, ..
  InclusionProof tree_c;    // inclusion_proof (TreeC has TreeR's shape)
  std::size_t offset = 0;   // where it starts in the decoded input
};

// LabelingProof and EncodingProof (the same fields): the 37 parent labels hashed into the label
// of `node` in layer `layer_index` (1-based).
struct LabelingProof {
  std::vector<Fr> parents;
  std::uint32_t layer_index = 0;
  std::uint64_t node = 0;
  std::size_t offset = 0;
};

// stacked::Proof: everything one challenge of one partition proves.
struct PorepVanillaProof {
  InclusionProof comm_d_proof;                 // comm_d_proofs: the data node in TreeD (binary SHA-256, Single)
  InclusionProof comm_r_last_proof;            // the replica node in TreeR
  ColumnOpening c_x;                           // replica_column_proofs.c_x: the challenged node's column
  std::vector<ColumnOpening> drg_parents;      // 6
  std::vector<ColumnOpening> exp_parents;      // 8
  std::vector<LabelingProof> labeling_proofs;  // one per layer, layer 1 first
  LabelingProof encoding_proof;
  std::size_t offset = 0;

  // The challenged node as the circuit takes it (stacked/circuit/params.rs Proof::from:
  // labeling_proofs[0].node).
  std::uint64_t challenge() const { return labeling_proofs.empty() ? 0 : labeling_proofs.front().node; }
};

// filecoin-proofs-api SealCommitPhase1Output.
struct SealCommitPhase1 {
  RegisteredSealProof registered_proof = RegisteredSealProof::StackedDrg2KiBV1;
  std::vector<std::vector<PorepVanillaProof>> partitions;  // vanilla_proofs
  Fr comm_r, comm_d, replica_id;
  Bytes32 seed{}, ticket{};
};

// What a C1 of a registered proof must look like.
struct PorepC1Shape {
  std::uint64_t nodes = 0;  // sector nodes: leaves of TreeD, TreeC and TreeR
  TreeShape tree;           // TreeC and TreeR
  std::size_t layers = 0;
  std::size_t partitions = 0;
  std::size_t challenges_per_partition = 0;
  bool operator==(const PorepC1Shape&) const = default;
};

// The shape of a registered proof's C1: its sector's nodes, TreeR shape and layers, its
// partitions, and porep_challenges.hpp porep_challenges_per_partition (2 or 18).
PorepC1Shape c1_shape(RegisteredSealProof p);

// The VanillaSealProof variant name of a sector size ("StackedDrg32GiBV1").
std::string vanilla_seal_proof_variant(std::uint64_t sector_size);

// Form 1. parse_c1_json reads any well-typed document (fields in any order) and checks no shape;
// decode_c1_json then checks the shape against the registered proof (validate_c1_shape).
// Throws DecodeError.
SealCommitPhase1 parse_c1_json(std::string_view json);
SealCommitPhase1 decode_c1_json(std::string_view json);

// Refuses a C1 that does not have `shape` (and, for the registered proof's own shape, a
// vanilla_proofs variant of another sector size is refused by the JSON decoder). Messages name
// the partition, the challenge, the field and its byte offset.
void validate_c1_shape(const SealCommitPhase1& c1, const PorepC1Shape& shape);

// Form 2.
struct CurioC1Request {
  std::uint64_t sector_num = 0;
  std::uint64_t sector_size = 0;
  SealCommitPhase1 c1;
};
// `proof`: the registered proof the request names. Required for a bincode payload; for a JSON
// payload the C1's own must equal it. The envelope's SectorSize must be the proof's.
CurioC1Request decode_curio_c1(std::string_view json, std::optional<RegisteredSealProof> proof = std::nullopt);

// Form 3, for `proof` (supraseal writes 32 GiB V1_1 C1s; curio decodes them as such).
SealCommitPhase1 parse_c1_bincode(std::span<const std::uint8_t> bytes, RegisteredSealProof proof);
SealCommitPhase1 decode_c1_bincode(std::span<const std::uint8_t> bytes, RegisteredSealProof proof);

// Any of the three forms, as a node sends them. kAuto tells them apart: JSON when the first
// non-blank byte is '{' (Curio's envelope when it has a "Phase1Out" key, which form 1 never has),
// else bincode. `proof`: the registered proof the caller names; required for bincode, and the
// C1 must be of it. Errors (DecodeError) start with the form that was decoded.
enum class C1Format : std::uint8_t { kAuto, kJson, kCurio, kBincode };
std::string_view to_string(C1Format f);                      // "auto", "json", "curio", "bincode"
std::optional<C1Format> parse_c1_format(std::string_view s);
struct DecodedC1 {
  SealCommitPhase1 c1;
  std::optional<std::uint64_t> sector_num;  // Curio's envelope's SectorNum
  C1Format format = C1Format::kJson;        // the form decoded
};
DecodedC1 decode_c1(std::span<const std::uint8_t> bytes, C1Format format = C1Format::kAuto,
                    std::optional<RegisteredSealProof> proof = std::nullopt);

// The inverses: the exact bytes serde_json::to_vec (form 1) and bincode::serialize (form 3)
// write for these values; `offset` fields are ignored. A Merkle proof's kind says how its path
// splits (the last level is the sub tree's for Sub, the last two are sub and top for Top);
// std::invalid_argument for a Sub/Top proof with too few levels to split.
std::string encode_c1_json(const SealCommitPhase1& c1);
std::vector<std::uint8_t> encode_c1_bincode(const SealCommitPhase1& c1);
// Standard base64 with padding (Go's encoding/json for []byte), for building form 2.
std::string base64_encode(std::span<const std::uint8_t> bytes);

}  // namespace cuzk::filecoin
