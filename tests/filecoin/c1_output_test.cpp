// PoRep C1 output: decoding of the three forms (filecoin-ffi JSON, Curio's envelope, supraseal's
// bincode), the shape and proof checks, and the parse speed of a 32 GiB C1.
//
// No real C1 file is public in the sources searched (curio's tests seal a sector with
// filecoin-ffi at run time; supraseal's 32 GiB sample, demos/c2-test/resources/test/
// commit-phase1-output, is not stored), so the C1s here are made by c1_test_gen.hpp: a small
// sector sealed natively on the real SDR graph. The expected JSON is built independently of the
// library's encoder with nlohmann::json, field by field from the Rust structs' declarations.
#include "cuzk/filecoin/c1_output.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_check.hpp"
#include "cuzk/filecoin/c1_circuit.hpp"
#include "filecoin/c1_test_gen.hpp"
#include "support/decode_error.hpp"

namespace cuzk::filecoin {
namespace {
using cuzk::test::decode_error_of;

using test::C1GenParams;
using test::generate_c1;
using OJ = nlohmann::ordered_json;

// ---- the expected serde_json document, built with nlohmann (J: ordered or key-sorted) ----

template <class J>
J bytes_j(const Bytes32& b) {
  J a = J::array();
  for (std::uint8_t x : b) a.push_back(x);
  return a;
}
template <class J>
J fr_j(const Fr& x) {
  return bytes_j<J>(x.to_bytes_le());
}
template <class J>
J frs_j(const std::vector<Fr>& xs) {
  J a = J::array();
  for (const Fr& x : xs) a.push_back(fr_j<J>(x));
  return a;
}
// storage-proofs-core merkle/proof.rs InclusionPath { path: Vec<PathElement { hashes, index }> }.
template <class J>
J path_j(std::span<const PathLevel> levels) {
  J a = J::array();
  for (const PathLevel& lv : levels) {
    J e;
    e["hashes"] = frs_j<J>(lv.siblings);
    e["index"] = lv.index;
    a.push_back(e);
  }
  J p;
  p["path"] = a;
  return p;
}
// MerkleProof { data: ProofData::{Single{root, leaf, path} | Sub{base_proof, sub_proof, root,
// leaf} | Top{base_proof, sub_proof, top_proof, root, leaf}} }.
template <class J>
J merkle_j(const InclusionProof& p) {
  const std::span<const PathLevel> all(p.path);
  J v;
  const char* name = "Single";
  if (p.kind == MerkleProofKind::Single) {
    v["root"] = fr_j<J>(p.root);
    v["leaf"] = fr_j<J>(p.leaf);
    v["path"] = path_j<J>(all);
  } else {
    const std::size_t upper = p.kind == MerkleProofKind::Sub ? 1 : 2;
    v["base_proof"] = path_j<J>(all.first(all.size() - upper));
    v["sub_proof"] = path_j<J>(all.subspan(all.size() - upper, 1));
    if (upper == 2) v["top_proof"] = path_j<J>(all.last(1));
    v["root"] = fr_j<J>(p.root);
    v["leaf"] = fr_j<J>(p.leaf);
    name = upper == 1 ? "Sub" : "Top";
  }
  J d;
  d[name] = v;
  J m;
  m["data"] = d;
  return m;
}
// ColumnProof { column: Column { index, rows, _h }, inclusion_proof }.
template <class J>
J column_j(const ColumnOpening& c) {
  J col;
  col["index"] = c.index;
  col["rows"] = frs_j<J>(c.rows);
  col["_h"] = nullptr;
  J o;
  o["column"] = col;
  o["inclusion_proof"] = merkle_j<J>(c.tree_c);
  return o;
}
template <class J>
J label_j(const LabelingProof& l) {
  J o;
  o["parents"] = frs_j<J>(l.parents);
  o["layer_index"] = l.layer_index;
  o["node"] = l.node;
  return o;
}
template <class J>
J proof_j(const PorepVanillaProof& p) {
  J rcp;
  rcp["c_x"] = column_j<J>(p.c_x);
  rcp["drg_parents"] = J::array();
  for (const auto& c : p.drg_parents) rcp["drg_parents"].push_back(column_j<J>(c));
  rcp["exp_parents"] = J::array();
  for (const auto& c : p.exp_parents) rcp["exp_parents"].push_back(column_j<J>(c));
  J o;
  o["comm_d_proofs"] = merkle_j<J>(p.comm_d_proof);
  o["comm_r_last_proof"] = merkle_j<J>(p.comm_r_last_proof);
  o["replica_column_proofs"] = rcp;
  o["labeling_proofs"] = J::array();
  for (const auto& l : p.labeling_proofs) o["labeling_proofs"].push_back(label_j<J>(l));
  o["encoding_proof"] = label_j<J>(p.encoding_proof);
  return o;
}
// filecoin-proofs-api SealCommitPhase1Output; go_order: curio's Commit1OutRaw field order.
template <class J>
J c1_j(const SealCommitPhase1& c1, bool go_order = false) {
  const SealProofInfo& info = seal_proof_info(c1.registered_proof);
  J parts = J::array();
  for (const auto& part : c1.partitions) {
    J a = J::array();
    for (const auto& p : part) a.push_back(proof_j<J>(p));
    parts.push_back(a);
  }
  J vp;
  vp[vanilla_seal_proof_variant(info.sector_size)] = parts;
  J o;
  if (go_order) {
    o["comm_d"] = fr_j<J>(c1.comm_d);
    o["comm_r"] = fr_j<J>(c1.comm_r);
    o["registered_proof"] = std::string(info.name);
    o["replica_id"] = fr_j<J>(c1.replica_id);
    o["seed"] = bytes_j<J>(c1.seed);
    o["ticket"] = bytes_j<J>(c1.ticket);
    o["vanilla_proofs"] = vp;
    return o;
  }
  o["registered_proof"] = std::string(info.name);
  o["vanilla_proofs"] = vp;
  o["comm_r"] = fr_j<J>(c1.comm_r);
  o["comm_d"] = fr_j<J>(c1.comm_d);
  o["replica_id"] = fr_j<J>(c1.replica_id);
  o["seed"] = bytes_j<J>(c1.seed);
  o["ticket"] = bytes_j<J>(c1.ticket);
  return o;
}

Bytes32 filled(std::uint8_t v) {
  Bytes32 b;
  b.fill(v);
  return b;
}

C1GenParams params(RegisteredSealProof p) {
  C1GenParams g;
  g.proof = p;
  g.prover_id = filled(9);
  g.sector = 234;
  g.ticket = filled(7);
  g.seed = filled(5);
  g.seed[31] = 0x1f;
  return g;
}

C1CheckOptions with_prover(const C1GenParams& g) {
  C1CheckOptions o;
  o.prover_id = g.prover_id;
  o.sector_number = g.sector;
  return o;
}

std::vector<std::uint8_t> to_bytes(std::string_view s) { return {s.begin(), s.end()}; }

// ---- shapes ----

TEST(FilecoinC1, ShapesOfTheRegisteredProofs) {
  // filecoin-proofs constants.rs: POREP_PARTITIONS 1 / 10, NI 13 / 126; minimum challenges 2 / 176,
  // NI 26 / 2253 (ceil over partitions: 2 and 18); LAYERS 2 / 11; SectorShape*.
  using R = RegisteredSealProof;
  EXPECT_EQ(c1_shape(R::StackedDrg2KiBV1_1), (PorepC1Shape{64, {8, 0, 0}, 2, 1, 2}));
  EXPECT_EQ(c1_shape(R::StackedDrg32GiBV1_1), (PorepC1Shape{std::uint64_t{1} << 30, {8, 8, 0}, 11, 10, 18}));
  EXPECT_EQ(c1_shape(R::StackedDrg64GiBV1), (PorepC1Shape{std::uint64_t{1} << 31, {8, 8, 2}, 11, 10, 18}));
  EXPECT_EQ(c1_shape(R::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep), (PorepC1Shape{64, {8, 0, 0}, 2, 13, 2}));
  EXPECT_EQ(c1_shape(R::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep),
            (PorepC1Shape{std::uint64_t{1} << 30, {8, 8, 0}, 11, 126, 18}));
  EXPECT_EQ(vanilla_seal_proof_variant(kSectorSize32GiB), "StackedDrg32GiBV1");
}

// ---- the JSON form ----

TEST(FilecoinC1, EncoderWritesSerdeJsonOfTheRustStructs) {
  // Single (2 KiB), Sub (8-8-0 test tree) and Top (8-8-2) Merkle proofs.
  const auto p = params(RegisteredSealProof::StackedDrg2KiBV1_1);
  auto sub = p, top = p;
  sub.shape = PorepC1Shape{512, {8, 8, 0}, 2, 1, 2};
  top.shape = PorepC1Shape{1024, {8, 8, 2}, 2, 1, 2};
  for (const auto& g : {p, sub, top}) {
    const SealCommitPhase1 c1 = generate_c1(g).c1;
    EXPECT_EQ(encode_c1_json(c1), c1_j<OJ>(c1).dump());
  }
}

TEST(FilecoinC1, DecodesAnyFieldOrderAndWhitespace) {
  const SealCommitPhase1 c1 = generate_c1(params(RegisteredSealProof::StackedDrg2KiBV1_1)).c1;
  const std::string want = encode_c1_json(c1);
  const std::string docs[] = {
      c1_j<OJ>(c1).dump(),              // serde's order
      c1_j<OJ>(c1, true).dump(),        // curio's Go structs
      c1_j<nlohmann::json>(c1).dump(),  // keys sorted
      c1_j<OJ>(c1).dump(2),             // pretty-printed
  };
  for (const auto& doc : docs) EXPECT_EQ(encode_c1_json(decode_c1_json(doc)), want);
  // Unknown fields are ignored (serde's default).
  OJ extra = c1_j<OJ>(c1);
  extra["unknown"] = {{"a", {1, 2.5, "x", nullptr, true}}};
  extra["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]["labeling_proofs"][0]["_h"] = nullptr;
  EXPECT_EQ(encode_c1_json(decode_c1_json(extra.dump())), want);
}

TEST(FilecoinC1, DecodedValuesAreTheFieldsOfTheDocument) {
  const SealCommitPhase1 c1 = generate_c1(params(RegisteredSealProof::StackedDrg2KiBV1_1)).c1;
  const OJ j = c1_j<OJ>(c1);
  const SealCommitPhase1 d = decode_c1_json(j.dump());
  EXPECT_EQ(d.registered_proof, RegisteredSealProof::StackedDrg2KiBV1_1);
  EXPECT_EQ(d.seed, c1.seed);
  EXPECT_EQ(d.ticket, c1.ticket);
  const OJ& p0 = j["vanilla_proofs"]["StackedDrg2KiBV1"][0][1];
  const PorepVanillaProof& v = d.partitions.at(0).at(1);
  EXPECT_EQ(v.challenge(), p0["labeling_proofs"][0]["node"].get<std::uint64_t>());
  EXPECT_EQ(v.c_x.index, p0["replica_column_proofs"]["c_x"]["column"]["index"].get<std::uint32_t>());
  EXPECT_EQ(v.drg_parents.at(3).rows.at(1).to_bytes_le(),
            p0["replica_column_proofs"]["drg_parents"][3]["column"]["rows"][1].get<Bytes32>());
  EXPECT_EQ(v.comm_d_proof.path.at(4).siblings.at(0).to_bytes_le(),
            p0["comm_d_proofs"]["data"]["Single"]["path"]["path"][4]["hashes"][0].get<Bytes32>());
  EXPECT_EQ(v.comm_d_proof.path.at(4).index,
            p0["comm_d_proofs"]["data"]["Single"]["path"]["path"][4]["index"].get<std::uint32_t>());
  EXPECT_EQ(v.labeling_proofs.at(1).parents.at(36).to_bytes_le(),
            p0["labeling_proofs"][1]["parents"][36].get<Bytes32>());
  EXPECT_EQ(d.replica_id.to_bytes_le(), j["replica_id"].get<Bytes32>());
}

TEST(FilecoinC1, RefusesMalformedOrMisshapenJson) {
  const SealCommitPhase1 c1 = generate_c1(params(RegisteredSealProof::StackedDrg2KiBV1_1)).c1;
  const OJ base = c1_j<OJ>(c1);
  auto with = [&](auto&& edit) {
    OJ j = base;
    edit(j);
    return j.dump();
  };
  auto p0 = [](OJ& j) -> OJ& { return j["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]; };
  EXPECT_DECODE_ERROR(decode_c1_json(with([](OJ& j) { j["registered_proof"] = "StackedDrg2KiBV9"; })),
                      "unknown registered proof \"StackedDrg2KiBV9\"");
  EXPECT_DECODE_ERROR(decode_c1_json(with([](OJ& j) { j["registered_proof"] = "StackedDrg32GiBV1_1"; })),
                      "vanilla_proofs variant \"StackedDrg2KiBV1\" does not match registered proof "
                      "StackedDrg32GiBV1_1");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) {
                        auto& v = j["vanilla_proofs"]["StackedDrg2KiBV1"];
                        v.push_back(v[0]);
                      })),
                      "2 partitions of vanilla proofs; StackedDrg2KiBV1_1 has 1");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) {
                        auto& v = j["vanilla_proofs"]["StackedDrg2KiBV1"][0];
                        v.push_back(v[0]);
                      })),
                      "partition 0: 3 challenge proofs; StackedDrg2KiBV1_1 has 2 challenges per partition");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) {
                        auto& rows = p0(j)["replica_column_proofs"]["c_x"]["column"]["rows"];
                        rows.push_back(rows[0]);
                      })),
                      "challenge 0: replica_column_proofs.c_x.column.rows (byte ");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["replica_column_proofs"]["drg_parents"].erase(5); })),
                      "replica_column_proofs.drg_parents (byte ");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["replica_column_proofs"]["drg_parents"].erase(5); })),
                      "5 columns; SDR has 6 DRG parents");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["labeling_proofs"][1]["parents"].erase(0); })),
                      "labeling_proofs[1].parents (byte ");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["encoding_proof"]["parents"].erase(0); })),
                      "36 parent labels; a label hashes 37");
  EXPECT_DECODE_ERROR(decode_c1_json(
                          with([&](OJ& j) { p0(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"].erase(5); })),
                      "comm_d_proofs (byte ");
  EXPECT_DECODE_ERROR(decode_c1_json(
                          with([&](OJ& j) { p0(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"].erase(5); })),
                      "the path has 5 levels; the 2-0-0 tree of 64 leaves has 6");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) {
                        p0(j)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["index"] = 8;
                      })),
                      "insertion index 8 is outside a level of arity 8");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) {
                        p0(j)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][1]["hashes"].erase(0);
                      })),
                      "path level 1 has 6 hashes; arity 8 needs 7");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["replica_column_proofs"]["c_x"]["column"]["_h"] = 1; })),
                      "expected null for _h");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["labeling_proofs"][0]["node"] = 1.5; })),
                      "node must be an integer");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["labeling_proofs"][0]["layer_index"] = 1ull << 32; })),
                      "layer_index is larger than 4294967295");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { j["comm_r"] = bytes_j<OJ>(filled(0xff)); })),
                      "(comm_r): comm_r is not a canonical field element");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { j["seed"].erase(0); })), "seed has 31 numbers; expected 32");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { j["ticket"].push_back(0); })),
                      "ticket has more than 32 numbers");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { j.erase("seed"); })), "missing field \"seed\"");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) {
                        p0(j)["comm_d_proofs"]["data"] = {{"Left", 1}};
                      })),
                      "unknown ProofData variant \"Left\"");
  EXPECT_DECODE_ERROR(decode_c1_json(with([&](OJ& j) { p0(j)["comm_d_proofs"]["data"]["Single"].erase("leaf"); })),
                      "missing field \"leaf\"");
  EXPECT_DECODE_ERROR(decode_c1_json(base.dump() + " x"), "trailing characters after the document");
  const std::string doc = base.dump();
  EXPECT_DECODE_ERROR(decode_c1_json(doc.substr(0, doc.size() / 2)), "found the end of the input");
  EXPECT_DECODE_ERROR(decode_c1_json("{\"comm_r\":[1],\"registered_proof\":\"StackedDrg2KiBV1\",\"comm_r\":[1]}"),
                      "has 1 numbers");
  const std::string first_seed = "{\"seed\":" + bytes_j<OJ>(Bytes32{}).dump() + ",";
  EXPECT_DECODE_ERROR(decode_c1_json(first_seed + "\"seed\":[]}"),
                      "byte " + std::to_string(first_seed.size()) + " (seed): duplicate field \"seed\"");

  // A byte out of range: the message points at the number (its offset in the text) and its path.
  std::string bad = doc;
  const std::string key = "\"replica_id\":[";
  const std::size_t at = bad.find(key) + key.size();
  bad.replace(at, bad.find(',', at) - at, "256");
  EXPECT_DECODE_ERROR(decode_c1_json(bad),
                      "byte " + std::to_string(at) + " (replica_id[0]): a byte (0..255) is larger than 255");
  // A Merkle proof variant that is not the tree's.
  SealCommitPhase1 sub = c1;
  sub.partitions[0][1].comm_r_last_proof.kind = MerkleProofKind::Sub;
  EXPECT_DECODE_ERROR(decode_c1_json(encode_c1_json(sub)), "challenge 1: comm_r_last_proof (byte ");
  EXPECT_DECODE_ERROR(decode_c1_json(encode_c1_json(sub)), "a Sub proof; the 8-0-0 tree has Single proofs");
}

