// GPU NTTs vs the CPU cuzk::poly transforms, bit for bit, for BLS12-381 and BN254 Fr:
// forward, inverse, coset forward/inverse, intt_distribute at 2^1 .. 2^20 (2^24 once), with
// the full and the compact twiddle table, and the snarkjs H pipeline vs poly::compute_h_snarkjs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/h_poly.hpp"
#include "cuzk/poly/ntt.hpp"
#include "require_device.hpp"
#include "support/random_vec.hpp"
#include "vec_util.hpp"

namespace {

using namespace cuzk;

using test::first_diff;
using test::random_vec;

enum class Kind { kForward, kInverse, kCosetForward, kCosetInverse, kInverseDistribute };

template <class F>
void check_transform(Kind kind, std::size_t log_n, std::mt19937_64& rng,
                     std::optional<gpu::NttPassShape> shape = std::nullopt,
                     gpu::TwiddleTable tw = gpu::TwiddleTable::kFull, const gpu::Tuning& tuning = {}) {
  const poly::EvaluationDomain<F> d = poly::EvaluationDomain<F>::from_log_size(log_n);
  const gpu::NttPlan<F> plan = shape ? gpu::NttPlan<F>(log_n, *shape, tw, tuning) : gpu::NttPlan<F>(log_n, tw, tuning);
  const std::vector<F> x = random_vec<F>(d.size(), rng);
  F g = F::random(rng);
  if (g.is_zero()) g = F::from_u64(7);
  std::vector<F> want = x;
  gpu::DeviceBuffer<F> buf{std::span<const F>(x)};
  switch (kind) {
    case Kind::kForward: poly::ntt<F>(d, want), plan.forward(buf.data()); break;
    case Kind::kInverse: poly::intt<F>(d, want), plan.inverse(buf.data()); break;
    case Kind::kCosetForward: poly::coset_ntt<F>(d, want, g), plan.coset_forward(buf.data(), g); break;
    case Kind::kCosetInverse: poly::coset_intt<F>(d, want, g), plan.coset_inverse(buf.data(), g); break;
    case Kind::kInverseDistribute:
      poly::intt_distribute<F>(d, want, g), plan.inverse_distribute(buf.data(), g);
      break;
  }
  gpu::stream_synchronize();
  std::vector<F> got(d.size());
  buf.download(got);
  const long i = first_diff(got, want);
  ASSERT_EQ(i, -1) << "transform " << static_cast<int>(kind) << " at 2^" << log_n
                   << (tw == gpu::TwiddleTable::kCompact ? ", compact twiddles" : "") << " (passes " << plan.shape().last << ","
                   << plan.shape().inner << "," << plan.shape().log_cols << ") differs at index " << i
                   << ": got " << got[i] << " want " << want[i];
}

template <class F>
class GpuNtt : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bn254::Fr>;
TYPED_TEST_SUITE(GpuNtt, Fields);

TYPED_TEST(GpuNtt, AllTransformsMatchCpuUpTo2To20) {
  std::mt19937_64 rng(99 + sizeof(TypeParam));
  for (std::size_t k = 0; k <= 20; ++k)
    for (Kind kind : {Kind::kForward, Kind::kInverse, Kind::kCosetForward, Kind::kCosetInverse,
                      Kind::kInverseDistribute}) {
      check_transform<TypeParam>(kind, k, rng);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

TYPED_TEST(GpuNtt, RoundTripAndRepeatable) {
  using F = TypeParam;
  std::mt19937_64 rng(5);
  const std::size_t k = 17;
  const gpu::NttPlan<F> plan(k);
  const auto x = random_vec<F>(plan.size(), rng);
  gpu::DeviceBuffer<F> a{std::span<const F>(x)}, b{std::span<const F>(x)};
  plan.forward(a.data());
  plan.forward(b.data());
  std::vector<F> ya(plan.size()), yb(plan.size());
  gpu::stream_synchronize();
  a.download(ya);
  b.download(yb);
  EXPECT_EQ(first_diff(ya, yb), -1) << "two runs on the same input differ (a race?)";
  plan.inverse(a.data());
  gpu::stream_synchronize();
  a.download(ya);
  EXPECT_EQ(first_diff(ya, x), -1) << "inverse(forward(x)) != x";
}

TEST(GpuNttLarge, Forward2To24MatchesCpu) {
  std::mt19937_64 rng(24);
  check_transform<ff::bls12_381::Fr>(Kind::kForward, 24, rng);
  check_transform<ff::bls12_381::Fr>(Kind::kInverse, 24, rng, std::nullopt, gpu::TwiddleTable::kCompact);
}

// The compact twiddle table (what a streamed key's plan keeps: the first n/16 twiddles, the top
// three levels' composed from two tables) gives the same transforms, bit for bit: at every size
// to 2^20 with the size's shape (those levels in the final pass), and with shapes whose small
// final passes put them in the earlier passes, radix 4 and 2.
TYPED_TEST(GpuNtt, CompactTwiddlesMatchCpu) {
  using F = TypeParam;
  constexpr auto kCompact = gpu::TwiddleTable::kCompact;
  std::mt19937_64 rng(31 + sizeof(F));
  for (std::size_t k = 0; k <= 20; ++k)
    for (Kind kind : {Kind::kForward, Kind::kInverse, Kind::kCosetForward, Kind::kCosetInverse,
                      Kind::kInverseDistribute}) {
      check_transform<F>(kind, k, rng, std::nullopt, kCompact);
      if (::testing::Test::HasFatalFailure()) return;
    }
  const gpu::NttPassShape shapes[] = {{11, 8, 3}, {4, 3, 2}, {1, 1, 0}, {10, 9, 1, 2}, {4, 3, 2, 2}, {2, 5, 2, 2}};
  for (const auto& sh : shapes)
    for (std::size_t k : {2u, 5u, 11u, 13u, 17u})
      for (Kind kind : {Kind::kForward, Kind::kInverse, Kind::kCosetForward}) {
        check_transform<F>(kind, k, rng, sh, kCompact);
        if (::testing::Test::HasFatalFailure()) return;
      }
  const gpu::NttPlan<F> plan(12, kCompact);
  EXPECT_EQ(plan.twiddle_table(), kCompact);
}

TYPED_TEST(GpuNtt, SnarkjsHMatchesCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(77);
  for (std::size_t k : {1u, 2u, 5u, 10u, 11u, 16u, 19u}) {
    const std::size_t n = std::size_t{1} << k;
    // Shorter inputs are zero-padded by both.
    const auto a = random_vec<F>(n, rng), b = random_vec<F>(n - n / 4, rng), c = random_vec<F>(n / 2 + 1, rng);
    const poly::EvaluationDomain<F> d = poly::EvaluationDomain<F>::from_log_size(k);
    const auto want = poly::compute_h_snarkjs<F>(d, a, b, c);
    const auto got = gpu::compute_h_snarkjs<F>(k, a, b, c);
    const long i = first_diff(got, want);
    ASSERT_EQ(i, -1) << "H at 2^" << k << " differs at " << i;
  }
}

// Every pass shape (final-pass levels, earlier-pass levels and columns; tiles up to 2^12
// elements, so up to 128 KiB of shared memory), with two levels per round (radix 4, the
// default) and with one (a 4th field of 2), gives the CPU's transforms.
TYPED_TEST(GpuNtt, EveryPassShapeMatchesCpu) {
  std::mt19937_64 rng(5 + sizeof(TypeParam));
  const gpu::NttPassShape shapes[] = {{10, 9, 1},    {11, 8, 2},    {11, 8, 3},    {10, 8, 2}, {12, 9, 3},
                                      {11, 9, 2},    {4, 3, 2},     {1, 1, 0},     {11, 8, 3, 2}, {10, 9, 1, 2},
                                      {12, 9, 3, 2}, {4, 3, 2, 2},  {1, 1, 0, 2}, {10, 6, 4},    {10, 10, 0}};
  for (const auto& sh : shapes)
    for (std::size_t k : {1u, 2u, 5u, 11u, 13u, 17u, 19u})
      for (Kind kind : {Kind::kForward, Kind::kInverse, Kind::kCosetForward}) {
        check_transform<TypeParam>(kind, k, rng, sh);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

// The H pipelines' permutation-free steps against the CPU, for several pass shapes and both
// twiddle tables:
// evaluations -> coset evaluations (position i holding the one at g w^-i) -> coefficients
// (natural order), and reverse_order.
TYPED_TEST(GpuNtt, CosetStepsWithoutPermutationMatchCpu) {
  using F = TypeParam;
  std::mt19937_64 rng(77 + sizeof(F));
  const gpu::NttPassShape shapes[] = {gpu::NttPassShape{}, {10, 9, 1}, {4, 3, 2}, {11, 8, 3, 2}, {4, 3, 2, 2}};
  for (const auto tw : {gpu::TwiddleTable::kFull, gpu::TwiddleTable::kCompact})
  for (const auto& sh : shapes)
    for (std::size_t k : {0u, 1u, 2u, 5u, 12u, 15u, 18u}) {
      SCOPED_TRACE(tw == gpu::TwiddleTable::kCompact ? "compact twiddles" : "full twiddles");
      const auto d = poly::EvaluationDomain<F>::from_log_size(k);
      const std::size_t n = d.size();
      const gpu::NttPlan<F> plan(k, sh, tw);
      F g = F::random(rng);
      if (g.is_zero()) g = F::from_u64(5);
      const std::vector<F> x = random_vec<F>(n, rng);
      std::vector<F> coef = x;
      poly::intt<F>(d, coef);
      std::vector<F> ev = coef;
      poly::coset_ntt<F>(d, ev, g);
      std::vector<F> want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = ev[(n - i) % n];
      const F ninv = F::from_u64(n).inverse();
      const gpu::PowerTable<F> to(g, ninv, n), from(g.inverse(), ninv, n);
      gpu::DeviceBuffer<F> buf{std::span<const F>(x)};
      std::vector<F> got(n);
      plan.evals_to_coset_evals_negated(buf.data(), to);
      buf.download(got);
      long i = first_diff(got, want);
      ASSERT_EQ(i, -1) << "coset evaluations at 2^" << k << " (passes " << sh.last << "," << sh.inner << ","
                       << sh.log_cols << ") differ at " << i;
      plan.coset_evals_negated_to_coeffs(buf.data(), from);
      buf.download(got);
      i = first_diff(got, coef);
      ASSERT_EQ(i, -1) << "coefficients at 2^" << k << " (passes " << sh.last << "," << sh.inner << "," << sh.log_cols
                       << ") differ at " << i;
      plan.reverse_order(buf.data());
      buf.download(got);
      for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(got[j], coef[(n - j) % n]) << "reverse_order at 2^" << k;
    }
}

// The per-size table: a valid shape for every size, and what a plan takes when the tuning
// names no shape: the shape for this device's SMs (for_device). The transforms at those sizes
// are checked above and below.
TEST(GpuNttShape, PerSizeShapesAreValidAndUsed) {
  for (std::size_t k = 0; k <= 31; ++k) EXPECT_TRUE(gpu::NttPassShape::for_size(k).valid()) << "2^" << k;
  for (std::size_t k = 0; k <= 20; ++k) {
    const gpu::NttPlan<ff::bls12_381::Fr> plan(k);
    const auto want = gpu::NttPassShape::for_device(k, gpu::device_smem_limits());
    EXPECT_EQ(plan.shape().last, want.last) << "2^" << k;
    EXPECT_EQ(plan.shape().inner, want.inner) << "2^" << k;
    EXPECT_EQ(plan.shape().log_cols, want.log_cols) << "2^" << k;
    EXPECT_EQ(plan.shape().radix, want.radix) << "2^" << k;
  }
}

// A consumer card's 100 KiB SM emulated (Tuning::emulate_smem_per_sm_kib: its tiles of at most
// 2^10 elements, padded to its 3 blocks per SM): the default plans of every branch of the
// per-size table give the CPU's transforms.
TYPED_TEST(GpuNtt, EmulatedConsumerCardMatchesCpu) {
  gpu::Tuning consumer;
  consumer.emulate_smem_per_sm_kib = 100;
  std::mt19937_64 rng(91 + sizeof(TypeParam));
  for (std::size_t k : {5u, 14u, 17u, 18u, 19u, 20u, 21u, 22u}) {
    const auto sh = gpu::NttPassShape::for_tuning(k, consumer);
    ASSERT_LE(std::max(sh.last, sh.inner + sh.log_cols), 10) << "2^" << k;
    EXPECT_EQ(sh, gpu::NttPassShape::for_device(k, gpu::SmemLimits::of_kib(100))) << "2^" << k;
    for (Kind kind : {Kind::kForward, Kind::kInverse, Kind::kCosetForward}) {
      check_transform<TypeParam>(kind, k, rng, std::nullopt, gpu::TwiddleTable::kFull, consumer);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// A tuning's shape (Tuning::ntt_passes, CUZK_NTT_PASSES for the benchmarks) is every size's,
// and a plan takes it; one out of range is refused by the plan.
TEST(GpuNttShape, TuningShapeIsUsedForEverySize) {
  gpu::Tuning t;
  t.ntt_passes = gpu::NttPassShape{11, 8, 2};
  for (std::size_t k : {std::size_t{5}, std::size_t{20}, std::size_t{27}})
    EXPECT_EQ(gpu::NttPassShape::for_tuning(k, t), (gpu::NttPassShape{11, 8, 2})) << "2^" << k;
  const gpu::NttPlan<ff::bls12_381::Fr> plan(14, gpu::TwiddleTable::kFull, t);
  EXPECT_EQ(plan.shape(), (gpu::NttPassShape{11, 8, 2}));
  t.ntt_passes = gpu::NttPassShape{13, 8, 2};
  EXPECT_THROW(gpu::NttPlan<ff::bls12_381::Fr>(14, gpu::TwiddleTable::kFull, t), std::invalid_argument);
}

TYPED_TEST(GpuNtt, BadSizesAreRejected) {
  using F = TypeParam;
  EXPECT_THROW(gpu::NttPlan<F>(F::kTwoAdicity + 1), std::invalid_argument);
  std::vector<F> a(5), b(4), c(4);
  EXPECT_THROW(gpu::compute_h_snarkjs<F>(2, a, b, c), std::invalid_argument);
  EXPECT_THROW(gpu::compute_h_snarkjs<F>(F::kTwoAdicity, b, b, b), std::invalid_argument);
}

}  // namespace
