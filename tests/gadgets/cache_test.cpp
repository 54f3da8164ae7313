// On-disk CSR cache: a hit returns the R1CS that RecordCS produces, corrupt/truncated/foreign
// files are detected and rebuilt, and different shapes (or fields) never share a file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cuzk/cs/r1cs_cache.hpp"
#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/gadgets/circuits/poseidon_merkle.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "support/scratch_dir.hpp"

namespace {
using namespace cuzk;
using Fb = ff::bls12_381::Fr;
namespace fs = std::filesystem;


void expect_same(const r1cs::R1CS<Fb>& a, const r1cs::R1CS<Fb>& b) {
  EXPECT_EQ(a.num_vars, b.num_vars);
  EXPECT_EQ(a.num_public, b.num_public);
  EXPECT_EQ(a.num_constraints, b.num_constraints);
  EXPECT_TRUE(a.A == b.A);
  EXPECT_TRUE(a.B == b.B);
  EXPECT_TRUE(a.C == b.C);
}

void patch_byte(const fs::path& p, std::uint64_t at, std::uint8_t x) {
  std::fstream f(p, std::ios::binary | std::ios::in | std::ios::out);
  f.seekg(static_cast<std::streamoff>(at));
  char c;
  f.read(&c, 1);
  c = static_cast<char>(c ^ x);
  f.seekp(static_cast<std::streamoff>(at));
  f.write(&c, 1);
}

TEST(CsrCache, MissThenHitReturnsEqualR1cs) {
  const cuzk::test::ScratchDir d("cache-test");
  gadgets::circuits::PoseidonMerkle<Fb> c(2, 2, 7);
  const auto want = cs::record<Fb>(c);
  cs::CacheOutcome o1, o2;
  auto r1 = cs::cached_record<Fb>(d.path(), "poseidon-merkle/depth=2/challenges=2", c, &o1);
  EXPECT_FALSE(o1.hit);
  EXPECT_TRUE(o1.rebuilt_why.empty());
  ASSERT_TRUE(fs::exists(o1.path));
  // A different witness seed, same shape: must hit and give the same constraints.
  gadgets::circuits::PoseidonMerkle<Fb> c2(2, 2, 99);
  auto r2 = cs::cached_record<Fb>(d.path(), "poseidon-merkle/depth=2/challenges=2", c2, &o2);
  EXPECT_TRUE(o2.hit);
  expect_same(r1, want);
  expect_same(r2, want);
  // The loaded system accepts the witness and rejects a wrong one.
  auto w = cs::witness<Fb>(c2).full();
  EXPECT_FALSE(r1cs::check<Fb>(r2, w).has_value());
  w.back() += Fb::one();
  EXPECT_TRUE(r1cs::check<Fb>(r2, w).has_value());
}

TEST(CsrCache, CorruptAndTruncatedFilesAreRebuilt) {
  const cuzk::test::ScratchDir d("cache-test");
  gadgets::circuits::MulChain<Fb> c{300, 1};
  const auto want = cs::record<Fb>(c);
  const std::string id = "mul-chain/n=300";
  cs::CacheOutcome o;
  cs::cached_record<Fb>(d.path(), id, c, &o);
  const auto size = fs::file_size(o.path);
  // Flip one bit at several places (header, row_ptr, cols, dictionary, indices, trailer).
  for (std::uint64_t at : {std::uint64_t{3}, std::uint64_t{60}, size / 3, size / 2, size - 40, size - 12, size - 1}) {
    patch_byte(o.path, at, 0x10);
    EXPECT_THROW(cs::read_csr_cache<Fb>(o.path, id), DecodeError) << "flip at " << at;
    cs::CacheOutcome k;
    auto r = cs::cached_record<Fb>(d.path(), id, c, &k);
    EXPECT_FALSE(k.hit) << at;
    EXPECT_FALSE(k.rebuilt_why.empty()) << at;
    expect_same(r, want);
    cs::cached_record<Fb>(d.path(), id, c, &k);
    EXPECT_TRUE(k.hit) << "rewritten file must be valid again (" << at << ")";
  }
  // Truncation and an empty file.
  for (std::uint64_t n : {size - 1, size / 2, std::uint64_t{10}, std::uint64_t{0}}) {
    fs::resize_file(o.path, n);
    EXPECT_THROW(cs::read_csr_cache<Fb>(o.path, id), DecodeError) << n;
    cs::CacheOutcome k;
    expect_same(cs::cached_record<Fb>(d.path(), id, c, &k), want);
    EXPECT_FALSE(k.hit);
    EXPECT_FALSE(k.rebuilt_why.empty());
  }
}

TEST(CsrCache, ShapesAndFieldsDoNotCollide) {
  const cuzk::test::ScratchDir d("cache-test");
  gadgets::circuits::MulChain<Fb> a{100, 1}, b{101, 1};
  const auto pa = cs::csr_cache_path<Fb>(d.path(), "mul-chain/n=100");
  const auto pb = cs::csr_cache_path<Fb>(d.path(), "mul-chain/n=101");
  EXPECT_NE(pa, pb);
  EXPECT_NE(pa, cs::csr_cache_path<ff::bn254::Fr>(d.path(), "mul-chain/n=100"));
  // Ids that sanitize to the same stem still get different files.
  EXPECT_NE(cs::csr_cache_path<Fb>(d.path(), "x/y"), cs::csr_cache_path<Fb>(d.path(), "x_y"));
  auto ra = cs::cached_record<Fb>(d.path(), "mul-chain/n=100", a);
  auto rb = cs::cached_record<Fb>(d.path(), "mul-chain/n=101", b);
  EXPECT_EQ(ra.num_constraints + 1, rb.num_constraints);
  cs::CacheOutcome o;
  expect_same(cs::cached_record<Fb>(d.path(), "mul-chain/n=100", a, &o), cs::record<Fb>(a));
  EXPECT_TRUE(o.hit);
  // A file renamed onto another shape's path is rejected (the shape id is stored inside).
  fs::copy_file(pb, pa, fs::copy_options::overwrite_existing);
  EXPECT_THROW(cs::read_csr_cache<Fb>(pa, "mul-chain/n=100"), DecodeError);
  expect_same(cs::cached_record<Fb>(d.path(), "mul-chain/n=100", a, &o), cs::record<Fb>(a));
  EXPECT_FALSE(o.hit);
  // Another field with the same id: its own file, and reading the BLS file as BN254 fails.
  gadgets::circuits::MulChain<ff::bn254::Fr> an{100, 1};
  cs::CacheOutcome on;
  cs::cached_record<ff::bn254::Fr>(d.path(), "mul-chain/n=100", an, &on);
  EXPECT_FALSE(on.hit);
  EXPECT_THROW(cs::read_csr_cache<ff::bn254::Fr>(pa, "mul-chain/n=100"), DecodeError);
  EXPECT_THROW(cs::cached_record<Fb>(d.path(), "", a), std::invalid_argument);
}

}  // namespace
