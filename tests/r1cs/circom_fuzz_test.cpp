// Fuzz-style robustness of the .r1cs / .wtns parsers: every truncation of a valid file and random
// byte mutations must either parse (to a structurally valid result) or throw cuzk::DecodeError —
// never crash, never throw anything else. Meant to be run under -fsanitize=address,undefined too.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "support/random_r1cs.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::r1cs;
using Bytes = std::vector<std::uint8_t>;

enum class Outcome { parsed, decode_error };

template <class Fn>
Outcome run_parser(Fn&& fn, const char* what, std::size_t case_no) {
  try {
    fn();
    return Outcome::parsed;
  } catch (const DecodeError&) {
    return Outcome::decode_error;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << " case " << case_no << ": unexpected exception " << typeid(e).name() << ": " << e.what();
  } catch (...) {
    ADD_FAILURE() << what << " case " << case_no << ": unexpected non-std exception";
  }
  return Outcome::decode_error;
}

template <class F>
void parse_r1cs_fully(std::span<const std::uint8_t> b) {
  const auto r = read_r1cs<F>(b);
  r.validate();  // a parse that succeeds must give a consistent system (throws invalid_argument otherwise)
  // ... that can be evaluated on a witness of the announced size.
  std::vector<F> w(r.num_vars, F::one());
  (void)evaluate(r, std::span<const F>(w));
}

template <class F>
Bytes mutate(const Bytes& base, std::mt19937_64& rng) {
  Bytes b = base;
  const int n = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < n; ++k) {
    // Half of the mutations hit the first 128 bytes, where the counts and sizes live.
    const std::size_t at = (rng() % 2) ? rng() % std::min<std::size_t>(128, b.size()) : rng() % b.size();
    switch (rng() % 4) {
      case 0: b[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
      case 1: b[at] = static_cast<std::uint8_t>(rng()); break;
      case 2: b[at] = (rng() % 2) ? 0xff : 0x00; break;
      default: b[at] = static_cast<std::uint8_t>(b[at] + ((rng() % 2) ? 1 : -1)); break;
    }
  }
  return b;
}

template <class F>
class CircomFuzz : public ::testing::Test {};
using Fields = ::testing::Types<ff::bn254::Fr, ff::bls12_381::Fr>;
TYPED_TEST_SUITE(CircomFuzz, Fields);

template <class F>
test::RandomSystem<F> small_system() {
  std::mt19937_64 rng(21);
  auto s = test::random_system<F>(rng, 6, 2, 4, 2);
  s.r1cs.circom = CircomMeta{1, 1, 2, 6};
  for (std::uint32_t j = 0; j < s.r1cs.num_vars; ++j) s.r1cs.wire_labels.push_back(j);
  return s;
}

TYPED_TEST(CircomFuzz, EveryTruncationThrowsDecodeError) {
  using F = TypeParam;
  const auto s = small_system<F>();
  const Bytes r1cs = write_r1cs(s.r1cs);
  const Bytes wtns = write_wtns(s.w);
  ASSERT_NO_THROW(parse_r1cs_fully<F>(r1cs));
  ASSERT_EQ(read_wtns<F>(wtns), s.w);
  for (std::size_t n = 0; n < r1cs.size(); ++n) {
    Bytes prefix(r1cs.begin(), r1cs.begin() + static_cast<std::ptrdiff_t>(n));  // exact-size heap buffer for ASan
    EXPECT_EQ(run_parser([&] { parse_r1cs_fully<F>(prefix); }, "r1cs truncation", n), Outcome::decode_error) << n;
  }
  for (std::size_t n = 0; n < wtns.size(); ++n) {
    Bytes prefix(wtns.begin(), wtns.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_EQ(run_parser([&] { (void)read_wtns<F>(prefix); }, "wtns truncation", n), Outcome::decode_error) << n;
  }
}

TYPED_TEST(CircomFuzz, RandomMutationsParseOrThrowDecodeError) {
  using F = TypeParam;
  const auto s = small_system<F>();
  const Bytes r1cs = write_r1cs(s.r1cs);
  const Bytes wtns = write_wtns(s.w);
  std::mt19937_64 rng(std::is_same_v<F, ff::bn254::Fr> ? 31 : 32);
  int parsed = 0, rejected = 0;
  constexpr int kMutations = 2000;
  for (int i = 0; i < kMutations; ++i) {
    const Bytes b = mutate<F>(r1cs, rng);
    (run_parser([&] { parse_r1cs_fully<F>(b); }, "r1cs mutation", i) == Outcome::parsed ? parsed : rejected)++;
  }
  for (int i = 0; i < kMutations; ++i) {
    const Bytes b = mutate<F>(wtns, rng);
    (run_parser([&] { (void)read_wtns<F>(b); }, "wtns mutation", i) == Outcome::parsed ? parsed : rejected)++;
  }
  // Both outcomes must occur (mutated labels/values often still parse; counts and sizes do not).
  EXPECT_GT(parsed, 100);
  EXPECT_GT(rejected, 100);
  std::printf("mutations: %d parsed, %d rejected with DecodeError\n", parsed, rejected);
}

}  // namespace
