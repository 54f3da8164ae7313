// neptune 11's Poseidon as rust-fil-proofs uses it: constants, the native hash and the legacy
// circuit. References: neptune's own known answers (poseidon.rs hash_values, hash_type.rs
// test_domain_tags, circuit.rs test_poseidon_hash), rust-fil-proofs' (filecoin-hashers
// poseidon.rs, storage-proofs-porep stacked/circuit/hash.rs, storage-proofs-update
// challenges.rs), and the plain (unoptimized) Poseidon permutation of gadgets/poseidon.hpp.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include <time.h>

#include "cuzk/filecoin/poseidon.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "support/circuit_modes.hpp"
#include "support/random_vec.hpp"

namespace {
using namespace cuzk;
using namespace cuzk::filecoin;
using cuzk::test::random_vec;

Fr limbs(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  return Fr::from_canonical({a, b, c, d});
}

std::vector<Fr> counting(std::size_t n) {
  std::vector<Fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(Fr::from_u64(i));
  return v;
}

// The preimage allocated as aux wires (as the Rust tests do), then the hash.
struct HashCircuit {
  const PoseidonConstants* c;
  std::vector<Fr> in;
  Fr* out = nullptr;
  template <class CS>
  void synthesize(CS& cs) const {
    std::vector<AllocatedNum> xs;
    for (std::size_t i = 0; i < in.size(); ++i)
      xs.push_back(AllocatedNum::alloc(cs, "data", [&] { return in[i]; }));
    AllocatedNum h = poseidon_hash_circuit(cs, std::span<const AllocatedNum>(xs), *c);
    if constexpr (CS::kHasValues)
      if (out) *out = h.value();
  }
};

// neptune circuit.rs test_poseidon_hash's formula: 3 per S-box except the tag's first one,
// plus one allocation constraint per S-boxed Num and for the result.
std::size_t expected_constraints(const PoseidonConstants& c) {
  const std::size_t sboxes = c.width * c.full_rounds + c.partial_rounds - 1;
  return 3 * sboxes + c.width * c.full_rounds + c.partial_rounds - c.arity;
}

// ------------------------------------------------------------------------------------------
// Constants

TEST(PoseidonConstants, DomainTagsAsNeptune) {
  // hash_type.rs test_domain_tags.
  EXPECT_EQ(PoseidonTag::merkle_tree().domain_tag(8), limbs(0xff, 0, 0, 0));
  for (std::uint64_t id = 1; id <= 256; ++id)
    EXPECT_EQ(PoseidonTag::custom(id).domain_tag(8), limbs(0x0000010000000000ull * id, 0, 0, 0)) << id;
  for (std::uint64_t n = 1; n < 15; ++n) EXPECT_EQ(PoseidonTag::constant_length(n).domain_tag(15), limbs(0, n, 0, 0));
  EXPECT_THROW(PoseidonTag::custom(0).domain_tag(2), std::invalid_argument);
  EXPECT_THROW(PoseidonTag::custom(257).domain_tag(2), std::invalid_argument);
  // Filecoin's: 2^arity - 1, and storage-proofs-update's Custom(1) = 2^40.
  for (std::size_t a : {2u, 4u, 8u, 11u, 16u, 24u, 36u})
    EXPECT_EQ(poseidon_constants(a).domain_tag, Fr::from_u64((std::uint64_t{1} << a) - 1)) << a;
  EXPECT_EQ(poseidon_constants_gen_randomness().domain_tag, Fr::from_u64(std::uint64_t{1} << 40));
  EXPECT_EQ(poseidon_constants_gen_randomness().arity, 2u);
}

TEST(PoseidonConstants, ShapesAndRoundNumbers) {
  // round_numbers.rs known values (R_F = 8) and their 25% strengthening (lib.rs tests).
  const std::pair<std::size_t, std::size_t> standard[] = {{2, 55},  {4, 56},  {8, 57}, {11, 57},
                                                          {16, 59}, {24, 59}, {36, 60}};
  for (auto [arity, rp] : standard) {
    const auto& c = poseidon_constants(arity);
    EXPECT_EQ(c.width, arity + 1);
    EXPECT_EQ(c.full_rounds, 8u);
    EXPECT_EQ(c.partial_rounds, rp);
    EXPECT_EQ(c.round_constants.size(), c.width * (8 + rp));
    EXPECT_EQ(c.compressed_round_constants.size(), c.width * 8 + rp);
    EXPECT_EQ(c.sparse_matrices.size(), rp);
    EXPECT_EQ(c.pre_sparse_matrix.n, c.width);
    // The first round's keys are added before any S-box, unchanged.
    for (std::size_t i = 0; i < c.width; ++i) EXPECT_EQ(c.compressed_round_constants[i], c.round_constants[i]);
  }
  EXPECT_EQ(make_poseidon_constants(2, PoseidonTag::merkle_tree(), PoseidonStrength::Strengthened).partial_rounds, 69u);
  EXPECT_EQ(make_poseidon_constants(8, PoseidonTag::merkle_tree(), PoseidonStrength::Strengthened).partial_rounds, 72u);
  EXPECT_THROW(poseidon_constants(3), std::invalid_argument);
  EXPECT_THROW(make_poseidon_constants(17), std::invalid_argument);
}

// The pre-sparse matrix and the sparse matrices factor the partial rounds' m: applying them
// in sequence equals applying m each round (mds.rs: M' x M'' = M, carried through the rounds).
TEST(PoseidonConstants, SparseFactorizationReproducesM) {
  const auto& c = poseidon_constants(4);
  const std::size_t w = c.width;
  std::mt19937_64 rng(3);
  // Linear part only (no S-box): v·m^(R_P + 1) == v·pre_sparse·S_0·...·S_{R_P-1}.
  std::vector<Fr> a = random_vec<Fr>(w, rng), b = a;
  auto mul = [w](const PoseidonMatrix& m, std::vector<Fr>& v) {
    std::vector<Fr> r(w, Fr::zero());
    for (std::size_t j = 0; j < w; ++j)
      for (std::size_t i = 0; i < w; ++i) r[j] += m.at(i, j) * v[i];
    v = r;
  };
  for (std::size_t r = 0; r <= c.partial_rounds; ++r) mul(c.m, a);
  mul(c.pre_sparse_matrix, b);
  for (const auto& s : c.sparse_matrices) {
    Fr first = Fr::zero();
    for (std::size_t i = 0; i < w; ++i) first += s.w_hat[i] * b[i];
    for (std::size_t j = 1; j < w; ++j) b[j] += s.v_rest[j - 1] * b[0];
    b[0] = first;
  }
  EXPECT_EQ(a, b);
}

// ------------------------------------------------------------------------------------------
// Native hash

struct Kat {
  std::size_t arity;
  Fr merkle;    // MerkleTree hash of 0..arity-1
  Fr constant;  // ConstantLength(4) hash of 0..3 (a simple hash when 4 <= arity)
};

// neptune poseidon.rs hash_values_cases (scalar_from_u64s: little-endian canonical limbs).
std::vector<Kat> neptune_kats(PoseidonStrength s) {
  if (s == PoseidonStrength::Standard)
    return {
        {2, limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b), Fr::zero()},
        {4, limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a),
         limbs(0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29)},
        {8, limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55),
         limbs(0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792)},
        {11, limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28),
         limbs(0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca)},
        {16, limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a),
         limbs(0x6a1e563d359c1bdd, 0x6b4493d5d40be9d3, 0x275a6eb04a0ecb37, 0x30ec6fa0fec08504)},
        {24, limbs(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15),
         limbs(0xc540772c5968a299, 0xe2e556352af20f97, 0x15ed0a6b8faba5aa, 0x327bdee6fa2b22b6)},
        {36, limbs(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f),
         limbs(0x7d89cddb70217dcd, 0x02ae71d3d04f0b32, 0xfe52151f29c50f99, 0x626bdae6cad79307)},
    };
  return {
      {2, limbs(0x793dbaf54552cd69, 0x5278ecbf17040ea6, 0xc48b36ecc4cab748, 0x33d28a753baee41b), Fr::zero()},
      {4, limbs(0x4650ee190212aa9a, 0xe5113a254d6f5c7e, 0x54013bdaf68ba4c2, 0x09d8207c51ca3f43),
       limbs(0xa31d9dc66a42f972, 0xb5be830aae89db0d, 0xdff9a095d1d40420, 0x466e7819bb809c44)},
      {8, limbs(0x9f0c3c93c3fc894e, 0xe843d4cfba662df1, 0xd69aae8fe1cb63e8, 0x69e61465981ae17e),
       limbs(0x6f2c393786312ee2, 0xadb6da339b87e590, 0xbf626c21fd6cb051, 0x0bb12009ab1fb62a)},
      {11, limbs(0x778af344d8f9e8b7, 0xc94fe2ca3f46d433, 0x07abbcf9b406e8d8, 0x28bb83ff439753c0),
       limbs(0x6d14b130d0fc1ed5, 0x96e16aa48efc68a9, 0xf199e67d4e6e4bc7, 0x5ee31c86cd42e810)},
      {16, limbs(0x3cc2664c5fd6ae07, 0xd7431eaaa5e43189, 0x43ba5f418c6ef01d, 0x68d7856395aa217e),
       limbs(0x7dbe8ac03eb7fb25, 0xeb53bd55f5095e4e, 0x5bc3390694ee8251, 0x4611720250274a29)},
      {24, limbs(0x1df1da58827cb39d, 0x0566756b7b80fb10, 0x222eb82c6666be3d, 0x086e4e81a35bfd92),
       limbs(0xe2ed71355cbe9268, 0x2400a67b915b45fa, 0xaa5f37dd1685188e, 0x1075afe1e62be162)},
      {36, limbs(0x636401e9371dc311, 0x8f69e35a702ed188, 0x64d73b2ddc03d43b, 0x609f8c6fe45cc054),
       limbs(0x8d6f2e5faf077152, 0xd3cd55eeec46751a, 0x4fc92a1baa0ee777, 0x4ed7c0e22446987f)},
  };
}

