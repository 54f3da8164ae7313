// `cuzk doctor`: the config's .zkey circuits and the cache directory (doctor.hpp).
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "cuzk/groth16/zkey.hpp"
#include "cuzk/io/binfile.hpp"
#include "doctor.hpp"

namespace cuzk::cli::doctor {

namespace fs = std::filesystem;

void check_zkeys(const engine::EngineConfig& c, Report& r) {
  std::size_t native = 0;
  for (const engine::CircuitSpec& s : c.circuits) {
    if (s.zkey_path.empty()) {
      ++native;
      continue;
    }
    const std::string topic = "circuit " + s.id;
    try {
      const io::BinFile f = io::BinFile::open(s.zkey_path, groth16::zkey_detail::kZkeyFile);
      const r1cs::Curve curve = groth16::zkey_curve(f);
      std::error_code ec;
      r.ok(topic, s.zkey_path + " (" + std::string(r1cs::curve_name(curve)) + " .zkey, " +
                      bytes_text(fs::file_size(s.zkey_path, ec)) + ")");
    } catch (const std::exception& e) {
      r.fail(topic, std::string(e.what()) + ": the daemon cannot start with this circuit");
    }
  }
  if (native > 0)
    r.ok("circuits", std::to_string(native) + " built-in circuit(s) with TEST keys (written to cache_dir at start)");
}

void check_cache_dir(const std::string& dir, Report& r) {
  if (dir.empty()) {
    r.fail("cache", "cache_dir is empty");
    return;
  }
  // The directory, or the nearest existing one above it (the daemon creates the rest).
  fs::path at = fs::absolute(fs::path(dir));
  std::error_code ec;
  while (!fs::exists(at, ec) && at.has_parent_path() && at != at.parent_path()) at = at.parent_path();
  const bool exists = at == fs::absolute(fs::path(dir));
  if (!fs::is_directory(at, ec)) {
    r.fail("cache", dir + ": " + at.string() + " is not a directory");
    return;
  }
  if (::access(at.c_str(), W_OK | X_OK) != 0) {
    r.fail("cache", dir + ": " + (exists ? "" : "cannot be created: ") + at.string() + " is not writable (" +
                        std::strerror(errno) + ")");
    return;
  }
  struct statvfs v {};
  if (::statvfs(at.c_str(), &v) != 0) {
    r.warn("cache", dir + ": statvfs failed: " + std::strerror(errno));
    return;
  }
  const std::uint64_t free = std::uint64_t{v.f_bavail} * v.f_frsize;
  const std::string text = dir + (exists ? "" : " (created at start, under " + at.string() + ")") + ": " +
                           bytes_text(free) + " free";
  constexpr std::uint64_t kLow = std::uint64_t{1} << 30;
  if (free < kLow)
    r.warn("cache", text + ", under 1 GiB: TEST keys of built-in circuits may not fit");
  else
    r.ok("cache", text);
}

}  // namespace cuzk::cli::doctor
