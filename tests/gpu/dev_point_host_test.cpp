// Device curve arithmetic (DevFp2, DevXyzz over DevFp / DevFp2) on its host path against
// cuzk::ec and ff::Fp2, for G1 and G2 of BLS12-381 and BN254: every formula, the
// exceptional cases (P + P, P - P, infinity on either side), bit-exact after
// normalisation to affine. Needs no GPU (runs in CI); built a second time with the PTX
// carry-chain emulation (the device path's instruction sequence).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "cuzk/ec/curves.hpp"
#include "cuzk/gpu/coord_info.hpp"
#include "cuzk/gpu/dev_point.cuh"

namespace {

using namespace cuzk;

template <class C>
using DevF = gpu::DevCoord<typename gpu::CoordInfo<typename C::Base>::Fq, gpu::CoordInfo<typename C::Base>::kDeg>;

template <class To, class From>
To bits(const From& f) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(static_cast<void*>(&t), static_cast<const void*>(&f), sizeof(f));
  return t;
}

template <class C>
struct Ops {
  using A = ec::Affine<C>;
  using X = ec::Xyzz<C>;
  using DA = gpu::DevAffine<DevF<C>>;
  using DX = gpu::DevXyzz<DevF<C>>;
  static DA d(const A& a) { return bits<DA>(a); }
  static DX d(const X& x) { return bits<DX>(x); }
  static A aff(const DX& x) { return bits<X>(x).to_affine(); }
};

template <class C>
std::vector<ec::Affine<C>> points(std::mt19937_64& rng, std::size_t n) {
  std::vector<ec::Affine<C>> v;
  const auto g = ec::Jacobian<C>::generator();
  for (std::size_t i = 0; i < n; ++i) v.push_back((g * C::Scalar::random(rng)).to_affine());
  return v;
}

template <class C>
class DevPointHost : public ::testing::Test {};
using Curves = ::testing::Types<ec::bls12_381::G1Curve, ec::bls12_381::G2Curve, ec::bn254::G1Curve, ec::bn254::G2Curve>;
TYPED_TEST_SUITE(DevPointHost, Curves);

TYPED_TEST(DevPointHost, LayoutMatchesHost) {
  using C = TypeParam;
  static_assert(sizeof(typename Ops<C>::DA) == sizeof(ec::Affine<C>));
  static_assert(sizeof(typename Ops<C>::DX) == sizeof(ec::Xyzz<C>));
  static_assert(std::is_trivially_copyable_v<ec::Affine<C>>);
  const auto inf = ec::Xyzz<C>::infinity();
  EXPECT_TRUE(Ops<C>::d(inf).is_infinity());
  EXPECT_TRUE(Ops<C>::DX::infinity().is_infinity());
  EXPECT_TRUE(Ops<C>::d(ec::Affine<C>::infinity()).is_infinity());
}

TYPED_TEST(DevPointHost, FormulasMatchHost) {
  using C = TypeParam;
  using O = Ops<C>;
  std::mt19937_64 rng(31 + sizeof(typename C::Base));
  const auto p = points<C>(rng, 24);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto& a = p[i];
    const auto& b = p[(i * 5 + 1) % p.size()];
    const auto xa = ec::Xyzz<C>::from_affine(a).dbl().add_mixed(b);  // a non-trivial ZZ
    const auto xb = ec::Xyzz<C>::from_affine(b).add_mixed(a).dbl();
    const auto dxa = O::d(xa), dxb = O::d(xb);
    ASSERT_EQ(O::aff(dxa.add_mixed(O::d(b))), xa.add_mixed(b).to_affine()) << i;
    ASSERT_EQ(O::aff(dxa.sub_mixed(O::d(b))), xa.sub_mixed(b).to_affine()) << i;
    ASSERT_EQ(O::aff(dxa + dxb), (xa + xb).to_affine()) << i;
    ASSERT_EQ(O::aff(dxa.dbl()), xa.dbl().to_affine()) << i;
    ASSERT_EQ(O::aff(O::DX::dbl_affine(O::d(a))), ec::Xyzz<C>::dbl_affine(a).to_affine()) << i;
    ASSERT_EQ(O::aff(O::DX::from_affine(O::d(a))), a) << i;
    const std::uint32_t k = static_cast<std::uint32_t>(rng());
    ASSERT_EQ(O::aff(dxa.mul_small(k)), xa.to_jacobian().mul(std::uint64_t{k}).to_affine()) << i;
  }
}

