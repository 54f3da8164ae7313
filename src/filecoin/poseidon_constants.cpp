// neptune 11's Poseidon constants and its optimized native hash (see poseidon_constants.hpp).
// Round constants (Grain LFSR) and the Cauchy MDS matrix are the ones cuzk's generic neptune
// parameters already produce (gadgets/poseidon_neptune.hpp, checked against neptune's known
// answers); what is Filecoin-specific here is the preprocessing the legacy circuit consumes.
#include "cuzk/filecoin/poseidon_constants.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuzk/gadgets/poseidon_neptune.hpp"

namespace cuzk::filecoin {

namespace {

using Matrix = PoseidonMatrix;

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("neptune Poseidon: " + what); }

// R_P for Strength::Standard by width, from neptune round_numbers.rs (its test of known values;
// R_F is 8 throughout). Strengthened adds 25%, rounded up (round_numbers_strengthened).
std::size_t partial_rounds_for(std::size_t arity, PoseidonStrength s) {
  std::size_t rp = 0;
  const std::size_t t = arity + 1;
  if (t >= 2 && t <= 3) rp = 55;
  else if (t >= 4 && t <= 7) rp = 56;
  else if (t >= 8 && t <= 15) rp = 57;
  else if (t == 16 || t == 17 || t == 25) rp = 59;
  else if (t == 37) rp = 60;
  else fail("unsupported arity " + std::to_string(arity) + " (1..16, 24, 36)");
  return s == PoseidonStrength::Standard ? rp : (rp * 5 + 3) / 4;
}

// matrix.rs apply_matrix: the row vector v times m, r[j] = sum_i m[i][j] · v[i].
std::vector<Fr> apply_matrix(const Matrix& m, std::span<const Fr> v) {
  std::vector<Fr> r(m.n, Fr::zero());
  for (std::size_t j = 0; j < m.n; ++j)
    for (std::size_t i = 0; i < m.n; ++i) r[j] += m.at(i, j) * v[i];
  return r;
}

Matrix mat_mul(const Matrix& a, const Matrix& b) {
  Matrix c(a.n);
  for (std::size_t i = 0; i < a.n; ++i)
    for (std::size_t k = 0; k < a.n; ++k) {
      const Fr& x = a.at(i, k);
      for (std::size_t j = 0; j < a.n; ++j) c.at(i, j) += x * b.at(k, j);
    }
  return c;
}

// The inverse is unique, so any elimination order gives neptune's (matrix.rs invert) result.
Matrix invert(Matrix m) {
  const std::size_t n = m.n;
  Matrix inv(n);
  for (std::size_t i = 0; i < n; ++i) inv.at(i, i) = Fr::one();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t p = col;
    while (p < n && m.at(p, col).is_zero()) ++p;
    if (p == n) fail("singular matrix");
    if (p != col)
      for (std::size_t j = 0; j < n; ++j) std::swap(m.at(p, j), m.at(col, j)), std::swap(inv.at(p, j), inv.at(col, j));
    const Fr s = m.at(col, col).inverse();
    for (std::size_t j = 0; j < n; ++j) m.at(col, j) *= s, inv.at(col, j) *= s;
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || m.at(r, col).is_zero()) continue;
      const Fr f = m.at(r, col);
      for (std::size_t j = 0; j < n; ++j) m.at(r, j) -= f * m.at(col, j), inv.at(r, j) -= f * inv.at(col, j);
    }
  }
  return inv;
}

// mds.rs make_prime: [[1, 0], [0, m_hat]].
Matrix make_prime(const Matrix& m) {
  Matrix p(m.n);
  p.at(0, 0) = Fr::one();
  for (std::size_t i = 1; i < m.n; ++i)
    for (std::size_t j = 1; j < m.n; ++j) p.at(i, j) = m.at(i, j);
  return p;
}