// ---- the bincode form and Curio's envelope ----

TEST(FilecoinC1, BincodeRoundTripAndRefusals) {
  const auto g = params(RegisteredSealProof::StackedDrg2KiBV1_1);
  const SealCommitPhase1 c1 = generate_c1(g).c1;
  const std::vector<std::uint8_t> bin = encode_c1_bincode(c1);
  const SealCommitPhase1 d = decode_c1_bincode(bin, c1.registered_proof);
  EXPECT_EQ(encode_c1_json(d), encode_c1_json(c1));
  EXPECT_NO_THROW(verify_c1(d, with_prover(g)));
  // Layout spot checks (bincode 1.x): partition count u64, challenge count u64, then the first
  // proof's comm_d_proofs: tag u32 0 (Single), root, leaf, path length u64 6.
  ASSERT_GT(bin.size(), 100u);
  EXPECT_EQ(bin[0], 1);
  EXPECT_EQ(bin[8], 2);
  EXPECT_EQ(std::vector<std::uint8_t>(bin.begin() + 16, bin.begin() + 20), std::vector<std::uint8_t>(4, 0));
  const auto root = c1.comm_d.to_bytes_le();
  EXPECT_TRUE(std::equal(root.begin(), root.end(), bin.begin() + 20));
  EXPECT_EQ(bin[20 + 64], 6);
  // The tail: comm_r, comm_d, replica_id, seed, ticket.
  EXPECT_TRUE(std::equal(g.ticket.begin(), g.ticket.end(), bin.end() - 32));
  EXPECT_TRUE(std::equal(g.seed.begin(), g.seed.end(), bin.end() - 64));

  auto edited = [&](std::size_t at, std::uint8_t v) {
    auto b = bin;
    b[at] = v;
    return b;
  };
  EXPECT_DECODE_ERROR(decode_c1_bincode(std::span(bin).first(bin.size() - 1), c1.registered_proof),
                      "truncated: ticket");
  auto longer = bin;
  longer.push_back(0);
  EXPECT_DECODE_ERROR(decode_c1_bincode(longer, c1.registered_proof), "1 trailing bytes");
  EXPECT_DECODE_ERROR(decode_c1_bincode(edited(16, 3), c1.registered_proof),
                      "byte 16 (vanilla_proofs[0][0].comm_d_proofs): ProofData tag 3");
  EXPECT_DECODE_ERROR(decode_c1_bincode(edited(7, 0x10), c1.registered_proof),
                      "partition count 1152921504606846977 cannot fit");
  EXPECT_DECODE_ERROR(decode_c1_bincode(edited(0, 2), c1.registered_proof), "challenge count");
  EXPECT_DECODE_ERROR(decode_c1_bincode(bin, RegisteredSealProof::StackedDrg8MiBV1_1), "the path has 6 levels");
}