TYPED_TEST(DevPointHost, ExceptionalCases) {
  using C = TypeParam;
  using O = Ops<C>;
  std::mt19937_64 rng(7);
  const auto a = points<C>(rng, 1)[0];
  const auto inf_a = ec::Affine<C>::infinity();
  const auto x = ec::Xyzz<C>::from_affine(a).dbl();  // 2a with ZZ != 1
  const auto dx = O::d(x);
  const auto two_a = O::d(ec::Xyzz<C>::from_affine(a).dbl().to_affine());
  // P + P through the mixed and the full formula, P - P, infinity on either side.
  EXPECT_EQ(O::aff(dx.add_mixed(two_a)), x.dbl().to_affine());
  EXPECT_EQ(O::aff(dx + dx), x.dbl().to_affine());
  EXPECT_TRUE((dx + (-dx)).is_infinity());
  EXPECT_TRUE(dx.add_mixed(-two_a).is_infinity());
  EXPECT_EQ(O::aff(dx.add_mixed(O::d(inf_a))), x.to_affine());
  EXPECT_EQ(O::aff(O::DX::infinity().add_mixed(O::d(a))), a);
  EXPECT_EQ(O::aff(O::DX::infinity() + dx), x.to_affine());
  EXPECT_EQ(O::aff(dx + O::DX::infinity()), x.to_affine());
  EXPECT_TRUE(O::DX::infinity().dbl().is_infinity());
  EXPECT_TRUE(dx.mul_small(0).is_infinity());
  EXPECT_EQ(O::aff(dx.mul_small(1)), x.to_affine());
}

TEST(DevFp2Host, OpsMatchHost) {
  using Fq2s = std::tuple<ec::bls12_381::Fq2, ec::bn254::Fq2>;
  std::mt19937_64 rng(11);
  auto run = [&]<class F2>(F2*) {
    using D = gpu::DevFp2<gpu::DevField<typename F2::Base>>;
    using B = typename F2::Base;
    const B e[4] = {B::zero(), B::one(), -B::one(), -B::from_u64(2)};  // incl. the largest
    for (int i = 0; i < 756; ++i) {
      // First every pair of the 16 edge elements (e[x] + e[y] u), then random ones.
      const F2 a = i < 256 ? F2(e[i % 4], e[(i / 4) % 4]) : F2::random(rng);
      const F2 b = i < 256 ? F2(e[(i / 16) % 4], e[i / 64]) : i % 7 == 0 ? a : F2::random(rng);
      const D da = bits<D>(a), db = bits<D>(b);
      ASSERT_EQ(bits<F2>(da * db), a * b);
      ASSERT_EQ(bits<F2>(D::mul_lazy(da, db)), a * b);
      ASSERT_EQ(bits<F2>(da + db), a + b);
      ASSERT_EQ(bits<F2>(da - db), a - b);
      ASSERT_EQ(bits<F2>(da.square()), a.square());
      ASSERT_EQ(bits<F2>(-da), -a);
      ASSERT_EQ(bits<F2>(da.dbl()), a.dbl());
      ASSERT_EQ(da.is_zero(), a.is_zero());
    }
  };
  run(static_cast<std::tuple_element_t<0, Fq2s>*>(nullptr));
  run(static_cast<std::tuple_element_t<1, Fq2s>*>(nullptr));
}

}  // namespace
