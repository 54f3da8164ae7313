// PoSt key files (post_keys.hpp).
#include "cuzk/filecoin/post_keys.hpp"

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

void require_file(const std::filesystem::path& p, const PoStProofInfo& info) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec))
    throw std::runtime_error(std::string(info.name) + ": no key file " + p.string() +
                             " (fetch the official parameters into this directory, or write TEST keys with "
                             "`cuzk post setup`)");
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

PostKeyPaths post_key_paths(const std::filesystem::path& dir, const PoStProofInfo& info) {
  const std::string id = post_cache_identifier(info);
  PostKeyPaths p;
  p.params = dir / params_file_name(id);
  p.vk = dir / vk_file_name(id);
  p.test_marker = p.params.string() + ".cuzk-test";
  return p;
}

void require_post_key_files(const PostKeyPaths& paths, const PoStProofInfo& info) {
  require_file(paths.params, info);
  require_file(paths.vk, info);
}

bool is_test_key(const PostKeyPaths& paths) {
  std::error_code ec;
  return std::filesystem::exists(paths.test_marker, ec);
}

groth16::VerifyingKey<Bls12> read_post_vk(const PostKeyPaths& paths, const PoStProofInfo& info) {
  require_file(paths.vk, info);
  const io::MappedFile m = io::MappedFile::open(paths.vk);
  try {
    return groth16::read_bellperson_vk(m.bytes());
  } catch (const DecodeError& e) {
    throw DecodeError(paths.vk.string() + ": " + e.what());
  }
}

groth16::ProvingKey<Bls12> load_post_proving_key(const PostKeyPaths& paths, const PoStProofInfo& info,
                                                  const r1cs::R1CS<Fr>& circuit, groth16::BellpersonCheck check) {
  require_post_key_files(paths, info);
  const groth16::VerifyingKey<Bls12> vk = read_post_vk(paths, info);
  groth16::ProvingKey<Bls12> pk = groth16::read_bellperson_params_file(paths.params, check);
  if (!(pk.vk == vk))
    throw DecodeError(paths.vk.string() + " is not the verifying key of " + paths.params.string());
  try {
    groth16::join_bellperson_key(pk, circuit);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(paths.params.string() + " (" + std::string(info.name) + "): " + e.what());
  }
  return pk;
}

PostKeyPaths write_test_post_keys(const std::filesystem::path& dir, const PoStProofInfo& info,
                                  const r1cs::R1CS<Fr>& circuit, std::uint64_t seed) {
  std::filesystem::create_directories(dir);
  const PostKeyPaths paths = post_key_paths(dir, info);
  const groth16::ProvingKey<Bls12> pk = groth16::setup<Bls12>(circuit, groth16::HConvention::kZDivided, seed);
  const std::string note = "TEST key written by cuzk (seeded setup, seed " + std::to_string(seed) + ") for " +
                           std::string(info.name) + ". Never use it on chain: its proofs do not verify with "
                           "Filecoin's official parameters.\n";
  write_atomically(paths.test_marker, std::vector<std::uint8_t>(note.begin(), note.end()));
  write_atomically(paths.params, groth16::write_bellperson_params(pk));
  write_atomically(paths.vk, groth16::write_bellperson_vk(pk.vk));
  return paths;
}

}  // namespace cuzk::filecoin