TEST(FilecoinC1, CurioEnvelopeWithJsonOrBincode) {
  const auto g = params(RegisteredSealProof::StackedDrg2KiBV1_1);
  const SealCommitPhase1 c1 = generate_c1(g).c1;
  const std::string want = encode_c1_json(c1);
  auto envelope = [](std::span<const std::uint8_t> payload, std::uint64_t size) {
    OJ e;
    e["SectorNum"] = 234;
    e["Phase1Out"] = base64_encode(payload);
    e["SectorSize"] = size;
    return e.dump();
  };
  const std::string json_env = envelope(to_bytes(want), 2048);
  const CurioC1Request r = decode_curio_c1(json_env);
  EXPECT_EQ(r.sector_num, 234u);
  EXPECT_EQ(r.sector_size, 2048u);
  EXPECT_EQ(encode_c1_json(r.c1), want);
  EXPECT_EQ(encode_c1_json(decode_curio_c1(json_env, RegisteredSealProof::StackedDrg2KiBV1_1).c1), want);
  const std::string bin_env = envelope(encode_c1_bincode(c1), 2048);
  EXPECT_EQ(encode_c1_json(decode_curio_c1(bin_env, RegisteredSealProof::StackedDrg2KiBV1_1).c1), want);

  EXPECT_DECODE_ERROR(decode_curio_c1(bin_env), "Phase1Out is not JSON (supraseal's bincode C1?)");
  EXPECT_DECODE_ERROR(decode_curio_c1(json_env, RegisteredSealProof::StackedDrg2KiBV1),
                      "the C1 is for StackedDrg2KiBV1_1; the request names StackedDrg2KiBV1");
  EXPECT_DECODE_ERROR(decode_curio_c1(envelope(to_bytes(want), 4096)),
                      "SectorSize 4096 is not StackedDrg2KiBV1_1's 2048");
  EXPECT_DECODE_ERROR(decode_curio_c1("{\"SectorNum\":1,\"Phase1Out\":\"ab$d\",\"SectorSize\":2048}"),
                      "byte 30: Phase1Out: not a base64 character");
  EXPECT_DECODE_ERROR(decode_curio_c1(envelope(to_bytes(want.substr(0, 100)), 2048)),
                      "Phase1Out (base64 JSON at byte 29): C1 JSON, byte ");
  // Base64 as Go writes it (RFC 4648 test vectors).
  EXPECT_EQ(base64_encode(to_bytes("foobar")), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(to_bytes("fooba")), "Zm9vYmE=");
  EXPECT_EQ(base64_encode(to_bytes("foob")), "Zm9vYg==");
}

