// C1 output JSON (form 1 of c1_output.hpp), read field by field with c1_json_reader.hpp. A 32 GiB
// C1 is ~39 MB of JSON, nearly all of it arrays of 32 small numbers; reading those straight into
// field elements, with no DOM, takes under 0.1 s on one core.
#include <string>
#include <utility>
#include <vector>

#include "c1_json_reader.hpp"
#include "cuzk/filecoin/c1_output.hpp"

namespace cuzk::filecoin {

namespace {

using c1_detail::Fields;
using c1_detail::JsonReader;

// InclusionPath: {"path": [{"hashes": [...], "index": n}, ...]}, appended to out.
std::size_t read_inclusion_path(JsonReader& r, std::vector<PathLevel>& out) {
  std::size_t levels = 0;
  Fields f(r, {"path"});
  r.object([&](std::string_view key, std::size_t at) {
    if (f.match(key, at) != 0) return r.skip();
    r.array([&](std::size_t) {
      PathLevel lv;
      Fields g(r, {"hashes", "index"});
      r.object([&](std::string_view k, std::size_t a) {
        switch (g.match(k, a)) {
          case 0:
            lv.siblings = r.fr_array("hash");
            break;
          case 1:
            lv.index = static_cast<std::uint32_t>(r.uint(0xffffffffu, "index"));
            break;
          default:
            r.skip();
        }
      });
      g.require();
      out.push_back(std::move(lv));
      ++levels;
    });
  });
  f.require();
  return levels;
}

// ProofData's variant value: Single {root, leaf, path}; Sub {base_proof, sub_proof, root, leaf};
// Top {.., top_proof, ..}. The sub and top paths are one level each in every Filecoin tree.
void read_proof_variant(JsonReader& r, MerkleProofKind kind, InclusionProof& p) {
  std::vector<PathLevel> base, sub, top;
  std::size_t sub_at = 0, top_at = 0;
  Fields f(r, {"root", "leaf", "path", "base_proof", "sub_proof", "top_proof"});
  r.object([&](std::string_view key, std::size_t at) {
    const int i = f.match(key, at);
    const bool single = kind == MerkleProofKind::Single;
    if (i == 0) {
      p.root = r.fr("root");
    } else if (i == 1) {
      p.leaf = r.fr("leaf");
    } else if (i == 2 && single) {
      read_inclusion_path(r, base);
    } else if (i == 3 && !single) {
      read_inclusion_path(r, base);
    } else if (i == 4 && !single) {
      sub_at = (r.ws(), r.pos());
      if (read_inclusion_path(r, sub) != 1)
        r.fail(sub_at, "sub_proof has " + std::to_string(sub.size()) + " levels; a sub tree is one level");
    } else if (i == 5 && kind == MerkleProofKind::Top) {
      top_at = (r.ws(), r.pos());
      if (read_inclusion_path(r, top) != 1)
        r.fail(top_at, "top_proof has " + std::to_string(top.size()) + " levels; a top tree is one level");
    } else {
      r.skip();
    }
  });
  const unsigned kOptional[] = {0b111000, 0b100100, 0b000100};  // fields a variant does not have
  f.require(kOptional[static_cast<unsigned>(kind)]);
  p.path = std::move(base);
  p.path.insert(p.path.end(), sub.begin(), sub.end());
  p.path.insert(p.path.end(), top.begin(), top.end());
}

// MerkleProof: {"data": {"<Single|Sub|Top>": {...}}}.
InclusionProof read_merkle_proof(JsonReader& r) {
  InclusionProof p;
  p.offset = (r.ws(), r.pos());
  Fields f(r, {"data"});
  r.object([&](std::string_view key, std::size_t at) {
    if (f.match(key, at) != 0) return r.skip();
    bool have = false;
    r.object([&](std::string_view variant, std::size_t vat) {
      if (have) r.fail(vat, "ProofData has more than one variant");
      have = true;
      if (variant == "Single")
        p.kind = MerkleProofKind::Single;
      else if (variant == "Sub")
        p.kind = MerkleProofKind::Sub;
      else if (variant == "Top")
        p.kind = MerkleProofKind::Top;
      else
        r.fail(vat, "unknown ProofData variant \"" + std::string(variant) + "\" (Single, Sub, Top)");
      read_proof_variant(r, p.kind, p);
    });
    if (!have) r.fail(p.offset, "empty ProofData");
  });
  f.require();
  return p;
}

ColumnOpening read_column_proof(JsonReader& r) {
  ColumnOpening c;
  c.offset = (r.ws(), r.pos());
  Fields f(r, {"column", "inclusion_proof"});
  r.object([&](std::string_view key, std::size_t at) {
    switch (f.match(key, at)) {
      case 0: {
        Fields g(r, {"index", "rows", "_h"});
        r.object([&](std::string_view k, std::size_t a) {
          switch (g.match(k, a)) {
            case 0:
              c.index = static_cast<std::uint32_t>(r.uint(0xffffffffu, "index"));
              break;
            case 1:
              c.rows = r.fr_array("row");
              break;
            case 2:
              r.null("_h (PhantomData)");
              break;
            default:
              r.skip();
          }
        });
        g.require(0b100);  // serde writes "_h": null; it carries nothing
        break;
      }
      case 1:
        c.tree_c = read_merkle_proof(r);
        break;
      default:
        r.skip();
    }
  });
  f.require();
  return c;
}

LabelingProof read_labeling_proof(JsonReader& r) {
  LabelingProof l;
  l.offset = (r.ws(), r.pos());
  Fields f(r, {"parents", "layer_index", "node"});
  r.object([&](std::string_view key, std::size_t at) {
    switch (f.match(key, at)) {
      case 0:
        l.parents = r.fr_array("parent label");
        break;
      case 1:
        l.layer_index = static_cast<std::uint32_t>(r.uint(0xffffffffu, "layer_index"));
        break;
      case 2:
        l.node = r.uint(~std::uint64_t{0}, "node");
        break;
      default:
        r.skip();
    }
  });
  f.require();
  return l;
}

PorepVanillaProof read_vanilla_proof(JsonReader& r) {
  PorepVanillaProof v;
  v.offset = (r.ws(), r.pos());
  Fields f(r, {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs", "encoding_proof"});
  r.object([&](std::string_view key, std::size_t at) {
    switch (f.match(key, at)) {
      case 0:
        v.comm_d_proof = read_merkle_proof(r);
        break;
      case 1:
        v.comm_r_last_proof = read_merkle_proof(r);
        break;
      case 2: {
        Fields g(r, {"c_x", "drg_parents", "exp_parents"});
        r.object([&](std::string_view k, std::size_t a) {
          switch (g.match(k, a)) {
            case 0:
              v.c_x = read_column_proof(r);
              break;
            case 1:
              r.array([&](std::size_t) { v.drg_parents.push_back(read_column_proof(r)); });
              break;
            case 2:
              r.array([&](std::size_t) { v.exp_parents.push_back(read_column_proof(r)); });
              break;
            default:
              r.skip();
          }
        });
        g.require();
        break;
      }
      case 3:
        r.array([&](std::size_t) { v.labeling_proofs.push_back(read_labeling_proof(r)); });
        break;
      case 4:
        v.encoding_proof = read_labeling_proof(r);
        break;
      default:
        r.skip();
    }
  });
  f.require();
  return v;
}

RegisteredSealProof seal_proof_by_name(JsonReader& r, std::size_t at, std::string_view name) {
  for (const SealProofInfo& s : all_seal_proofs())
    if (s.name == name) return s.id;
  r.fail(at, "unknown registered proof \"" + std::string(name) + "\"");
}

SealCommitPhase1 read_c1(JsonReader& r) {
  SealCommitPhase1 c1;
  std::string_view variant;
  std::size_t variant_at = 0;
  Fields f(r, {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"});
  r.object([&](std::string_view key, std::size_t at) {
    switch (f.match(key, at)) {
      case 0: {
        const std::size_t vat = (r.ws(), r.pos());
        c1.registered_proof = seal_proof_by_name(r, vat, r.string("a registered proof name"));
        break;
      }
      case 1: {
        bool have = false;
        r.object([&](std::string_view name, std::size_t vat) {
          if (have) r.fail(vat, "VanillaSealProof has more than one variant");
          have = true;
          variant = name;
          variant_at = vat;
          r.array([&](std::size_t) {
            auto& part = c1.partitions.emplace_back();
            r.array([&](std::size_t) { part.push_back(read_vanilla_proof(r)); });
          });
        });
        if (!have) r.fail(at, "empty VanillaSealProof");
        break;
      }
      case 2:
        c1.comm_r = r.fr("comm_r");
        break;
      case 3:
        c1.comm_d = r.fr("comm_d");
        break;
      case 4:
        c1.replica_id = r.fr("replica_id");
        break;
      case 5:
        c1.seed = r.bytes32("seed");
        break;
      case 6:
        c1.ticket = r.bytes32("ticket");
        break;
      default:
        r.skip();
    }
  });
  f.require();
  // filecoin-proofs-api keeps one variant per sector size; another size's is a type error there.
  const SealProofInfo& info = seal_proof_info(c1.registered_proof);
  const std::string want = vanilla_seal_proof_variant(info.sector_size);
  if (variant != want)
    r.fail(variant_at, "vanilla_proofs variant \"" + std::string(variant) + "\" does not match registered proof " +
                           std::string(info.name) + " (expected \"" + want + "\")");
  return c1;
}

}  // namespace

SealCommitPhase1 parse_c1_json(std::string_view json) {
  JsonReader r(json, "C1 JSON");
  SealCommitPhase1 c1 = read_c1(r);
  r.end();
  return c1;
}

SealCommitPhase1 decode_c1_json(std::string_view json) {
  SealCommitPhase1 c1 = parse_c1_json(json);
  validate_c1_shape(c1, c1_shape(c1.registered_proof));
  return c1;
}

}  // namespace cuzk::filecoin
