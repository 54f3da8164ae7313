// Poseidon: BN254/circomlib against circom2+snarkjs (oracle gen_gadgets.mjs), BLS12-381/neptune
// against neptune's own known-answer vectors (src/poseidon.rs, hash_values, Strength::Standard,
// MerkleTree, inputs 0..arity-1) and neptune's constraint counts (src/circuit.rs).
#include <gtest/gtest.h>

#include <random>

#include "cuzk/gadgets/poseidon_circomlib.hpp"
#include "cuzk/gadgets/poseidon_neptune.hpp"
#include "support/circuit_modes.hpp"
#include "support/oracle.hpp"

namespace {
using namespace cuzk;

template <class F>
struct PoseidonCircuit {
  const gadgets::PoseidonParams<F>* p;
  std::vector<F> in;
  F* out = nullptr;
  template <class CS>
  void synthesize(CS& cs) const {
    std::vector<gadgets::AllocatedNum<F>> xs;
    for (std::size_t i = 0; i < in.size(); ++i)
      xs.push_back(gadgets::AllocatedNum<F>::alloc(cs, "in", [&] { return in[i]; }));
    auto h = gadgets::poseidon_hash<F>(cs, *p, std::span<const gadgets::AllocatedNum<F>>(xs));
    if constexpr (CS::kHasValues)
      if (out) *out = h.value();
  }
};

TEST(PoseidonCircomlib, MatchesCircom2Snarkjs) {
  using F = ff::bn254::Fr;
  auto j = test::load_oracle("gadgets_poseidon.json");
  ASSERT_GE(j["cases"].size(), 9u);
  for (const auto& c : j["cases"]) {
    const std::size_t arity = c["arity"];
    const auto& p = gadgets::circomlib::params(arity);
    std::vector<F> in;
    for (const auto& x : c["inputs"]) in.push_back(F::from_string(x.get<std::string>()));
    const F want = F::from_string(c["out"].get<std::string>());
    EXPECT_EQ(gadgets::poseidon_hash_native<F>(p, in), want) << "native, arity " << arity;
    F got = F::zero();
    PoseidonCircuit<F> circ{&p, in, &got};
    cs::WitnessCS<F> w;
    circ.synthesize(w);
    EXPECT_EQ(got, want) << "circuit, arity " << arity;
  }
}

TEST(PoseidonCircomlib, ModesCountsFaults) {
  using F = ff::bn254::Fr;
  std::mt19937_64 rng(1);
  // 3(t·8 + R_P - 1) + t·8 + R_P - arity with circomlib's R_P = 57, 60, 63.
  const std::pair<std::size_t, std::size_t> expect[] = {{2, 319}, {4, 393}, {8, 529}};
  for (auto [arity, n] : expect) {
    std::vector<F> in;
    for (std::size_t i = 0; i < arity; ++i) in.push_back(F::random(rng));
    PoseidonCircuit<F> c{&gadgets::circomlib::params(arity), in};
    auto rep = test::expect_modes_agree<F>(c);
    EXPECT_EQ(rep.constraints, n) << "arity " << arity;
    test::expect_faults_caught<F>(c, 5, arity);
  }
}

using Fb = ff::bls12_381::Fr;
Fb from_u64s(std::array<std::uint64_t, 4> limbs) { return Fb::from_canonical(limbs); }

TEST(PoseidonNeptune, KnownAnswersAndCounts) {
  struct Case {
    std::size_t arity;
    std::array<std::uint64_t, 4> expect;  // neptune src/poseidon.rs hash_values (Standard)
    std::size_t constraints;              // neptune src/circuit.rs test_poseidon_hash
  };
  const Case cases[] = {
      {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}, 311},
      {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}, 377},
      {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}, 505},
      {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}, 598},
  };
  for (const auto& c : cases) {
    const auto& p = gadgets::neptune::params<Fb>(c.arity);
    std::vector<Fb> in;
    for (std::size_t i = 0; i < c.arity; ++i) in.push_back(Fb::from_u64(i));
    const Fb want = from_u64s(c.expect);
    EXPECT_EQ(gadgets::poseidon_hash_native<Fb>(p, in), want) << "native, arity " << c.arity;
    Fb got = Fb::zero();
    PoseidonCircuit<Fb> circ{&p, in, &got};
    auto rep = test::expect_modes_agree<Fb>(circ);
    EXPECT_EQ(got, want) << "circuit, arity " << c.arity;
    EXPECT_EQ(rep.constraints, c.constraints) << "arity " << c.arity;
    test::expect_faults_caught<Fb>(circ, 4, c.arity);
  }
  EXPECT_THROW(gadgets::neptune::params<Fb>(3), std::invalid_argument);
}

TEST(PoseidonNeptune, RandomInputsCircuitEqualsNative) {
  std::mt19937_64 rng(8);
  for (std::size_t arity : {2u, 8u}) {
    const auto& p = gadgets::neptune::params<Fb>(arity);
    std::vector<Fb> in;
    for (std::size_t i = 0; i < arity; ++i) in.push_back(Fb::random(rng));
    Fb got = Fb::zero();
    PoseidonCircuit<Fb> circ{&p, in, &got};
    cs::CheckCS<Fb> k;
    circ.synthesize(k);
    EXPECT_TRUE(k.is_satisfied());
    EXPECT_EQ(got, gadgets::poseidon_hash_native<Fb>(p, in));
  }
}
}  // namespace
