// .zkey reader/writer on random keys: round trips (both curves), coefficient encoding against an
// independent computation (c * 2^512 mod r with GMP-free limb arithmetic: R^2 from the field),
// malformed inputs with the expected messages, and a parser fuzz.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "cuzk/groth16/zkey.hpp"
#include "fuzz.hpp"
#include "key_compare.hpp"
#include "random_key.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;

template <class E>
std::vector<std::uint8_t> small_zkey(std::uint64_t seed, ProvingKey<E>* out = nullptr) {
  std::mt19937_64 rng(seed);
  auto pk = test::random_key<E>(7, 2, 8, rng);
  auto bytes = write_zkey(pk);
  if (out) *out = std::move(pk);
  return bytes;
}

template <class E>
void round_trip(std::uint64_t seed) {
  ProvingKey<E> pk;
  const auto bytes = small_zkey<E>(seed, &pk);
  ZkeyExtra extra;
  const auto back = read_zkey<E>(bytes, {PointCheck::kSubgroup}, &extra);
  test::expect_same_key(pk, back);
  EXPECT_EQ(extra.num_contributions, 0u);
  EXPECT_EQ(extra.section10.size(), 68u);
  // Writing what we read gives the same bytes.
  EXPECT_EQ(write_zkey(back), bytes);
  EXPECT_EQ(zkey_curve(bytes), *r1cs::curve_of_scalar_field<typename E::Fr>());
  const ZkeyCounts c = read_zkey_counts<E>(io::BinFile::parse(bytes, zkey_detail::kZkeyFile));
  EXPECT_EQ(c.num_vars, 7u);
  EXPECT_EQ(c.num_public, 2u);
  EXPECT_EQ(c.domain_size, 8u);
  EXPECT_EQ(c.num_coefficients, pk.a.nnz() + pk.b.nnz());
}

TEST(ZkeyFormat, RoundTripBn254) { round_trip<Bn254>(1); }
TEST(ZkeyFormat, RoundTripBls12_381) { round_trip<Bls12_381>(2); }

TEST(ZkeyFormat, Section10Verbatim) {
  ProvingKey<Bn254> pk;
  small_zkey<Bn254>(3, &pk);
  ZkeyWriteOptions o;
  for (std::size_t i = 0; i < 64; ++i) o.circuit_hash[i] = static_cast<std::uint8_t>(i * 7);
  ZkeyExtra x;
  (void)read_zkey<Bn254>(write_zkey(pk, o), {}, &x);
  EXPECT_EQ(x.circuit_hash, o.circuit_hash);
  ZkeyWriteOptions o2;
  o2.section10 = x.section10;
  ZkeyExtra y;
  (void)read_zkey<Bn254>(write_zkey(pk, o2), {}, &y);
  EXPECT_EQ(y.section10, x.section10);
}

// Section 4 stores c * R^2 mod r. Check the bytes of one coefficient independently:
// R^2 mod r = Fr::kR2 (the Montgomery constant), so the stored integer is (c * R^2) mod r as a
// field product of c and the element whose canonical value is R^2.
TEST(ZkeyFormat, CoefficientEncoding) {
  using Fr = Bn254::Fr;
  std::mt19937_64 rng(4);
  auto pk = test::random_key<Bn254>(5, 1, 4, rng);
  pk.a = r1cs::CsrMatrix<Fr>{};
  pk.a.num_cols = 5;
  const Fr c = Fr::from_u64(123456789) * Fr::from_u64(987654321);
  pk.a.push_term(3, c);
  pk.a.end_row();
  pk.b = r1cs::CsrMatrix<Fr>{};
  pk.b.num_cols = 5;
  pk.b.end_row();
  const auto bytes = write_zkey(pk);
  const auto f = io::BinFile::parse(bytes, {"zkey", 1, 1, false});
  auto r = f.reader(4);
  EXPECT_EQ(r.u32(), 1u);
  EXPECT_EQ(r.u32(), 0u);
  EXPECT_EQ(r.u32(), 0u);
  EXPECT_EQ(r.u32(), 3u);
  const auto stored = r.limbs_le<4>(32);
  const Fr r2 = Fr::from_canonical(Fr::kR2);
  EXPECT_EQ(stored, (c * r2).to_canonical());
  EXPECT_EQ(read_zkey<Bn254>(bytes).a, pk.a);
}

std::vector<std::uint8_t> replace_section(const std::vector<std::uint8_t>& file, std::uint32_t id,
                                          std::vector<std::uint8_t> body, bool drop = false) {
  const auto f = io::BinFile::parse(file, {"zkey", 1, 1, false});
  io::BinWriter w("zkey", 1, static_cast<std::uint32_t>(f.sections().size() - (drop ? 1 : 0)));
  for (const auto& s : f.sections()) {
    if (s.id == id && drop) continue;
    w.begin_section(s.id);
    if (s.id == id) w.bytes(body);
    else w.bytes(f.bytes().subspan(s.offset, s.size));
    w.end_section();
  }
  return std::move(w).finish();
}

