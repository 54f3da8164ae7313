// The Miller loop of the optimal ate pairing, generic over a pairing engine (pairing_engines.hpp).
//
// The G2 point T runs in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z,
// on the twist E'. Each step yields a line through T (and Q) as three Fq2 coefficients
// (c_const, c_x, c_y) meaning  c_const + c_x * xP + c_y * yP  after untwisting:
//   M-type (psi(x', y') = (x'/w^2, y'/w^3)), line times w^3:  slots 0 (const), 1 (xP), 4 (yP)
//   D-type (psi(x', y') = (x' w^2, y' w^3)):                   slots 3 (xP), 4 (const), 0 (yP)
// Lines are scaled by Fq2 factors, which the final exponentiation removes; vertical lines
// are dropped for the same reason. Formulas: Costello, Lange, Naehrig, "Faster pairing
// computations on curves with high-degree twists" (PKC 2010), homogeneous coordinates,
// re-derived here (doubling scaled by 4 so that no halving is needed).
//
// Inputs must lie in the order-r subgroups (what deserialisation checks); a point at
// infinity on either side makes that pair contribute 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cuzk/ec/pairing_engines.hpp"

namespace cuzk::ec::pairing_detail {

using ff::u128;

// The Miller-loop scalar: |x| for BLS12, 6x + 2 for BN (x > 0).
template <class E>
constexpr u128 loop_scalar() {
  if constexpr (E::kFamily == PairingFamily::BLS12) {
    return E::kX;
  } else {
    static_assert(!E::kXNegative, "BN Miller loop implemented for x > 0");
    return u128{E::kX} * 6 + 2;
  }
}

template <class E>
struct Line {
  using F2 = typename E::G2Curve::Base;
  F2 c_const, c_x, c_y;
};

template <class E>
struct G2Proj {
  using F2 = typename E::G2Curve::Base;
  F2 X, Y, Z;
};

// T <- 2T; returns the tangent line at T. b3 = 3 * b' (b' the twist's curve constant).
template <class E>
Line<E> doubling_step(G2Proj<E>& T, const typename E::G2Curve::Base& b3) {
  using F2 = typename E::G2Curve::Base;
  F2 X2 = T.X.square();
  F2 B = T.Y.square();
  F2 C = T.Z.square();
  F2 Ee = b3 * C;          // 3 b' Z^2
  F2 F = Ee.dbl() + Ee;    // 9 b' Z^2
  F2 H = (T.Y + T.Z).square() - B - C;  // 2 Y Z
  Line<E> l{Ee - B, X2.dbl() + X2, -H};
  F2 E2 = Ee.square();
  F2 XY = T.X * T.Y;
  T.X = (XY * (B - F)).dbl();              // 4 * (XY/2)(B - F)
  T.Y = (B + F).square() - (E2.dbl() + E2).dbl().dbl();  // 4 * (((B+F)/2)^2 - 3E^2)
  T.Z = (B * H).dbl().dbl();               // 4 * B H
  return l;
}

// T <- T + Q (Q affine, T != +-Q); returns the line through T and Q.
template <class E>
Line<E> addition_step(G2Proj<E>& T, const typename E::G2Curve::Base& qx, const typename E::G2Curve::Base& qy) {
  using F2 = typename E::G2Curve::Base;
  F2 theta = T.Y - qy * T.Z;
  F2 lambda = T.X - qx * T.Z;
  F2 C = theta.square();
  F2 D = lambda.square();
  F2 Ee = lambda * D;
  F2 F = T.Z * C;
  F2 G = T.X * D;
  F2 H = Ee + F - G.dbl();
  Line<E> l{theta * qx - lambda * qy, -theta, lambda};
  T.X = lambda * H;
  T.Y = theta * (G - H) - Ee * T.Y;
  T.Z = T.Z * Ee;
  return l;
}

// f * l(P)
template <class E>
typename E::Fq12 apply_line(const typename E::Fq12& f, const Line<E>& l, const typename E::G1Curve::Base& px,
                            const typename E::G1Curve::Base& py) {
  if constexpr (E::kTwist == Twist::M) {
    return f.mul_by_014(l.c_const, l.c_x.mul_by_base(px), l.c_y.mul_by_base(py));
  } else {
    return f.mul_by_034(l.c_y.mul_by_base(py), l.c_x.mul_by_base(px), l.c_const);
  }
}

template <class E>
struct PairState {
  using F1 = typename E::G1Curve::Base;
  using F2 = typename E::G2Curve::Base;
  F1 px, py;
  F2 qx, qy;
  G2Proj<E> T;
};

// The Frobenius endomorphism pi of E transported to the twist, applied `k` times (k = 1, 2),
// for the D-type twist: x' -> x'^(p^k) * xi^((p^k-1)/3), y' -> y'^(p^k) * xi^((p^k-1)/2).
template <class E>
std::pair<typename E::G2Curve::Base, typename E::G2Curve::Base> twist_frobenius(const typename E::G2Curve::Base& x,
                                                                              const typename E::G2Curve::Base& y,
                                                                              std::size_t k) {
  static_assert(E::kTwist == Twist::D, "twist_frobenius is written for D-type twists");
  using Cfg = typename E::Fq12::Config;
  const auto& t = ff::detail::TowerFrobenius<Cfg>::get();
  auto gy = t.w[k] * t.v[k];  // xi^((p^k-1)/6)^3
  return {x.frobenius_map(k) * t.v[k], y.frobenius_map(k) * gy};
}

// The Miller-loop schedule, walked with a visitor V:
//   v.square()       f <- f^2 (skipped at the first step, where f = 1)
//   v.dbl()          T <- 2T with its tangent line
//   v.add(digit)     T <- T + digit*Q with its line, digit = +1 / -1 (NAF)
//   v.frob(k)        BN only, after the loop: k = 1: T <- T + pi(Q), k = 2: T <- T - pi^2(Q)
// The final conjugation (x < 0) is left to the caller.
template <class E, class V>
void walk_schedule(V& v) {
  static constexpr Naf kNaf = naf(loop_scalar<E>());
  for (std::size_t i = kNaf.n - 1; i-- > 0;) {
    if (i + 2 != kNaf.n) v.square();
    v.dbl();
    if (kNaf.d[i] != 0) v.add(kNaf.d[i]);
  }
  if constexpr (E::kFamily == PairingFamily::BN) {
    v.frob(1);
    v.frob(2);
  }
}

// The loop over several pairs sharing one f. A line source S supplies, for its pairs
// 0..size()-1 (none at infinity): px(j), py(j) (the G1 point) and the next line of pair j via
// dbl(j), add(j, digit), frob(j, k), in schedule order.
template <class E, class S>
typename E::Fq12 miller_loop_with(S& src) {
  using Fq12 = typename E::Fq12;
  struct Visitor {
    S& src;
    Fq12 f = Fq12::one();
    void square() { f = f.square(); }
    void dbl() {
      for (std::size_t j = 0; j < src.size(); ++j) f = apply_line<E>(f, src.dbl(j), src.px(j), src.py(j));
    }
    void add(int digit) {
      for (std::size_t j = 0; j < src.size(); ++j) f = apply_line<E>(f, src.add(j, digit), src.px(j), src.py(j));
    }
    void frob(std::size_t k) {
      for (std::size_t j = 0; j < src.size(); ++j) f = apply_line<E>(f, src.frob(j, k), src.px(j), src.py(j));
    }
  } v{src};
  if (src.size() == 0) return v.f;
  walk_schedule<E>(v);
  if constexpr (E::kXNegative && E::kFamily == PairingFamily::BLS12) v.f = v.f.conjugate();
  return v.f;
}

// Lines computed on the fly from affine G2 points.
template <class E>
class DirectLines {
 public:
  using F1 = typename E::G1Curve::Base;
  using F2 = typename E::G2Curve::Base;
  using Pair = std::pair<Affine<typename E::G1Curve>, Affine<typename E::G2Curve>>;