TEST(PoseidonNative, NeptuneKnownAnswers) {
  for (auto strength : {PoseidonStrength::Standard, PoseidonStrength::Strengthened}) {
    for (const auto& k : neptune_kats(strength)) {
      const auto merkle = make_poseidon_constants(k.arity, PoseidonTag::merkle_tree(), strength);
      EXPECT_EQ(poseidon_hash(merkle, counting(k.arity)), k.merkle) << "arity " << k.arity;
      if (k.arity < 4) continue;  // neptune checks ConstantLength(4) below arity 4 with its sponge
      const auto constant = make_poseidon_constants(k.arity, PoseidonTag::constant_length(4), strength);
      EXPECT_EQ(poseidon_hash(constant, counting(4)), k.constant) << "constant length, arity " << k.arity;
    }
  }
}

// The optimized hash (compressed keys, sparse matrices) equals the textbook permutation
// (poseidon_alt.rs hash_correct) on the uncompressed constants, for every tag and arity.
TEST(PoseidonNative, EqualsPlainPermutation) {
  std::mt19937_64 rng(11);
  auto plain = [](const PoseidonConstants& c, std::span<const Fr> in) {
    gadgets::PoseidonParams<Fr> p;
    p.t = c.width;
    p.full_rounds = c.full_rounds;
    p.partial_rounds = c.partial_rounds;
    p.round_constants = c.round_constants;
    p.mds = c.m.a;
    p.first = c.domain_tag;
    p.output = 1;
    return gadgets::poseidon_hash_native<Fr>(p, in);
  };
  for (std::size_t arity : {2u, 4u, 8u, 11u, 16u, 24u, 36u}) {
    const auto in = random_vec<Fr>(arity, rng);
    EXPECT_EQ(poseidon_hash(poseidon_constants(arity), in), plain(poseidon_constants(arity), in)) << arity;
  }
  const auto in = random_vec<Fr>(2, rng);
  EXPECT_EQ(poseidon_hash(poseidon_constants_gen_randomness(), in), plain(poseidon_constants_gen_randomness(), in));
  EXPECT_NE(poseidon_hash(poseidon_constants_gen_randomness(), in), poseidon_hash(poseidon_constants(2), in));
  EXPECT_THROW(poseidon_hash(poseidon_constants(2), random_vec<Fr>(3, rng)), std::invalid_argument);
}

