// The engine's Filecoin circuits' shared parts (filecoin_circuit.hpp).
#include "filecoin_circuit.hpp"

#include <algorithm>
#include <system_error>

#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/qap.hpp"

namespace cuzk::engine {

namespace {

using Bls = groth16::Bls12_381;

}  // namespace

KeyShape filecoin_key_shape(const filecoin::KeyPaths& paths, std::string_view circuit, const FilecoinCircuitCounts& c) {
  const io::MappedFile m = io::MappedFile::open(paths.params);
  const groth16::BellpersonParamsCounts n = groth16::read_bellperson_params_counts(m.bytes());
  const std::uint64_t domain = groth16::qap_domain_size(c.constraints, c.public_inputs);
  auto must = [&](std::uint64_t got, std::uint64_t want, const char* what) {
    if (got != want)
      throw std::runtime_error(paths.params.string() + " does not fit cuzk's " + std::string(circuit) + " circuit: " +
                               what + " " + std::to_string(got) + ", the circuit's " + std::to_string(want));
  };
  must(n.ic, c.public_inputs + 1, "public inputs (ONE included)");
  must(std::uint64_t{n.ic} + n.l, c.vars, "variables");
  must(std::uint64_t{n.h} + 1, domain, "domain size");
  KeyShape s;
  s.curve = curve_of<Bls>();
  s.num_vars = c.vars;
  s.num_public = c.public_inputs;
  s.domain_size = domain;
  s.h_len = n.h;
  s.rows = c.constraints + c.public_inputs + 1;
  s.nnz = c.a_nnz + c.b_nnz + c.public_inputs + 1;  // the loaded key keeps A and B only
  s.g1_bytes = sizeof(Bls::G1Affine);
  s.g2_bytes = sizeof(Bls::G2Affine);
  s.fr_bytes = sizeof(typename Bls::Fr);
  return s;
}

FilecoinCircuit::FilecoinCircuit(std::string id, filecoin::KeyPaths paths)
    : paths_(std::move(paths)), test_key_(filecoin::is_test_key(paths_)) {
  this->id_ = std::move(id);
  this->witness_from_request_ = false;
  if (!test_key_)
    this->rejection_hint_ = " (or " + paths_.params.string() +
                            " is Filecoin's official key and cuzk's circuit is not the one it was made for)";
}

std::shared_ptr<const HostKey> FilecoinCircuit::prepared_key(Devices& b, groth16::ProvingKey<Bls> pk) const {
  if (test_key_)
    spdlog::warn("circuit {}: {} is a cuzk TEST key: its proofs do not verify on chain", id_, paths_.params.string());
  return host_key(b, std::move(pk));
}

std::unique_ptr<Witness> FilecoinCircuit::witness_with_inputs(std::vector<Fr> w, std::span<const Fr> expected,
                                                              const std::string& where) const {
  if (w.size() < expected.size() + 1 || !std::equal(expected.begin(), expected.end(), w.begin() + 1))
    throw EngineError(ErrorCode::kInternal,
                      "circuit " + id_ + where + ": the witness's public inputs are not those a verifier derives");
  return std::make_unique<Witness>(std::in_place_type<Bls>, std::move(w));
}

std::vector<std::unique_ptr<Circuit>> serve_filecoin_circuits(const std::filesystem::path& dir, std::string_view what,
                                                              const std::vector<FilecoinCandidate>& candidates,
                                                              const FilecoinSelection& sel) {
  std::vector<std::unique_ptr<Circuit>> out;
  if (dir.empty()) return out;
  std::vector<std::string> served;
  for (const FilecoinCandidate& c : candidates) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(c.paths.params, ec) || !std::filesystem::is_regular_file(c.paths.vk, ec))
      continue;
    if (!sel.only.empty() && std::find(sel.only.begin(), sel.only.end(), c.id) == sel.only.end()) {
      sel.left_out[c.id] = "not among the circuits served (filecoin circuits: " + join_names(sel.only) + ")";
      continue;
    }
    try {
      out.push_back(c.make());
      served.push_back(out.back()->id() + (filecoin::is_test_key(c.paths) ? " (TEST key)" : ""));
    } catch (const std::exception& e) {
      spdlog::error("Filecoin {} is not served: {}", c.proof_name, e.what());
      sel.left_out[c.id] = std::string("its key was left out at start: ") + e.what();
    }
  }
  std::string list;
  for (const auto& s : served) list += (list.empty() ? "" : ", ") + s;
  spdlog::info("Filecoin {} from {}: {}", what, dir.string(),
               list.empty() ? "no key files (no " + std::string(what) + " kind is served)" : list);
  return out;
}

}  // namespace cuzk::engine
