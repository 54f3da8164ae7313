// snarkjs point forms: LEM bytes (.zkey/.ptau) and JSON strings, against ffjavascript's own
// output (gen_curves.mjs "snarkjs" section) and GMP, plus every decode error path.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/serialize_lem.hpp"
#include "cuzk/ec/serialize_snarkjs.hpp"
#include "ec_test_util.hpp"

namespace {
using namespace cuzk::ec;
using namespace cuzk::ec::test;
using Bytes = std::vector<std::uint8_t>;

template <class C>
class SnarkjsFormatTest : public ::testing::Test {};
TYPED_TEST_SUITE(SnarkjsFormatTest, AllCurves, CurveNames);

// "bn254_g2" -> oracle().snarkjs.bn254.g2
template <class C>
const nlohmann::json& snarkjs_rows() {
  static const nlohmann::json j = cuzk::test::load_oracle("curves.json").at("snarkjs");
  const std::string name = C::kName;
  const auto us = name.rfind('_');
  return j.at(name.substr(0, us)).at(name.substr(us + 1));
}

template <class C>
void expect_error(const auto& fn, const std::string& needle, const char* what) {
  try {
    fn();
    ADD_FAILURE() << what << ": no error";
  } catch (const cuzk::DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << what << ": message \"" << e.what() << "\" lacks \"" << needle << "\"";
  }
}

// x * 2^(8*n) mod q as n little-endian bytes, by GMP from the decimal value.
template <class Fq>
Bytes gmp_lem(const Fq& x) {
  constexpr std::size_t n = Fq::kBytes;
  mpz_class v(x.to_decimal()), q(Fq(-Fq::one()).to_decimal());
  q += 1;
  mpz_class r = (v << (8 * n)) % q;
  Bytes out(n, 0);
  std::size_t count = 0;
  mpz_export(out.data(), &count, -1, 1, 0, 0, r.get_mpz_t());
  return out;
}
template <class F>
Bytes gmp_lem_coord(const F& v) {
  if constexpr (detail::QuadraticExt<F>) {
    Bytes a = gmp_lem(v.c0), b = gmp_lem(v.c1);
    a.insert(a.end(), b.begin(), b.end());
    return a;
  } else {
    return gmp_lem(v);
  }
}

TYPED_TEST(SnarkjsFormatTest, LemMatchesFfjavascriptAndGmp) {
  using C = TypeParam;
  const nlohmann::json& rows = snarkjs_rows<C>();
  ASSERT_GE(rows.size(), 4u);
  for (const nlohmann::json& row : rows) {
    const Affine<C> p = Jacobian<C>::generator().mul(parse_limbs(row.at("k"))).to_affine();
    const Bytes want = cuzk::test::parse_hex_bytes(row.at("lem").get<std::string>());
    const Bytes got = lem::write(p);
    EXPECT_EQ(got, want) << row.at("k");
    EXPECT_EQ(lem::read<C>(want, lem::Check::kSubgroup), p);
    Bytes g = gmp_lem_coord(p.x), gy = gmp_lem_coord(p.y);
    g.insert(g.end(), gy.begin(), gy.end());
    if (!p.is_infinity()) {
      EXPECT_EQ(got, g);
    }
    // The in-memory image of Affine<C> is the LEM layout (little-endian host).
    static_assert(sizeof(Affine<C>) == lem::kPointSize<C>);
    EXPECT_EQ(std::memcmp(&p, got.data(), got.size()), 0);
  }
}

TYPED_TEST(SnarkjsFormatTest, LemErrors) {
  using C = TypeParam;
  constexpr std::size_t s = lem::kPointSize<C>;
  const Bytes good = lem::write(C::generator());
  expect_error<C>([&] { lem::read<C>(Bytes(good.begin(), good.end() - 1)); }, "wrong length", "short");
  expect_error<C>([&] { lem::read<C>(Bytes(s + 1)); }, "wrong length", "long");
  // Non-canonical Montgomery limbs in each coordinate word.
  const std::size_t nq = s / (2 * detail::kDegree<typename C::Base>);
  for (std::size_t part = 0; part < s / nq; ++part) {
    Bytes b = good;
    std::fill(b.begin() + static_cast<long>(part * nq), b.begin() + static_cast<long>((part + 1) * nq), 0xff);
    expect_error<C>([&] { lem::read<C>(b, lem::Check::kNone); }, "not a canonical residue", "limbs >= q");
  }
  // Off the curve: y + 1.
  Affine<C> off{C::generator().x, C::generator().y + C::Base::one()};
  const Bytes ob = lem::write(off);
  expect_error<C>([&] { lem::read<C>(ob); }, "not on the curve", "off curve");
  EXPECT_EQ(lem::read<C>(ob, lem::Check::kNone), off);  // trusted mode takes it as is
  // Outside the subgroup.
  std::mt19937_64 g(21);
  const Affine<C> q = random_curve_point<C>(g);
  if constexpr (kHasCofactor<C>) {
    expect_error<C>([&] { lem::read<C>(lem::write(q), lem::Check::kSubgroup); }, "not in the prime-order subgroup",
                    "subgroup");
  }
  EXPECT_EQ(lem::read<C>(lem::write(q), lem::Check::kOnCurve), q);
  // Infinity is all zero both ways.
  EXPECT_EQ(lem::write(Affine<C>::infinity()), Bytes(s, 0));
  EXPECT_TRUE(lem::read<C>(Bytes(s, 0), lem::Check::kSubgroup).is_infinity());
  // Arrays.
  std::vector<Affine<C>> pts{C::generator(), Affine<C>::infinity(), -C::generator()};
  Bytes arr(pts.size() * s);
  lem::write_many<C>(pts, arr);
  std::vector<Affine<C>> back(pts.size());
  lem::read_many<C>(arr, back);
  EXPECT_EQ(back, pts);
  expect_error<C>([&] { lem::read_many<C>(std::span<const std::uint8_t>(arr).subspan(1), std::span<Affine<C>>(back)); },
                  "is not", "array size");
}

TYPED_TEST(SnarkjsFormatTest, JsonMatchesFfjavascript) {
  using C = TypeParam;
  const nlohmann::json& rows = snarkjs_rows<C>();
  for (const nlohmann::json& row : rows) {
    const Affine<C> p = Jacobian<C>::generator().mul(parse_limbs(row.at("k"))).to_affine();
    const snarkjs::Strings<C> want = row.at("json").get<snarkjs::Strings<C>>();
    EXPECT_EQ(snarkjs::to_strings(p), want) << row.at("k");
    EXPECT_EQ(snarkjs::from_strings<C>(want), p);
    const std::string text = row.at("json").dump();  // ffjavascript's object as JSON text
    EXPECT_EQ(snarkjs::from_json<C>(text), p);
    EXPECT_EQ(nlohmann::json::parse(snarkjs::to_json(p)), row.at("json"));
  }
}

TYPED_TEST(SnarkjsFormatTest, JsonForms) {
  using C = TypeParam;
  using Base = typename C::Base;
  std::mt19937_64 g(22);
  const Jacobian<C> pj = random_point<C>(g);
  const Affine<C> p = pj.to_affine();
  EXPECT_EQ(snarkjs::from_json<C>(" \n" + snarkjs::to_json(p) + "\t"), p);  // whitespace
  // Jacobian z (ffjavascript fromObject accepts projective coordinates).
  const Base l = Base::random(g);
  const Jacobian<C> scaled{p.x * l.square(), p.y * l.square() * l, l};
  snarkjs::Strings<C> s = snarkjs::to_strings(p);
  const auto sx = snarkjs::to_strings(Affine<C>{scaled.X, scaled.Y});
  s[0] = sx[0];
  s[1] = sx[1];
  s[2] = snarkjs::to_strings(Affine<C>{l, Base::zero()})[0];
  EXPECT_EQ(snarkjs::from_strings<C>(s), p);
  // Two-coordinate form [x, y].
  const auto j2 = nlohmann::json::parse(snarkjs::to_json(p));
  EXPECT_EQ(snarkjs::from_json<C>(nlohmann::json::array({j2[0], j2[1]}).dump()), p);
}

TYPED_TEST(SnarkjsFormatTest, JsonErrors) {
  using C = TypeParam;
  constexpr bool kG2 = detail::QuadraticExt<typename C::Base>;
  auto j = nlohmann::json::parse(snarkjs::to_json(C::generator()));
  auto with = [&](auto mutate) {
    auto k = j;
    mutate(k);
    return k.dump();
  };
  const std::string p_dec = [] {
    using Fq = detail::PrimeOfT<typename C::Base>;
    mpz_class q(Fq(-Fq::one()).to_decimal());
    return mpz_class(q + 1).get_str();
  }();
  expect_error<C>([&] { snarkjs::from_json<C>("[\"1\",\"2\""); }, "unexpected end", "truncated");
  expect_error<C>([&] { snarkjs::from_json<C>("{\"x\":1}"); }, "expected '['", "object");
  expect_error<C>([&] { snarkjs::from_json<C>("[1,2,3]"); }, "expected '['", "numbers, not strings");
  expect_error<C>([&] { snarkjs::from_json<C>(j.dump() + "x"); }, "trailing", "trailing");
  expect_error<C>([&] { snarkjs::from_json<C>("[\"1\"]"); }, "array of 3", "one coordinate");
  if constexpr (kG2) {
    expect_error<C>([&] { snarkjs::from_json<C>(with([](auto& k) { k[0] = "1"; })); }, "array of two strings",
                    "G2 coordinate as a string");
    expect_error<C>([&] { snarkjs::from_json<C>(with([&](auto& k) { k[0][1] = p_dec; })); }, "not a canonical",
                    "x.c1 = q");
    expect_error<C>([&] { snarkjs::from_json<C>(with([](auto& k) { k[1][0] = "12a"; })); }, "not a canonical",
                    "bad digit");
  } else {
    expect_error<C>([&] { snarkjs::from_json<C>(with([](auto& k) { k[0] = nlohmann::json::array({"1", "2"}); })); },
                    "must be a string", "G1 coordinate as an array");
    expect_error<C>([&] { snarkjs::from_json<C>(with([&](auto& k) { k[0] = p_dec; })); }, "not a canonical", "x = q");
    expect_error<C>([&] { snarkjs::from_json<C>(with([](auto& k) { k[1] = "-5"; })); }, "not a canonical", "negative");
  }
  Affine<C> off{C::generator().x, C::generator().y + C::Base::one()};
  expect_error<C>([&] { snarkjs::from_json<C>(snarkjs::to_json(off)); }, "not on the curve", "off curve");
  std::mt19937_64 g(23);
  const Affine<C> q = random_curve_point<C>(g);
  if constexpr (kHasCofactor<C>) {
    expect_error<C>([&] { snarkjs::from_json<C>(snarkjs::to_json(q)); }, "not in the prime-order subgroup",
                    "subgroup");
  }
  EXPECT_EQ(snarkjs::from_json<C>(snarkjs::to_json(q), /*check_subgroup=*/false), q);
  // Infinity, as ffjavascript writes it.
  const std::string inf = kG2 ? R"([["0","0"],["1","0"],["0","0"]])" : R"(["0","1","0"])";
  EXPECT_EQ(snarkjs::to_json(Affine<C>::infinity()), inf);
  EXPECT_TRUE(snarkjs::from_json<C>(inf).is_infinity());
}

}  // namespace
