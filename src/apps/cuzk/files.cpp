#include "files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cuzk/error.hpp"

namespace cuzk::cli {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text_file(const std::string& path, std::string_view text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

r1cs::Curve curve_from_name(std::string_view name, const std::string& where) {
  if (const std::optional<r1cs::Curve> c = r1cs::parse_curve_name(name)) return *c;
  constexpr std::size_t kMax = 64;  // a file can hold a megabyte-long "curve"
  std::string shown = "\"" + std::string(name.substr(0, kMax)) + "\"";
  if (name.size() > kMax) shown += "... (" + std::to_string(name.size()) + " characters)";
  throw DecodeError(where + ": unknown curve " + shown + " (expected bn128 or bls12381)");
}

}  // namespace cuzk::cli
