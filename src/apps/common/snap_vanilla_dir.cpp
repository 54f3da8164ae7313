// A sector update's vanilla proofs as files (snap_vanilla_dir.hpp).
#include "snap_vanilla_dir.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep_vanilla_gen.hpp"
#include "cuzk/filecoin/sealed_cid.hpp"
#include "cuzk/filecoin/snap_vanilla.hpp"
#include "cuzk/filecoin/snap_vanilla_gen.hpp"
#include "post_parse.hpp"
#include "seal_parse.hpp"

namespace cuzk::cli {

namespace fc = filecoin;

namespace {

constexpr std::uint64_t kSealedUpTo = std::uint64_t{8} << 20;  // bytes: 8 MiB seals in seconds
constexpr std::uint64_t kSparseNodes = 4096;

// The V1_1 seal proof of a sector size (the one a sector of that size is sealed with today).
fc::RegisteredSealProof seal_proof_of_size(std::uint64_t sector_size) {
  if (const auto p = fc::interactive_seal_proof_of_size(sector_size)) return *p;
  throw std::logic_error("no V1_1 seal proof of sector size " + std::to_string(sector_size));
}

std::vector<char> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw DecodeError("cannot open " + p.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& p, const void* data, std::size_t size) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size)) || !out.flush())
    throw std::runtime_error("cannot write " + p.string());
}

}  // namespace

SnapVanillaSet generate_snap_vanilla(fc::RegisteredUpdateProof proof, std::uint64_t seed) {
  const fc::UpdateProofInfo& info = fc::update_proof_info(proof);
  const fc::SnapParams params = fc::snap_params(info.id);
  const unsigned h = fc::snap_h_default(info.nodes);
  SnapVanillaSet set;
  set.proof = proof;
  std::optional<fc::SnapTestUpdate> u;
  if (info.sector_size <= kSealedUpTo) {
    const fc::PorepGenParams p = fc::porep_gen_params(seal_proof_of_size(info.sector_size), seed);
    const fc::SealedSector sector = fc::seal_sector(p);
    u = fc::snap_update_of_sealed(sector, params, h, seed);
    set.origin = "an update of a test sector sealed in memory (" +
                 std::string(fc::seal_proof_info(p.proof).name) + ", prover " + to_hex(p.prover_id) + ", sector " +
                 std::to_string(p.sector) + ", ticket " + to_hex(p.ticket) + "), new data on every node";
  } else {
    u = fc::make_snap_test_update(params, h, seed, kSparseNodes);
    set.origin = "a sparse update (" + std::to_string(kSparseNodes) +
                 " pseudo-random nodes carry data, every other node is zero)";
  }
  set.comm_r_old = fc::fr_to_bytes(u->pub.comm_r_old);
  set.comm_r_new = fc::fr_to_bytes(u->pub.comm_r_new);
  set.comm_d_new = fc::fr_to_bytes(u->pub.comm_d_new);
  for (std::size_t k = 0; k < params.partition_count; ++k)
    set.partitions.push_back(fc::encode_snap_partition_proof(fc::make_snap_partition_proof(*u, k)));
  return set;
}

void write_snap_vanilla_dir(const std::string& dir, const SnapVanillaSet& set) {
  const std::filesystem::path d(dir);
  std::filesystem::create_directories(d);
  for (std::size_t k = 0; k < set.partitions.size(); ++k)
    write_bytes(d / ("partition-" + std::to_string(k) + ".vproof"), set.partitions[k].data(),
                set.partitions[k].size());
  const std::string list = "proof " + std::string(fc::update_proof_info(set.proof).name) + "\ncomm_r_old " +
                           to_hex(set.comm_r_old) + "\ncomm_r_new " + to_hex(set.comm_r_new) + "\ncomm_d_new " +
                           to_hex(set.comm_d_new) + "\n";
  write_bytes(d / "commitments.txt", list.data(), list.size());
}

SnapVanillaSet read_snap_vanilla_dir(const std::string& dir) {
  const std::filesystem::path d(dir);
  const std::filesystem::path list_path = d / "commitments.txt";
  const std::vector<char> text = read_bytes(list_path);
  std::map<std::string, std::string> values;
  std::istringstream lines(std::string(text.begin(), text.end()));
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    if (line.empty()) continue;
    std::istringstream words(line);
    std::string key, value, extra;
    const std::string where = list_path.string() + " line " + std::to_string(n);
    if (!(words >> key >> value) || (words >> extra))
      throw DecodeError(where + ": expected \"NAME VALUE\"");
    if (key != "proof" && key != "comm_r_old" && key != "comm_r_new" && key != "comm_d_new")
      throw DecodeError(where + ": unknown name \"" + key.substr(0, 32) + "\" (proof, comm_r_old, comm_r_new, comm_d_new)");
    if (!values.emplace(key, value).second) throw DecodeError(where + ": " + key + " given twice");
  }
  SnapVanillaSet set;
  auto get = [&](const char* key) -> const std::string& {
    auto it = values.find(key);
    if (it == values.end()) throw DecodeError(list_path.string() + ": no " + key + " line");
    return it->second;
  };
  try {
    set.proof = parse_update_proof(get("proof"));
    set.comm_r_old = parse_hex32(get("comm_r_old"), "comm_r_old");
    set.comm_r_new = parse_hex32(get("comm_r_new"), "comm_r_new");
    set.comm_d_new = parse_hex32(get("comm_d_new"), "comm_d_new");
  } catch (const DecodeError& e) {
    throw DecodeError(list_path.string() + ": " + e.what());
  }
  for (std::size_t k = 0;; ++k) {
    const std::filesystem::path p = d / ("partition-" + std::to_string(k) + ".vproof");
    if (!std::filesystem::exists(p)) break;
    const std::vector<char> b = read_bytes(p);
    set.partitions.emplace_back(b.begin(), b.end());
  }
  if (set.partitions.empty()) throw DecodeError(dir + ": no partition-0.vproof");
  set.origin = "the vanilla proofs of " + dir;
  return set;
}

void print_snap_vanilla(const SnapVanillaSet& set, const std::string& dir) {
  const fc::UpdateProofInfo& info = fc::update_proof_info(set.proof);
  for (std::size_t k = 0; k < set.partitions.size(); ++k)
    std::printf("%s/partition-%zu.vproof, %zu bytes\n", dir.c_str(), k, set.partitions[k].size());
  std::printf("proof %s\ncomm_r_old %s\ncomm_r_new %s\ncomm_d_new %s\ncomm_r_old %s\ncomm_r_new %s\ncomm_d_new %s\n",
              std::string(info.name).c_str(), to_hex(set.comm_r_old).c_str(), to_hex(set.comm_r_new).c_str(),
              to_hex(set.comm_d_new).c_str(), fc::sealed_cid_from_comm_r(set.comm_r_old).c_str(),
              fc::sealed_cid_from_comm_r(set.comm_r_new).c_str(), fc::unsealed_cid_from_comm_d(set.comm_d_new).c_str());
  std::fprintf(stderr,
               "%zu SYNTHETIC vanilla partition proof(s) of a %s sector update (h = %u) in %s: %s (test data, not "
               "from a node)\n",
               set.partitions.size(), std::string(info.name).c_str(), fc::snap_h_default(info.nodes), dir.c_str(),
               set.origin.c_str());
}

}  // namespace cuzk::cli
