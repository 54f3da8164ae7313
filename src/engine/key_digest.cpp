// Cached key digests (key_digest.hpp).
#include "key_digest.hpp"

#include <openssl/evp.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "key_cache_files.hpp"

namespace cuzk::engine {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kPiece = std::size_t{64} << 20;
constexpr const char* kScheme = "sha256-64m";
using Sha = std::array<std::uint8_t, 32>;

Sha sha256(const std::uint8_t* data, std::size_t n) {
  Sha out{};
  unsigned int len = 0;
  if (EVP_Digest(data, n, out.data(), &len, EVP_sha256(), nullptr) != 1 || len != out.size())
    throw std::runtime_error("OpenSSL SHA-256 failed");
  return out;
}

std::string hex(const Sha& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (const std::uint8_t b : d) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

}  // namespace

std::string key_digest(std::span<const std::uint8_t> bytes) {
  const std::size_t pieces = bytes.empty() ? 1 : (bytes.size() + kPiece - 1) / kPiece;
  std::vector<Sha> part(pieces);
  tbb::parallel_for(std::size_t{0}, pieces, [&](std::size_t i) {
    const std::size_t at = i * kPiece;
    part[i] = sha256(bytes.data() + at, std::min(kPiece, bytes.size() - at));
  });
  return std::string(kScheme) + ":" + hex(sha256(part.front().data(), pieces * sizeof(Sha)));
}

fs::path key_digest_path(const fs::path& key) { return fs::path(key.string() + ".sha256"); }

void write_key_digest(const fs::path& key, std::span<const std::uint8_t> bytes) {
  const fs::path final_path = key_digest_path(key);
  // The temporary name is one prepare_key_cache_dir removes when its writer died.
  const fs::path tmp = final_path.string() + ".tmp" + std::to_string(::getpid()) + "-" +
                       std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << key_digest(bytes) << ' ' << bytes.size() << '\n';
    out.close();
    if (!out) throw std::runtime_error("cannot write the key digest " + tmp.string());
  }
  restrict_key_file(tmp);
  std::error_code ec;
  fs::rename(tmp, final_path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot write the key digest " + final_path.string() + ": " + ec.message());
  }
}

std::optional<std::string> key_digest_problem(const fs::path& key, std::span<const std::uint8_t> bytes) {
  const fs::path p = key_digest_path(key);
  std::ifstream in(p);
  if (!in) return "it has no digest file " + p.string() + " (written with every cached key)";
  std::string recorded;
  std::uint64_t size = 0;
  if (!(in >> recorded >> size) || !recorded.starts_with(std::string(kScheme) + ":"))
    return "its digest file " + p.string() + " is not \"" + kScheme + ":<hex> <size>\"";
  if (size != bytes.size())
    return "it has " + std::to_string(bytes.size()) + " bytes but its digest file " + p.string() + " records " +
           std::to_string(size);
  const std::string found = key_digest(bytes);
  if (found != recorded)
    return "its content does not match its digest (" + p.string() + " records " + recorded + ", the file hashes to " +
           found + "): it changed after it was written";
  return std::nullopt;
}

}  // namespace cuzk::engine
