// bellperson BLS12-381 formats (.vk, .params, 192-byte proof): round trips on random keys, the
// layout checked independently (offsets and big-endian counts, zcash bytes from the ec layer's
// encoder), malformed inputs, and a parser fuzz.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cuzk/groth16/bellperson_io.hpp"
#include "fuzz.hpp"
#include "key_compare.hpp"
#include "random_key.hpp"
#include "support/scratch_dir.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::groth16;
using E = Bls12_381;
using G1C = E::G1Curve;
using G2C = E::G2Curve;

ProvingKey<E> small_params_key(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return test::random_key<E>(6, 2, 8, rng, /*z_divided=*/true);
}

std::uint32_t be32(std::span<const std::uint8_t> b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

TEST(BellpersonIo, VkLayoutAndRoundTrip) {
  const auto pk = small_params_key(31);
  const auto b = write_bellperson_vk(pk.vk);
  ASSERT_EQ(b.size(), 96 * 3 + 192 * 3 + 4 + 96 * 3);
  EXPECT_EQ(std::vector<std::uint8_t>(b.begin(), b.begin() + 96), ec::zcash::encode(pk.vk.alpha_g1, false));
  EXPECT_EQ(std::vector<std::uint8_t>(b.begin() + 96 + 96 + 192, b.begin() + 96 + 96 + 384),
            ec::zcash::encode(pk.vk.gamma_g2, false));
  EXPECT_EQ(be32(b, 96 * 3 + 192 * 3), 3u);
  EXPECT_TRUE(read_bellperson_vk(b) == pk.vk);
  auto t = b;
  t.push_back(0);
  EXPECT_THROW(read_bellperson_vk(t), DecodeError);
  // A degenerate key (delta at infinity: forged proofs would verify) is refused, naming why.
  auto degenerate = pk.vk;
  degenerate.delta_g2 = Bls12_381::G2Affine::infinity();
  try {
    (void)read_bellperson_vk(write_bellperson_vk(degenerate));
    ADD_FAILURE() << "a .vk with delta_g2 at infinity was read";
  } catch (const DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("vk_delta_2 is the point at infinity"), std::string::npos) << e.what();
  }
}

TEST(BellpersonIo, ParamsRoundTrip) {
  const auto pk = small_params_key(32);
  const auto b = write_bellperson_params(pk);
  const auto back = read_bellperson_params(b);
  test::expect_same_key(test::drop_infinity_ab(pk), back);
  EXPECT_EQ(back.num_vars, 6u);
  EXPECT_EQ(back.domain_size, 8u);
  EXPECT_EQ(back.a_query.size(), 4u);  // random_key put infinity at indices 1 and 4
  EXPECT_EQ(write_bellperson_params(back), b);
  // The h count follows the vk.
  const std::size_t vk_size = write_bellperson_vk(pk.vk).size();
  EXPECT_EQ(be32(b, vk_size), 7u);
  EXPECT_EQ(be32(b, vk_size + 4 + 7 * 96), 3u);  // l: num_vars - num_public - 1

  const test::ScratchDir dir("bellperson");
  const auto path = dir / "k.params";
  io::write_file_bytes(path, b);
  const auto mapped = read_bellperson_params_file(path, BellpersonCheck::kUnchecked);
  test::expect_same_key(back, mapped);

  auto snark = pk;
  snark.h_convention = HConvention::kOddCoset;
  EXPECT_THROW(write_bellperson_params(snark), std::invalid_argument);
  auto inf = pk;
  inf.l_query[0] = E::G1Affine::infinity();
  EXPECT_THROW(write_bellperson_params(inf), std::invalid_argument);
}

TEST(BellpersonIo, ParamsMalformed) {
  const auto pk = small_params_key(33);
  auto b = write_bellperson_params(pk);
  const std::size_t h_at = write_bellperson_vk(pk.vk).size() + 4;
  auto msg = [](std::span<const std::uint8_t> x, BellpersonCheck c = BellpersonCheck::kFull) -> std::string {
    try {
      (void)read_bellperson_params(x, c);
    } catch (const DecodeError& e) {
      return e.what();
    }
    return "(no error)";
  };
  auto off = b;
  off[h_at + 95] ^= 1;  // last byte of h[0].y
  EXPECT_NE(msg(off).find("h[0]: "), std::string::npos) << msg(off);
  EXPECT_NE(msg(off).find("not on the curve"), std::string::npos) << msg(off);
  EXPECT_EQ(msg(off, BellpersonCheck::kUnchecked), "(no error)");
  auto inf = b;
  std::fill(inf.begin() + h_at, inf.begin() + h_at + 96, 0);
  inf[h_at] = 0x40;
  EXPECT_NE(msg(inf).find("point at infinity"), std::string::npos) << msg(inf);
  auto cnt = b;
  cnt[h_at - 4] = 0x7f;
  EXPECT_NE(msg(cnt).find("h: count"), std::string::npos) << msg(cnt);
  auto comp = b;
  comp[0] |= 0x80;
  EXPECT_NE(msg(comp).find("alpha_g1"), std::string::npos) << msg(comp);
}

TEST(BellpersonIo, Proof) {
  std::mt19937_64 rng(34);
  const Proof<E> p{test::random_point<G1C>(rng), test::random_point<G2C>(rng), test::random_point<G1C>(rng)};
  const auto b = write_bellperson_proof(p);
  EXPECT_EQ(std::vector<std::uint8_t>(b.begin(), b.begin() + 48), ec::zcash::encode(p.a, true));
  EXPECT_EQ(std::vector<std::uint8_t>(b.begin() + 48, b.begin() + 144), ec::zcash::encode(p.b, true));
  EXPECT_EQ(std::vector<std::uint8_t>(b.begin() + 144, b.end()), ec::zcash::encode(p.c, true));
  EXPECT_EQ(read_bellperson_proof(b), p);
  auto inf = b;
  std::fill(inf.begin() + 144, inf.end(), 0);
  inf[144] = 0xc0;
  EXPECT_THROW(read_bellperson_proof(inf), DecodeError);
  Proof<E> q = p;
  q.b = E::G2Affine::infinity();
  EXPECT_THROW(write_bellperson_proof(q), std::invalid_argument);
  const std::vector<std::uint8_t> v(b.begin(), b.end());
  test::fuzz_truncations(v, [](auto x) { (void)read_bellperson_proof(x); });
  test::fuzz_flips(v, [](auto x) { (void)read_bellperson_proof(x); }, 1000, 35);
}

TEST(BellpersonIo, FuzzVkAndParams) {
  const auto pk = small_params_key(36);
  const auto vk = write_bellperson_vk(pk.vk);
  test::fuzz_truncations(vk, [](auto x) { (void)read_bellperson_vk(x); });
  const auto params = write_bellperson_params(pk);
  // Every length; the lengths inside the vk prefix at a stride (that prefix is the .vk format, fuzzed above).
  for (std::size_t len = 0; len < vk.size(); len += 13) {
    std::vector<std::uint8_t> t(params.begin(), params.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_THROW(read_bellperson_params(t), DecodeError) << len;
  }
  test::fuzz_truncations(params, [](auto x) { (void)read_bellperson_params(x); }, vk.size());
  test::fuzz_flips(params, [](auto x) { (void)read_bellperson_params(x); }, 1000, 37);
}

}  // namespace
