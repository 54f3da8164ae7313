// Error types shared by every layer.
#pragma once

#include <stdexcept>
#include <string>

namespace cuzk {

// Malformed external input: bytes, files, JSON. The message says what is wrong.
class DecodeError : public std::runtime_error {
 public:
  explicit DecodeError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace cuzk
