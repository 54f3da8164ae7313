// Prepared G2 points: the Miller-loop lines of a fixed Q computed once, so that pairings with
// the same Q (Groth16 verifying-key points beta, gamma, delta) skip the G2 arithmetic.
//
//   bls12_381::Pairing::G2Prepared beta(vk_beta);               // or bn254::...
//   f = Pairing::multi_miller_loop_prepared(ps, {&beta, &gamma, ...});
// Results equal those of the unprepared functions exactly (same lines, same order).
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/ec/pairing_miller.hpp"

namespace cuzk::ec {

template <class E>
class G2Prepared {
 public:
  using G2Affine = Affine<typename E::G2Curve>;
  using Line = pairing_detail::Line<E>;

  G2Prepared() = default;  // the point at infinity
  explicit G2Prepared(const G2Affine& q) {
    if (q.is_infinity()) return;
    struct Recorder {
      std::vector<Line>& out;
      pairing_detail::DirectLines<E> src;
      void square() {}
      void dbl() { out.push_back(src.dbl(0)); }
      void add(int digit) { out.push_back(src.add(0, digit)); }
      void frob(std::size_t k) { out.push_back(src.frob(0, k)); }
    };
    // DirectLines skips pairs with an infinite G1 side, so give it any finite one.
    const std::pair<Affine<typename E::G1Curve>, G2Affine> pair[1] = {{E::G1Curve::generator(), q}};
    Recorder r{lines_, pairing_detail::DirectLines<E>(pair)};
    pairing_detail::walk_schedule<E>(r);
  }
  bool is_infinity() const { return lines_.empty(); }
  std::span<const Line> lines() const { return lines_; }

 private:
  std::vector<Line> lines_;
};

namespace pairing_detail {
template <class E>
class PreparedLines {
 public:
  using F1 = typename E::G1Curve::Base;
  PreparedLines(std::span<const Affine<typename E::G1Curve>> ps, std::span<const G2Prepared<E>* const> qs) {
    if (ps.size() != qs.size())
      throw std::invalid_argument("multi_miller_loop_prepared: " + std::to_string(ps.size()) + " G1 points but " +
                                  std::to_string(qs.size()) + " prepared G2 points");
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (qs[i] == nullptr) throw std::invalid_argument("multi_miller_loop_prepared: null prepared G2 point");
      if (ps[i].is_infinity() || qs[i]->is_infinity()) continue;
      st_.push_back(State{ps[i].x, ps[i].y, qs[i]->lines().data()});
    }
  }
  std::size_t size() const { return st_.size(); }
  const F1& px(std::size_t j) const { return st_[j].px; }
  const F1& py(std::size_t j) const { return st_[j].py; }
  const Line<E>& dbl(std::size_t j) { return *st_[j].next++; }
  const Line<E>& add(std::size_t j, int) { return *st_[j].next++; }
  const Line<E>& frob(std::size_t j, std::size_t) { return *st_[j].next++; }

 private:
  struct State {
    F1 px, py;
    const Line<E>* next;
  };
  std::vector<State> st_;
};
}  // namespace pairing_detail

}  // namespace cuzk::ec
