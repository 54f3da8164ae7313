// Field elements as bellpepper-core 0.2 makes them (gadgets/num.rs): AllocatedNum (a wire and
// its value) and Num (a linear combination and its value). Same constraints, same operand
// order, same allocation order as the original.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/filecoin/boolean.hpp"

namespace cuzk::filecoin {

class AllocatedNum {
 public:
  AllocatedNum() = default;
  AllocatedNum(Variable v, const Fr& value) : var_(v), val_(value) {}

  Variable variable() const { return var_; }
  const Fr& value() const { return val_; }

  // `value` is a callable returning the Fr; it is called only where values are computed.
  template <class CS, cs::NameLike N, class Fn>
  static AllocatedNum alloc(CS& cs, const N& name, Fn&& value) {
    Fr v = Fr::zero();
    if constexpr (CS::kHasValues) v = Fr(value());
    return {cs.alloc(name, [&] { return v; }), v};
  }
  template <class CS, cs::NameLike N, class Fn>
  static AllocatedNum alloc_input(CS& cs, const N& name, Fn&& value) {
    Fr v = Fr::zero();
    if constexpr (CS::kHasValues) v = Fr(value());
    return {cs.alloc_input(name, [&] { return v; }), v};
  }
  template <class CS, cs::NameLike N>
  static AllocatedNum alloc_value(CS& cs, const N& name, const Fr& value) {
    return alloc(cs, name, [&] { return value; });
  }

  // A new input equal to this: input·1 = this.
  template <class CS>
  void inputize(CS& cs) const {
    Variable in = cs.alloc_input("input variable", [&] { return val_; });
    cs.enforce("enforce input is correct", in, Variable::one(), var_);
  }

  // (this + o)·1 = sum
  template <class CS>
  AllocatedNum add(CS& cs, const AllocatedNum& o) const {
    AllocatedNum r = alloc(cs, "sum num", [&] { return val_ + o.val_; });
    cs.enforce("addition constraint", [&] { return Lc(var_) + Lc(o.var_); }, Variable::one(), r.var_);
    return r;
  }
  // this·o = product
  template <class CS>
  AllocatedNum mul(CS& cs, const AllocatedNum& o) const {
    AllocatedNum r = alloc(cs, "product num", [&] { return val_ * o.val_; });
    cs.enforce("multiplication constraint", var_, o.var_, r.var_);
    return r;
  }
  template <class CS>
  AllocatedNum square(CS& cs) const {
    AllocatedNum r = alloc(cs, "squared num", [&] { return val_.square(); });
    cs.enforce("squaring constraint", var_, var_, r.var_);
    return r;
  }
  // this·inv = 1. A zero value allocates inv = 0, which no witness satisfies (bellpepper
  // refuses it at synthesis; check mode names the constraint instead).
  template <class CS>
  void assert_nonzero(CS& cs) const {
    Variable inv = cs.alloc("ephemeral inverse", [&] { return val_.is_zero() ? Fr::zero() : val_.inverse(); });
    cs.enforce("nonzero assertion constraint", var_, inv, Variable::one());
  }

  // (a, b), or (b, a) when the condition is true: (a - b)·cond = a - c, then (b - a)·cond = b - d.
  template <class CS>
  static std::pair<AllocatedNum, AllocatedNum> conditionally_reverse(CS& cs, const AllocatedNum& a,
                                                                    const AllocatedNum& b, const Boolean& cond) {
    const bool swap = cond.value();
    AllocatedNum c;
    {
      cs::Namespace ns(cs, "conditional reversal result 1");
      c = alloc(cs, "num", [&] { return swap ? b.val_ : a.val_; });
    }
    cs.enforce("first conditional reversal", [&] { return Lc(a.var_) - Lc(b.var_); }, [&] { return cond.lc(); },
               [&] { return Lc(a.var_) - Lc(c.var_); });
    AllocatedNum d;
    {
      cs::Namespace ns(cs, "conditional reversal result 2");
      d = alloc(cs, "num", [&] { return swap ? a.val_ : b.val_; });
    }
    cs.enforce("second conditional reversal", [&] { return Lc(b.var_) - Lc(a.var_); }, [&] { return cond.lc(); },
               [&] { return Lc(b.var_) - Lc(d.var_); });
    return {c, d};
  }

  // The 255 bits, least significant first, and sum 2^i bit_i - this = 0 (A = B = 0).
  template <class CS>
  std::vector<Boolean> to_bits_le(CS& cs) const {
    std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, val_);
    cs.enforce("unpacking constraint", [] { return Lc(); }, [] { return Lc(); }, [&] { return packing_lc(bits); });
    return std::vector<Boolean>(bits.begin(), bits.end());
  }

