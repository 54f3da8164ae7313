// The device NTT's pass code run on the CPU: ntt_pass_block (src/gpu/ntt_pass_body.cuh, the
// body of ntt_pass_kernel) for every block of every pass of a plan (plan_ntt_passes), one
// thread per block, against cuzk::poly, bit for bit: Cooley-Tukey passes (natural in,
// bit-reversed out; also with the coset's scaling on the first pass) and Gentleman-Sande
// passes (bit-reversed in, natural out), radix 2 and 4, several pass shapes and sizes (tiles of
// 2^10 and 2^11 through the kernel's instances for them), with the full twiddle table and the
// compact one (the first 2^(log n - 4) twiddles and a second table that the top three levels'
// are composed with: NttPlan, TwiddleTable::kCompact). Needs no GPU (CI); on the portable
// arithmetic and (gpu_ntt_pass_twin_ptx_emu_test) on the device's PTX instruction sequence,
// emulated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/ff/fields.hpp"
#include "cuzk/gpu/dev_params.cuh"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/tuning.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/poly/ntt.hpp"
#include "ntt_pass_body.cuh"
#include "ntt_passes.hpp"
#include "support/random_vec.hpp"
#include "vec_util.hpp"

namespace {

using namespace cuzk;
using gpu::TwiddleTable;
using test::first_diff;
using test::random_vec;

// NttPlan's twiddle tables, built on the host: lo[k] = w^bitrev(k) over log n - 1 bits for
// k < 2^lo_bits, hi[j] = w^bitrev(j) over the remaining bits (compact only).
template <class F>
struct Tables {
  std::vector<F> lo, hi;
  int lo_bits = 0;
};

template <class F>
Tables<F> tables_of(int log_n, TwiddleTable t) {
  const int top = gpu::twiddle_index_bits(static_cast<std::size_t>(log_n));
  Tables<F> tb;
  tb.lo_bits = gpu::twiddle_lo_bits(static_cast<std::size_t>(log_n), t);
  const int hi_bits = top - tb.lo_bits;
  std::vector<F> pw(std::size_t{1} << top);
  const F w = F::root_of_unity(static_cast<std::size_t>(log_n));
  pw[0] = F::one();
  for (std::size_t e = 1; e < pw.size(); ++e) pw[e] = pw[e - 1] * w;
  for (std::uint64_t k = 0; k < (std::uint64_t{1} << tb.lo_bits); ++k) tb.lo.push_back(pw[gpu::kern::bitrev(k, top)]);
  if (hi_bits > 0)
    for (std::uint64_t j = 0; j < (std::uint64_t{1} << hi_bits); ++j) tb.hi.push_back(pw[gpu::kern::bitrev(j, hi_bits)]);
  return tb;
}

// An input scaling of the first pass: none, or x_g * tab(g) (kern::kScaleIndex) with tab's host
// tables (a PowerTable's: lo[i mod 2^bits] * hi[i >> bits]).
template <class F>
struct Scale {
  int map = gpu::kern::kScaleNone;
  std::vector<F> lo, hi;
  int bits = 0;
};

// One block, with the tile size a constant where the device's kernel has it one (2^10, 2^11).
template <class F, bool kGs, bool kR4, bool kSplit>
void run_block(std::uint64_t block, std::uint32_t* sm, gpu::DevField<F>* x, int log_n, const gpu::NttPass& p,
               const Tables<F>& tb, const Scale<F>& sc, bool first, bool last) {
  using D = gpu::DevField<F>;
  auto dv = [](const std::vector<F>& v) { return v.empty() ? nullptr : reinterpret_cast<const D*>(v.data()); };
  const gpu::kern::Twiddles<D, kSplit> tw{dv(tb.lo), kSplit ? dv(tb.hi) : nullptr, tb.lo_bits};
  const gpu::kern::PowTab<D> tab{dv(sc.lo), dv(sc.hi), sc.bits};
  const int map = first ? sc.map : gpu::kern::kScaleNone;
  switch (p.t + p.log_c) {
    case 10:
      return gpu::kern::ntt_pass_block<D, kGs, 10, kR4, kSplit>(block, 0, 1, sm, x, log_n, p.s, p.t, p.log_c, tw, map,
                                                                 tab, last);
    case 11:
      return gpu::kern::ntt_pass_block<D, kGs, 11, kR4, kSplit>(block, 0, 1, sm, x, log_n, p.s, p.t, p.log_c, tw, map,
                                                                 tab, last);
    default:
      return gpu::kern::ntt_pass_block<D, kGs, 0, kR4, kSplit>(block, 0, 1, sm, x, log_n, p.s, p.t, p.log_c, tw, map,
                                                                tab, last);
  }
}

template <class F, bool kGs, bool kR4>
void run_block_of(bool split, std::uint64_t block, std::uint32_t* sm, gpu::DevField<F>* x, int log_n,
                  const gpu::NttPass& p, const Tables<F>& tb, const Scale<F>& sc, bool first, bool last) {
  if (split) run_block<F, kGs, kR4, true>(block, sm, x, log_n, p, tb, sc, first, last);
  else run_block<F, kGs, kR4, false>(block, sm, x, log_n, p, tb, sc, first, last);
}

// The pass set in place on x, as NttPlan::passes runs it (the split kernel only for passes
// that compose twiddles; the scaling on the first pass). Returns how many passes composed.
template <class F>
int run_passes(std::vector<F>& x, int log_n, const gpu::NttPassShape& shape, const Tables<F>& tb, bool gs,
               const Scale<F>& sc = {}) {
  using D = gpu::DevField<F>;
  static_assert(sizeof(D) == sizeof(F));
  auto plan = gpu::plan_ntt_passes(log_n, shape);
  if (gs) std::reverse(plan.begin(), plan.end());
  D* xd = reinterpret_cast<D*>(x.data());
  int composed = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const gpu::NttPass& p = plan[i];
    const std::uint64_t tile = std::uint64_t{1} << (p.t + p.log_c);
    std::vector<std::uint32_t> sm(tile * D::N);
    const bool split = !tb.hi.empty() && gpu::pass_composes_twiddles(p, tb.lo_bits);
    composed += split;
    const bool first = i == 0, last = i + 1 == plan.size();
    for (std::uint64_t b = 0; b < (std::uint64_t{1} << log_n) / tile; ++b) {
      if (gs) {
        if (shape.radix == 4) run_block_of<F, true, true>(split, b, sm.data(), xd, log_n, p, tb, sc, first, last);
        else run_block_of<F, true, false>(split, b, sm.data(), xd, log_n, p, tb, sc, first, last);
      } else {
        if (shape.radix == 4) run_block_of<F, false, true>(split, b, sm.data(), xd, log_n, p, tb, sc, first, last);
        else run_block_of<F, false, false>(split, b, sm.data(), xd, log_n, p, tb, sc, first, last);
      }
    }
  }
  return composed;
}

