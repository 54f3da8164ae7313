// Shared by the test suites: a scratch directory of one test, and whole-file reads and writes.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <system_error>

namespace cuzk::test {

// A fresh directory under the system's temporary directory, unique to this process and object
// (`tag` names it for a reader of /tmp), removed with everything in it when the object goes.
class ScratchDir {
 public:
  explicit ScratchDir(std::string_view tag) {
    static std::atomic<unsigned> next{0};
    p_ = std::filesystem::temp_directory_path() /
         ("cuzk-" + std::string(tag) + "-" + std::to_string(::getpid()) + "-" + std::to_string(next++));
    std::filesystem::remove_all(p_);
    std::filesystem::create_directories(p_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(p_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return p_; }
  std::filesystem::path operator/(std::string_view name) const { return p_ / name; }

 private:
  std::filesystem::path p_;
};

// A file's bytes ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::filesystem::path& p, std::string_view bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

}  // namespace cuzk::test
