// circom .r1cs / .wtns readers and writers: round trips, hand-assembled files, every validation error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "cuzk/r1cs/curve_id.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "raw_circom.hpp"
#include "support/decode_error.hpp"
#include "support/random_r1cs.hpp"
#include "support/scratch_dir.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::r1cs;
using namespace cuzk::r1cs::test;
using cuzk::test::random_system;
using BnFr = ff::bn254::Fr;
using BlsFr = ff::bls12_381::Fr;

template <class F>
class CircomFormat : public ::testing::Test {};
using Fields = ::testing::Types<BnFr, BlsFr>;
TYPED_TEST_SUITE(CircomFormat, Fields);

template <class F>
Limbs4 canon(const F& x) {
  return x.to_canonical();
}

// A valid 4-wire system: w1 = out, w2 = pub, w3 = prv; constraints w2 * w3 = w1 and
// (w1 + 5) * 1 = (r-1)·(-w1) + 5 + ... written with a coefficient r-1 to exercise full-width values.
template <class F>
RawR1cs small_raw() {
  RawR1cs r;
  r.prime = F::kModulus;
  const Limbs4 one{1, 0, 0, 0}, five{5, 0, 0, 0};
  const Limbs4 minus_one = canon(-F::one());
  r.constraints.push_back({RawLc{{2, one}}, RawLc{{3, one}}, RawLc{{1, one}}});
  // (w1 + 5·w0) · w0 = (-1)·(-w1) + 5·w0   (always true)
  r.constraints.push_back({RawLc{{1, one}, {0, five}}, RawLc{{0, one}}, RawLc{{1, canon(-(-F::one()))}, {0, five}}});
  // (-1)·w3 · w0 = (r-1)·w3
  r.constraints.push_back({RawLc{{3, minus_one}}, RawLc{{0, one}}, RawLc{{3, minus_one}}});
  return r;
}

template <class F>
std::vector<F> small_witness(std::uint64_t pub, std::uint64_t prv) {
  return {F::one(), F::from_u64(pub * prv), F::from_u64(pub), F::from_u64(prv)};
}

TYPED_TEST(CircomFormat, ReadsHandAssembledR1cs) {
  using F = TypeParam;
  auto raw = small_raw<F>();
  raw.map = std::vector<std::uint64_t>{0, 7, 3, 9};
  raw.n_labels = 10;
  const auto r = read_r1cs<F>(raw.bytes());
  EXPECT_EQ(r.num_vars, 4u);
  EXPECT_EQ(r.num_public, 2u);
  EXPECT_EQ(r.num_constraints, 3u);
  ASSERT_TRUE(r.circom.has_value());
  EXPECT_EQ(*r.circom, (CircomMeta{1, 1, 1, 10}));
  EXPECT_EQ(r.wire_labels, (std::vector<std::uint64_t>{0, 7, 3, 9}));
  EXPECT_EQ(r.A.row_ptr, (std::vector<std::uint64_t>{0, 1, 3, 4}));
  EXPECT_EQ(r.A.cols, (std::vector<std::uint32_t>{2, 1, 0, 3}));
  EXPECT_EQ(r.A.vals[2], F::from_u64(5));
  EXPECT_EQ(r.A.vals[3], -F::one());  // stored canonical r-1 -> Montgomery -1
  EXPECT_EQ(r.C.vals[3], -F::one());
  EXPECT_NO_THROW(r.validate());
  auto w = small_witness<F>(6, 7);
  EXPECT_FALSE(check(r, std::span<const F>(w)).has_value());
  w[1] += F::one();
  auto u = check(r, std::span<const F>(w));
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->index, 0u);
  // Sections in reverse order parse to the same system.
  raw.reverse_order = true;
  EXPECT_EQ(read_r1cs<F>(raw.bytes()), r);
  // Section 3 is optional; load_labels = false skips it.
  raw.omit_map = true;
  EXPECT_TRUE(read_r1cs<F>(raw.bytes()).wire_labels.empty());
  raw.omit_map = false;
  EXPECT_TRUE(read_r1cs<F>(raw.bytes(), R1csReadOptions{.load_labels = false}).wire_labels.empty());
}

