// The iden3 binfile container: writer/reader round trip, section index, every error path.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/io/binfile.hpp"
#include "support/decode_error.hpp"
#include "support/scratch_dir.hpp"

namespace {
using cuzk::test::decode_error_of;

using namespace cuzk;
using namespace cuzk::io;

constexpr BinFileOptions kTest{"test", 1, 2, false};

// Hand-assembled bytes (independent of BinWriter) for a file with sections 7 then 3.
std::vector<std::uint8_t> handmade() {
  std::vector<std::uint8_t> b{'t', 'e', 's', 't', 2, 0, 0, 0, 2, 0, 0, 0};
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i))); };
  auto u64 = [&](std::uint64_t v) { for (int i = 0; i < 8; ++i) b.push_back(std::uint8_t(v >> (8 * i))); };
  u32(7);
  u64(12);
  u32(0xdeadbeef);
  u64(0x0102030405060708ull);
  u32(3);
  u64(0);
  return b;
}

TEST(BinFile, ReadsHandmadeFileAnyOrder) {
  auto bytes = handmade();
  auto f = BinFile::parse(bytes, kTest);
  EXPECT_EQ(f.kind(), "test");
  EXPECT_EQ(f.version(), 2u);
  ASSERT_EQ(f.sections().size(), 2u);
  EXPECT_EQ(f.sections()[0].id, 7u);
  EXPECT_EQ(f.sections()[0].offset, 24u);
  EXPECT_EQ(f.section(3).size, 0u);
  EXPECT_FALSE(f.has(1));
  auto r = f.reader(7);
  EXPECT_EQ(r.u32(), 0xdeadbeefu);
  EXPECT_EQ(r.u64(), 0x0102030405060708ull);
  EXPECT_TRUE(r.at_end());
  EXPECT_NO_THROW(r.expect_end());
  EXPECT_NE(decode_error_of([&] { r.u32(); }).find("test file, section 7, offset 36: truncated"), std::string::npos)
      << decode_error_of([&] { r.u32(); });
  EXPECT_NE(decode_error_of([&] { f.section(1); }).find("missing section 1"), std::string::npos);
}

TEST(BinFile, WriterMatchesHandmade) {
  BinWriter w("test", 2, 2);
  w.begin_section(7);
  w.u32(0xdeadbeef);
  w.u64(0x0102030405060708ull);
  w.end_section();
  w.begin_section(3);
  w.end_section();
  EXPECT_EQ(std::move(w).finish(), handmade());
}

TEST(BinFile, WriterMisuse) {
  BinWriter w("test", 1, 1);
  EXPECT_THROW(w.end_section(), std::logic_error);
  w.begin_section(1);
  EXPECT_THROW(w.begin_section(2), std::logic_error);
  w.end_section();
  EXPECT_THROW(w.begin_section(2), std::logic_error);
  BinWriter w2("test", 1, 2);
  w2.begin_section(1);
  w2.end_section();
  EXPECT_THROW(std::move(w2).finish(), std::logic_error);
  EXPECT_THROW(BinWriter("toolong", 1, 0), std::invalid_argument);
}

TEST(BinFile, HeaderErrors) {
  auto good = handmade();
  auto bad = good;
  bad[0] = 'x';
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("bad magic 'xest'"), std::string::npos);
  bad = good;
  bad[4] = 3;  // version 3 > max 2
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("unsupported version 3"), std::string::npos);
  bad[4] = 0;
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("unsupported version 0"), std::string::npos);
  bad = good;
  bad[8] = 200;  // more sections than bytes
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("section count"), std::string::npos);
  bad = good;
  bad[8] = 3;  // one more section record than present
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("truncated"), std::string::npos);
  bad = good;
  bad[16] = 100;  // section 7 claims 100 bytes
  const auto msg = decode_error_of([&] { BinFile::parse(bad, kTest); });
  EXPECT_NE(msg.find("section 7, offset 12"), std::string::npos) << msg;
  EXPECT_NE(msg.find("overruns"), std::string::npos) << msg;
  bad = good;
  bad.push_back(0);
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("trailing"), std::string::npos);
  bad = good;
  bad[36] = 7;  // second section id 3 -> 7: duplicate
  EXPECT_NE(decode_error_of([&] { BinFile::parse(bad, kTest); }).find("duplicate section id 7"), std::string::npos);
  BinFileOptions dup = kTest;
  dup.allow_duplicate_sections = true;
  auto f = BinFile::parse(bad, dup);
  EXPECT_EQ(f.find_all(7).size(), 2u);
  EXPECT_EQ(f.find(7)->size, 12u);
  for (std::size_t n = 0; n < good.size(); ++n) {
    std::span<const std::uint8_t> prefix(good.data(), n);
    EXPECT_THROW(BinFile::parse(prefix, kTest), DecodeError) << "prefix " << n;
  }
}

