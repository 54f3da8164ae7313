// DeviceProvingKey's VRAM figures per key layout and the layout it chooses for a budget, checked
// without a device (the figures and the choice are host arithmetic; runs in CI wherever the
// CUDA backend is built): a key's VRAM is the twiddles plus its resident parts' sizes; the
// all-resident and all-streamed layouts give the placements' figures; at every budget from the
// streamed need to past the resident one the chosen layout fits, is all resident exactly when
// that fits, and never saves fewer bytes per proof than at a smaller budget; the matrices weigh
// twice; the NTT's compact twiddle table is taken only where the full one does not fit as much.
// Both curves, both conventions, matrices with and without their value index (then 6 bytes a
// term resident, and only the value tables on the device when streamed).
#include <gtest/gtest.h>

#include <cstdint>

#include "cuzk/gpu/abc.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/groth16/key_value_index.hpp"

namespace {
using namespace cuzk;
using gpu::KeyLayout;
using gpu::KeyPart;

// A key of the shape of a 2^16 mul chain: sizes only (the points are not used).
template <class E>
groth16::ProvingKey<E> key_of_shape(std::size_t log_n, groth16::HConvention conv) {
  using Fr = typename E::Fr;
  groth16::ProvingKey<E> pk;
  const std::size_t n = std::size_t{1} << log_n, nv = n - 3;
  pk.h_convention = conv;
  pk.num_vars = nv;
  pk.domain_size = n;
  pk.vk.ic.resize(2);
  pk.a_query.resize(nv), pk.b_g1_query.resize(nv), pk.b_g2_query.resize(nv);
  pk.l_query.resize(nv - 2);
  pk.h_query.resize(conv == groth16::HConvention::kZDivided ? n - 1 : n);
  for (auto* m : {&pk.a, &pk.b, &pk.c}) {
    m->num_cols = static_cast<std::uint32_t>(nv);
    for (std::size_t i = 0; i + 3 < n; ++i) m->push_term(static_cast<std::uint32_t>(i % nv), Fr::one()), m->end_row();
  }
  pk.c_stored = true;
  return pk;
}

template <class E>
class LayoutChoiceTest : public ::testing::Test {};
using Engines = ::testing::Types<groth16::Bls12_381, groth16::Bn254>;
TYPED_TEST_SUITE(LayoutChoiceTest, Engines);

TYPED_TEST(LayoutChoiceTest, FiguresPerLayoutAndTheChoiceForEachBudget) {
  using E = TypeParam;
  using Key = gpu::DeviceProvingKey<E>;
  using Fr = typename E::Fr;
  for (bool indexed : {false, true})
  for (groth16::HConvention conv : {groth16::HConvention::kZDivided, groth16::HConvention::kOddCoset}) {
    SCOPED_TRACE(conv == groth16::HConvention::kOddCoset ? "odd coset" : "z divided");
    SCOPED_TRACE(indexed ? "value index" : "values");
    groth16::ProvingKey<E> pk = key_of_shape<E>(16, conv);
    if (indexed) {
      ASSERT_EQ(groth16::index_key_values(pk), 3);
    }
    const std::size_t chunk = std::size_t{1} << 12;
    const std::size_t g1 = sizeof(typename E::G1Affine);
    using Csr = gpu::DeviceCsr<Fr>;
    const bool with_c = conv == groth16::HConvention::kOddCoset;
    const std::size_t rows = pk.a.row_ptr.size(), nnz = pk.a.nnz();
    const std::size_t term = indexed ? 6 : 4 + sizeof(Fr);
    // Resident, the matrices take their passes' bytes and their tables; streamed, the tables.
    const std::size_t csr = (with_c ? 3 : 2) * (rows * 8 + nnz * term);
    const std::size_t tables = Csr::table_bytes(pk.a) + Csr::table_bytes(pk.b) + (with_c ? Csr::table_bytes(pk.c) : 0);
    EXPECT_EQ(tables, indexed ? (with_c ? 3 : 2) * sizeof(Fr) : 0u);  // one value: 1
    EXPECT_EQ(Csr::bytes(pk.a), rows * 8 + nnz * term + Csr::table_bytes(pk.a));
    const std::array<std::size_t, gpu::kKeyParts> part{csr,
                                                       pk.h_query.size() * g1,
                                                       pk.a_query.size() * g1,
                                                       pk.b_g1_query.size() * g1,
                                                       pk.b_g2_query.size() * sizeof(typename E::G2Affine),
                                                       pk.l_query.size() * g1};
    const std::size_t base = Key::estimate_bytes(pk, KeyLayout::all_streamed(chunk));
    EXPECT_EQ(base, std::max<std::size_t>(1, pk.domain_size / 2) * sizeof(Fr) + tables + (std::size_t{1} << 20));
    // The compact twiddle table: 2^16 / 16 twiddles and 8 for the top three levels.
    EXPECT_EQ(Key::estimate_bytes(pk, KeyLayout{0, chunk, true}),
              ((std::size_t{1} << 12) + 8) * sizeof(Fr) + tables + (std::size_t{1} << 20));
    for (unsigned m = 0; m <= KeyLayout::kAllMask; ++m) {
      std::size_t want = base;
      for (std::size_t p = 0; p < gpu::kKeyParts; ++p)
        if ((m >> p) & 1u) want += part[p];
      EXPECT_EQ(Key::estimate_bytes(pk, KeyLayout{m, chunk}), want) << "mask " << m;
    }
    EXPECT_EQ(Key::estimate_bytes(pk, KeyLayout::all_resident()), Key::estimate_bytes(pk));
    EXPECT_EQ(Key::estimate_proof_scratch_bytes(pk, KeyLayout::all_resident()), Key::estimate_proof_scratch_bytes(pk));
    EXPECT_EQ(Key::estimate_proof_scratch_bytes(pk, KeyLayout::all_streamed(chunk)),
              Key::estimate_proof_scratch_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk));
    auto need = [&](const KeyLayout& l) { return Key::estimate_bytes(pk, l) + Key::estimate_proof_scratch_bytes(pk, l); };
    auto saved = [&](const KeyLayout& l) {
      std::uint64_t s = 0;
      for (std::size_t p = 0; p < gpu::kKeyParts; ++p)
        if (l.resident(static_cast<KeyPart>(p))) s += part[p] * (p == 0 ? 2 : 1);
      return s;
    };
    const std::size_t lo = need(KeyLayout{0, Key::fitting_stream_chunk(pk, 0, chunk, chunk), true});
    const std::size_t hi = need(KeyLayout::all_resident());
    const std::size_t hi_compact = need(KeyLayout{KeyLayout::kAllMask, 0, true});
    ASSERT_LT(lo, hi_compact);
    ASSERT_LT(hi_compact, hi);
    std::uint64_t last = 0;
    int mixed = 0, compact = 0;
    for (std::size_t b = lo; b <= hi + (hi - lo) / 50; b += (hi - lo) / 200) {
      SCOPED_TRACE("budget " + std::to_string(b));
      const KeyLayout l = Key::choose_layout(pk, b, chunk, chunk);
      EXPECT_LE(need(l), b);
      EXPECT_EQ(l.is_all_resident(), hi_compact <= b);
      // The full table wherever it fits as much (its transforms are the faster).
      EXPECT_EQ(l.compact_twiddles, need(KeyLayout{l.resident_mask, l.chunk, false}) > b);
      const std::uint64_t s = l.is_all_resident() ? saved(KeyLayout{KeyLayout::kAllMask, chunk}) : saved(l);
      EXPECT_GE(s, last) << "a larger budget saved fewer bytes";
      last = s;
      mixed += !l.is_all_resident() && l.resident_mask != 0;
      compact += l.compact_twiddles;
    }
    EXPECT_GT(mixed, 100) << "most budgets between the two needs keep some parts resident";
    EXPECT_GT(compact, 0) << "the compact table never bought a part";
  }
}