// mds.rs make_double_prime as its SparseMatrix: first row [m00, v] with v = m[0][1..], first
// column below it w_hat = w · m_hat^-1 for w = m[1..][0], identity elsewhere.
PoseidonSparseMatrix make_double_prime(const Matrix& m) {
  const std::size_t n = m.n;
  Matrix m_hat(n - 1);
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t j = 1; j < n; ++j) m_hat.at(i - 1, j - 1) = m.at(i, j);
  std::vector<Fr> w(n - 1);
  for (std::size_t i = 1; i < n; ++i) w[i - 1] = m.at(i, 0);
  const std::vector<Fr> w_hat = apply_matrix(invert(std::move(m_hat)), w);
  PoseidonSparseMatrix s;
  s.w_hat.reserve(n);
  s.w_hat.push_back(m.at(0, 0));
  s.w_hat.insert(s.w_hat.end(), w_hat.begin(), w_hat.end());
  s.v_rest.assign(m.a.begin() + 1, m.a.begin() + static_cast<std::ptrdiff_t>(n));
  return s;
}

// mds.rs factor_to_sparse_matrices: starting from m, repeatedly factor the current matrix as
// M' · M'' and carry m · M' to the round before; the last carried matrix is pre_sparse and the
// M'' are applied in reverse order of production (last factored = first partial round).
void factor_to_sparse(PoseidonConstants& c) {
  Matrix cur = c.m;
  std::vector<PoseidonSparseMatrix> rev;
  rev.reserve(c.partial_rounds);
  for (std::size_t r = 0; r < c.partial_rounds; ++r) {
    rev.push_back(make_double_prime(cur));
    cur = mat_mul(c.m, make_prime(cur));
  }
  c.pre_sparse_matrix = std::move(cur);
  c.sparse_matrices.assign(rev.rbegin(), rev.rend());
}

// preprocessing.rs compress_round_constants with every partial round preprocessed: round 0's keys
// unchanged (added before the first S-boxes), then each key row pushed back through m^-1 so it is
// added after the previous S-box layer; the partial rounds' rows are folded backwards from the
// first final full round, leaving one key (for the single S-box) per partial round.
void compress_round_constants(PoseidonConstants& c, const Matrix& m_inv) {
  const std::size_t w = c.width, half = c.half_full_rounds, rp = c.partial_rounds;
  auto keys = [&](std::size_t r) { return std::span<const Fr>(c.round_constants).subspan(r * w, w); };
  auto& out = c.compressed_round_constants;
  out.clear();
  out.reserve(w * c.full_rounds + rp);
  out.insert(out.end(), keys(0).begin(), keys(0).end());
  for (std::size_t i = 0; i + 1 < half; ++i) {
    const auto inv = apply_matrix(m_inv, keys(i + 1));
    out.insert(out.end(), inv.begin(), inv.end());
  }
  const std::size_t final_round = half + rp;
  std::vector<Fr> acc(keys(final_round).begin(), keys(final_round).end());
  std::vector<Fr> partial_keys;  // last partial round first
  partial_keys.reserve(rp);
  for (std::size_t i = 0; i < rp; ++i) {
    std::vector<Fr> inv = apply_matrix(m_inv, acc);
    partial_keys.push_back(inv[0]);
    inv[0] = Fr::zero();
    const auto prev = keys(final_round - i - 1);
    for (std::size_t k = 0; k < w; ++k) acc[k] = prev[k] + inv[k];
  }
  const auto first = apply_matrix(m_inv, acc);
  out.insert(out.end(), first.begin(), first.end());
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());
  for (std::size_t i = 1; i < half; ++i) {
    const auto inv = apply_matrix(m_inv, keys(i + final_round));
    out.insert(out.end(), inv.begin(), inv.end());
  }
}

Fr pow5(const Fr& x) { return x.square().square() * x; }

}  // namespace

Fr PoseidonTag::domain_tag(std::size_t arity) const {
  switch (kind) {
    case Kind::MerkleTree:
      if (arity == 0 || arity > 63) fail("MerkleTree tag needs arity 1..63");
      return Fr::from_u64((std::uint64_t{1} << arity) - 1);
    case Kind::ConstantLength:
      return Fr::from_canonical(Fr::Repr{0, value, 0, 0});
    case Kind::Custom:
      if (value < 1 || value > 256) fail("custom domain tag id out of range 1..256");
      return Fr::from_u64(value << 40);
  }
  fail("unknown tag kind");
}