TEST(BinFile, FieldReaders) {
  using F = ff::bn254::Fr;
  std::mt19937_64 rng(5);
  const F x = F::random(rng);
  BinWriter w("test", 1, 1);
  w.begin_section(1);
  w.field_std(x);
  w.field_mont(x);
  w.limbs_le(F::kModulus, 32);  // non-canonical (== r) in both encodings
  w.limbs_le(F::kModulus, 32);
  w.end_section();
  auto bytes = std::move(w).finish();
  // Independent check of the standard-form bytes: they are x.to_bytes_le().
  const auto le = x.to_bytes_le();
  EXPECT_TRUE(std::equal(le.begin(), le.end(), bytes.begin() + 24));
  auto f = BinFile::parse(bytes, kTest);
  auto r = f.reader(1);
  EXPECT_EQ(r.field_std<F>(), x);
  EXPECT_EQ(r.field_mont<F>(), x);
  auto m1 = decode_error_of([&] { r.field_std<F>("coefficient"); });
  EXPECT_NE(m1.find("section 1, offset 88: coefficient is not canonical"), std::string::npos) << m1;
  auto r2 = f.reader(1);
  r2.skip(96);
  EXPECT_NE(decode_error_of([&] { r2.field_mont<F>(); }).find(">= modulus"), std::string::npos);
  auto r3 = f.reader(1);
  EXPECT_THROW(r3.skip(200), DecodeError);
  EXPECT_THROW(r3.limbs_le<4>(33), DecodeError);
}

TEST(MappedFile, OpenReadMoveAndErrors) {
  const cuzk::test::ScratchDir dir("binfile");
  const auto p = dir / "a.test";
  write_file_bytes(p, handmade());
  {
    MappedFile m = MappedFile::open(p);
    EXPECT_EQ(m.size(), handmade().size());
    MappedFile m2 = std::move(m);
    EXPECT_EQ(m.size(), 0u);
    EXPECT_TRUE(std::equal(m2.bytes().begin(), m2.bytes().end(), handmade().begin()));
    auto f = BinFile::open(p, kTest);
    BinFile g = std::move(f);  // the mapping moves with the BinFile
    EXPECT_EQ(g.reader(7).u32(), 0xdeadbeefu);
  }
  EXPECT_EQ(read_file_bytes(p), handmade());
  const auto empty = dir / "empty.test";
  write_file_bytes(empty, {});
  EXPECT_EQ(MappedFile::open(empty).size(), 0u);
  EXPECT_NE(decode_error_of([&] { BinFile::open(empty, kTest); }).find(empty.string()), std::string::npos);
  EXPECT_THROW(MappedFile::open(dir / "missing"), std::system_error);
  EXPECT_THROW(MappedFile::open(dir.path()), std::system_error);
}

TEST(MappedFile, HintsKeepBytesAndReplacementIsSeen) {
  const cuzk::test::ScratchDir dir("binfile-r");
  const auto p = dir / "a.test";
  write_file_bytes(p, handmade());
  MappedFile m = MappedFile::open(p);
  EXPECT_TRUE(m.same_as_on_disk());
  m.drop_pages();  // the bytes come back from the page cache / file
  m.prefetch();
  EXPECT_TRUE(std::equal(m.bytes().begin(), m.bytes().end(), handmade().begin()));
  // A new file renamed over the path (how the key cache is rewritten) is another file.
  const auto tmp = dir / "a.tmp";
  write_file_bytes(tmp, handmade());
  std::filesystem::rename(tmp, p);
  EXPECT_FALSE(m.same_as_on_disk());
  EXPECT_TRUE(std::equal(m.bytes().begin(), m.bytes().end(), handmade().begin()));  // old mapping intact
  EXPECT_TRUE(MappedFile::open(p).same_as_on_disk());
  std::filesystem::remove(p);
  EXPECT_FALSE(m.same_as_on_disk());
}

TEST(BinFile, FromBufferOwns) {
  auto f = BinFile::from_buffer(handmade(), kTest);
  BinFile g = std::move(f);
  EXPECT_EQ(g.reader(7).u64(), 0xdeadbeefull | (0x05060708ull << 32));
}

}  // namespace
