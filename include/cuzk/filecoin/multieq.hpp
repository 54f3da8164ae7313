// bellperson's MultiEq (gadgets/multieq.rs): many equalities lhs_k = rhs_k, each between numbers
// below 2^bits_k, packed into one constraint
//   (sum_k 2^{o_k} lhs_k) · ONE = sum_k 2^{o_k} rhs_k,   o_k = bits of the earlier terms,
// as long as the packed numbers stay below 2^CAPACITY (the shifted equalities cannot overflow into
// each other). UInt32::addmany feeds it; sha256_compression_function owns one per block.
//
// When a constraint is emitted ("multieq N", N counting from 0 per MultiEq, under the namespace
// that is current at that moment) is part of the R1CS order the parameters are indexed by:
//   - enforce_equal flushes the pending terms first when the new term would not fit;
//   - the remainder is flushed when the Rust object is dropped. Our finish() is that drop: the
//     owner calls it where the Rust value goes out of scope (sha256_compression_function: after
//     the last addmany, still inside the caller's namespace).
// The destructor is a safety net that mirrors Drop for owners that do not call finish(). It never
// throws: while an exception unwinds (std::uncaught_exceptions() grew since construction) the
// synthesis is abandoned and the pending terms are dropped; otherwise it flushes, and as it is
// noexcept a failure there (out of memory, too many wires) terminates instead of leaving a silently
// short circuit. Call finish() to get such errors as exceptions.
//
// Only systems that look at constraints (CS::kRecords) keep the combinations; the others still
// count the bits and emit each flush (empty), so every mode sees the same constraints in the same
// order (a counting system's totals, a witness system's constraint numbers).
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/filecoin/fr.hpp"

namespace cuzk::filecoin {

namespace multieq_detail {
// 2^k in Fr for k < 256 (computed once).
inline const Fr& pow2(std::size_t k) {
  static const std::array<Fr, 256> table = [] {
    std::array<Fr, 256> t;
    t[0] = Fr::one();
    for (std::size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1].dbl();
    return t;
  }();
  return table.at(k);
}
}  // namespace multieq_detail

template <class CS>
class MultiEq {
 public:
  explicit MultiEq(CS& cs) : cs_(cs), uncaught_(std::uncaught_exceptions()) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  ~MultiEq() {
    if (bits_used_ == 0 || std::uncaught_exceptions() > uncaught_) return;
    flush();
  }

  // The wrapped system: gadgets allocate, enforce and push namespaces on it directly (the Rust
  // MultiEq forwards all of these to its inner system).
  CS& cs() { return cs_; }

  // lhs = rhs, both below 2^num_bits (multieq.rs, enforce_equal).
  void enforce_equal(std::size_t num_bits, const Lc& lhs, const Lc& rhs) {
    if (kFrCapacity <= bits_used_ + num_bits) flush();
    if (kFrCapacity <= bits_used_ + num_bits) throw std::length_error("MultiEq: equality wider than CAPACITY");
    if constexpr (CS::kRecords) {
      const Fr& coeff = multieq_detail::pow2(bits_used_);
      lhs_.add_scaled(lhs, coeff);
      rhs_.add_scaled(rhs, coeff);
    } else {
      (void)lhs, (void)rhs;
    }
    bits_used_ += num_bits;
  }

  // Emits the pending terms, if any (the Rust Drop).
  void finish() {
    if (bits_used_ > 0) flush();
  }

  std::size_t bits_used() const { return bits_used_; }
  std::size_t flushes() const { return ops_; }

 private:
  // multieq.rs, accumulate: lhs · ONE = rhs.
  void flush() {
    const std::size_t ops = ops_;
    Lc lhs = std::exchange(lhs_, Lc());
    Lc rhs = std::exchange(rhs_, Lc());
    bits_used_ = 0;
    ++ops_;
    cs_.enforce([ops] { return "multieq " + std::to_string(ops); }, std::move(lhs), Variable::one(), std::move(rhs));
  }

  CS& cs_;
  int uncaught_;
  std::size_t ops_ = 0;
  std::size_t bits_used_ = 0;
  Lc lhs_, rhs_;
};

}  // namespace cuzk::filecoin
