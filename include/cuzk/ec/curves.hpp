// Curve traits of BLS12-381 and BN254 (alt_bn128), G1 over Fq and G2 over Fq2, and the
// point aliases used everywhere else. All four are y^2 = x^3 + b:
//   BLS12-381 G1: b = 4;          G2 (M-type twist): b' = 4(1 + u)
//   BN254     G1: b = 3;          G2 (D-type twist): b' = 3 / (9 + u)
// Generators: the zcash / IETF ones for BLS12-381; (1, 2) and the EIP-197 G2 generator for
// BN254. Constants are text literals parsed once (function-local statics).
#pragma once

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/fields.hpp"
#include "cuzk/ff/towers.hpp"

namespace cuzk::ec {

namespace bls12_381 {
using Fq = ff::bls12_381::Fq;
using Fq2 = ff::bls12_381::Fq2;
using Fr = ff::bls12_381::Fr;

struct G1Curve {
  using Base = Fq;
  using Scalar = Fr;
  static constexpr const char* kName = "bls12_381_g1";
  static constexpr Base b() { return Base::from_u64(4); }
  static constexpr Limbs<2> kCofactor = ff::big::parse<2>("0x396c8c005555e1568c00aaab0000aaab");
  static Affine<G1Curve> generator() {
    static const Affine<G1Curve> g{
        Fq::from_string("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
        Fq::from_string("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1")};
    return g;
  }
  static bool in_subgroup(const Jacobian<G1Curve>& p);  // subgroup.hpp
};

struct G2Curve {
  using Base = Fq2;
  using Scalar = Fr;
  static constexpr const char* kName = "bls12_381_g2";
  static constexpr Base b() { return Base(Fq::from_u64(4), Fq::from_u64(4)); }
  static constexpr Limbs<8> kCofactor = ff::big::parse<8>(
      "0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a669"
      "1ae1616ec6e786f0c70cf1c38e31c7238e5");
  static Affine<G2Curve> generator() {
    static const Affine<G2Curve> g{
        Fq2(Fq::from_string("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
            Fq::from_string("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")),
        Fq2(Fq::from_string("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
            Fq::from_string("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"))};
    return g;
  }
  static bool in_subgroup(const Jacobian<G2Curve>& p);  // subgroup.hpp
};

using G1Affine = Affine<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G1 = Jacobian<G1Curve>;
using G2 = Jacobian<G2Curve>;
using G1Xyzz = Xyzz<G1Curve>;
using G2Xyzz = Xyzz<G2Curve>;
}  // namespace bls12_381

namespace bn254 {
using Fq = ff::bn254::Fq;
using Fq2 = ff::bn254::Fq2;
using Fr = ff::bn254::Fr;

struct G1Curve {
  using Base = Fq;
  using Scalar = Fr;
  static constexpr const char* kName = "bn254_g1";
  static constexpr Base b() { return Base::from_u64(3); }
  static constexpr Limbs<1> kCofactor = {1};
  static Affine<G1Curve> generator() { return Affine<G1Curve>{Fq::from_u64(1), Fq::from_u64(2)}; }
  // Cofactor 1: every point on the curve is in the subgroup.
  static bool in_subgroup(const Jacobian<G1Curve>& p) { return p.is_on_curve(); }
};

struct G2Curve {
  using Base = Fq2;
  using Scalar = Fr;
  static constexpr const char* kName = "bn254_g2";
  static Base b() {
    static const Base v = Base(Fq::from_u64(3), Fq::zero()) * Base(Fq::from_u64(9), Fq::from_u64(1)).inverse();
    return v;
  }
  static constexpr Limbs<4> kCofactor =
      ff::big::parse<4>("0x30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d");
  static Affine<G2Curve> generator() {
    static const Affine<G2Curve> g{
        Fq2(Fq::from_string("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
            Fq::from_string("11559732032986387107991004021392285783925812861821192530917403151452391805634")),
        Fq2(Fq::from_string("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
            Fq::from_string("4082367875863433681332203403145435568316851327593401208105741076214120093531"))};
    return g;
  }
  static bool in_subgroup(const Jacobian<G2Curve>& p);  // subgroup.hpp
};

using G1Affine = Affine<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G1 = Jacobian<G1Curve>;
using G2 = Jacobian<G2Curve>;
using G1Xyzz = Xyzz<G1Curve>;
using G2Xyzz = Xyzz<G2Curve>;
}  // namespace bn254

static_assert(CurveTraits<bls12_381::G1Curve> && CurveTraits<bls12_381::G2Curve>);
static_assert(CurveTraits<bn254::G1Curve> && CurveTraits<bn254::G2Curve>);
static_assert(sizeof(bls12_381::G1Affine) == 96 && sizeof(bls12_381::G2Affine) == 192);
static_assert(sizeof(bn254::G1Affine) == 64 && sizeof(bn254::G2Affine) == 128);

}  // namespace cuzk::ec

#include "cuzk/ec/subgroup.hpp"
