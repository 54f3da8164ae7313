// Constraint-system modes and the basic gadgets (Boolean, AllocatedNum, packing, UInt32), over
// both scalar fields. Oracles: native C++ arithmetic on the same random inputs.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/uint32.hpp"
#include "support/circuit_modes.hpp"

namespace {
using namespace cuzk;
using cuzk::cs::LinearCombination;
using cuzk::cs::Variable;

template <class F>
class Gadgets : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bn254::Fr>;
TYPED_TEST_SUITE(Gadgets, Fields);

// x^3 + x + 5 = out, out public: the classic example, 3 constraints.
struct Cubic {
  std::uint64_t x;
  template <class CS>
  void synthesize(CS& cs) const {
    using F = typename CS::Field;
    const F xv = F::from_u64(x);
    auto out = cs.alloc_input("out", [&] { return xv * xv * xv + xv + F::from_u64(5); });
    auto xx = cs.alloc("x", [&] { return xv; });
    auto x2 = cs.alloc("x2", [&] { return xv * xv; });
    auto x3 = cs.alloc("x3", [&] { return xv * xv * xv; });
    cs::Namespace ns(cs, "cubic");
    cs.enforce("x2", xx, xx, x2);
    cs.enforce("x3", x2, xx, x3);
    cs.enforce([] { return std::string("sum"); },
               [&] { return LinearCombination<F>(x3) + LinearCombination<F>(xx) + LinearCombination<F>::constant(F::from_u64(5)); },
               Variable::one(), out);
  }
};

TYPED_TEST(Gadgets, ModesWireOrderAndNames) {
  using F = TypeParam;
  static_assert(cs::ConstraintSystem<cs::RecordCS<F>>);
  static_assert(cs::ConstraintSystem<cs::WitnessCS<F>>);
  static_assert(cs::ConstraintSystem<cs::CheckCS<F>>);
  Cubic c{7};
  auto rep = test::expect_modes_agree<F>(c);
  EXPECT_EQ(rep.constraints, 3u);
  auto r = cs::record<F>(c, true);
  EXPECT_EQ(r.num_public, 1u);
  EXPECT_EQ(r.num_vars, 5u);
  EXPECT_EQ(r.constraint_names[2], "cubic/sum");
  // Wire order: ONE, out, x, x2, x3.
  auto w = cs::witness<F>(c).full();
  EXPECT_EQ(w[0], F::one());
  EXPECT_EQ(w[1], F::from_u64(7 * 7 * 7 + 7 + 5));
  EXPECT_EQ(w[2], F::from_u64(7));
  // A false claim is reported with its path.
  cs::CheckCS<F> k;
  k.inject_fault(2, F::from_u64(1));  // x3 wrong
  cs::synthesize(c, k);
  ASSERT_FALSE(k.is_satisfied());
  EXPECT_EQ(k.first_unsatisfied()->name, "cubic/x3");
  EXPECT_EQ(k.first_unsatisfied()->index, 1u);
  test::expect_faults_caught<F>(c, 3);
  // Record mode never calls witness closures; WitnessOnly mode never calls LC builders or names.
  cs::RecordCS<F> rc;
  rc.alloc("x", [] { ADD_FAILURE() << "closure called in Record mode"; return F::zero(); });
  EXPECT_EQ(rc.num_aux(), 1u);
  cs::WitnessCS<F> wc;
  auto v = wc.alloc("x", [] { return F::from_u64(3); });
  wc.enforce([] { ADD_FAILURE() << "name built in WitnessOnly mode"; return std::string(); },
             [] { ADD_FAILURE() << "LC built in WitnessOnly mode"; return LinearCombination<F>(); }, v, v);
  EXPECT_EQ(wc.value(v), F::from_u64(3));
}

TYPED_TEST(Gadgets, BooleanOps) {
  using F = TypeParam;
  using B = gadgets::Boolean<F>;
  for (int mask = 0; mask < 8; ++mask) {
    const bool x = mask & 1, y = mask & 2, z = mask & 4;
    auto circuit = [&](auto& cs) {
      B a = B::alloc(cs, "a", [&] { return x; });
      B b = B::alloc(cs, "b", [&] { return y; });
      B c = B::alloc(cs, "c", [&] { return z; });
      auto expect = [&](const B& r, bool v) {
        if constexpr (std::remove_cvref_t<decltype(cs)>::kHasValues) {
          EXPECT_EQ(r.value(), v);
        }
        // pin the result to a public input so that every output is constrained
        B o = B::alloc_input(cs, "o", [&] { return v; });
        gadgets::enforce_equal<F>(cs, r, o);
      };
      expect(gadgets::and_<F>(cs, a, b), x && y);
      expect(gadgets::xor_<F>(cs, a, b), x != y);
      expect(gadgets::or_<F>(cs, a, b), x || y);
      expect(gadgets::nand<F>(cs, a, !b), !(x && !y));
      expect(gadgets::nor<F>(cs, !a, b), !(!x || y));
      expect(gadgets::select<F>(cs, c, a, b), z ? x : y);
      expect(gadgets::majority<F>(cs, a, b, c), (x + y + z) >= 2);
      expect(gadgets::xor_<F>(cs, a, B::constant(true)), !x);
      expect(gadgets::and_<F>(cs, B::constant(true), !c), !z);
    };
    auto rep = test::expect_modes_agree<F>(circuit);
    // 3 alloc + 9 outputs (alloc + eq each) + and, xor, or, nand, nor, select, maj(2) = 3 + 18 + 8
    EXPECT_EQ(rep.constraints, 29u);
    test::expect_faults_caught<F>(circuit, 6, mask);
  }
  // Constants cost nothing.
  cs::RecordCS<F> rc;
  auto t = gadgets::xor_<F>(rc, B::constant(true), B::constant(true));
  EXPECT_TRUE(t.is_constant());
  EXPECT_FALSE(t.value());
  EXPECT_EQ(rc.num_constraints(), 0u);
}

TYPED_TEST(Gadgets, NumOps) {
  using F = TypeParam;
  using N = gadgets::AllocatedNum<F>;
  std::mt19937_64 rng(11);
  for (int it = 0; it < 3; ++it) {
    const F x = F::random(rng), y = F::random(rng);
    const bool sw = it & 1;
    auto circuit = [&](auto& cs) {
      N a = N::alloc(cs, "a", [&] { return x; });
      N b = N::alloc(cs, "b", [&] { return y; });
      N p = a.mul(cs, b);
      N s = a.square(cs);
      N i = a.inverse(cs);
      auto c = gadgets::Boolean<F>::alloc(cs, "swap", [&] { return sw; });
      auto [u, v] = gadgets::conditional_swap<F>(cs, a, b, c);
      auto e2 = gadgets::equals<F>(cs, a, b);
      if constexpr (std::remove_cvref_t<decltype(cs)>::kHasValues) {
        EXPECT_EQ(p.value(), x * y);
        EXPECT_EQ(s.value(), x * x);
        EXPECT_EQ(i.value() * x, F::one());
        EXPECT_EQ(u.value(), sw ? y : x);
        EXPECT_EQ(v.value(), sw ? x : y);
        EXPECT_FALSE(e2.value());
      }
      N pub = N::alloc_input(cs, "p", [&] { return x * y; });
      gadgets::enforce_equal<F>(cs, p, pub);
    };
    auto rep = test::expect_modes_agree<F>(circuit);
    EXPECT_EQ(rep.constraints, 1u + 1 + 1 + 1 + 2 + 2 + 1);
    test::expect_faults_caught<F>(circuit, 6, it);
    // Equal values: [a == a] is 1 (its inverse wire is free when the difference is 0, so no fault test).
    auto eq_circuit = [&](auto& cs) {
      N a = N::alloc(cs, "a", [&] { return x; });
      auto e = gadgets::equals<F>(cs, a, a);
      if constexpr (std::remove_cvref_t<decltype(cs)>::kHasValues) {
        EXPECT_TRUE(e.value());
      }
      auto o = gadgets::Boolean<F>::alloc_input(cs, "o", [] { return true; });
      gadgets::enforce_equal<F>(cs, e, o);
    };
    test::expect_modes_agree<F>(eq_circuit);
    cs::CheckCS<F> k;
    k.inject_fault(2, F::zero());  // claim [a == a] = 0
    cs::synthesize(eq_circuit, k);
    EXPECT_FALSE(k.is_satisfied());
  }
  // inverse of zero is unsatisfiable
  auto zero_inv = [](auto& cs) { N::alloc(cs, "z", [] { return F::zero(); }).inverse(cs); };
  EXPECT_TRUE(cs::check<F>(zero_inv).has_value());
}

TYPED_TEST(Gadgets, Packing) {
  using F = TypeParam;
  using N = gadgets::AllocatedNum<F>;
  std::mt19937_64 rng(5);
  const std::uint64_t x = rng();
  auto circuit = [&](auto& cs) {
    N n = N::alloc(cs, "n", [&] { return F::from_u64(x); });
    auto bits = gadgets::unpack_bits<F>(cs, n, 64);
    N back = gadgets::pack_bits<F>(cs, std::span<const gadgets::Boolean<F>>(bits));
    gadgets::enforce_equal<F>(cs, n, back);
    if constexpr (std::remove_cvref_t<decltype(cs)>::kHasValues) {
      for (int i = 0; i < 64; ++i) EXPECT_EQ(bits[i].value(), ((x >> i) & 1) != 0);
    }
  };
  auto rep = test::expect_modes_agree<F>(circuit);
  EXPECT_EQ(rep.constraints, 64u + 1 + 1 + 1);
  test::expect_faults_caught<F>(circuit, 5);
  // A value that does not fit is unsatisfiable.
  auto too_big = [](auto& cs) {
    N n = N::alloc(cs, "n", [] { return F::from_u64(256); });
    gadgets::unpack_bits<F>(cs, n, 8);
  };
  EXPECT_TRUE(cs::check<F>(too_big).has_value());
}

TYPED_TEST(Gadgets, UInt32Ops) {
  using F = TypeParam;
  using U = gadgets::UInt32<F>;
  std::mt19937 rng(3);
  for (int it = 0; it < 4; ++it) {
    const std::uint32_t x = rng(), y = rng(), z = rng(), k = rng();
    auto circuit = [&](auto& cs) {
      constexpr bool kv = std::remove_cvref_t<decltype(cs)>::kHasValues;
      U a = U::alloc(cs, [&] { return x; });
      U b = U::alloc(cs, [&] { return y; });
      U c = U::alloc(cs, [&] { return z; });
      U r1 = a.rotr(7), s1 = a.shr(9);
      U xr = a.xor_(cs, b), an = b.and_(cs, c);
      const std::array<U, 4> ops{a, b, c, U::constant(k)};
      U sum = U::addmany(cs, std::span<const U>(ops));
      const std::array<U, 2> ops2{a, r1};
      U sum2 = U::addmany(cs, std::span<const U>(ops2));
      if constexpr (kv) {
        EXPECT_EQ(r1.value(), (x >> 7) | (x << 25));
        EXPECT_EQ(s1.value(), x >> 9);
        EXPECT_EQ(xr.value(), x ^ y);
        EXPECT_EQ(an.value(), y & z);
        EXPECT_EQ(sum.value(), x + y + z + k);
        EXPECT_EQ(sum2.value(), x + r1.value());
        std::uint32_t bitsv = 0;
        for (int i = 0; i < 32; ++i) bitsv |= std::uint32_t{sum.bits_le()[i].value()} << i;
        EXPECT_EQ(bitsv, x + y + z + k);
      }
      // pin results
      for (const U* u : {&xr, &an, &sum, &sum2})
        for (int i = 0; i < 32; ++i) {
          const bool bv = (u->value() >> i) & 1;
          auto o = gadgets::Boolean<F>::alloc_input(cs, "o", [&] { return bv; });
          gadgets::enforce_equal<F>(cs, u->bits_le()[i], o);
        }
    };
    auto rep = test::expect_modes_agree<F>(circuit);
    // 96 alloc + 32 xor + 32 and + (34 + 1) + (33 + 1) + 4*32*2 pins
    EXPECT_EQ(rep.constraints, 96u + 32 + 32 + 35 + 34 + 256);
    test::expect_faults_caught<F>(circuit, 8, it);
  }
}

}  // namespace