TYPED_TEST(CircomFormat, WriterMatchesHandAssembled) {
  using F = TypeParam;
  auto raw = small_raw<F>();
  const auto r = read_r1cs<F>(raw.bytes());
  EXPECT_EQ(write_r1cs(r), raw.bytes());
  RawWtns rw;
  rw.prime = F::kModulus;
  for (auto& x : small_witness<F>(6, 7)) rw.values.push_back(canon(x));
  EXPECT_EQ(write_wtns(small_witness<F>(6, 7)), rw.bytes());
  EXPECT_EQ(read_wtns<F>(rw.bytes()), small_witness<F>(6, 7));
}

TYPED_TEST(CircomFormat, RandomRoundTrips) {
  using F = TypeParam;
  std::mt19937_64 rng(11);
  for (int t = 0; t < 5; ++t) {
    auto s = random_system<F>(rng, 3 + static_cast<std::uint32_t>(rng() % 60), 1, static_cast<std::uint32_t>(rng() % 80), 5);
    s.r1cs.circom = CircomMeta{1, 0, 1, 1000};
    for (std::uint32_t j = 0; j < s.r1cs.num_vars; ++j) s.r1cs.wire_labels.push_back(rng() % 1000);
    const auto bytes = write_r1cs(s.r1cs);
    EXPECT_EQ(read_r1cs<F>(bytes), s.r1cs);
    EXPECT_EQ(read_wtns<F>(write_wtns(s.w)), s.w);
  }
  // Without meta/labels the writer fills in defaults.
  auto s = random_system<F>(rng, 10, 3, 5, 3, /*with_names=*/true);
  auto back = read_r1cs<F>(write_r1cs(s.r1cs));
  EXPECT_EQ(*back.circom, (CircomMeta{0, 3, 0, 10}));
  EXPECT_EQ(back.wire_labels.size(), 10u);
  EXPECT_EQ(back.wire_labels[9], 9u);
  EXPECT_TRUE(back.constraint_names.empty());  // names are not part of the .r1cs format
  back.circom.reset();
  back.wire_labels.clear();
  s.r1cs.constraint_names.clear();
  EXPECT_EQ(back, s.r1cs);
  // Files on disk (mmap path).
  const cuzk::test::ScratchDir dir("circom");
  const auto p = dir / "a.r1cs";
  write_r1cs_file(p, s.r1cs);
  EXPECT_EQ(read_r1cs_file<F>(p).A, s.r1cs.A);
  write_wtns_file(p, std::span<const F>(s.w));
  EXPECT_EQ(read_wtns_file<F>(p), s.w);
  EXPECT_DECODE_ERROR(read_r1cs_file<F>(p), p.string() + ": r1cs file, offset 0: bad magic 'wtns'");
}