PoseidonConstants make_poseidon_constants(std::size_t arity, PoseidonTag tag, PoseidonStrength strength) {
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  c.full_rounds = 8;
  c.half_full_rounds = 4;
  c.partial_rounds = partial_rounds_for(arity, strength);
  c.strength = strength;
  c.tag = tag;
  c.domain_tag = tag.domain_tag(arity);
  c.round_constants = gadgets::neptune::grain_round_constants<Fr>(c.width, c.full_rounds, c.partial_rounds);
  c.m.n = c.width;
  c.m.a = gadgets::neptune::cauchy_mds<Fr>(c.width);
  compress_round_constants(c, invert(c.m));
  factor_to_sparse(c);
  return c;
}

const PoseidonConstants& poseidon_constants(std::size_t arity) {
  switch (arity) {
    case 2: { static const auto c = make_poseidon_constants(2); return c; }
    case 4: { static const auto c = make_poseidon_constants(4); return c; }
    case 8: { static const auto c = make_poseidon_constants(8); return c; }
    case 11: { static const auto c = make_poseidon_constants(11); return c; }
    case 16: { static const auto c = make_poseidon_constants(16); return c; }
    case 24: { static const auto c = make_poseidon_constants(24); return c; }
    case 36: { static const auto c = make_poseidon_constants(36); return c; }
    default: fail("no Filecoin constants for arity " + std::to_string(arity) + " (2, 4, 8, 11, 16, 24, 36)");
  }
}

const PoseidonConstants& poseidon_constants_gen_randomness() {
  static const auto c = make_poseidon_constants(2, PoseidonTag::custom(1));
  return c;
}

// poseidon.rs hash_optimized_static: round 0's keys, then S-boxes with the compressed keys added
// after them, and per round the matrix the preprocessing calls for (m, the pre-sparse matrix
// after the last initial full round, a sparse matrix per partial round).
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage) {
  const std::size_t w = c.width;
  const std::size_t want = c.tag.kind == PoseidonTag::Kind::ConstantLength ? c.tag.value : c.arity;
  if (want > c.arity || preimage.size() != want)
    fail("preimage of " + std::to_string(preimage.size()) + " elements for arity " + std::to_string(c.arity));
  std::array<Fr, kPoseidonMaxWidth> s{}, t{};
  s[0] = c.domain_tag;
  for (std::size_t i = 0; i < preimage.size(); ++i) s[i + 1] = preimage[i];
  const Fr* key = c.compressed_round_constants.data();
  for (std::size_t i = 0; i < w; ++i) s[i] += *key++;

  std::size_t round = 0;
  auto mix = [&] {
    const bool sparse = round >= c.half_full_rounds && round < c.half_full_rounds + c.partial_rounds;
    if (!sparse) {
      const Matrix& m = round + 1 == c.half_full_rounds ? c.pre_sparse_matrix : c.m;
      for (std::size_t j = 0; j < w; ++j) {
        Fr acc = Fr::zero();
        for (std::size_t i = 0; i < w; ++i) acc += m.at(i, j) * s[i];
        t[j] = acc;
      }
      s = t;
    } else {
      const PoseidonSparseMatrix& sm = c.sparse_matrices[round - c.half_full_rounds];
      Fr acc = Fr::zero();
      for (std::size_t i = 0; i < w; ++i) acc += sm.w_hat[i] * s[i];
      for (std::size_t j = 1; j < w; ++j) s[j] += sm.v_rest[j - 1] * s[0];
      s[0] = acc;
    }
    ++round;
  };
  auto full = [&](bool last) {
    for (std::size_t i = 0; i < w; ++i) s[i] = last ? pow5(s[i]) : pow5(s[i]) + *key++;
    mix();
  };
  for (std::size_t r = 0; r < c.half_full_rounds; ++r) full(false);
  for (std::size_t r = 0; r < c.partial_rounds; ++r) {
    s[0] = pow5(s[0]) + *key++;
    mix();
  }
  for (std::size_t r = 1; r < c.half_full_rounds; ++r) full(false);
  full(true);
  return s[1];
}

}  // namespace cuzk::filecoin
