// KeyLayout (cuzk/gpu/key_layout.hpp): the part masks, the description the daemon's status shows,
// and choose_resident_mask, the choice of the resident parts for a VRAM budget: what it picks
// always fits, nothing that fits saves more (checked against a recursive search over the parts at
// every budget), taking the heaviest part first would be wrong where the test says so, and a need
// that is not a sum of part sizes is respected. No device (runs in CI).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <random>

#include "cuzk/gpu/key_layout.hpp"

namespace {

using cuzk::gpu::choose_resident_mask;
using cuzk::gpu::KeyLayout;
using cuzk::gpu::KeyPart;
using cuzk::gpu::kKeyParts;
using Weights = std::array<std::uint64_t, kKeyParts>;

TEST(KeyLayout, PartsAndDescriptions) {
  const KeyLayout all = KeyLayout::all_resident();
  EXPECT_TRUE(all.is_all_resident());
  EXPECT_FALSE(all.any_streamed());
  EXPECT_EQ(all.describe(), "resident");
  const KeyLayout none = KeyLayout::all_streamed(4096);
  EXPECT_TRUE(none.any_streamed());
  for (KeyPart p : cuzk::gpu::kAllKeyParts) EXPECT_TRUE(none.streamed(p));
  EXPECT_EQ(none.describe(), "streamed (chunk 4096)");
  const KeyLayout mix{KeyLayout::bit(KeyPart::kMatrices) | KeyLayout::bit(KeyPart::kH), 1u << 22};
  EXPECT_TRUE(mix.resident(KeyPart::kMatrices));
  EXPECT_TRUE(mix.resident(KeyPart::kH));
  EXPECT_TRUE(mix.streamed(KeyPart::kB2));
  EXPECT_EQ(mix.describe(), "resident: matrices, H; streamed: A, B1, B2, L (chunk 4194304)");
  EXPECT_EQ((KeyLayout{KeyLayout::kAllMask & ~KeyLayout::bit(KeyPart::kL), 8}.describe()),
            "resident: matrices, H, A, B1, B2; streamed: L (chunk 8)");
  // The NTT's compact twiddle table is named, and makes another layout.
  EXPECT_EQ((KeyLayout{0, 4096, true}.describe()), "streamed (chunk 4096, compact twiddles)");
  EXPECT_EQ((KeyLayout{KeyLayout::kAllMask, 0, true}.describe()), "resident (compact twiddles)");
  EXPECT_EQ((KeyLayout{KeyLayout::bit(KeyPart::kH), 8, true}.describe()),
            "resident: H; streamed: matrices, A, B1, B2, L (chunk 8, compact twiddles)");
  EXPECT_NE((KeyLayout{0, 4096, true}), none);
}

std::uint64_t weight_of(const Weights& w, unsigned mask) {
  std::uint64_t s = 0;
  for (std::size_t p = 0; p < kKeyParts; ++p)
    if ((mask >> p) & 1u) s += w[p];
  return s;
}

// The best weight within the budget by a different route: include or leave out each part in turn.
std::uint64_t best_by_search(const Weights& w, const std::function<std::uint64_t(unsigned)>& need,
                             std::uint64_t budget, std::size_t part = 0, unsigned mask = 0) {
  if (part == kKeyParts) return need(mask) <= budget ? weight_of(w, mask) : 0;
  return std::max(best_by_search(w, need, budget, part + 1, mask),
                  best_by_search(w, need, budget, part + 1, mask | (1u << part)));
}

void expect_best(const Weights& w, const std::function<std::uint64_t(unsigned)>& need, std::uint64_t budget) {
  SCOPED_TRACE("budget " + std::to_string(budget));
  const unsigned m = choose_resident_mask(w, need, budget);
  ASSERT_LE(m, KeyLayout::kAllMask);
  if (m != 0) {
    EXPECT_LE(need(m), budget);
  }
  EXPECT_EQ(weight_of(w, m), best_by_search(w, need, budget));
}

// Porep-like proportions (GiB x 10): matrices weigh twice their size, B2 twice a G1 array.
TEST(KeyLayout, ChoiceFitsAndNothingThatFitsSavesMore) {
  const Weights size{30, 120, 120, 120, 240, 120};
  Weights w = size;
  w[0] *= 2;
  const std::uint64_t base = 155;  // twiddles, one streamed proof
  auto need = [&](unsigned mask) { return base + weight_of(size, mask); };
  int budgets = 0;
  for (std::uint64_t b = 150; b <= base + weight_of(size, KeyLayout::kAllMask) + 20; b += 5, ++budgets)
    expect_best(w, need, b);
  EXPECT_GT(budgets, 80);
  EXPECT_EQ(choose_resident_mask(w, need, base - 1), 0u) << "nothing fits: all streamed";
  EXPECT_EQ(choose_resident_mask(w, need, base + weight_of(size, KeyLayout::kAllMask)), KeyLayout::kAllMask);
}

TEST(KeyLayout, HeaviestFirstWouldBeWrong) {
  // Budget 11 above the base: B2 alone (10) fits, but H + A (6 + 5 = 11) saves more.
  const Weights w{0, 6, 5, 0, 10, 0};
  auto need = [&](unsigned mask) { return 100 + weight_of(w, mask); };
  const unsigned m = choose_resident_mask(w, need, 111);
  EXPECT_EQ(m, KeyLayout::bit(KeyPart::kH) | KeyLayout::bit(KeyPart::kA));
}

TEST(KeyLayout, NeedThatIsNotASumOfParts) {
  // A resident H costs its own scalars beside its points: 4 more whenever H is in the set.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    Weights w{};
    for (auto& x : w) x = 1 + rng() % 40;
    auto need = [&](unsigned mask) {
      return 20 + weight_of(w, mask) + (((mask >> static_cast<unsigned>(KeyPart::kH)) & 1u) != 0 ? 4 : 0);
    };
    for (std::uint64_t b = 0; b <= 20 + weight_of(w, KeyLayout::kAllMask) + 5; b += 3) expect_best(w, need, b);
  }
  const Weights w{0, 10, 9, 0, 0, 0};
  auto need = [&](unsigned mask) { return weight_of(w, mask) + ((mask & KeyLayout::bit(KeyPart::kH)) != 0 ? 4 : 0); };
  EXPECT_EQ(choose_resident_mask(w, need, 13), KeyLayout::bit(KeyPart::kA)) << "H alone needs 14";
}

}  // namespace