TEST(CircomFormat, WrongPrimeAndCurveDetection) {
  const auto bn_r1cs = small_raw<BnFr>().bytes();
  const auto bls_r1cs = small_raw<BlsFr>().bytes();
  EXPECT_EQ(detect_r1cs_curve(bn_r1cs), Curve::bn254);
  EXPECT_EQ(detect_r1cs_curve(bls_r1cs), Curve::bls12_381);
  EXPECT_DECODE_ERROR(read_r1cs<BlsFr>(bn_r1cs), "r1cs file, section 1, offset 24: this .r1cs is for bn128 but the "
                                                 "BLS12-381 scalar field was requested");
  EXPECT_DECODE_ERROR(read_r1cs<BnFr>(bls_r1cs),
                      "this .r1cs is for bls12381 but the BN254 (bn128) scalar field was requested");
  const auto bn_w = write_wtns(small_witness<BnFr>(2, 3));
  const auto bls_w = write_wtns(small_witness<BlsFr>(2, 3));
  EXPECT_EQ(detect_wtns_curve(bn_w), Curve::bn254);
  EXPECT_EQ(detect_wtns_curve(bls_w), Curve::bls12_381);
  EXPECT_DECODE_ERROR(read_wtns<BnFr>(bls_w), "this .wtns is for bls12381 but the BN254 (bn128) scalar field");
  // An unknown prime (r + 2).
  auto raw = small_raw<BnFr>();
  raw.prime[0] += 2;
  EXPECT_DECODE_ERROR(detect_r1cs_curve(raw.bytes()), "unknown prime 0x30644e72e131a029");
  EXPECT_DECODE_ERROR(read_r1cs<BnFr>(raw.bytes()), "is for an unknown prime");
  // The Fq of BN254 is not a scalar field.
  raw.prime = ff::bn254::Fq::kModulus;
  EXPECT_DECODE_ERROR(detect_r1cs_curve(raw.bytes()), "neither the BN254 nor the BLS12-381 scalar field");
  EXPECT_EQ(curve_of_scalar_field<BnFr>(), Curve::bn254);
  EXPECT_EQ(curve_of_scalar_field<BlsFr>(), Curve::bls12_381);
  EXPECT_FALSE(curve_of_scalar_field<ff::bn254::Fq>().has_value());
  EXPECT_EQ(curve_snarkjs_name(Curve::bls12_381), "bls12381");
}

TEST(CircomFormat, CurveNamesInEverySpellingAndBack) {
  for (const char* n : {"bn254", "bn128", "alt_bn128"}) EXPECT_EQ(parse_curve_name(n), Curve::bn254) << n;
  for (const char* n : {"bls12_381", "bls12381", "bls12-381"}) EXPECT_EQ(parse_curve_name(n), Curve::bls12_381) << n;
  for (const char* n : {"", "BN254", "bls12_377", "bn254 ", "secp256k1"}) EXPECT_FALSE(parse_curve_name(n)) << n;
  for (Curve c : {Curve::bn254, Curve::bls12_381}) {
    EXPECT_EQ(parse_curve_name(curve_name(c)), c);
    EXPECT_EQ(parse_curve_name(curve_snarkjs_name(c)), c);
  }
  EXPECT_EQ(curve_name(Curve::bn254), "bn254");  // the config's and the API's spelling
  EXPECT_EQ(curve_name(Curve::bls12_381), "bls12_381");
}

