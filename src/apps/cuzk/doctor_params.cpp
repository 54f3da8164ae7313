// `cuzk doctor`: the Filecoin parameter directory (doctor.hpp). The official files are known by
// their names (parameter_names.hpp: the names parameters.json lists); each present key is checked
// without decoding its bulk: the .params file's size against the point counts in its own headers
// (a truncated or padded download fails), the .vk decoded in full and equal to the .params file's
// leading verifying key, and a TEST key (cuzk's setup) told apart from an official one.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/io/binfile.hpp"
#include "doctor.hpp"

namespace cuzk::cli::doctor {

namespace {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;

struct OfficialKey {
  std::string circuit;  // the daemon's circuit id: "window-post-32gib", "porep-32gib", "snap-32gib"
  fc::KeyPaths paths;
  std::string note;     // "" when the daemon serves it
};

// Every official key file pair (parameters.json) once: WindowPoSt V1 and V1_2 share theirs, and
// PoRep V1, V1_1, synthetic and non-interactive theirs; SnapDeals' Poseidon variant (32 and 64
// GiB) is listed but not what filecoin-proofs (nor the daemon) uses.
std::vector<OfficialKey> official_keys(const fs::path& dir) {
  std::vector<OfficialKey> out;
  std::set<std::string> seen;
  auto add = [&](std::string circuit, const std::string& cache_id, std::string note) {
    if (seen.insert(cache_id).second) out.push_back({std::move(circuit), fc::key_paths(dir, cache_id), std::move(note)});
  };
  for (const fc::PoStProofInfo& p : fc::all_post_proofs()) add(fc::post_circuit_name(p), fc::post_cache_identifier(p), "");
  for (const fc::SealProofInfo& s : fc::all_seal_proofs()) add(fc::porep_circuit_name(s), fc::porep_cache_identifier(s), "");
  for (const fc::UpdateProofInfo& u : fc::all_update_proofs())
    add(fc::snap_circuit_name(u), fc::update_cache_identifier(u.sector_size), "");
  for (const fc::UpdateProofInfo& u : fc::all_update_proofs())
    if (u.sector_size >= fc::kSectorSize32GiB)
      add("snap-poseidon-" + fc::snap_circuit_name(u).substr(5), fc::update_cache_identifier(u.sector_size, true),
          "SnapDeals' Poseidon variant: not served by the daemon");
  return out;
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The reason the key's files are unusable, or "" when they are sound; `sizes` describes them.
std::string key_problem(const fc::KeyPaths& k, std::string& sizes) {
  try {
    const io::MappedFile params = io::MappedFile::open(k.params);
    const groth16::BellpersonParamsCounts n = groth16::read_bellperson_params_counts(params.bytes());
    const std::vector<std::uint8_t> vk = read_bytes(k.vk);
    try {
      (void)groth16::read_bellperson_vk(vk);
    } catch (const std::exception& e) {
      return k.vk.filename().string() + ": " + e.what();
    }
    if (vk.size() > params.size() || !std::equal(vk.begin(), vk.end(), params.bytes().begin()))
      return k.vk.filename().string() + " is not the verifying key of " + k.params.filename().string();
    sizes = ".params " + bytes_text(params.size()) + " (" + std::to_string(std::uint64_t{n.ic} + n.l) +
            " variables, domain " + std::to_string(std::uint64_t{n.h} + 1) + "), .vk " + bytes_text(vk.size()) +
            ": sizes match their headers";
    return "";
  } catch (const std::exception& e) {
    return k.params.filename().string() + ": " + e.what();
  }
}

// The Filecoin circuits the config preloads: their files must be there.
std::set<std::string> preloaded(const engine::EngineConfig& c) {
  std::set<std::string> out;
  for (const std::string& id : c.preload)
    if (engine::is_post_circuit_id(id) || engine::is_porep_circuit_id(id) || engine::is_snap_circuit_id(id)) out.insert(id);
  return out;
}

// v28-*.params / v28-*.vk files that are no official key's: a misnamed or foreign download.
void report_unofficial(const fs::path& dir, const std::vector<OfficialKey>& keys, Report& r) {
  std::set<std::string> official;
  for (const auto& k : keys) {
    official.insert(k.paths.params.filename().string());
    official.insert(k.paths.vk.filename().string());
  }
  std::vector<std::string> other;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const bool key_file = name.starts_with("v28-") && (name.ends_with(".params") || name.ends_with(".vk"));
    if (key_file && !official.contains(name)) other.push_back(name);
  }
  std::sort(other.begin(), other.end());
  for (const auto& name : other)
    r.warn("params", name + ": not an official Filecoin file name (parameters.json): ignored by the daemon");
}

}  // namespace

void check_params(const std::string& dir_text, const engine::EngineConfig& c, Report& r) {
  const std::set<std::string> needed = preloaded(c);
  std::string needed_list;
  for (const auto& id : needed) needed_list += (needed_list.empty() ? "" : ", ") + id;
  if (dir_text.empty()) {
    if (needed.empty())
      r.ok("params", "no parameter directory: no Filecoin circuit is served");
    else
      r.fail("params", "no parameter directory, but the config preloads " + needed_list);
    return;
  }
  const fs::path dir(dir_text);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    r.fail_if(!needed.empty(), "params",
              dir_text + " is not a directory: no Filecoin circuit is served" +
                  (needed.empty() ? std::string() : "; the config preloads " + needed_list));
    return;
  }
  const std::vector<OfficialKey> keys = official_keys(dir);
  std::size_t present = 0;
  std::string present_list;
  for (const OfficialKey& k : keys) {
    const bool p = is_file(k.paths.params), v = is_file(k.paths.vk);
    const std::string topic = "params " + k.circuit;
    if (!p && !v) {
      if (needed.contains(k.circuit)) r.fail(topic, "preloaded by the config, but its files are not in " + dir_text);
      continue;
    }
    if (p != v) {
      const fs::path& there = p ? k.paths.params : k.paths.vk;
      const fs::path& missing = p ? k.paths.vk : k.paths.params;
      r.fail(topic, there.filename().string() + " is there but not " + missing.filename().string() +
                        ": incomplete, not served");
      continue;
    }
    std::string sizes;
    if (const std::string why = key_problem(k.paths, sizes); !why.empty()) {
      r.fail(topic, why + " (fetch the file again)");
      continue;
    }
    ++present;
    present_list += (present_list.empty() ? "" : ", ") + k.circuit;
    const std::string note = k.note.empty() ? "" : "; " + k.note;
    if (fc::is_test_key(k.paths))
      r.warn(topic, sizes + "; a cuzk TEST key (its .params.cuzk-test marker is there): its proofs are rejected on chain" +
                        note);
    else
      r.ok(topic, sizes + note);
  }
  report_unofficial(dir, keys, r);
  if (present == 0)
    r.warn("params", dir_text + " holds none of the " + std::to_string(keys.size()) +
                         " official keys (.params and .vk): no Filecoin proof is served (fetch them, e.g. "
                         "`lotus fetch-params 32GiB`, into this directory)");
  else
    r.ok("params", dir_text + ": " + std::to_string(present) + " of the " + std::to_string(keys.size()) +
                       " official keys: " + present_list);
}

}  // namespace cuzk::cli::doctor
