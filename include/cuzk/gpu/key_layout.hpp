// How a proving key is laid out on a device, part by part (plain C++, no device code): each of
// the six parts is either resident in VRAM or streamed from the host key through the chunk
// buffers at every proof.
//   kMatrices  the constraint matrices A, B (and C when the key's H reads it)
//   kH, kA, kB1, kB2, kL  the query point arrays of the five MSMs
// All resident is the fastest proof; all streamed needs the least VRAM (a 2^27 partition on a
// 16 GiB card). Between the two (e.g. an 80 GiB card, where the whole 2^27 key and one proof do
// not fit) the parts that fit stay resident and the rest stream: choose_resident_mask picks the
// set that saves the most link bytes per proof within a VRAM budget.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cuzk::gpu {

enum class KeyPart : unsigned { kMatrices, kH, kA, kB1, kB2, kL };
inline constexpr std::size_t kKeyParts = 6;
inline constexpr std::array<KeyPart, kKeyParts> kAllKeyParts{KeyPart::kMatrices, KeyPart::kH,  KeyPart::kA,
                                                             KeyPart::kB1,       KeyPart::kB2, KeyPart::kL};

inline const char* key_part_name(KeyPart p) {
  constexpr std::array<const char*, kKeyParts> kNames{"matrices", "H", "A", "B1", "B2", "L"};
  return kNames[static_cast<unsigned>(p)];
}

constexpr unsigned key_part_bit(KeyPart p) { return 1u << static_cast<unsigned>(p); }

struct KeyLayout {
  static constexpr unsigned kAllMask = (1u << kKeyParts) - 1;
  unsigned resident_mask = kAllMask;  // bit p: part p resident
  std::size_t chunk = 0;              // points per streamed chunk (0 while all resident)
  // The NTT's twiddle table compact (n/16 entries and 8 more, gpu::TwiddleTable::kCompact;
  // 256 MiB instead of 2 GiB at 2^27, the top three levels a product more per butterfly):
  // chosen where the VRAM it frees buys a larger chunk or more resident parts.
  bool compact_twiddles = false;

  static KeyLayout all_resident() { return {kAllMask, 0}; }
  static KeyLayout all_streamed(std::size_t chunk) { return {0, chunk}; }

  static constexpr unsigned bit(KeyPart p) { return key_part_bit(p); }
  // The point arrays of the five MSMs, and those of the three read with the witness's scalars.
  static constexpr unsigned kPointsMask = kAllMask & ~key_part_bit(KeyPart::kMatrices);
  static constexpr unsigned kWitnessMask =
      key_part_bit(KeyPart::kA) | key_part_bit(KeyPart::kB1) | key_part_bit(KeyPart::kB2);
  // The point arrays whose streamed MSMs a batch of proofs shares (their scalars are the
  // witnesses', in host memory: CudaBackend's compute with k > 1).
  static constexpr unsigned kBatchMask = kWitnessMask | key_part_bit(KeyPart::kL);
  bool resident(KeyPart p) const { return (resident_mask & bit(p)) != 0; }
  bool streamed(KeyPart p) const { return !resident(p); }
  bool any_resident(unsigned parts) const { return (resident_mask & parts) != 0; }
  bool all_resident(unsigned parts) const { return (resident_mask & parts) == parts; }
  bool is_all_resident() const { return all_resident(kAllMask); }
  bool any_streamed() const { return !is_all_resident(); }

  // "resident", "streamed (chunk N)", or for a mix
  // "resident: matrices, H; streamed: A, B1, B2, L (chunk N)" (what the daemon's status shows).
  // A compact twiddle table adds ", compact twiddles" inside the parentheses.
  std::string describe() const {
    const std::string tw = compact_twiddles ? "compact twiddles" : "";
    if (is_all_resident()) return tw.empty() ? "resident" : "resident (" + tw + ")";
    const std::string tail = " (chunk " + std::to_string(chunk) + (tw.empty() ? "" : ", " + tw) + ")";
    if ((resident_mask & kAllMask) == 0) return "streamed" + tail;
    auto list = [&](bool want) {
      std::string s;
      for (KeyPart p : kAllKeyParts)
        if (resident(p) == want) s += (s.empty() ? "" : ", ") + std::string(key_part_name(p));
      return s;
    };
    return "resident: " + list(true) + "; streamed: " + list(false) + tail;
  }
  bool operator==(const KeyLayout&) const = default;
};

// The total weight of the parts in mask.
inline std::uint64_t mask_weight(const std::array<std::uint64_t, kKeyParts>& weight, unsigned mask) {
  std::uint64_t w = 0;
  for (std::size_t p = 0; p < kKeyParts; ++p)
    if ((mask >> p) & 1u) w += weight[p];
  return w;
}

// The resident set (a KeyLayout mask) of greatest total weight among those whose need fits the
// budget: weight[p] is what part p saves per proof when resident (link bytes), need(mask) the
// VRAM the key and one proof take with that set resident (not assumed additive: a resident part
// also changes the proof's scratch). All 2^6 sets are tried; ties go to the smaller mask. 0 (all
// streamed) when no other set fits; the caller checks that 0 itself fits.
template <class Need>
unsigned choose_resident_mask(const std::array<std::uint64_t, kKeyParts>& weight, Need need, std::uint64_t budget) {
  unsigned best = 0;
  std::uint64_t best_w = 0;
  for (unsigned mask = 1; mask <= KeyLayout::kAllMask; ++mask) {
    const std::uint64_t w = mask_weight(weight, mask);
    if (w > best_w && need(mask) <= budget) best = mask, best_w = w;
  }
  return best;
}

}  // namespace cuzk::gpu