// filecoin-hashers poseidon.rs test_poseidon_hasher: a binary tree over [1, 0, 0, 1]
// (PoseidonDomain bytes are the little-endian canonical limbs).
TEST(PoseidonNative, FilecoinHashersTree) {
  const Fr one = Fr::one(), zero = Fr::zero();
  const Fr i1 = poseidon_hash2(one, zero), i2 = poseidon_hash2(zero, one);
  EXPECT_EQ(i1, limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
  EXPECT_EQ(poseidon_hash2(i1, i2),
            limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

// filecoin-hashers PoseidonFunction::hash_md (arity 36): fold chunks of 35 into the running hash.
Fr hash_md(std::span<const Fr> in) {
  const auto& c = poseidon_constants(36);
  Fr acc = in[0];
  for (std::size_t at = 1; at < in.size(); at += 35) {
    std::vector<Fr> pre(36, Fr::zero());
    pre[0] = acc;
    for (std::size_t k = 0; k < 35 && at + k < in.size(); ++k) pre[k + 1] = in[at + k];
    acc = poseidon_hash(c, pre);
  }
  return acc;
}

const Fr kHashMd71Ones = limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7);

TEST(PoseidonNative, FilecoinHashersHashMd) {
  const std::vector<Fr> ones(71, Fr::one());  // test_hash_md
  EXPECT_EQ(hash_md(ones), kHashMd71Ones);
}

// storage-proofs-update challenges.rs test_challenges_against_hardcoded: the challenges are bits
// of H_genrandomness(comm_r_new, digest_index), comm_r_new drawn from XorShiftRng(TEST_SEED)
// through blstrs Scalar::random (4 u64 little-endian limbs, top bit cleared, rejected if >= r).
struct XorShift128 {  // rand_xorshift 0.3
  std::uint32_t x, y, z, w;
  explicit XorShift128(const std::array<std::uint8_t, 16>& s) {
    auto rd = [&](int i) {
      return std::uint32_t(s[i]) | std::uint32_t(s[i + 1]) << 8 | std::uint32_t(s[i + 2]) << 16 |
             std::uint32_t(s[i + 3]) << 24;
    };
    x = rd(0), y = rd(4), z = rd(8), w = rd(12);
  }
  std::uint32_t next_u32() {
    const std::uint32_t t = x ^ (x << 11);
    x = y, y = z, z = w;
    w = w ^ (w >> 19) ^ (t ^ (t >> 8));
    return w;
  }
  std::uint64_t next_u64() {
    const std::uint64_t lo = next_u32();
    return (std::uint64_t{next_u32()} << 32) | lo;
  }
};

Fr blstrs_random(XorShift128& rng) {
  for (;;) {
    Fr::Repr r{};
    for (auto& l : r) l = rng.next_u64();
    r[3] &= ~std::uint64_t{0} >> 1;
    if (ff::big::cmp(r, Fr::kModulus) < 0) return Fr::from_canonical(r);
  }
}

std::vector<std::uint32_t> update_challenges(std::uint64_t sector_nodes, const Fr& comm_r_new, std::uint64_t k,
                                             std::size_t n) {
  const std::uint64_t partitions = sector_nodes <= (1u << 8) ? 1 : sector_nodes <= (1u << 10) ? 2
                                   : sector_nodes <= (1u << 19) ? 4 : 16;
  const std::uint64_t count = sector_nodes <= (1u << 19) ? 10 : 86;
  const auto bits_per = static_cast<std::size_t>(__builtin_ctzll(sector_nodes) - __builtin_ctzll(partitions));
  const std::size_t per_digest = kFrCapacity / bits_per;
  std::uint64_t digest_index = k * ((count + per_digest - 1) / per_digest);
  std::vector<std::uint32_t> out;
  Fr::Repr digest{};
  for (std::size_t i = 0; out.size() < n;) {
    if (i == 0) {
      const Fr in[2] = {comm_r_new, Fr::from_u64(digest_index)};
      digest = poseidon_hash(poseidon_constants_gen_randomness(), in).to_canonical();
    }
    std::uint32_t c = 0;
    for (std::size_t b = 0; b < bits_per; ++b) {
      const std::size_t bit = i * bits_per + b;
      if ((digest[bit / 64] >> (bit % 64)) & 1) c |= std::uint32_t{1} << b;
    }
    out.push_back(c | static_cast<std::uint32_t>(k << bits_per));
    if (++i == per_digest) i = 0, ++digest_index;
  }
  return out;
}

TEST(PoseidonNative, GenRandomnessUpdateChallenges) {
  XorShift128 rng({0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d, 0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5});
  const Fr comm_r_new = blstrs_random(rng);
  struct Case {
    std::uint64_t nodes, k;
    std::vector<std::uint32_t> want;
  };
  const Case cases[] = {
      {1u << 5, 0, {21, 7, 3, 31, 0}},
      {1u << 8, 0, {245, 140, 15, 128, 28}},
      {1u << 9, 1, {286, 308, 493, 510, 508}},
      {1u << 10, 1, {542, 666, 955, 927, 911}},
      {1u << 18, 1, {78878, 130797, 112892, 93994, 78379}},
      {1u << 24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {1u << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {1u << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
      {1u << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
      {1ull << 31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
  };
  for (const auto& c : cases)
    EXPECT_EQ(update_challenges(c.nodes, comm_r_new, c.k, 5), c.want) << "nodes " << c.nodes << " k " << c.k;
}

// ------------------------------------------------------------------------------------------
// Circuit

TEST(PoseidonCircuit, CountsAndKnownAnswers) {
  // circuit.rs test_poseidon_hash: Standard and Strengthened counts per arity.
  const std::pair<std::size_t, std::size_t> standard[] = {{2, 311}, {4, 377}, {8, 505}, {11, 598},
                                                          {16, 761}, {24, 1009}, {36, 1385}};
  const std::pair<std::size_t, std::size_t> strengthened[] = {{2, 367},  {4, 433},   {8, 565},
                                                              {16, 821}, {24, 1069}, {36, 1445}};
  auto kats = neptune_kats(PoseidonStrength::Standard);
  for (auto [arity, n] : standard) {
    const auto& c = poseidon_constants(arity);
    Fr got = Fr::zero();
    HashCircuit circ{&c, counting(arity), &got};
    auto rep = test::expect_modes_agree<Fr>(circ);
    EXPECT_EQ(rep.constraints, n) << "arity " << arity;
    EXPECT_EQ(rep.constraints, expected_constraints(c)) << "arity " << arity;
    EXPECT_EQ(rep.aux, arity + n);  // one new wire per constraint
    for (const auto& k : kats) {
      if (k.arity == arity) {
        EXPECT_EQ(got, k.merkle) << "arity " << arity;
      }
    }
  }
  auto skats = neptune_kats(PoseidonStrength::Strengthened);
  for (auto [arity, n] : strengthened) {
    const auto c = make_poseidon_constants(arity, PoseidonTag::merkle_tree(), PoseidonStrength::Strengthened);
    Fr got = Fr::zero();
    HashCircuit circ{&c, counting(arity), &got};
    cs::CheckCS<Fr> k;
    circ.synthesize(k);
    EXPECT_TRUE(k.is_satisfied());
    EXPECT_EQ(k.num_constraints(), n) << "strengthened arity " << arity;
    for (const auto& kat : skats) {
      if (kat.arity == arity) {
        EXPECT_EQ(got, kat.merkle) << "strengthened arity " << arity;
      }
    }
  }
}

TEST(PoseidonCircuit, RandomInputsEqualNativeAndModesAgree) {
  std::mt19937_64 rng(5);
  for (std::size_t arity : {2u, 4u, 8u, 11u}) {
    const auto& c = poseidon_constants(arity);
    const auto in = random_vec<Fr>(arity, rng);
    Fr got = Fr::zero();
    HashCircuit circ{&c, in, &got};
    test::expect_modes_agree<Fr>(circ);
    EXPECT_EQ(got, poseidon_hash(c, in)) << arity;
    // Witness mode (values only, no linear combinations) assigns every aux wire as check mode does.
    cs::WitnessCS<Fr> w;
    circ.synthesize(w);
    cs::CheckCS<Fr> k;
    circ.synthesize(k);
    ASSERT_EQ(w.assignment().aux.size(), k.assignment().aux.size());
    for (std::size_t i = 0; i < w.assignment().aux.size(); ++i)
      ASSERT_EQ(w.assignment().aux[i], k.assignment().aux[i]) << "arity " << arity << " aux " << i;
    test::expect_faults_caught<Fr>(circ, 6, arity);
  }
}

TEST(PoseidonCircuit, CustomTagAndHash2) {
  std::mt19937_64 rng(9);
  const auto in = random_vec<Fr>(2, rng);
  Fr got = Fr::zero();
  HashCircuit circ{&poseidon_constants_gen_randomness(), in, &got};
  auto rep = test::expect_modes_agree<Fr>(circ);
  EXPECT_EQ(rep.constraints, 311u);
  EXPECT_EQ(got, poseidon_hash(poseidon_constants_gen_randomness(), in));

  // storage-proofs-porep stacked/circuit/hash.rs test_hash2_circuit: 311 constraints, equal to hash2.
  auto h2 = [&](auto& cs) {
    AllocatedNum a, b;
    {
      cs::Namespace ns(cs, "a");
      a = AllocatedNum::alloc(cs, "num", [&] { return in[0]; });
    }
    {
      cs::Namespace ns(cs, "b");
      b = AllocatedNum::alloc(cs, "num", [&] { return in[1]; });
    }
    cs::Namespace ns(cs, "hash2");
    AllocatedNum h = hash2_circuit(cs, a, b);
    if constexpr (std::remove_reference_t<decltype(cs)>::kHasValues) got = h.value();
  };
  rep = test::expect_modes_agree<Fr>(h2);
  EXPECT_EQ(rep.constraints, 311u);
  EXPECT_EQ(got, poseidon_hash2(in[0], in[1]));

  auto bad = [&](auto& cs) {
    AllocatedNum a = AllocatedNum::alloc(cs, "a", [&] { return in[0]; });
    std::vector<AllocatedNum> three(3, a);
    poseidon_hash_circuit(cs, std::span<const AllocatedNum>(three), poseidon_constants(2));
  };
  cs::WitnessCS<Fr> w;
  EXPECT_THROW(bad(w), std::invalid_argument);
}

// filecoin-hashers test_hash_md_circuit: 71 ones through arity-36 hash_md_circuit, 2770
// constraints (two hashes of 1385) and the native digest.
TEST(PoseidonCircuit, HashMdArity36) {
  Fr got = Fr::zero();
  auto circ = [&](auto& cs) {
    std::vector<AllocatedNum> xs;
    for (int i = 0; i < 71; ++i) xs.push_back(AllocatedNum::alloc(cs, "input", [] { return Fr::one(); }));
    AllocatedNum h = xs[0];
    std::vector<AllocatedNum> pre(36);
    for (std::size_t at = 1, n = 0; at < xs.size(); at += 35, ++n) {
      pre[0] = h;
      for (std::size_t k = 0; k < 35; ++k) pre[k + 1] = xs.at(at + k);  // 70 = 2 · 35: no padding
      cs::Namespace ns(cs, [n] { return "hash md " + std::to_string(n); });
      h = poseidon_hash_circuit(cs, std::span<const AllocatedNum>(pre), poseidon_constants(36));
    }
    if constexpr (std::remove_reference_t<decltype(cs)>::kHasValues) got = h.value();
  };
  cs::CheckCS<Fr> k;
  circ(k);
  EXPECT_TRUE(k.is_satisfied());
  EXPECT_EQ(k.num_constraints(), 2770u);
  EXPECT_EQ(got, kHashMd71Ones);
}

// A wrong wire is caught by the constraint the Rust would name. Aux layout (by the allocation
// order of circuit.rs): the arity inputs, then 3 wires per input S-box of the first round
// (l2, l4, l5), then 4 per S-box after it (allocated input, l2, l4, l5).
TEST(PoseidonCircuit, FaultNamesTheConstraint) {
  const std::size_t arity = 2;
  const auto& c = poseidon_constants(arity);
  const std::size_t w = c.width;
  std::mt19937_64 rng(21);
  HashCircuit circ{&c, random_vec<Fr>(arity, rng)};
  const auto honest = cs::witness<Fr>(circ);
  auto first_failure = [&](std::uint32_t aux) {
    cs::CheckCS<Fr> k;
    k.inject_fault(aux, honest.aux[aux] + Fr::one());
    circ.synthesize(k);
    return k.first_unsatisfied() ? k.first_unsatisfied()->name : std::string("(satisfied)");
  };
  const std::uint32_t first_sbox = arity;  // l2 of input S-box 1
  EXPECT_EQ(first_failure(first_sbox), "first round/quintic s-box 1/(l+rk)^2/squared sum constraint");
  EXPECT_EQ(first_failure(first_sbox + 1), "first round/quintic s-box 1/l^4/squaring constraint");
  EXPECT_EQ(first_failure(first_sbox + 2), "first round/quintic s-box 1/l4 * (l + rk)/mul sum constraint pre-post-add");
  const std::uint32_t round1 = static_cast<std::uint32_t>(arity + 3 * arity);
  EXPECT_EQ(first_failure(round1),
            "initial full round 1/quintic s-box 0/S-box input/enforce num allocation preserves lc");
  const auto partial3 = static_cast<std::uint32_t>(round1 + 4 * w * (c.half_full_rounds - 1) + 4 * 3);
  EXPECT_EQ(first_failure(partial3 + 3),
            "partial round 3/solitary quintic s-box/(l4 * l) + rk)/mul sum constraint post-add");
  EXPECT_EQ(first_failure(static_cast<std::uint32_t>(honest.aux.size() - 2)),
            "terminal full round/quintic s-box 2/(l4 * l) + rk)/mul sum constraint");
  EXPECT_EQ(first_failure(static_cast<std::uint32_t>(honest.aux.size() - 1)),
            "hash result/enforce num allocation preserves lc");
}

// The shape of every row (terms in A, B, C) as bellpepper would record circuit.rs, derived by
// reading it (bellpepper's LinearCombination merges repeated wires; no coefficient here is 0):
//  - first round, per input S-box: squared sum (l + pre)·(l + pre) = l2 -> 2, 2, 1; l2·l2 = l4 ->
//    1, 1, 1; (l + pre)·l4 = l5 - post -> 2, 1, 2.
//  - every later S-box starts with "num allocation": lc·ONE = l where lc is the element's Num:
//    * initial full round 1: m times [tag constant, l5 of each input] -> ONE + arity = width terms;
//    * initial full rounds 2, 3: m (then the pre-sparse matrix) times width wires -> width terms;
//    * partial round p: element 0 = w_hat · state, where state[j>0] accumulates v_rest · l5 of
//      every earlier partial round on top of the width wires of round 3 -> width + p terms;
//    * final full round 0: after the last partial round every element spans those width wires
//      and all R_P partial l5 -> width + R_P terms; later rounds: m times width wires -> width;
//    then l·l = l2, l2·l2 = l4 (1, 1, 1 each) and l·l4 = l5 - key (1, 1, 2), or 1, 1, 1 in the
//    terminal round, which adds no key.
//  - hash result: m column 1 times the terminal l5 wires -> width, 1, 1.
std::vector<std::array<std::size_t, 3>> expected_shape(const PoseidonConstants& c) {
  const std::size_t w = c.width;
  std::vector<std::array<std::size_t, 3>> rows;
  auto sbox = [&](std::size_t alloc_terms, bool keyed) {
    rows.push_back({alloc_terms, 1, 1});
    rows.push_back({1, 1, 1});
    rows.push_back({1, 1, 1});
    rows.push_back({1, 1, keyed ? 2u : 1u});
  };
  for (std::size_t i = 1; i < w; ++i) {
    rows.push_back({2, 2, 1});
    rows.push_back({1, 1, 1});
    rows.push_back({2, 1, 2});
  }
  for (std::size_t r = 1; r < c.half_full_rounds; ++r)
    for (std::size_t i = 0; i < w; ++i) sbox(w, true);
  for (std::size_t p = 0; p < c.partial_rounds; ++p) sbox(w + p, true);
  for (std::size_t r = 0; r + 1 < c.half_full_rounds; ++r)
    for (std::size_t i = 0; i < w; ++i) sbox(r == 0 ? w + c.partial_rounds : w, true);
  for (std::size_t i = 0; i < w; ++i) sbox(w, false);
  rows.push_back({w, 1, 1});
  return rows;
}

TEST(PoseidonCircuit, RowShapesAndOperandsAsCircuitRs) {
  std::mt19937_64 rng(2);
  for (std::size_t arity : {2u, 4u, 8u, 11u}) {
    const auto& c = poseidon_constants(arity);
    HashCircuit circ{&c, random_vec<Fr>(arity, rng)};
    const auto r = cs::record<Fr>(circ);
    const auto want = expected_shape(c);
    ASSERT_EQ(r.num_constraints, want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      const std::array<std::size_t, 3> got = {r.A.row(i).size(), r.B.row(i).size(), r.C.row(i).size()};
      ASSERT_EQ(got, want[i]) << "arity " << arity << " row " << i;
    }
  }

  // Operands of arity 2, wire numbers: 0 = ONE, 1, 2 = inputs, then aux in allocation order.
  const auto& c = poseidon_constants(2);
  const std::size_t w = 3;
  const auto& k = c.compressed_round_constants;
  HashCircuit circ{&c, random_vec<Fr>(2, rng)};
  const auto r = cs::record<Fr>(circ);
  using Terms = std::vector<std::pair<std::uint32_t, Fr>>;
  auto terms = [](const r1cs::CsrMatrix<Fr>& m, std::size_t row) {
    Terms t;
    for (std::size_t q = 0; q < m.row(row).size(); ++q) t.emplace_back(m.row(row).cols[q], m.row(row).vals[q]);
    return t;
  };
  // S-box of input 1: l2 = 3, l4 = 4, l5 = 5. squared sum: A = B = x1 + pre1, C = l2.
  EXPECT_EQ(terms(r.A, 0), (Terms{{0, k[1]}, {1, Fr::one()}}));
  EXPECT_EQ(terms(r.B, 0), (Terms{{0, k[1]}, {1, Fr::one()}}));
  EXPECT_EQ(terms(r.C, 0), (Terms{{3, Fr::one()}}));
  // mul_sum pre-post-add: A = b + pre (b = the input), B = a (= l4), C = res - post.
  EXPECT_EQ(terms(r.A, 2), (Terms{{0, k[1]}, {1, Fr::one()}}));
  EXPECT_EQ(terms(r.B, 2), (Terms{{4, Fr::one()}}));
  EXPECT_EQ(terms(r.C, 2), (Terms{{0, -k[w + 1]}, {5, Fr::one()}}));
  // Initial full round 1, S-box 0: its Num is column 0 of m times [tag S-box constant, l5(1), l5(2)].
  const Fr t0 = c.domain_tag + k[0];
  const Fr tag_sbox = t0.square().square() * t0 + k[w];
  EXPECT_EQ(terms(r.A, 6), (Terms{{0, c.m.at(0, 0) * tag_sbox}, {5, c.m.at(1, 0)}, {8, c.m.at(2, 0)}}));
  EXPECT_EQ(terms(r.B, 6), (Terms{{0, Fr::one()}}));
  EXPECT_EQ(terms(r.C, 6), (Terms{{9, Fr::one()}}));
  // Its mul_sum (post-add): A = l, B = l4, C = l5 - post, with post the round's first key.
  EXPECT_EQ(terms(r.A, 9), (Terms{{9, Fr::one()}}));
  EXPECT_EQ(terms(r.B, 9), (Terms{{11, Fr::one()}}));
  EXPECT_EQ(terms(r.C, 9), (Terms{{0, -k[2 * w]}, {12, Fr::one()}}));
  // Partial round 0's allocation: column 0 of the (non-symmetric) pre-sparse matrix times the
  // l5 wires of initial full round 3, which are wires 9 + 4·(2w + i) + 3.
  const std::size_t p0 = 3 * 2 + 4 * w * 3;
  Terms want;
  for (std::size_t i = 0; i < w; ++i)
    want.emplace_back(static_cast<std::uint32_t>(9 + 4 * (2 * w + i) + 3), c.pre_sparse_matrix.at(i, 0));
  EXPECT_EQ(terms(r.A, p0), want);
  EXPECT_NE(c.pre_sparse_matrix.at(1, 0), c.pre_sparse_matrix.at(0, 1));
}

// Witness generation speed (run with --gtest_also_run_disabled_tests): 100k arity-8 hashes, each
// fed by the previous digests, into one WitnessCS. Prints wall and this thread's CPU time (the
// latter is what a single core costs when the machine is shared).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

TEST(PoseidonCircuit, DISABLED_WitnessThroughputArity8) {
  const auto& c = poseidon_constants(8);
  std::mt19937_64 rng(1);
  const auto in = random_vec<Fr>(8, rng);
  constexpr int kHashes = 100000;
  auto report = [](const char* what, auto&& body) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    body();
    const double cpu = thread_cpu_seconds() - c0;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-34s wall %.3f s, cpu %.3f s (%.2f us/hash cpu)\n", what, wall, cpu, cpu * 1e6 / kHashes);
  };
  cs::WitnessCS<Fr> w;
  std::vector<AllocatedNum> xs;
  for (std::size_t i = 0; i < 8; ++i) xs.push_back(AllocatedNum::alloc(w, "in", [&] { return in[i]; }));
  report("witness, growing aux storage", [&] {
    for (int n = 0; n < kHashes; ++n) xs[n % 8] = poseidon_hash_circuit(w, std::span<const AllocatedNum>(xs), c);
  });
  w = cs::WitnessCS<Fr>();  // again, with the assignment reserved up front
  w.reserve(std::size_t{kHashes} * 505 + 8);
  for (std::size_t i = 0; i < 8; ++i) xs[i] = AllocatedNum::alloc(w, "in", [&] { return in[i]; });
  report("witness, aux storage reserved", [&] {
    for (int n = 0; n < kHashes; ++n) xs[n % 8] = poseidon_hash_circuit(w, std::span<const AllocatedNum>(xs), c);
  });
  EXPECT_EQ(w.num_aux(), std::size_t{kHashes} * 505 + 8);
  std::vector<Fr> st = in;
  report("native poseidon_hash, 100k", [&] {
    for (int n = 0; n < kHashes; ++n) st[n % 8] = poseidon_hash(c, st);
  });
  EXPECT_EQ(st[(kHashes - 1) % 8], xs[(kHashes - 1) % 8].value());
}

}  // namespace
