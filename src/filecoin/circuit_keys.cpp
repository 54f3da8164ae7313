// Filecoin circuit key files (circuit_keys.hpp).
#include "cuzk/filecoin/circuit_keys.hpp"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/parameter_names.hpp"
#include "cuzk/groth16/bellperson_circuit_key.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::filecoin {

namespace {

void require_file(const std::filesystem::path& p, std::string_view circuit, std::string_view setup_command) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec))
    throw std::runtime_error(std::string(circuit) + ": no key file " + p.string() +
                             " (fetch the official parameters into this directory, or write TEST keys with `" +
                             std::string(setup_command) + "`)");
}

// Writes bytes to path atomically: a temporary file beside it, then a rename.
void write_atomically(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  const std::filesystem::path tmp = path.string() + ".tmp" + std::to_string(::getpid()) + "-" +
                                    std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace

KeyPaths key_paths(const std::filesystem::path& dir, std::string_view cache_identifier) {
  KeyPaths p;
  p.params = dir / params_file_name(cache_identifier);
  p.vk = dir / vk_file_name(cache_identifier);
  p.test_marker = p.params.string() + ".cuzk-test";
  return p;
}

void require_key_files(const KeyPaths& paths, std::string_view circuit, std::string_view setup_command) {
  require_file(paths.params, circuit, setup_command);
  require_file(paths.vk, circuit, setup_command);
}

bool is_test_key(const KeyPaths& paths) {
  std::error_code ec;
  return std::filesystem::exists(paths.test_marker, ec);
}

groth16::VerifyingKey<Bls12> read_key_vk(const KeyPaths& paths, std::string_view circuit, std::string_view setup_command) {
  require_file(paths.vk, circuit, setup_command);
  const io::MappedFile m = io::MappedFile::open(paths.vk);
  try {
    return groth16::read_bellperson_vk(m.bytes());
  } catch (const DecodeError& e) {
    throw DecodeError(paths.vk.string() + ": " + e.what());
  }
}

groth16::ProvingKey<Bls12> load_proving_key(const KeyPaths& paths, std::string_view circuit,
                                            std::string_view setup_command, r1cs::R1CS<Fr> r1cs,
                                            groth16::BellpersonCheck check) {
  require_key_files(paths, circuit, setup_command);
  const groth16::VerifyingKey<Bls12> vk = read_key_vk(paths, circuit, setup_command);
  groth16::ProvingKey<Bls12> pk = groth16::read_bellperson_params_file(paths.params, check);
  if (!(pk.vk == vk)) throw DecodeError(paths.vk.string() + " is not the verifying key of " + paths.params.string());
  r1cs::CsrMatrix<Fr> no_c;  // rows without terms: C's memory is freed before the join
  no_c.num_cols = r1cs.C.num_cols;
  no_c.row_ptr.assign(r1cs.C.num_rows() + 1, 0);
  r1cs.C = std::move(no_c);
  try {
    groth16::join_bellperson_key(pk, std::move(r1cs));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(paths.params.string() + " (" + std::string(circuit) + "): " + e.what());
  }
  // C is implied by A and B for a satisfying witness (both backends take c = a.b when it is not
  // stored, and every proof is verified): the key does not keep it.
  pk.c = r1cs::CsrMatrix<Fr>{};
  pk.c.num_cols = static_cast<std::uint32_t>(pk.num_vars);
  pk.c_stored = false;
  return pk;
}

void write_test_keys(const KeyPaths& paths, std::string_view circuit, const r1cs::R1CS<Fr>& r1cs, std::uint64_t seed) {
  std::filesystem::create_directories(paths.params.parent_path());
  const groth16::ProvingKey<Bls12> pk = groth16::setup<Bls12>(r1cs, groth16::HConvention::kZDivided, seed);
  const std::string note = "TEST key written by cuzk (seeded setup, seed " + std::to_string(seed) + ") for " +
                           std::string(circuit) + ". Never use it on chain: its proofs do not verify with "
                           "Filecoin's official parameters.\n";
  write_atomically(paths.test_marker, std::vector<std::uint8_t>(note.begin(), note.end()));
  write_atomically(paths.params, groth16::write_bellperson_params(pk));
  write_atomically(paths.vk, groth16::write_bellperson_vk(pk.vk));
}

}  // namespace cuzk::filecoin