// The powers g^i, i < 2^log_n, as a PowerTable's two tables (scale kScaleIndex).
template <class F>
Scale<F> powers_of(const F& g, int log_n) {
  Scale<F> sc;
  sc.map = gpu::kern::kScaleIndex;
  sc.bits = (log_n + 1) / 2;
  F p = F::one();
  for (int j = 0; j < (1 << sc.bits); ++j) sc.lo.push_back(p), p = p * g;
  F q = F::one();  // p = g^(2^bits)
  for (int j = 0; j < (1 << (log_n - sc.bits)); ++j) sc.hi.push_back(q), q = q * p;
  return sc;
}

template <class F>
std::vector<F> bit_reversed(const std::vector<F>& v, int log_n) {
  std::vector<F> r(v.size());
  for (std::uint64_t i = 0; i < v.size(); ++i) r[gpu::kern::bitrev(i, log_n)] = v[i];
  return r;
}

template <class F>
class NttPassTwin : public ::testing::Test {};
using Fields = ::testing::Types<ff::bls12_381::Fr, ff::bn254::Fr>;
TYPED_TEST_SUITE(NttPassTwin, Fields);

TYPED_TEST(NttPassTwin, PassesMatchCpuWithBothTwiddleTables) {
  using F = TypeParam;
  std::mt19937_64 rng(41 + sizeof(F));
  const gpu::NttPassShape shapes[] = {{11, 8, 3, 4}, {10, 9, 1, 4}, {4, 3, 2, 4},
                                      {1, 1, 0, 4},  {2, 5, 2, 2},  {11, 8, 3, 2}};
  int composed = 0;
  for (const TwiddleTable tt : {TwiddleTable::kFull, TwiddleTable::kCompact})
    for (const auto& sh : shapes)
      for (const int k : {1, 2, 3, 4, 5, 8, 11, 13}) {
        SCOPED_TRACE(std::string(tt == TwiddleTable::kCompact ? "compact" : "full") + " twiddles, 2^" +
                     std::to_string(k) + ", passes " + gpu::ntt_pass_shape_text(sh));
        const auto d = poly::EvaluationDomain<F>::from_log_size(static_cast<std::size_t>(k));
        const Tables<F> tb = tables_of<F>(k, tt);
        if (tt == TwiddleTable::kCompact && k > 4) {
          ASSERT_EQ(tb.lo.size(), std::size_t{1} << (k - 4));
          ASSERT_EQ(tb.hi.size(), 8u);
        }
        const std::vector<F> x = random_vec<F>(d.size(), rng);
        std::vector<F> want = x;
        poly::ntt<F>(d, want);
        // Cooley-Tukey: natural in, bit-reversed out.
        std::vector<F> got = x;
        composed += run_passes<F>(got, k, sh, tb, false);
        long i = first_diff(got, bit_reversed(want, k));
        ASSERT_EQ(i, -1) << "Cooley-Tukey passes differ at " << i;
        // Gentleman-Sande: bit-reversed in, natural out.
        got = bit_reversed(x, k);
        run_passes<F>(got, k, sh, tb, true);
        i = first_diff(got, want);
        ASSERT_EQ(i, -1) << "Gentleman-Sande passes differ at " << i;
        // The coset: the first pass scales x_g by g^g (NttPlan::coset_forward).
        const F g = F::from_u64(7);
        std::vector<F> coset = x;
        poly::coset_ntt<F>(d, coset, g);
        got = x;
        run_passes<F>(got, k, sh, tb, false, powers_of(g, k));
        i = first_diff(got, bit_reversed(coset, k));
        ASSERT_EQ(i, -1) << "coset Cooley-Tukey passes differ at " << i;
      }
  EXPECT_GT(composed, 0) << "no pass composed a twiddle";
}

// A 2^16 transform in the default shape: the composing levels inside the final pass of 11.
TYPED_TEST(NttPassTwin, Compact2To16InTheDefaultShape) {
  using F = TypeParam;
  std::mt19937_64 rng(16);
  const int k = 16;
  const auto d = poly::EvaluationDomain<F>::from_log_size(k);
  const std::vector<F> x = random_vec<F>(d.size(), rng);
  std::vector<F> want = x;
  poly::ntt<F>(d, want);
  std::vector<F> got = x;
  EXPECT_EQ(run_passes<F>(got, k, gpu::NttPassShape{}, tables_of<F>(k, TwiddleTable::kCompact), false), 1);
  EXPECT_EQ(first_diff(got, bit_reversed(want, k)), -1);
}

}  // namespace
