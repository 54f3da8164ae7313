// DeviceProvingKey's VRAM figures per key layout and the layout it chooses for a budget, checked
// without a device (the figures and the choice are host arithmetic; runs in CI wherever the
// CUDA backend is built): a key's VRAM is the twiddles plus its resident parts' sizes; the
// all-resident and all-streamed layouts give the placements' figures; at every budget from the
// streamed need to past the resident one the chosen layout fits, is all resident exactly when
// that fits, and never saves fewer bytes per proof than at a smaller budget; the matrices weigh
// twice. Both curves, both conventions, matrices with and without their value index (then
// 6 bytes a term resident, and only the value tables on the device when streamed).
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
    const std::size_t lo = need(KeyLayout::all_streamed(Key::fitting_stream_chunk(pk, 0, chunk, chunk)));
    const std::size_t hi = need(KeyLayout::all_resident());
    ASSERT_LT(lo, hi);
    std::uint64_t last = 0;
    int mixed = 0;
    for (std::size_t b = lo; b <= hi + (hi - lo) / 50; b += (hi - lo) / 200) {
      SCOPED_TRACE("budget " + std::to_string(b));
      const KeyLayout l = Key::choose_layout(pk, b, chunk, chunk);
      EXPECT_LE(need(l), b);
      EXPECT_EQ(l.is_all_resident(), hi <= b);
      const std::uint64_t s = l.is_all_resident() ? saved(KeyLayout{KeyLayout::kAllMask, chunk}) : saved(l);
      EXPECT_GE(s, last) << "a larger budget saved fewer bytes";
      last = s;
      mixed += !l.is_all_resident() && l.resident_mask != 0;
    }
    EXPECT_GT(mixed, 100) << "most budgets between the two needs keep some parts resident";
  }
}

}  // namespace
