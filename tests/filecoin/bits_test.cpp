// The bellpepper-exact bit and number gadgets: values on every operand kind, the constants that
// fold away (bellpepper allocates nothing for them), the constraint each operation costs, strict
// bit decomposition refusing a non-canonical representation, multipacking against the native
// packing, and insertion placing the element at every index with the Rust-documented costs.
#include <gtest/gtest.h>

#include <bit>
#include <memory>
#include <random>
#include <vector>

#include "cuzk/filecoin/insertion.hpp"
#include "cuzk/filecoin/multipack.hpp"
#include "cuzk/r1cs/eval.hpp"
#include "support/circuit_modes.hpp"

namespace cuzk::filecoin {
namespace {

using Check = cs::CheckCS<Fr>;

// A Boolean of the given kind (0 constant, 1 Is, 2 Not) with the given value.
Boolean make_bool(Check& cs, int kind, bool v) {
  if (kind == 0) return Boolean::constant(v);
  AllocatedBit b = AllocatedBit::alloc(cs, "b", kind == 1 ? v : !v);
  return kind == 1 ? Boolean(b) : Boolean(b).not_();
}

TEST(FilecoinBits, BooleanOpsOnEveryKindAndValue) {
  for (int ka = 0; ka < 3; ++ka)
    for (int kb = 0; kb < 3; ++kb)
      for (int va = 0; va < 2; ++va)
        for (int vb = 0; vb < 2; ++vb) {
          Check cs;
          const Boolean a = make_bool(cs, ka, va), b = make_bool(cs, kb, vb);
          const std::size_t before = cs.num_constraints();
          EXPECT_EQ(Boolean::xor_(cs, a, b).value(), va != vb);
          EXPECT_EQ(Boolean::and_(cs, a, b).value(), va && vb);
          EXPECT_EQ(Boolean::or_(cs, a, b).value(), va || vb);
          // With a constant operand bellpepper folds: no wire, no constraint.
          const std::size_t per_op = (ka == 0 || kb == 0) ? 0 : 1;
          EXPECT_EQ(cs.num_constraints() - before, 3 * per_op) << ka << kb << va << vb;
          EXPECT_TRUE(cs.is_satisfied());
        }
}

TEST(FilecoinBits, Sha256ChAndMajOnEveryKindAndValue) {
  for (int k = 0; k < 27; ++k)
    for (int v = 0; v < 8; ++v) {
      const int ka = k % 3, kb = (k / 3) % 3, kc = k / 9;
      const bool va = v & 1, vb = v & 2, vc = v & 4;
      Check cs;
      const Boolean a = make_bool(cs, ka, va), b = make_bool(cs, kb, vb), c = make_bool(cs, kc, vc);
      EXPECT_EQ(Boolean::sha256_ch(cs, a, b, c).value(), (va && vb) != (!va && vc));
      EXPECT_EQ(Boolean::sha256_maj(cs, a, b, c).value(), (va + vb + vc) >= 2);
      EXPECT_TRUE(cs.is_satisfied()) << cs.first_unsatisfied()->name;
    }
}

TEST(FilecoinBits, MajOfThreeVariablesAllocatesMajBeforeTheAnd) {
  // bellpepper allocates `maj` first, then b AND c: the order fixes the wire numbers.
  cs::RecordCS<Fr> cs;
  const Boolean a = AllocatedBit::alloc(cs, "a", false), b = AllocatedBit::alloc(cs, "b", false),
                c = AllocatedBit::alloc(cs, "c", false);
  const Boolean m = Boolean::sha256_maj(cs, a, b, c);
  EXPECT_EQ(m.bit().variable(), Variable::aux(3));  // maj; aux(4) is b AND c
  EXPECT_EQ(cs.num_aux(), 5u);
  EXPECT_EQ(cs.num_constraints(), 3u + 2u);
}

TEST(FilecoinBits, EnforceEqualCatchesADifference) {
  for (int ka = 1; ka < 3; ++ka)
    for (int kb = 0; kb < 3; ++kb)
      for (int va = 0; va < 2; ++va)
        for (int vb = 0; vb < 2; ++vb) {
          Check cs;
          Boolean::enforce_equal(cs, make_bool(cs, ka, va), make_bool(cs, kb, vb));
          EXPECT_EQ(cs.is_satisfied(), va == vb);
          if (va != vb) {
            EXPECT_NE(cs.first_unsatisfied()->name.find("enforce equal"), std::string::npos);
          }
        }
  Check cs;
  EXPECT_THROW(Boolean::enforce_equal(cs, Boolean::constant(true), Boolean::constant(false)), std::invalid_argument);
}

TEST(FilecoinBits, StrictBitsAcceptCanonicalValuesOnly) {
  std::mt19937_64 rng(3);
  std::vector<Fr> values{Fr::zero(), Fr::one(), -Fr::one(), -Fr::from_u64(2)};
  for (int i = 0; i < 8; ++i) values.push_back(Fr::random(rng));
  for (const Fr& x : values) {
    Check cs;
    auto n = AllocatedNum::alloc_value(cs, "x", x);
    auto bits = n.to_bits_le_strict(cs);
    ASSERT_EQ(bits.size(), kFrNumBits);
    ASSERT_TRUE(cs.is_satisfied());
    const auto c = x.to_canonical();
    for (std::size_t k = 0; k < kFrNumBits; ++k) EXPECT_EQ(bits[k].value(), ((c[k / 64] >> (k % 64)) & 1) != 0);
  }
}

// Fills a witness for a recorded system whose rows each define at most one new aux wire as
// <A,w>·<B,w> (the AND rows of the strict decomposition): wires in `fixed` keep their value.
std::vector<Fr> solve_products(const r1cs::R1CS<Fr>& r, std::vector<Fr> w, const std::vector<bool>& fixed) {
  auto eval = [&](const r1cs::CsrMatrix<Fr>& m, std::size_t i) {
    Fr acc = Fr::zero();
    auto row = m.row(i);
    for (std::size_t k = 0; k < row.size(); ++k) acc += row.vals[k] * w[row.cols[k]];
    return acc;
  };
  for (std::size_t i = 0; i < r.num_constraints; ++i) {
    auto c = r.C.row(i);
    if (c.size() == 1 && c.vals[0] == Fr::one() && !fixed[c.cols[0]]) w[c.cols[0]] = eval(r.A, i) * eval(r.B, i);
  }
  return w;
}

TEST(FilecoinBits, StrictBitsRefuseTheRepresentationAboveTheModulus) {
  // x = 5 also has the 255-bit representation x + r; to_bits_le passes it, the strict
  // decomposition must not. The bit wires are found by recording: in to_bits_le they are the
  // 255 aux wires after x; in the strict form, the wires of the rows named "boolean constraint".
  const Fr x = Fr::from_u64(5);
  Fr::Repr xr = Fr::kModulus;
  xr[0] += 5;
  auto bit_of = [&](std::size_t k) { return ((xr[k / 64] >> (k % 64)) & 1) ? Fr::one() : Fr::zero(); };
  for (bool strict : {false, true}) {
    cs::RecordCS<Fr> rec(/*keep_names=*/true);
    auto n = AllocatedNum::alloc_value(rec, "x", x);
    (void)(strict ? n.to_bits_le_strict(rec) : n.to_bits_le(rec));
    const auto r = std::move(rec).finish();
    // Bit wires in allocation order: each "boolean constraint" row's B column.
    std::vector<std::uint32_t> bit_cols;
    for (std::size_t i = 0; i < r.num_constraints; ++i)
      if (r.constraint_names[i].ends_with("boolean constraint")) bit_cols.push_back(r.B.row(i).cols[0]);
    ASSERT_EQ(bit_cols.size(), kFrNumBits);
    std::vector<Fr> w(r.num_vars, Fr::zero());
    std::vector<bool> fixed(r.num_vars, false);
    w[0] = Fr::one();
    fixed[0] = true;
    w[1] = x;  // x is aux 0, wire 1 (no public input but ONE)
    fixed[1] = true;
    // Strict allocates big-endian (bit 254 first); to_bits_le little-endian.
    for (std::size_t j = 0; j < kFrNumBits; ++j) {
      const std::size_t k = strict ? kFrNumBits - 1 - j : j;
      w[bit_cols[j]] = bit_of(k);
      fixed[bit_cols[j]] = true;
    }
    w = solve_products(r, w, fixed);
    const auto bad = r1cs::check<Fr>(r, w);
    EXPECT_EQ(bad.has_value(), strict) << (strict ? "strict" : "plain");
    if (bad) {
      EXPECT_TRUE(bad->name.ends_with("boolean constraint")) << bad->name;
    }
  }
}

TEST(FilecoinBits, PackIntoInputsMatchesComputeMultipacking) {
  std::mt19937_64 rng(5);
  for (std::size_t n : {0u, 1u, 253u, 254u, 255u, 508u, 700u}) {
    std::vector<bool> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = rng() & 1;
    Check cs;
    std::vector<Boolean> bits;
    for (std::size_t i = 0; i < n; ++i) bits.emplace_back(AllocatedBit::alloc(cs, "bit", v[i]));
    pack_into_inputs(cs, std::span<const Boolean>(bits));
    const std::unique_ptr<bool[]> arr(new bool[n + 1]);
    for (std::size_t i = 0; i < n; ++i) arr[i] = v[i];
    const auto want = compute_multipacking(std::span<const bool>(arr.get(), n));
    const auto& inputs = cs.assignment().inputs;
    ASSERT_EQ(inputs.size(), want.size() + 1);
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(inputs[i + 1], want[i]);
    EXPECT_EQ(cs.num_constraints(), n + want.size());  // booleanity + one packing row per input
    EXPECT_TRUE(cs.is_satisfied());
  }
}

// Inserts a distinct element among distinct siblings at every index and checks the order.
void check_insert(std::size_t size, std::size_t constraints) {
  const std::size_t nbits = std::countr_zero(size);
  for (std::size_t index = 0; index < size; ++index) {
    Check cs;
    std::vector<Boolean> bits;
    for (std::size_t b = 0; b < nbits; ++b) bits.emplace_back(AllocatedBit::alloc(cs, "bit", ((index >> b) & 1) != 0));
    auto x = AllocatedNum::alloc_value(cs, "x", Fr::from_u64(1000));
    std::vector<AllocatedNum> sib;
    for (std::size_t i = 0; i + 1 < size; ++i) sib.push_back(AllocatedNum::alloc_value(cs, "s", Fr::from_u64(i)));
    const std::size_t before = cs.num_constraints();
    auto out = insert(cs, x, bits, sib);
    EXPECT_EQ(cs.num_constraints() - before, constraints) << "size " << size;
    ASSERT_EQ(out.size(), size);
    for (std::size_t p = 0; p < size; ++p) {
      const Fr want = p < index ? Fr::from_u64(p) : (p == index ? Fr::from_u64(1000) : Fr::from_u64(p - 1));
      EXPECT_EQ(out[p].value(), want) << "size " << size << " index " << index << " pos " << p;
    }
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(FilecoinBits, InsertPutsTheElementAtEveryIndex) {
  // insertion.rs: 2 = two picks; 4 = 8 picks; 8 = nor + and + 20 picks; the general
  // algorithm costs size·(size - 1) picks.
  check_insert(2, 2);
  check_insert(4, 8);
  check_insert(8, 22);
  check_insert(16, 16 * 15);
}

TEST(FilecoinBits, PickAndSelect) {
  Check cs;
  std::vector<AllocatedNum> from;
  for (int i = 0; i < 8; ++i) from.push_back(AllocatedNum::alloc_value(cs, "f", Fr::from_u64(10 + i)));
  for (std::size_t n = 0; n < 8; ++n) {
    std::vector<Boolean> bits;
    for (int b = 0; b < 3; ++b) bits.emplace_back(AllocatedBit::alloc(cs, "bit", ((n >> b) & 1) != 0));
    EXPECT_EQ(select(cs, "sel", std::span<const AllocatedNum>(from), bits).value(), Fr::from_u64(10 + n));
  }
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(FilecoinBits, ConditionalReverseAndNumOps) {
  for (bool cond : {false, true}) {
    Check cs;
    auto a = AllocatedNum::alloc_value(cs, "a", Fr::from_u64(3));
    auto b = AllocatedNum::alloc_value(cs, "b", Fr::from_u64(5));
    const Boolean c = AllocatedBit::alloc(cs, "c", cond);
    auto [x, y] = AllocatedNum::conditionally_reverse(cs, a, b, c);
    EXPECT_EQ(x.value(), cond ? b.value() : a.value());
    EXPECT_EQ(y.value(), cond ? a.value() : b.value());
    EXPECT_EQ(a.mul(cs, b).value(), Fr::from_u64(15));
    EXPECT_EQ(a.add(cs, b).value(), Fr::from_u64(8));
    EXPECT_EQ(b.square(cs).value(), Fr::from_u64(25));
    a.assert_nonzero(cs);
    EXPECT_TRUE(cs.is_satisfied());
  }
  Check cs;
  auto z = AllocatedNum::alloc_value(cs, "z", Fr::zero());
  z.assert_nonzero(cs);
  ASSERT_FALSE(cs.is_satisfied());
  EXPECT_NE(cs.first_unsatisfied()->name.find("nonzero assertion constraint"), std::string::npos);
}

TEST(FilecoinBits, InputizeMakesAPublicInputBoundToTheWire) {
  Check cs;
  auto a = AllocatedNum::alloc_value(cs, "a", Fr::from_u64(42));
  a.inputize(cs);
  ASSERT_EQ(cs.assignment().inputs.size(), 2u);
  EXPECT_EQ(cs.assignment().inputs[1], Fr::from_u64(42));
  EXPECT_TRUE(cs.is_satisfied());
  Check bad;
  bad.inject_fault(0, Fr::from_u64(41));
  auto b = AllocatedNum::alloc_value(bad, "a", Fr::from_u64(42));
  b.inputize(bad);
  EXPECT_FALSE(bad.is_satisfied());
}

}  // namespace
}  // namespace cuzk::filecoin
