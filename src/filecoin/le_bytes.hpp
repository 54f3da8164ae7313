// Little-endian integers written into byte buffers (the hash inputs of challenges, graph seeds
// and generated data).
#pragma once

#include <cstdint>

namespace cuzk::filecoin::detail {

inline void put_u32_le(std::uint8_t* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

inline void put_u64_le(std::uint8_t* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace cuzk::filecoin::detail
