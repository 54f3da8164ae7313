// The largest sizes issue 7 names, on the device (BLS12-381): NTT 2^28 and MSM 2^28 (G1 with
// uniform and witness-like scalars, G2 witness-like), with oracles that need no 2^28-point
// CPU transform or MSM:
//   - NTT: a sparse input (2^16 values at random positions, zeros elsewhere); the forward and
//     coset outputs at 64 positions against sum_i x_i (g w^j)^i on the CPU, and
//     inverse(forward(x)) == x at all 2^28 positions;
//   - MSM: the 2^16 distinct points P_j repeated (point i is P_(i mod 2^16)), so the result is
//     sum_j S_j P_j with S_j = sum of the scalars of the points equal to P_j: a 2^16-point CPU
//     MSM.
// Each test is skipped, saying why, when the device has too little free memory.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/poly/generator.hpp"
#include "require_device.hpp"
#include "support/random_points.hpp"

namespace {

using namespace cuzk;
using Fr = ff::bls12_381::Fr;
constexpr std::size_t kLog = 28, kN = std::size_t{1} << kLog, kDistinct = std::size_t{1} << 16;

bool device_has(std::size_t bytes, std::string* why) {
  std::size_t free = 0, total = 0;
  gpu::device_memory(&free, &total);
  *why = "needs " + std::to_string(bytes >> 30) + " GiB of device memory, " + std::to_string(free >> 30) + " GiB free";
  return free >= bytes;
}

// Below r: 4 random words with the top two bits cleared (r > 2^254), as a Montgomery image.
Fr fast_random(std::mt19937_64& rng) {
  Fr::Repr m{};
  for (auto& w : m) w = rng();
  m.back() &= ~(std::uint64_t{3} << 62);
  return Fr::from_mont(m);
}

// base^e for any e < 2^28 from two tables of 2^14 powers (one product per call).
struct Powers {
  std::vector<Fr> lo, hi;
  explicit Powers(const Fr& base) : lo(1 << 14), hi(1 << 14) {
    lo[0] = Fr::one();
    for (std::size_t i = 1; i < lo.size(); ++i) lo[i] = lo[i - 1] * base;
    const Fr step = lo.back() * base;
    hi[0] = Fr::one();
    for (std::size_t i = 1; i < hi.size(); ++i) hi[i] = hi[i - 1] * step;
  }
  Fr at(std::uint64_t e) const { return lo[e & 0x3fff] * hi[e >> 14]; }
};

TEST(GpuLarge, Ntt2To28) {
  std::string why;
  if (!device_has(2 * kN * sizeof(Fr), &why)) GTEST_SKIP() << why;
  std::mt19937_64 rng(28);
  std::vector<Fr> x(kN, Fr::zero());
  std::set<std::uint64_t> pos;
  while (pos.size() < kDistinct) pos.insert(rng() & (kN - 1));
  for (auto p : pos) x[p] = Fr::random(rng);
  std::vector<Fr> gp;  // g^p for each p in pos, in pos's order
  const Fr g = poly::multiplicative_generator<Fr>();
  for (auto p : pos) gp.push_back(g.pow(p));
  const gpu::NttPlan<Fr> plan(kLog);
  gpu::DeviceBuffer<Fr> d{std::span<const Fr>(x)};
  const Powers wp(Fr::root_of_unity(kLog));
  std::vector<Fr> y(kN);
  std::vector<std::uint64_t> js = {0, 1, kN / 2, kN - 1};
  while (js.size() < 64) js.push_back(rng() & (kN - 1));
  for (const bool coset : {false, true}) {
    if (coset) {
      gpu::copy_to_device(d.data(), x.data(), kN * sizeof(Fr));
      plan.coset_forward(d.data(), g);
    } else {
      plan.forward(d.data());
    }
    gpu::stream_synchronize();
    d.download(y);
    for (const std::uint64_t j : js) {
      Fr want = Fr::zero();
      std::size_t k = 0;
      for (const auto p : pos) {
        const Fr t = x[p] * wp.at((p * j) & (kN - 1));
        want += coset ? t * gp[k++] : t;
      }
      ASSERT_EQ(y[j], want) << (coset ? "coset " : "") << "forward 2^28 at " << j;
    }
  }
  gpu::copy_to_device(d.data(), x.data(), kN * sizeof(Fr));
  plan.forward(d.data());
  plan.inverse(d.data());
  gpu::stream_synchronize();
  d.download(y);
  for (std::size_t i = 0; i < kN; ++i) ASSERT_EQ(y[i], x[i]) << "inverse(forward(x)) at " << i;
}

enum class Dist { kUniform, kWitness };

template <class C>
void check_msm_2to28(Dist dist) {
  using Scalar = typename C::Scalar;
  std::string why;
  if (!device_has(kN * (sizeof(ec::Affine<C>) + 3 * sizeof(Scalar)), &why)) GTEST_SKIP() << why;
  std::mt19937_64 rng(280 + sizeof(ec::Affine<C>));
  const auto base = test::random_points<C>(kDistinct, rng);
  gpu::DeviceBuffer<ec::Affine<C>> pts(kN);
  gpu::copy_to_device(pts.data(), base.data(), kDistinct * sizeof(base[0]));
  for (std::size_t have = kDistinct; have < kN; have *= 2)
    gpu::copy_device_to_device(pts.data() + have, pts.data(), have * sizeof(base[0]));
  std::vector<Scalar> s(kN);
  std::vector<Scalar> sums(kDistinct, Scalar::zero());
  for (std::size_t i = 0; i < kN; ++i) {
    const auto r = rng() % 10;
    s[i] = dist == Dist::kUniform ? fast_random(rng) : r < 5 ? Scalar::zero() : r < 9 ? Scalar::one() : fast_random(rng);
    sums[i & (kDistinct - 1)] += s[i];
  }
  const auto want = msm::msm<C>(std::span<const ec::Affine<C>>(base), std::span<const Scalar>(sums)).to_affine();
  const auto ds = gpu::DeviceScalars<Scalar>::from_host(s);
  s = {};
  const auto got = gpu::msm<C>(pts, ds).to_affine();
  ASSERT_EQ(got, want) << C::kName << (dist == Dist::kUniform ? " uniform" : " witness-like") << " scalars, 2^28 points";
}

TEST(GpuLarge, MsmG1Uniform2To28) { check_msm_2to28<ec::bls12_381::G1Curve>(Dist::kUniform); }
TEST(GpuLarge, MsmG1WitnessLike2To28) { check_msm_2to28<ec::bls12_381::G1Curve>(Dist::kWitness); }
TEST(GpuLarge, MsmG2WitnessLike2To28) { check_msm_2to28<ec::bls12_381::G2Curve>(Dist::kWitness); }

}  // namespace
