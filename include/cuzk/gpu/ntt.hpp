// NTTs on the GPU over device-resident data, bit-exact with cuzk::poly (same omega =
// F::root_of_unity(log n); natural order in and out), and the snarkjs H pipeline.
// Instantiated for bls12_381::Fr and bn254::Fr. All work is queued on the default
// stream; call stream_synchronize() (runtime.hpp) before reading results on the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/gpu/ntt_pass_shape.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "cuzk/gpu/tuning.hpp"

namespace cuzk::gpu {

// c * w^i for i < count, served from two small device tables (lo[i mod 2^bits] *
// hi[i >> bits], hi already holding the factor c): one multiplication per lookup.
template <class F>
class PowerTable {
 public:
  PowerTable(const F& w, const F& c, std::uint64_t count);
  const F* lo() const { return lo_.data(); }
  const F* hi() const { return hi_.data(); }
  int bits() const { return bits_; }

 private:
  DeviceBuffer<F> lo_, hi_;
  int bits_ = 0;
};

// How much of its twiddle table (w^bitrev(k), k < n/2) a plan keeps on the device.
//   kFull     all n/2 powers (2 GiB at 2^27).
//   kCompact  the first n/16 (256 MiB at 2^27) and a second table of 8: a twiddle of the top
//             three levels (k >= n/16) is one product of the two (w^bitrev(k) =
//             lo[k mod n/16] * hi[k / (n/16)]), so those levels' butterflies take one product
//             more each: about 3/log n more products per transform. For cards where the key
//             streams and the table's VRAM buys larger chunks (DeviceProvingKey::choose_layout).
enum class TwiddleTable { kFull, kCompact };

// Bits of a 2^log_n plan's twiddle index: its groups are k < 2^twiddle_index_bits (n/2, at least 1).
inline int twiddle_index_bits(std::size_t log_n) { return log_n <= 1 ? 0 : static_cast<int>(log_n) - 1; }
// log2 of a 2^log_n plan's first twiddle table's length: the twiddles of k below it are read as
// they are; the compact table composes the top three levels' (k < 2^(log n - 1)).
inline int twiddle_lo_bits(std::size_t log_n, TwiddleTable t) {
  const int top = twiddle_index_bits(log_n);
  return t == TwiddleTable::kFull ? top : std::max(0, top - 3);
}
// Field elements in a 2^log_n plan's twiddle tables (NttPlan::table_bytes, and the engine's
// figures before a key's field type is at hand).
inline std::size_t twiddle_table_elements(std::size_t log_n, TwiddleTable t) {
  const int lo = twiddle_lo_bits(log_n, t), hi = twiddle_index_bits(log_n) - lo;
  return (std::size_t{1} << lo) + (hi > 0 ? std::size_t{1} << hi : 0);
}

template <class F>
class NttPlan {
 public:
  // Throws std::invalid_argument when 2^log_n exceeds the field's 2-adicity (or 2^31). The pass
  // shape: NttPassShape::for_tuning(log_n, tuning).
  explicit NttPlan(std::size_t log_n, TwiddleTable twiddles = TwiddleTable::kFull, const Tuning& tuning = {})
      : NttPlan(log_n, NttPassShape::for_tuning(log_n, tuning), twiddles, tuning) {}
  // With a given shape (std::invalid_argument when !shape.valid()); of the tuning only its
  // emulated SM counts here (Tuning::emulate_smem_per_sm_kib: the passes' launch sizes).
  NttPlan(std::size_t log_n, NttPassShape shape, TwiddleTable twiddles = TwiddleTable::kFull,
          const Tuning& tuning = {});

  // VRAM of a plan's twiddle tables (what DeviceProvingKey::estimate_bytes counts).
  static std::size_t table_bytes(std::size_t log_n, TwiddleTable t) { return twiddle_table_elements(log_n, t) * sizeof(F); }