std::string error_of(std::span<const std::uint8_t> b) {
  try {
    (void)read_zkey<Bn254>(b);
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ZkeyFormat, Malformed) {
  const auto good = small_zkey<Bn254>(5);
  const auto f = io::BinFile::parse(good, {"zkey", 1, 1, false});
  auto sec = [&](std::uint32_t id) {
    auto s = f.section_bytes(id);
    return std::vector<std::uint8_t>(s.begin(), s.end());
  };
  EXPECT_NE(error_of(replace_section(good, 1, {2, 0, 0, 0})).find("PLONK"), std::string::npos);
  EXPECT_NE(error_of(replace_section(good, 1, {7, 0, 0, 0})).find("not Groth16"), std::string::npos);
  EXPECT_NE(error_of(replace_section(good, 5, {}, true)).find("missing section 5"), std::string::npos)
      << error_of(replace_section(good, 5, {}, true));
  auto s9 = sec(9);
  s9.resize(s9.size() - 64);
  const std::string short_h = error_of(replace_section(good, 9, s9));
  EXPECT_NE(short_h.find("section 9 (H points) has 448 bytes, but domainSize 2^3 needs 8 points"), std::string::npos)
      << short_h;
  // A point off the curve in section 5 (y += 1 in Montgomery limbs: still canonical).
  auto s5 = sec(5);
  s5[32] ^= 1;
  EXPECT_NE(error_of(replace_section(good, 5, s5)).find("not on the curve"), std::string::npos)
      << error_of(replace_section(good, 5, s5));
  EXPECT_NO_THROW(read_zkey<Bn254>(replace_section(good, 5, s5), {PointCheck::kNone}));  // trusted mode skips it
  // A non-canonical coordinate (all 0xff).
  s5 = sec(5);
  for (std::size_t i = 0; i < 32; ++i) s5[64 + i] = 0xff;
  EXPECT_NE(error_of(replace_section(good, 5, s5)).find(">= q"), std::string::npos);
  // Wrong curve: a BLS12-381 key read as BN254, and an unknown q.
  const auto bls = small_zkey<Bls12_381>(6);
  EXPECT_NE(error_of(bls).find("key is for bls12381, expected bn128"), std::string::npos) << error_of(bls);
  auto s2 = sec(2);
  s2[4] ^= 1;
  EXPECT_NE(error_of(replace_section(good, 2, s2)).find("unknown prime"), std::string::npos);
  // Coefficients: count mismatch, bad matrix id, row >= domain, value >= r.
  auto s4 = sec(4);
  auto c1 = s4;
  c1[0] += 1;
  EXPECT_NE(error_of(replace_section(good, 4, c1)).find("announces"), std::string::npos);
  auto c2 = s4;
  c2[4] = 2;
  EXPECT_NE(error_of(replace_section(good, 4, c2)).find("is not 0 (A) or 1 (B)"), std::string::npos);
  auto c3 = s4;
  c3[8] = 8;
  EXPECT_NE(error_of(replace_section(good, 4, c3)).find(">= domainSize"), std::string::npos);
  auto c4 = s4;
  for (std::size_t i = 0; i < 32; ++i) c4[16 + i] = 0xff;
  EXPECT_NE(error_of(replace_section(good, 4, c4)).find("not canonical (>= r)"), std::string::npos);
  // Header counts: nPublic + 1 > nVars, domain not a power of two.
  s2 = sec(2);
  auto h1 = s2;
  h1[4 + 32 + 4 + 32 + 4] = 9;  // nPublic
  EXPECT_NE(error_of(replace_section(good, 2, h1)).find("exceeds nVars"), std::string::npos);
  auto h2 = s2;
  h2[4 + 32 + 4 + 32 + 8] = 6;  // domainSize
  EXPECT_NE(error_of(replace_section(good, 2, h2)).find("not a power of two"), std::string::npos);
}

TEST(ZkeyFormat, WriterRejectsWrongShape) {
  ProvingKey<Bn254> pk;
  small_zkey<Bn254>(7, &pk);
  auto z = pk;
  z.h_convention = HConvention::kZDivided;
  EXPECT_THROW(write_zkey(z), std::invalid_argument);
  auto h = pk;
  h.h_query.pop_back();
  EXPECT_THROW(write_zkey(h), std::invalid_argument);
}

TEST(ZkeyFormat, FuzzTruncations) {
  const auto good = small_zkey<Bn254>(8);
  test::fuzz_truncations(good, [](auto b) { (void)read_zkey<Bn254>(b); });
}

TEST(ZkeyFormat, FuzzFlips) {
  const auto good = small_zkey<Bn254>(9);
  const std::size_t rejected = test::fuzz_flips(good, [](auto b) { (void)read_zkey<Bn254>(b); }, 1000, 10);
  EXPECT_GT(rejected, 500u);  // most flips land in points or counts and must be caught
  const auto bls = small_zkey<Bls12_381>(11);
  test::fuzz_flips(bls, [](auto b) { (void)read_zkey<Bls12_381>(b); }, 300, 12);
}

// Not a pass/fail check: prints what each PointCheck level costs (see zkey.hpp's header comment).
template <class E>
void time_checks(const char* name) {
  std::mt19937_64 rng(13);
  const auto bytes = write_zkey(test::random_key<E>(2048, 1, 2048, rng));
  for (auto c : {PointCheck::kNone, PointCheck::kOnCurve, PointCheck::kSubgroup}) {
    const auto t0 = std::chrono::steady_clock::now();
    (void)read_zkey<E>(bytes, {c});
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s zkey, 2048 vars + 2048 H points (%zu bytes), PointCheck %d: %.1f ms\n", name, bytes.size(),
                static_cast<int>(c), ms);
  }
}
TEST(ZkeyFormat, ReadCostByCheckLevel) {
  time_checks<Bn254>("bn254");
  time_checks<Bls12_381>("bls12_381");
}

}  // namespace