// ---- checks ----

TEST(FilecoinC1, SealedSectorsOfEveryKindPassAllChecks) {
  using R = RegisteredSealProof;
  for (R p : {R::StackedDrg2KiBV1, R::StackedDrg2KiBV1_1, R::StackedDrg2KiBV1_1_Feat_SyntheticPoRep,
              R::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
    const auto g = params(p);
    const SealCommitPhase1 c1 = decode_c1_json(encode_c1_json(generate_c1(g).c1));
    EXPECT_NO_THROW(verify_c1(c1, with_prover(g))) << seal_proof_info(p).name;
  }
}

TEST(FilecoinC1, SubAndTopTestTreesPassAllChecks) {
  for (const PorepC1Shape& shape : {PorepC1Shape{512, {8, 8, 0}, 2, 1, 2}, PorepC1Shape{1024, {8, 8, 2}, 2, 2, 2}}) {
    auto g = params(RegisteredSealProof::StackedDrg2KiBV1_1);
    g.shape = shape;
    const auto gen = generate_c1(g);
    const SdrGraph graph(shape.nodes, porep_id(g.proof), ApiVersion::V1_1_0);
    C1CheckOptions o = with_prover(g);
    o.challenges = [&](std::size_t k) { return gen.challenges.at(k); };
    o.parents = [&](std::uint64_t node, std::span<std::uint32_t, kSdrDegree> out) {
      graph.parents(static_cast<std::uint32_t>(node), out);
    };
    const SealCommitPhase1 c1 = parse_c1_json(encode_c1_json(gen.c1));
    EXPECT_NO_THROW(validate_c1_shape(c1, shape));
    EXPECT_NO_THROW(verify_c1(c1, shape, o));
    EXPECT_NO_THROW(verify_c1(parse_c1_bincode(encode_c1_bincode(gen.c1), g.proof), shape, o));
    EXPECT_DECODE_ERROR(validate_c1_shape(c1, c1_shape(g.proof)), "C1 (StackedDrg2KiBV1_1)");
  }
}

TEST(FilecoinC1, TheCircuitIsSatisfiedByACheckedC1) {
  const auto g = params(RegisteredSealProof::StackedDrg2KiBV1_1);
  const SealCommitPhase1 c1 = decode_c1_json(encode_c1_json(generate_c1(g).c1));
  verify_c1(c1, with_prover(g));
  const StackedCircuit circuit = c1_partition_circuit(c1, 0);
  cs::CheckCS<Fr> cs;
  circuit.synthesize(cs);
  EXPECT_TRUE(cs.is_satisfied()) << cs.first_unsatisfied()->name;
  // A C1 the checks refuse makes an unsatisfiable circuit: the replica node's encoding.
  auto bad = g;
  bad.encode_offset = Fr::one();
  const SealCommitPhase1 b = generate_c1(bad).c1;
  EXPECT_DECODE_ERROR(verify_c1(b, with_prover(bad)), "key + data leaf");
  cs::CheckCS<Fr> cs2;
  c1_partition_circuit(b, 0).synthesize(cs2);
  EXPECT_FALSE(cs2.is_satisfied());
}

TEST(FilecoinC1, EachCheckRefusesWithWhatAndWhere) {
  using R = RegisteredSealProof;
  const auto g = params(R::StackedDrg2KiBV1_1);
  const auto gen = generate_c1(g);
  const C1CheckOptions opt = with_prover(g);
  auto refused = [&](auto&& edit, C1CheckOptions o = {}) {
    SealCommitPhase1 c1 = gen.c1;
    edit(c1);
    return decode_error_of([&] { verify_c1(c1, o.prover_id ? o : opt); });
  };
  auto has = [](const std::string& msg, const std::string& needle) {
    return msg.find(needle) != std::string::npos ? ::testing::AssertionSuccess()
                                                 : ::testing::AssertionFailure() << "message: \"" << msg << "\"";
  };
  EXPECT_EQ(refused([](SealCommitPhase1&) {}), "");
  // 1.
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.seed = Bytes32{}; }), "the porep challenge seed is all zero"));
  // 2.
  {
    C1CheckOptions other = opt;
    other.prover_id = filled(8);
    EXPECT_TRUE(has(refused([](SealCommitPhase1&) {}, other), "is not the sector's: prover 0808"));
    other = opt;
    other.sector_number = 235;
    EXPECT_TRUE(has(refused([](SealCommitPhase1&) {}, other), "sector 235"));
  }
  // 3.
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.comm_r += Fr::one(); }), "!= Poseidon2(comm_c, comm_r_last)"));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][1].comm_r_last_proof.root += Fr::one(); }),
                  "partition 0, challenge 1 (node "));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][1].comm_r_last_proof.root += Fr::one(); }),
                  "comm_r_last_proof (byte 0): root "));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][1].exp_parents[2].tree_c.root += Fr::one(); }),
                  "replica_column_proofs.exp_parents[2].inclusion_proof (byte 0): root"));
  // 4. TreeD.
  {
    // (comm_d also makes the replica id, so check without the prover id.)
    SealCommitPhase1 c = gen.c1;
    c.comm_d += Fr::one();
    EXPECT_TRUE(has(decode_error_of([&] { verify_c1(c); }), "comm_d_proofs (byte 0): root"));
  }
  EXPECT_TRUE(
      has(refused([](SealCommitPhase1& c) { c.partitions[0][0].comm_d_proof.path[3].siblings[0] += Fr::one(); }),
          "comm_d_proofs (byte 0): the leaf hashed up the path (SHA-256) gives"));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][0].comm_d_proof.path[0].index ^= 1; }),
                  "comm_d_proofs (byte 0): the path opens node"));
  // TreeR, TreeC.
  EXPECT_TRUE(
      has(refused([](SealCommitPhase1& c) { c.partitions[0][1].comm_r_last_proof.path[1].siblings[3] += Fr::one(); }),
          "comm_r_last_proof (byte 0): the leaf hashed up the path gives"));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][0].drg_parents[2].rows[1] += Fr::one(); }),
                  "replica_column_proofs.drg_parents[2] (byte 0): the column's hash"));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][0].c_x.index += 1; }),
                  "replica_column_proofs.c_x.column.index (byte 0): the column of node"));
  // The challenges of another seed; the parents of another graph (ApiVersion 1.0.0's).
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.seed[0] ^= 1; }), "the seed challenges node"));
  {
    auto v1 = g;
    v1.graph_api = ApiVersion::V1_0_0;
    const SealCommitPhase1 c = generate_c1(v1).c1;
    EXPECT_TRUE(has(decode_error_of([&] { verify_c1(c, opt); }), "column.index (byte 0): the column of node"));
    EXPECT_TRUE(has(decode_error_of([&] { verify_c1(c, opt); }), "the graph's parent is node"));
  }
  // Labels.
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][1].labeling_proofs[1].parents[20] += Fr::one(); }),
                  "labeling_proofs[1].parents[20] (byte 0): "));
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][1].labeling_proofs[0].layer_index = 2; }),
                  "labeling_proofs[0] (byte 0): layer_index 2; expected 1"));
  {
    // Another replica id (with the seed's challenges for the original one): the labels differ.
    SealCommitPhase1 c = gen.c1;
    c.replica_id += Fr::one();
    const std::string msg = decode_error_of([&] {
      C1CheckOptions keep;
      keep.challenges = [&](std::size_t k) { return gen.challenges.at(k); };
      verify_c1(c, keep);
    });
    EXPECT_TRUE(has(msg, "labeling_proofs[0] (byte 0): the label SHA-256(replica_id, layer, node, parents) is"));
  }
  // Encoding.
  EXPECT_TRUE(has(refused([](SealCommitPhase1& c) { c.partitions[0][0].encoding_proof.parents[0] += Fr::one(); }),
                  "encoding_proof (byte 0): does not repeat the last layer's labeling proof"));
}

