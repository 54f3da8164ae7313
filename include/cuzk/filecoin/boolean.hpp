// Bits as bellpepper-core 0.2 makes them (gadgets/boolean.rs), constraint for constraint:
// AllocatedBit (a wire with its booleanity constraint) and Boolean (a constant, a bit, or
// the negation of one). Filecoin's circuits are made of these, so every choice here (which
// operand goes to A and which to B, when a result wire is allocated, which cases fold to
// constants) is bellpepper's: the official parameters are indexed by the wires and rows this
// produces. Values are carried beside the wires when the constraint system computes them
// (CS::kHasValues); a recording system never calls the value closures.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/filecoin/fr.hpp"

namespace cuzk::filecoin {

// A wire constrained to 0 or 1.
class AllocatedBit {
 public:
  AllocatedBit() = default;
  AllocatedBit(Variable v, bool value) : var_(v), val_(value) {}

  Variable variable() const { return var_; }
  bool value() const { return val_; }

  // (1 - a)·a = 0
  template <class CS, cs::NameLike N>
  static AllocatedBit alloc(CS& cs, const N& name, bool value) {
    Variable v = alloc_wire(cs, name, value);
    cs.enforce("boolean constraint", [&] { return Lc::constant(Fr::one()) - Lc(v); }, v, [] { return Lc(); });
    return {v, value};
  }
  // (1 - must_be_false - a)·a = 0: a is a bit, and 0 when must_be_false is 1.
  template <class CS, cs::NameLike N>
  static AllocatedBit alloc_conditionally(CS& cs, const N& name, bool value, const AllocatedBit& must_be_false) {
    Variable v = alloc_wire(cs, name, value);
    cs.enforce("boolean constraint",
               [&] { return Lc::constant(Fr::one()) - Lc(must_be_false.var_) - Lc(v); }, v, [] { return Lc(); });
    return {v, value};
  }
  // (a + a)·b = a + b - c
  template <class CS>
  static AllocatedBit xor_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool r = a.val_ != b.val_;
    Variable c = alloc_wire(cs, "xor result", r);
    cs.enforce("xor constraint", [&] { return Lc(a.var_) + Lc(a.var_); }, b.var_,
               [&] { return Lc(a.var_) + Lc(b.var_) - Lc(c); });
    return {c, r};
  }
  // a·b = c
  template <class CS>
  static AllocatedBit and_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool r = a.val_ && b.val_;
    Variable c = alloc_wire(cs, "and result", r);
    cs.enforce("and constraint", a.var_, b.var_, c);
    return {c, r};
  }
  // a·(1 - b) = c
  template <class CS>
  static AllocatedBit and_not(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool r = a.val_ && !b.val_;
    Variable c = alloc_wire(cs, "and not result", r);
    cs.enforce("and not constraint", a.var_, [&] { return Lc::constant(Fr::one()) - Lc(b.var_); }, c);
    return {c, r};
  }
  // (1 - a)·(1 - b) = c
  template <class CS>
  static AllocatedBit nor(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool r = !a.val_ && !b.val_;
    Variable c = alloc_wire(cs, "nor result", r);
    cs.enforce("nor constraint", [&] { return Lc::constant(Fr::one()) - Lc(a.var_); },
               [&] { return Lc::constant(Fr::one()) - Lc(b.var_); }, c);
    return {c, r};
  }

 private:
  template <class CS, cs::NameLike N>
  static Variable alloc_wire(CS& cs, const N& name, bool value) {
    return cs.alloc(name, [value] { return value ? Fr::one() : Fr::zero(); });
  }
  Variable var_;
  bool val_ = false;
};

class Boolean {
 public:
  enum class Kind : std::uint8_t { kConstant, kIs, kNot };

  Boolean() = default;
  Boolean(const AllocatedBit& b) : kind_(Kind::kIs), bit_(b) {}  // NOLINT: bellpepper's From<AllocatedBit>
  static Boolean constant(bool b) {
    Boolean r;
    r.const_ = b;
    return r;
  }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool value() const {
    switch (kind_) {
      case Kind::kConstant: return const_;
      case Kind::kIs: return bit_.value();
      default: return !bit_.value();
    }
  }
  const AllocatedBit& bit() const { return bit_; }  // the wire of Is / Not

  Boolean not_() const {
    Boolean r = *this;
    if (kind_ == Kind::kConstant) r.const_ = !const_;
    else r.kind_ = kind_ == Kind::kIs ? Kind::kNot : Kind::kIs;
    return r;
  }
  // coeff·this: Constant(true) -> coeff·ONE, Is(v) -> coeff·v, Not(v) -> coeff·ONE - coeff·v.
  Lc lc(const Fr& coeff = Fr::one()) const {
    Lc r;
    switch (kind_) {
      case Kind::kConstant:
        if (const_) r.add(Variable::one(), coeff);
        break;
      case Kind::kIs: r.add(bit_.variable(), coeff); break;
      case Kind::kNot:
        r.add(Variable::one(), coeff);
        r.add(bit_.variable(), -coeff);
        break;
    }
    return r;
  }