  std::size_t log_size() const { return log_n_; }
  const NttPassShape& shape() const { return shape_; }
  TwiddleTable twiddle_table() const { return twiddle_table_; }
  std::size_t size() const { return std::size_t{1} << log_n_; }

  // In place on a device array of size() elements.
  void forward(F* x) const;                                 // poly::ntt
  void inverse(F* x) const;                                 // poly::intt
  void coset_forward(F* x, const F& g) const;               // poly::coset_ntt
  void coset_inverse(F* x, const F& g) const;               // poly::coset_intt
  void inverse_distribute(F* x, const F& g) const;          // poly::intt_distribute
  // With prebuilt tables: g_pows = PowerTable(g, 1, n) for coset_forward,
  // scaled = PowerTable(g, 1/n, n) for inverse_distribute (g^-1 for coset_inverse).
  void coset_forward(F* x, const PowerTable<F>& g_pows) const;
  void inverse_distribute(F* x, const PowerTable<F>& scaled) const;

  // The H pipelines' steps without bit-reversal passes (two shared-memory pass sets each):
  // evaluations over the domain (natural order) -> evaluations over the coset g.domain with
  // position i holding the one at g w^-i; scaled = PowerTable(g, 1/n, n).
  void evals_to_coset_evals_negated(F* x, const PowerTable<F>& scaled) const;
  // That order's coset evaluations -> the polynomial's coefficients in natural order;
  // unscaled = PowerTable(g^-1, 1/n, n).
  void coset_evals_negated_to_coeffs(F* x, const PowerTable<F>& unscaled) const;
  // x_new[i] = x_old[(n - i) mod n].
  void reverse_order(F* x) const;
  // The forward transform left in bit-reversed order: x_new[bitrev(k)] = sum_i x_old[i] w^(ik)
  // (one shared-memory pass set, no permutation pass).
  void forward_bitrev(F* x) const;

 private:
  void core(F* x, const PowerTable<F>* coset) const;  // natural in, bit-reversed out
  // Every pass, Cooley-Tukey (natural in, bit-reversed out) or Gentleman-Sande (bit-reversed
  // in, natural out); the first pass scales its inputs (kern::ScaleMap) by `scale`.
  void passes(F* x, bool gs, int scale_map, const PowerTable<F>* scale) const;
  void bit_reverse(F* x) const;

  std::size_t log_n_;
  NttPassShape shape_;
  TwiddleTable twiddle_table_;
  std::size_t emulate_smem_kib_;  // Tuning::emulate_smem_per_sm_kib (launch_smem_bytes)
  F n_inv_;
  // omega^bitrev(k) over log n - 1 bits (the CPU table), k < 2^twiddle_lo_bits; with kCompact
  // also hi_[j] = omega^bitrev(j) over the remaining bits, so that omega^bitrev(k) for any
  // k < n/2 is twiddles_[k mod 2^lo] * hi_[k >> lo].
  DeviceBuffer<F> twiddles_, hi_;
};

// snarkjs H on device-resident a, b, c (plan.size() elements each, used as scratch):
// a <- q_i = (A*B - C)(omega_{2n}^{2i+1}), equal to poly::compute_h_snarkjs.
template <class F>
void compute_h_snarkjs_device(const NttPlan<F>& plan, F* a, F* b, F* c);

// The same in two arrays (streamed keys, cards with little memory): a, b hold the
// evaluations; after A B is formed in a, c_into(b) must write C's evaluations over the domain
// into b. a <- q, b overwritten.
template <class F>
void compute_h_snarkjs_lean_device(const NttPlan<F>& plan, F* a, F* b, const std::function<void(F*)>& c_into);

// The same from host vectors (zero-padded to 2^domain_log, longer ones rejected):
// one upload of a, b, c, one download of q.
template <class F>
std::vector<F> compute_h_snarkjs(std::size_t domain_log, std::span<const F> a, std::span<const F> b,
                                 std::span<const F> c);

}  // namespace cuzk::gpu