// ---- speed ----

TEST(FilecoinC1, ParsesA32GiBC1InWellUnderASecond) {
  const SealCommitPhase1 c1 = test::random_c1(RegisteredSealProof::StackedDrg32GiBV1_1, 3);
  auto t0 = std::chrono::steady_clock::now();
  const std::string json = encode_c1_json(c1);
  auto t1 = std::chrono::steady_clock::now();
  const SealCommitPhase1 d = decode_c1_json(json);
  auto t2 = std::chrono::steady_clock::now();
  const std::vector<std::uint8_t> bin = encode_c1_bincode(c1);
  auto t3 = std::chrono::steady_clock::now();
  const SealCommitPhase1 db = decode_c1_bincode(bin, c1.registered_proof);
  auto t4 = std::chrono::steady_clock::now();
  auto s = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
  std::printf(
      "32 GiB C1: JSON %.1f MB encoded in %.3f s, decoded in %.3f s (%.0f MB/s); bincode %.1f MB decoded in %.3f s\n",
      json.size() / 1e6, s(t0, t1), s(t1, t2), json.size() / 1e6 / s(t1, t2), bin.size() / 1e6, s(t3, t4));
  EXPECT_EQ(d.partitions.size(), 10u);
  EXPECT_EQ(d.partitions[9].size(), 18u);
  EXPECT_EQ(encode_c1_json(db), json);
  EXPECT_GT(json.size(), 35'000'000u);
  EXPECT_LT(s(t1, t2), 1.0);
}

}  // namespace
}  // namespace cuzk::filecoin