  template <class CS>
  static Boolean xor_(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_constant() && !a.const_) return b;
    if (b.is_constant() && !b.const_) return a;
    if (a.is_constant()) return b.not_();
    if (b.is_constant()) return a.not_();
    if (a.kind_ != b.kind_) {  // a XOR (NOT b) = NOT(a XOR b), the Is operand first
      const Boolean& is = a.kind_ == Kind::kIs ? a : b;
      const Boolean& nt = a.kind_ == Kind::kIs ? b : a;
      return xor_(cs, is, nt.not_()).not_();
    }
    return AllocatedBit::xor_(cs, a.bit_, b.bit_);  // Is/Is, or Not/Not (same parity)
  }

  template <class CS>
  static Boolean and_(CS& cs, const Boolean& a, const Boolean& b) {
    if ((a.is_constant() && !a.const_) || (b.is_constant() && !b.const_)) return constant(false);
    if (a.is_constant()) return b;
    if (b.is_constant()) return a;
    if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot) return AllocatedBit::and_not(cs, a.bit_, b.bit_);
    if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs) return AllocatedBit::and_not(cs, b.bit_, a.bit_);
    if (a.kind_ == Kind::kNot) return AllocatedBit::nor(cs, a.bit_, b.bit_);
    return AllocatedBit::and_(cs, a.bit_, b.bit_);
  }

  template <class CS>
  static Boolean or_(CS& cs, const Boolean& a, const Boolean& b) {
    cs::Namespace ns(cs, "not and (not a) (not b)");
    return and_(cs, a.not_(), b.not_()).not_();
  }

  // (a and b) xor ((not a) and c)
  template <class CS>
  static Boolean sha256_ch(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
    const bool v = (a.value() && b.value()) != (!a.value() && c.value());
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(v);
    if (a.is_constant() && !a.const_) return c;
    if (b.is_constant() && !b.const_) return and_(cs, a.not_(), c);
    if (c.is_constant() && !c.const_) return and_(cs, a, b);
    if (c.is_constant()) return and_(cs, a, b.not_()).not_();
    if (b.is_constant()) return and_(cs, a.not_(), c.not_()).not_();
    // a constant true, or all three variables
    Variable ch = cs.alloc("ch", [v] { return v ? Fr::one() : Fr::zero(); });
    cs.enforce("ch computation", [&] { return b.lc() - c.lc(); }, [&] { return a.lc(); },
               [&] { return Lc(ch) - c.lc(); });
    return AllocatedBit(ch, v);
  }

  // (a and b) xor (a and c) xor (b and c)
  template <class CS>
  static Boolean sha256_maj(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
    const bool v = (a.value() + b.value() + c.value()) >= 2;
    if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(v);
    if (a.is_constant() && !a.const_) return and_(cs, b, c);
    if (b.is_constant() && !b.const_) return and_(cs, a, c);
    if (c.is_constant() && !c.const_) return and_(cs, a, b);
    if (c.is_constant()) return and_(cs, a.not_(), b.not_()).not_();
    if (b.is_constant()) return and_(cs, a.not_(), c.not_()).not_();
    if (a.is_constant()) return and_(cs, b.not_(), c.not_()).not_();
    Variable maj = cs.alloc("maj", [v] { return v ? Fr::one() : Fr::zero(); });
    Boolean bc;
    {
      cs::Namespace ns(cs, "b and c");
      bc = and_(cs, b, c);
    }
    cs.enforce("maj computation", [&] { return bc.lc() + bc.lc() - b.lc() - c.lc(); }, [&] { return a.lc(); },
               [&] { return bc.lc() - Lc(maj); });
    return AllocatedBit(maj, v);
  }

  // a == b. Two constants compare at synthesis (a mismatch throws: bellpepper's Unsatisfiable).
  template <class CS>
  static void enforce_equal(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_constant() && b.is_constant()) {
      if (a.const_ != b.const_) throw std::invalid_argument("Boolean::enforce_equal: constants differ");
      return;
    }
    const Boolean* konst = a.is_constant() ? &a : (b.is_constant() ? &b : nullptr);
    if (konst && konst->const_) {
      const Boolean& x = a.is_constant() ? b : a;
      cs.enforce("enforce equal to one", [] { return Lc(); }, [] { return Lc(); },
                 [&] { return Lc::constant(Fr::one()) - x.lc(); });
    } else if (konst) {
      const Boolean& x = a.is_constant() ? b : a;
      cs.enforce("enforce equal to zero", [] { return Lc(); }, [] { return Lc(); }, [&] { return x.lc(); });
    } else {
      cs.enforce("enforce equal", [] { return Lc(); }, [] { return Lc(); }, [&] { return a.lc() - b.lc(); });
    }
  }

 private:
  Kind kind_ = Kind::kConstant;
  bool const_ = false;
  AllocatedBit bit_;
};

// 64 bits of `value`, least significant first, each allocated ("bit i").
template <class CS>
std::vector<Boolean> u64_into_boolean_vec_le(CS& cs, std::uint64_t value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (int i = 0; i < 64; ++i) {
    cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.emplace_back(AllocatedBit::alloc(cs, "boolean", ((value >> i) & 1) != 0));
  }
  return bits;
}

// The 255 bits of a field element, least significant first, each allocated ("bit i").
template <class CS>
std::vector<AllocatedBit> field_into_allocated_bits_le(CS& cs, const Fr& value) {
  const Fr::Repr c = value.to_canonical();
  std::vector<AllocatedBit> bits;
  bits.reserve(kFrNumBits);
  for (std::size_t i = 0; i < kFrNumBits; ++i) {
    cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.push_back(AllocatedBit::alloc(cs, "boolean", ((c[i / 64] >> (i % 64)) & 1) != 0));
  }
  return bits;
}

}  // namespace cuzk::filecoin