  // The 255 bits, least significant first, constrained to be the canonical representation
  // (below the modulus): bellpepper's runs-of-ones comparison against r - 1.
  template <class CS>
  std::vector<Boolean> to_bits_le_strict(CS& cs) const;

 private:
  Lc packing_lc(const std::vector<AllocatedBit>& le_bits) const {
    Lc lc;
    lc.reserve(le_bits.size() + 1);
    Fr coeff = Fr::one();
    for (const auto& b : le_bits) {
      lc.add(b.variable(), coeff);
      coeff = coeff.dbl();
    }
    lc.add(var_, -Fr::one());
    return lc;
  }

  Variable var_;
  Fr val_ = Fr::zero();
};

namespace num_detail {
// AND of the bits, left to right ("and i" from the second on).
template <class CS>
AllocatedBit kary_and(CS& cs, const std::vector<AllocatedBit>& v) {
  AllocatedBit cur = v.at(0);
  for (std::size_t i = 1; i < v.size(); ++i) {
    cs::Namespace ns(cs, [i] { return "and " + std::to_string(i); });
    cur = AllocatedBit::and_(cs, cur, v[i]);
  }
  return cur;
}
}  // namespace num_detail

template <class CS>
std::vector<Boolean> AllocatedNum::to_bits_le_strict(CS& cs) const {
  // Walk r - 1 from its top set bit down. A 1 of r - 1 allocates a plain bit and extends the
  // current run of ones; a 0 closes the run (AND of its bits and the previous run's result)
  // and allocates a bit forced to 0 when everything above matched r - 1 so far.
  const Fr::Repr rm1 = (-Fr::one()).to_canonical();
  const Fr::Repr a = val_.to_canonical();
  std::vector<AllocatedBit> result;  // big-endian
  result.reserve(kFrNumBits);
  std::vector<AllocatedBit> run;
  std::optional<AllocatedBit> last_run;
  std::size_t i = 0;
  for (std::size_t k = kFrNumBits; k-- > 0;) {
    const bool rb = ((rm1[k / 64] >> (k % 64)) & 1) != 0;
    const bool ab = ((a[k / 64] >> (k % 64)) & 1) != 0;
    if (rb) {
      AllocatedBit bit;
      {
        cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
        bit = AllocatedBit::alloc(cs, "boolean", ab);
      }
      run.push_back(bit);
      result.push_back(bit);
    } else {
      if (!run.empty()) {
        if (last_run) run.push_back(*last_run);
        cs::Namespace ns(cs, [i] { return "run ending at " + std::to_string(i); });
        last_run = num_detail::kary_and(cs, run);
        run.clear();
      }
      cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
      result.push_back(AllocatedBit::alloc_conditionally(cs, "boolean", ab, *last_run));
    }
    ++i;
  }
  std::vector<AllocatedBit> le(result.rbegin(), result.rend());
  cs.enforce("unpacking constraint", [] { return Lc(); }, [] { return Lc(); }, [&] { return packing_lc(le); });
  return std::vector<Boolean>(le.begin(), le.end());
}

// A linear combination with its value (bellpepper's Num). The combination is only built when
// `track` is set (constraint systems that record); values are always kept.
class Num {
 public:
  explicit Num(bool track = true) : track_(track) {}
  template <class CS>
  static Num zero() { return Num(CS::kRecords); }
  template <class CS>
  static Num from(const AllocatedNum& n) {
    Num r(CS::kRecords);
    r.val_ = n.value();
    if (r.track_) r.lc_ = Lc(n.variable());
    return r;
  }

  const Fr& value() const { return val_; }
  // coeff·this
  Lc lc(const Fr& coeff = Fr::one()) const {
    Lc r;
    r.add_scaled(lc_, coeff);
    return r;
  }
  const Lc& raw_lc() const { return lc_; }
  bool tracked() const { return track_; }

  Num& add_bool_with_coeff(const Boolean& bit, const Fr& coeff) {
    if (bit.value()) val_ += coeff;
    if (track_) lc_ += bit.lc(coeff);
    return *this;
  }
  Num& add(const Num& o) {
    val_ += o.val_;
    if (track_) lc_ += o.lc_;
    return *this;
  }
  Num& scale(const Fr& s) {
    val_ *= s;
    if (track_) lc_ *= s;
    return *this;
  }

 private:
  bool track_;
  Fr val_ = Fr::zero();
  Lc lc_;
};

}  // namespace cuzk::filecoin
