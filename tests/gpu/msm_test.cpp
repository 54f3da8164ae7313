// GPU MSM (cuzk/gpu/msm.hpp) against the CPU msm, affine results compared bit for bit, for
// G1 and G2 of BLS12-381 and BN254: random scalars at several sizes (non-powers of two
// included), witness-like 0/1-heavy scalars, tiny and all-equal scalars (one huge
// bucket), points at infinity, forced window sizes, one DeviceScalars shared by G1 and G2; a
// consumer card's SM emulated and either level-0 kernel forced (gpu::Tuning).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "cuzk/msm/msm.hpp"
#include "require_device.hpp"
#include "support/random_points.hpp"

namespace {

using namespace cuzk;

using test::random_points;

enum class Dist { kRandom, kWitness, kTiny, kAllEqual };

template <class Fr>
std::vector<Fr> make_scalars(std::mt19937_64& rng, std::size_t n, Dist d) {
  std::vector<Fr> s(n);
  const Fr same = Fr::random(rng);
  for (auto& x : s) {
    switch (d) {
      case Dist::kRandom: x = Fr::random(rng); break;
      case Dist::kWitness: {
        const auto r = rng() % 10;
        x = r < 4 ? Fr::zero() : r < 8 ? Fr::one() : Fr::random(rng);
        break;
      }
      case Dist::kTiny: x = Fr::from_u64(rng() % 6); break;
      case Dist::kAllEqual: x = same; break;
    }
  }
  return s;
}

template <class C>
void check(const std::vector<ec::Affine<C>>& pts, const std::vector<typename C::Scalar>& sc, unsigned c,
           const char* what, std::size_t batch_entries = 0, const gpu::Tuning& tuning = {}) {
  using Fr = typename C::Scalar;
  const auto want = msm::msm<C>(std::span<const ec::Affine<C>>(pts), std::span<const Fr>(sc)).to_affine();
  const gpu::DeviceBuffer<ec::Affine<C>> dp{std::span<const ec::Affine<C>>(pts)};
  const auto ds = gpu::DeviceScalars<Fr>::from_host(sc);
  const auto got = gpu::msm<C>(dp, ds, gpu::MsmOptions{c, batch_entries, nullptr, tuning}).to_affine();
  ASSERT_EQ(got, want) << C::kName << " " << what << " n=" << pts.size() << " c=" << c << " batch entries "
                       << batch_entries;
}

template <class C>
class GpuMsm : public ::testing::Test {};
using Curves = ::testing::Types<ec::bls12_381::G1Curve, ec::bls12_381::G2Curve, ec::bn254::G1Curve, ec::bn254::G2Curve>;
TYPED_TEST_SUITE(GpuMsm, Curves);

TYPED_TEST(GpuMsm, RandomScalarsMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(1000 + sizeof(typename C::Base));
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{100}, std::size_t{1000}, std::size_t{4096 + 7},
                        std::size_t{1} << 16}) {
    const auto pts = random_points<C>(n, rng);
    check<C>(pts, make_scalars<typename C::Scalar>(rng, n, Dist::kRandom), 0, "random");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// A consumer card's 100 KiB SM emulated (Tuning::emulate_smem_per_sm_kib): the level-0 blocks
// padded to its 2 per SM, the chunk lengths planned for that many resident threads.
TYPED_TEST(GpuMsm, EmulatedConsumerCardMatchesCpu) {
  using C = TypeParam;
  gpu::Tuning consumer;
  consumer.emulate_smem_per_sm_kib = 100;
  std::mt19937_64 rng(3000 + sizeof(typename C::Base));
  for (std::size_t n : {std::size_t{1000}, (std::size_t{1} << 16) + 3}) {
    const auto pts = random_points<C>(n, rng);
    check<C>(pts, make_scalars<typename C::Scalar>(rng, n, Dist::kRandom), 0, "random, 100 KiB SM", 0, consumer);
    if (::testing::Test::HasFatalFailure()) return;
    check<C>(pts, make_scalars<typename C::Scalar>(rng, n, Dist::kWitness), 0, "witness-like, 100 KiB SM", 0, consumer);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Either level-0 kernel forced (Tuning::msm_level0), with the phase profile on: the CPU's sums.
TYPED_TEST(GpuMsm, ForcedLevel0KernelsMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(3500 + sizeof(typename C::Base));
  const std::size_t n = 5000;
  const auto pts = random_points<C>(n, rng);
  const auto sc = make_scalars<typename C::Scalar>(rng, n, Dist::kWitness);
  for (const gpu::MsmLevel0 k : {gpu::MsmLevel0::kShared, gpu::MsmLevel0::kRegisters}) {
    gpu::Tuning t;
    t.msm_level0 = k;
    t.msm_profile = true;
    check<C>(pts, sc, 0, k == gpu::MsmLevel0::kShared ? "level 0 shared" : "level 0 registers", 0, t);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TYPED_TEST(GpuMsm, SkewedScalarsMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(2000 + sizeof(typename C::Base));
  for (std::size_t n : {std::size_t{5}, std::size_t{1000}, std::size_t{20000}}) {
    auto pts = random_points<C>(n, rng);
    pts[n / 2] = ec::Affine<C>::infinity();
    for (Dist d : {Dist::kWitness, Dist::kTiny, Dist::kAllEqual}) {
      check<C>(pts, make_scalars<typename C::Scalar>(rng, n, d), 0, "skewed");
      if (::testing::Test::HasFatalFailure()) return;
    }
    // All zero, all one.
    check<C>(pts, std::vector<typename C::Scalar>(n, C::Scalar::zero()), 0, "zeros");
    check<C>(pts, std::vector<typename C::Scalar>(n, C::Scalar::one()), 0, "ones");
  }
}

TYPED_TEST(GpuMsm, ForcedWindowSizes) {
  using C = TypeParam;
  std::mt19937_64 rng(3000);
  const std::size_t n = 3000;
  const auto pts = random_points<C>(n, rng);
  const auto sc = make_scalars<typename C::Scalar>(rng, n, Dist::kRandom);
  for (unsigned c : {1u, 2u, 7u, 13u, 20u, 22u}) {
    check<C>(pts, sc, c, "forced");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Repeated and opposite points next to each other in one bucket (all scalars equal, and the
// sort keeps equal keys in order): the accumulation meets acc = P (doubling), acc = -P
// (infinity, then a fresh start) and points at infinity, in every accumulation kernel.
TYPED_TEST(GpuMsm, RepeatedAndOppositePoints) {
  using C = TypeParam;
  std::mt19937_64 rng(3700);
  const std::size_t n = 3000;
  const auto base = random_points<C>(8, rng);
  std::vector<ec::Affine<C>> pts(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i < n / 2) pts[i] = base[(i / 3) % 8];  // P P P Q Q Q ...: acc = P meets P
    else pts[i] = i % 2 ? -base[(i / 2) % 8] : base[(i / 2) % 8];  // P -P Q -Q ...: acc = P meets -P
    if (i % 97 == 5) pts[i] = ec::Affine<C>::infinity();
  }
  for (Dist d : {Dist::kAllEqual, Dist::kTiny, Dist::kRandom}) {
    check<C>(pts, make_scalars<typename C::Scalar>(rng, n, d), 0, "repeated");
    if (::testing::Test::HasFatalFailure()) return;
    check<C>(pts, make_scalars<typename C::Scalar>(rng, n, d), 0, "repeated, one window per batch", n);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// One window per sort batch (as for 2^26 points): with at most 32 windows the carries between
// windows are found once (MsmLayout::carry_masks) and each batch reads only its windows' words;
// with more (c = 1, 3) every batch re-derives them.
TYPED_TEST(GpuMsm, OneWindowPerBatchCarryMasks) {
  using C = TypeParam;
  std::mt19937_64 rng(3500);
  const std::size_t n = 2500;
  auto pts = random_points<C>(n, rng);
  pts[7] = ec::Affine<C>::infinity();
  for (Dist d : {Dist::kRandom, Dist::kWitness}) {
    const auto sc = make_scalars<typename C::Scalar>(rng, n, d);
    for (unsigned c : {0u, 1u, 3u, 11u, 16u, 20u}) {
      const auto L = gpu::plan_msm_layout(n, 0, 255, c, n);
      ASSERT_LT(L.batch, L.windows);
      ASSERT_EQ(L.carry_masks != 0, L.windows <= gpu::kMaxCarryWindows);
      check<C>(pts, sc, c, "one window per batch", n);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(GpuMsmShared, OneDeviceScalarsForG1AndG2) {
  using G1 = ec::bls12_381::G1Curve;
  using G2 = ec::bls12_381::G2Curve;
  using Fr = ec::bls12_381::Fr;
  std::mt19937_64 rng(4000);
  const std::size_t n = 5000;
  const auto p1 = random_points<G1>(n, rng);
  const auto p2 = random_points<G2>(n, rng);
  const auto sc = make_scalars<Fr>(rng, n, Dist::kWitness);
  const auto ds = gpu::DeviceScalars<Fr>::from_host(sc);
  EXPECT_EQ(ds.num_ones() + ds.num_others() <= n, true);
  const gpu::DeviceBuffer<ec::Affine<G1>> d1{std::span<const ec::Affine<G1>>(p1)};
  const gpu::DeviceBuffer<ec::Affine<G2>> d2{std::span<const ec::Affine<G2>>(p2)};
  for (int rep = 0; rep < 2; ++rep) {
    EXPECT_EQ(gpu::msm<G1>(d1, ds).to_affine(), msm::msm<G1>(std::span<const ec::Affine<G1>>(p1), std::span<const Fr>(sc)).to_affine());
    EXPECT_EQ(gpu::msm<G2>(d2, ds).to_affine(), msm::msm<G2>(std::span<const ec::Affine<G2>>(p2), std::span<const Fr>(sc)).to_affine());
  }
  EXPECT_THROW(gpu::msm<G1>(d1.data(), n - 1, ds), std::invalid_argument);
}

// One workspace across MSMs of several sizes and both groups: the same sums as the CPU, the
// workspace growing to the largest need and kept.
TEST(GpuMsmShared, OneWorkspaceAcrossSizesAndGroups) {
  using G1 = ec::bls12_381::G1Curve;
  using G2 = ec::bls12_381::G2Curve;
  using Fr = ec::bls12_381::Fr;
  std::mt19937_64 rng(4200);
  gpu::MsmWorkspace ws;
  std::size_t most = 0;
  for (std::size_t n : {std::size_t{3000}, std::size_t{100}, std::size_t{20000}, std::size_t{1000}}) {
    const auto p1 = random_points<G1>(n, rng);
    const auto p2 = random_points<G2>(n / 4 + 1, rng);
    const auto sc = make_scalars<Fr>(rng, n, Dist::kRandom);
    const auto ds = gpu::DeviceScalars<Fr>::from_host(sc);
    const std::vector<Fr> sc2(sc.begin(), sc.begin() + static_cast<std::ptrdiff_t>(p2.size()));
    const auto ds2 = gpu::DeviceScalars<Fr>::from_host(sc2);
    const gpu::DeviceBuffer<ec::Affine<G1>> d1{std::span<const ec::Affine<G1>>(p1)};
    const gpu::DeviceBuffer<ec::Affine<G2>> d2{std::span<const ec::Affine<G2>>(p2)};
    const gpu::MsmOptions o{0, 0, &ws};
    EXPECT_EQ(gpu::msm<G1>(d1, ds, o).to_affine(), msm::msm<G1>(std::span<const ec::Affine<G1>>(p1), std::span<const Fr>(sc)).to_affine()) << n;
    EXPECT_EQ(gpu::msm<G2>(d2, ds2, o).to_affine(), msm::msm<G2>(std::span<const ec::Affine<G2>>(p2), std::span<const Fr>(sc2)).to_affine()) << n;
    EXPECT_GE(ws.capacity(), most);
    most = ws.capacity();
  }
  EXPECT_GE(most, gpu::plan_msm_layout(20000, 0, 255).scratch_bytes(sizeof(ec::Xyzz<G1>), 0));
}

// From 256 MiB on, from_host stages through pinned buffers: the same scalars as from_device.
TEST(GpuMsmShared, LargeHostScalarsStagedEqualDeviceScalars) {
  using Fr = ec::bls12_381::Fr;
  std::mt19937_64 rng(4500);
  const std::size_t n = (std::size_t{1} << 23) + 77;
  const auto sc = make_scalars<Fr>(rng, n, Dist::kWitness);
  const auto staged = gpu::DeviceScalars<Fr>::from_host(sc);
  const gpu::DeviceBuffer<Fr> raw{std::span<const Fr>(sc)};
  const auto direct = gpu::DeviceScalars<Fr>::from_device(raw.data(), n);
  ASSERT_EQ(staged.num_ones(), direct.num_ones());
  ASSERT_EQ(staged.num_others(), direct.num_others());
  EXPECT_GT(staged.num_ones(), 0u);
  const auto words = [&](const std::uint32_t* d, std::size_t count) {
    std::vector<std::uint32_t> v(count);
    gpu::copy_to_host(v.data(), d, count * sizeof(std::uint32_t));
    return v;
  };
  EXPECT_EQ(words(staged.view().canonical, n * gpu::kScalarWords), words(direct.view().canonical, n * gpu::kScalarWords));
  EXPECT_EQ(words(staged.view().others, staged.num_others()), words(direct.view().others, direct.num_others()));
}

TEST(GpuMsmLarge, Bls12G1At2To20) {
  using C = ec::bls12_381::G1Curve;
  std::mt19937_64 rng(5000);
  const std::size_t n = std::size_t{1} << 20;
  const auto pts = random_points<C>(n, rng);
  check<C>(pts, make_scalars<typename C::Scalar>(rng, n, Dist::kRandom), 0, "2^20");
}

TEST(GpuMsmEstimate, LayoutFitsItsEstimate) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20, std::size_t{1} << 26}) {
    const auto L = gpu::plan_msm_layout(n, n, 255);
    EXPECT_GE(L.windows * L.c, 255u);
    EXPECT_LE(L.entries, std::max<std::size_t>(n, gpu::MsmLayout::kMaxEntries));
    EXPECT_GT(gpu::msm_scratch_bytes<ec::bls12_381::G1Curve>(n), 0u);
  }
}

}  // namespace

namespace {
TEST(GpuErrors, OutOfMemoryThrowsCudaErrorAndTheDeviceStaysUsable) {
  EXPECT_THROW(cuzk::gpu::DeviceBuffer<std::uint64_t>(std::size_t{1} << 45), cuzk::gpu::CudaError);  // 256 TiB
  using C = cuzk::ec::bn254::G1Curve;
  std::mt19937_64 rng(6000);
  const auto pts = random_points<C>(700, rng);
  check<C>(pts, make_scalars<C::Scalar>(rng, 700, Dist::kRandom), 0, "after an OOM");
}
}  // namespace