// Chunks first: where the compact twiddle table lets a larger chunk fit, the streamed layout
// takes it (stream_layout and choose_layout); Tuning::ntt_twiddles = kFull or kCompact restricts
// both to one table, and a value outside the enum is refused.
TYPED_TEST(LayoutChoiceTest, CompactTwiddlesBuyALargerChunk) {
  using E = TypeParam;
  using Key = gpu::DeviceProvingKey<E>;
  const groth16::ProvingKey<E> pk = key_of_shape<E>(16, groth16::HConvention::kOddCoset);
  auto need = [&](const KeyLayout& l) { return Key::estimate_bytes(pk, l) + Key::estimate_proof_scratch_bytes(pk, l); };
  const std::size_t lo = std::size_t{1} << 10, hi = std::size_t{1} << 14, c = std::size_t{1} << 13;
  const std::size_t b = need(KeyLayout{0, c, true});
  ASSERT_GT(need(KeyLayout{0, c, false}), b);
  EXPECT_LT(Key::fitting_stream_chunk(pk, b, lo, hi), c);
  EXPECT_EQ(Key::stream_layout(pk, b, lo, hi), (KeyLayout{0, c, true}));
  const KeyLayout chosen = Key::choose_layout(pk, b, lo, hi);
  EXPECT_EQ(chosen.chunk, c);
  EXPECT_TRUE(chosen.compact_twiddles);
  // With room for the full table the full one.
  const std::size_t roomy = need(KeyLayout{0, c, false});
  EXPECT_EQ(Key::stream_layout(pk, roomy, lo, hi), (KeyLayout{0, c, false}));
  auto twiddles = [](gpu::TwiddleChoice choice) {
    gpu::Tuning t;
    t.ntt_twiddles = choice;
    return t;
  };
  const gpu::Tuning full = twiddles(gpu::TwiddleChoice::kFull), compact = twiddles(gpu::TwiddleChoice::kCompact);
  EXPECT_EQ(Key::stream_layout(pk, b, lo, hi, full).compact_twiddles, false);
  EXPECT_FALSE(Key::choose_layout(pk, b, lo, hi, full).compact_twiddles);
  EXPECT_EQ(Key::stream_layout(pk, roomy, lo, hi, compact), (KeyLayout{0, c, true}));
  EXPECT_TRUE(Key::choose_layout(pk, need(KeyLayout::all_resident()), lo, hi, compact).compact_twiddles);
  const gpu::Tuning unknown = twiddles(static_cast<gpu::TwiddleChoice>(7));
  EXPECT_THROW((void)Key::stream_layout(pk, b, lo, hi, unknown), std::invalid_argument);
  EXPECT_THROW((void)Key::choose_layout(pk, b, lo, hi, unknown), std::invalid_argument);
}

}  // namespace
