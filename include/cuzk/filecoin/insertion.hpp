// Choosing among allocated numbers by bits, as storage-proofs-core gadgets/insertion.rs and
// constraint.rs make it: pick (one constraint), select (a tree of picks), insert (an element
// placed among its Merkle siblings at the position the path bits name, with the hand-made
// tables for 2, 4 and 8 children), and the equality / sum / difference constraints.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/filecoin/num.hpp"

namespace cuzk::filecoin {

// a·1 = b (constraint::equal).
template <class CS, cs::NameLike N>
void enforce_equal(CS& cs, const N& name, const AllocatedNum& a, const AllocatedNum& b) {
  cs.enforce(name, a.variable(), Variable::one(), b.variable());
}

// (a + b)·1 = sum (constraint::sum).
template <class CS, cs::NameLike N>
void enforce_sum(CS& cs, const N& name, const AllocatedNum& a, const AllocatedNum& b, const AllocatedNum& sum) {
  cs.enforce(name, [&] { return Lc(a.variable()) + Lc(b.variable()); }, Variable::one(), sum.variable());
}

// (difference + b)·1 = a (constraint::difference).
template <class CS, cs::NameLike N>
void enforce_difference(CS& cs, const N& name, const AllocatedNum& a, const AllocatedNum& b,
                        const AllocatedNum& difference) {
  cs.enforce(name, [&] { return Lc(difference.variable()) + Lc(b.variable()); }, Variable::one(), a.variable());
}

// a + b as a new number (constraint::add).
template <class CS>
AllocatedNum add_nums(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
  AllocatedNum r;
  {
    cs::Namespace ns(cs, "add_num");
    r = AllocatedNum::alloc(cs, "num", [&] { return a.value() + b.value(); });
  }
  enforce_sum(cs, "sum constraint", a, b, r);
  return r;
}

// a - b as a new number (constraint::sub).
template <class CS>
AllocatedNum sub_nums(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
  AllocatedNum r;
  {
    cs::Namespace ns(cs, "sub_num");
    r = AllocatedNum::alloc(cs, "num", [&] { return a.value() - b.value(); });
  }
  enforce_difference(cs, "subtraction constraint", a, b, r);
  return r;
}

// condition ? a : b, with (b - a)·condition = b - c.
template <class CS, cs::NameLike N>
AllocatedNum pick(CS& cs, const N& name, const Boolean& condition, const AllocatedNum& a, const AllocatedNum& b) {
  cs::Namespace ns(cs, name);
  AllocatedNum c;
  {
    cs::Namespace nr(cs, "pick result");
    c = AllocatedNum::alloc(cs, "num", [&] { return condition.value() ? a.value() : b.value(); });
  }
  cs.enforce("pick", [&] { return Lc(b.variable()) - Lc(a.variable()); }, [&] { return condition.lc(); },
             [&] { return Lc(b.variable()) - Lc(c.variable()); });
  return c;
}

// from[n], n given by path_bits least significant first; the most significant bit picks first.
template <class CS, cs::NameLike N>
AllocatedNum select(CS& cs, const N& name, std::span<const AllocatedNum> from, std::span<const Boolean> path_bits) {
  if (from.size() != (std::size_t{1} << path_bits.size()))
    throw std::invalid_argument("select: " + std::to_string(from.size()) + " candidates for " +
                                std::to_string(path_bits.size()) + " bits");
  cs::Namespace ns(cs, name);
  std::vector<AllocatedNum> state(from.begin(), from.end());
  std::size_t half = from.size() / 2;
  for (std::size_t i = 0; i < path_bits.size(); ++i) {
    const Boolean& bit = path_bits[path_bits.size() - 1 - i];
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (std::size_t j = 0; j < half; ++j)
      next.push_back(pick(cs, [i, j] { return "pick " + std::to_string(i) + ", " + std::to_string(j); }, bit,
                          state[half + j], state[j]));
    state = std::move(next);
    half /= 2;
  }
  return state.at(0);
}

namespace insertion_detail {

template <class CS>
std::vector<AllocatedNum> insert_2(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  const Boolean& b0 = bits[0];
  AllocatedNum p0 = pick(cs, "binary insert 0", b0, e[0], x);
  AllocatedNum p1 = pick(cs, "binary insert 1", b0, x, e[0]);
  return {p0, p1};
}

// Position p of the result for each insertion index, two picks each (insertion.rs insert_4).
template <class CS>
std::vector<AllocatedNum> insert_4(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
  AllocatedNum p0_x0 = pick(cs, "p0_x0", b0, b, x);
  AllocatedNum p0 = pick(cs, "p0", b1, b, p0_x0);
  AllocatedNum p1_x0 = pick(cs, "p1_x0", b0, x, b);
  AllocatedNum p1 = pick(cs, "p1", b1, c, p1_x0);
  AllocatedNum p2_x1 = pick(cs, "p2_x1", b0, d, x);
  AllocatedNum p2 = pick(cs, "p2", b1, p2_x1, c);
  AllocatedNum p3_x1 = pick(cs, "p3_x1", b0, x, d);
  AllocatedNum p3 = pick(cs, "p3", b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

// insertion.rs insert_8: two shared conditions (b0 nor b1, b0 and b1), then 20 picks. The
// bits must be allocated and not negated, as there.
template <class CS>
std::vector<AllocatedNum> insert_8(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  for (std::size_t i = 0; i < 2; ++i)
    if (bits[i].kind() != Boolean::Kind::kIs) throw std::invalid_argument("insert_8: bits must be allocated and unnegated");
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  Boolean b0_nor_b1, b0_and_b1;
  {
    cs::Namespace ns(cs, "b0 nor b1");
    b0_nor_b1 = AllocatedBit::nor(cs, b0.bit(), b1.bit());
  }
  {
    cs::Namespace ns(cs, "b0 and b1");
    b0_and_b1 = AllocatedBit::and_(cs, b0.bit(), b1.bit());
  }
  const AllocatedNum &a = x, &b = e[0], &c = e[1], &d = e[2], &ee = e[3], &f = e[4], &g = e[5], &h = e[6];
  AllocatedNum p0_xx0 = pick(cs, "p0_xx0", b0_nor_b1, a, b);
  AllocatedNum p0 = pick(cs, "p0", b2, b, p0_xx0);

  AllocatedNum p1_x00 = pick(cs, "p1_x00", b0, a, b);
  AllocatedNum p1_xx0 = pick(cs, "p1_xx0", b1, c, p1_x00);
  AllocatedNum p1 = pick(cs, "p1", b2, c, p1_xx0);

  AllocatedNum p2_x10 = pick(cs, "p2_x10", b0, d, a);
  AllocatedNum p2_xx0 = pick(cs, "p2_xx0", b1, p2_x10, c);
  AllocatedNum p2 = pick(cs, "p2", b2, d, p2_xx0);

  AllocatedNum p3_xx0 = pick(cs, "p3_xx0", b0_and_b1, a, d);
  AllocatedNum p3 = pick(cs, "p3", b2, ee, p3_xx0);

  AllocatedNum p4_xx1 = pick(cs, "p4_xx1", b0_nor_b1, a, f);
  AllocatedNum p4 = pick(cs, "p4", b2, p4_xx1, ee);

  AllocatedNum p5_x01 = pick(cs, "p5_x01", b0, a, f);
  AllocatedNum p5_xx1 = pick(cs, "p5_xx1", b1, g, p5_x01);
  AllocatedNum p5 = pick(cs, "p5", b2, p5_xx1, f);

  AllocatedNum p6_x11 = pick(cs, "p6_x11", b0, h, a);
  AllocatedNum p6_xx1 = pick(cs, "p6_xx1", b1, p6_x11, g);
  AllocatedNum p6 = pick(cs, "p6", b2, p6_xx1, g);

  AllocatedNum p7_xx1 = pick(cs, "p7_xx1", b0_and_b1, a, h);
  AllocatedNum p7 = pick(cs, "p7", b2, p7_xx1, h);
  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

}  // namespace insertion_detail

// `element` inserted among `elements` at the index the bits name (least significant first):
// index 0 puts it first. elements.size() + 1 must be 2^bits.size().
template <class CS>
std::vector<AllocatedNum> insert(CS& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  const std::size_t size = elements.size() + 1;
  if (size != (std::size_t{1} << bits.size()))
    throw std::invalid_argument("insert: " + std::to_string(elements.size()) + " siblings for " +
                                std::to_string(bits.size()) + " bits");
  if (size == 2) return insertion_detail::insert_2(cs, element, bits, elements);
  if (size == 4) return insertion_detail::insert_4(cs, element, bits, elements);
  if (size == 8) return insertion_detail::insert_8(cs, element, bits, elements);
  // The general case: for each output position, select its value among the candidates that
  // each insertion index would put there.
  std::vector<AllocatedNum> result;
  result.reserve(size);
  std::vector<AllocatedNum> choices(size);
  for (std::size_t pos = 0; pos < size; ++pos) {
    for (std::size_t index = 0; index < size; ++index)
      choices[index] = pos < index ? elements[pos] : (pos == index ? element : elements[pos - 1]);
    result.push_back(select(cs, [pos] { return "choice at " + std::to_string(pos); }, std::span<const AllocatedNum>(choices),
                            bits));
  }
  return result;
}

}  // namespace cuzk::filecoin