TYPED_TEST(CircomFormat, R1csValidationErrors) {
  using F = TypeParam;
  const Limbs4 one{1, 0, 0, 0};
  {
    auto raw = small_raw<F>();
    raw.constraints[1][2][0].first = 4;  // wire id == nWires
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "section 2, offset");
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "wire id 4 out of range (nWires = 4)");
  }
  {
    auto raw = small_raw<F>();
    raw.constraints[0][1][0].second = F::kModulus;  // coefficient == r
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "coefficient is not canonical");
    auto big = F::kModulus;
    big[3] = ~0ull;
    raw.constraints[0][1][0].second = big;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "coefficient is not canonical");
  }
  {
    auto raw = small_raw<F>();
    raw.n_prv = 2;  // 1 + 1 + 2 == nWires
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "nOutputs + nPubInputs + nPrvInputs = 4 must be < nWires = 4");
    raw.n_prv = 0xffffffffu;  // would overflow u32
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "must be < nWires");
  }
  {
    auto raw = small_raw<F>();
    raw.n_constraints = 4;  // one more than present
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "truncated");
    raw.n_constraints = 1000000;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "nConstraints = 1000000 needs at least");
    raw.n_constraints = 2;  // one fewer
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "trailing bytes");
  }
  {
    auto raw = small_raw<F>();
    raw.constraints[0][0] = RawLc(3, {1, one});
    auto b = raw.bytes();
    // Claim 2^31 terms in the first LC: the reader must not try to reserve or read them.
    const std::size_t lc0 = 12 + 12 + (4 + 32 + 4 * 4 + 8 + 4) + 12;
    b[lc0 + 3] = 0x80;
    EXPECT_DECODE_ERROR(read_r1cs<F>(b), "terms overruns the section");
  }
  {
    auto raw = small_raw<F>();
    raw.map = std::vector<std::uint64_t>{0, 1, 2};
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "wire-to-label map has 24 bytes, expected 8 * nWires = 32");
  }
  {
    auto raw = small_raw<F>();
    raw.custom_gates = true;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "custom gates");
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "Groth16");
  }
  {
    auto raw = small_raw<F>();
    raw.n8 = 48;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "(n8 = 48) but");
    raw.n8 = 33;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "invalid field element size n8 = 33");
    raw.n8 = 0;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "invalid field element size n8 = 0");
  }
  {
    auto raw = small_raw<F>();
    raw.version = 2;
    EXPECT_DECODE_ERROR(read_r1cs<F>(raw.bytes()), "r1cs file, offset 4: unsupported version 2");
    auto b = small_raw<F>().bytes();
    b[1] = 'X';
    EXPECT_DECODE_ERROR(read_r1cs<F>(b), "bad magic 'rXcs', expected 'r1cs'");
    // A .wtns handed to the .r1cs reader.
    EXPECT_DECODE_ERROR(read_r1cs<F>(write_wtns(small_witness<F>(1, 1))), "bad magic 'wtns'");
  }
  {
    auto secs = small_raw<F>().sections();
    secs.push_back(secs[0]);  // duplicate header
    EXPECT_DECODE_ERROR(read_r1cs<F>(container("r1cs", 1, secs)), "duplicate section id 1");
    secs.pop_back();
    secs.erase(secs.begin() + 1);  // no constraints section
    EXPECT_DECODE_ERROR(read_r1cs<F>(container("r1cs", 1, secs)), "missing section 2");
    secs[0].data.push_back(0);  // header one byte too long
    EXPECT_DECODE_ERROR(read_r1cs<F>(container("r1cs", 1, secs)), "section 1, offset 88: section has 1 unexpected trailing bytes");
  }
}

TYPED_TEST(CircomFormat, WtnsValidationErrors) {
  using F = TypeParam;
  RawWtns rw;
  rw.prime = F::kModulus;
  for (auto& x : small_witness<F>(6, 7)) rw.values.push_back(canon(x));
  EXPECT_EQ(read_wtns<F>(rw.bytes()), small_witness<F>(6, 7));
  {
    auto b = rw;
    b.values[0] = Limbs4{2, 0, 0, 0};
    EXPECT_DECODE_ERROR(read_wtns<F>(b.bytes()), "w[0] must be 1");
  }
  {
    auto b = rw;
    b.values[2] = F::kModulus;
    EXPECT_DECODE_ERROR(read_wtns<F>(b.bytes()), "wtns file, section 2, offset 140: witness value is not canonical");
  }
  {
    auto b = rw;
    b.n_witness = 5;
    EXPECT_DECODE_ERROR(read_wtns<F>(b.bytes()), "witness section has 128 bytes, expected nWitness * n8 = 160");
    b.n_witness = 0;
    EXPECT_DECODE_ERROR(read_wtns<F>(b.bytes()), "nWitness must be >= 1");
  }
  {
    auto b = rw;
    b.version = 1;
    EXPECT_DECODE_ERROR(read_wtns<F>(b.bytes()), "unsupported version 1 (supported: 2)");
  }
  EXPECT_THROW(write_wtns(std::vector<F>{}), std::invalid_argument);
}

TYPED_TEST(CircomFormat, WriterRejectsInvalid) {
  using F = TypeParam;
  auto r = read_r1cs<F>(small_raw<F>().bytes());
  r.circom->num_prv_inputs = 2;  // 1 + 1 + 2 == num_vars
  EXPECT_THROW(write_r1cs(r), std::invalid_argument);
  r.circom.reset();
  r.A.cols[0] = 17;
  EXPECT_THROW(write_r1cs(r), std::invalid_argument);
}

}  // namespace