  explicit DirectLines(std::span<const Pair> pairs) {
    const F2 b = E::G2Curve::b();
    b3_ = b.dbl() + b;
    st_.reserve(pairs.size());
    for (const auto& [p, q] : pairs) {
      if (p.is_infinity() || q.is_infinity()) continue;
      st_.push_back(PairState<E>{p.x, p.y, q.x, q.y, G2Proj<E>{q.x, q.y, F2::one()}});
    }
  }
  std::size_t size() const { return st_.size(); }
  const F1& px(std::size_t j) const { return st_[j].px; }
  const F1& py(std::size_t j) const { return st_[j].py; }
  Line<E> dbl(std::size_t j) { return doubling_step<E>(st_[j].T, b3_); }
  Line<E> add(std::size_t j, int digit) {
    auto& s = st_[j];
    return addition_step<E>(s.T, s.qx, digit > 0 ? s.qy : -s.qy);
  }
  Line<E> frob(std::size_t j, std::size_t k) {
    if constexpr (E::kFamily == PairingFamily::BN) {
      auto& s = st_[j];
      auto [x, y] = twist_frobenius<E>(s.qx, s.qy, k);
      return addition_step<E>(s.T, x, k == 1 ? y : -y);
    } else {
      throw std::logic_error("Frobenius line steps exist only in the BN Miller loop");
    }
  }

 private:
  F2 b3_;
  std::vector<PairState<E>> st_;
};

template <class E>
typename E::Fq12 multi_miller_loop(std::span<const std::pair<Affine<typename E::G1Curve>, Affine<typename E::G2Curve>>> pairs) {
  DirectLines<E> src(pairs);
  return miller_loop_with<E>(src);
}

}  // namespace cuzk::ec::pairing_detail
