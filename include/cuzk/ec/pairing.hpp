// Optimal ate pairing e: G1 x G2 -> GT (a subgroup of Fq12*) for BLS12-381 and BN254.
//
//   ec::pairing(P, Q)              e(P, Q), engine deduced from the point types
//   ec::miller_loop(P, Q)          the Miller loop only (value before the final exponentiation)
//   ec::multi_miller_loop(pairs)   prod_i MillerLoop(P_i, Q_i), one shared squaring chain
//   ec::final_exponentiation<E>(f)
//   ec::pairing_check(pairs)       true iff prod_i e(P_i, Q_i) == 1 (Groth16 verification)
// `pairs` is any contiguous range (vector, array, span) of std::pair<G1Affine, G2Affine>.
// Or through the engine: bls12_381::Pairing::pairing(P, Q), bn254::Pairing::pairing_check(...),
// and with G2 points prepared once: Pairing::G2Prepared, Pairing::multi_miller_loop_prepared,
// Pairing::pairing_check_prepared.
//
// Results equal those of @noble/curves (and zkcrypto/bls12_381, arkworks): see
// pairing_final_exp.hpp for the exact exponent. Points must be in the order-r subgroups;
// the point at infinity ((0,0), see point.hpp) makes its pair contribute 1. Not constant-time.
#pragma once

#include <iterator>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>

#include "cuzk/ec/pairing_engines.hpp"
#include "cuzk/ec/pairing_final_exp.hpp"
#include "cuzk/ec/pairing_miller.hpp"
#include "cuzk/ec/pairing_prepared.hpp"

namespace cuzk::ec {

template <class E>
struct PairingOps {
  using Engine = E;
  using G1Affine = Affine<typename E::G1Curve>;
  using G2Affine = Affine<typename E::G2Curve>;
  using Fq12 = typename E::Fq12;
  using Gt = Fq12;
  using Pair = std::pair<G1Affine, G2Affine>;

  static Fq12 multi_miller_loop(std::span<const Pair> pairs) { return pairing_detail::multi_miller_loop<E>(pairs); }
  static Fq12 miller_loop(const G1Affine& p, const G2Affine& q) {
    const Pair one[1] = {Pair{p, q}};
    return multi_miller_loop(one);
  }
  static Fq12 final_exponentiation(const Fq12& f) { return pairing_detail::final_exponentiation<E>(f); }
  static Gt pairing(const G1Affine& p, const G2Affine& q) { return final_exponentiation(miller_loop(p, q)); }
  static bool pairing_check(std::span<const Pair> pairs) { return final_exponentiation(multi_miller_loop(pairs)).is_one(); }

  // With prepared G2 points (pairing_prepared.hpp): ps[i] pairs with *qs[i]; sizes must match.
  using G2Prepared = ec::G2Prepared<E>;
  static Fq12 multi_miller_loop_prepared(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    pairing_detail::PreparedLines<E> src(ps, qs);
    return pairing_detail::miller_loop_with<E>(src);
  }
  static bool pairing_check_prepared(std::span<const G1Affine> ps, std::span<const G2Prepared* const> qs) {
    return final_exponentiation(multi_miller_loop_prepared(ps, qs)).is_one();
  }
};

namespace bls12_381 {
using Pairing = PairingOps<PairingEngine>;
using Gt = Pairing::Gt;
using PairingPair = Pairing::Pair;
}  // namespace bls12_381
namespace bn254 {
using Pairing = PairingOps<PairingEngine>;
using Gt = Pairing::Gt;
using PairingPair = Pairing::Pair;
}  // namespace bn254

namespace pairing_detail {
template <class T>
struct PairTypes;
template <class C1, class C2>
struct PairTypes<std::pair<Affine<C1>, Affine<C2>>> {
  using Ops = PairingOps<typename PairingEngineOf<C1>::type>;
  static_assert(std::is_same_v<C2, typename Ops::Engine::G2Curve>, "G1 and G2 points of different curves");
};
template <class R>
using OpsOfRange = typename PairTypes<std::remove_cv_t<std::ranges::range_value_t<R>>>::Ops;
}  // namespace pairing_detail

template <class C1, class C2>
auto pairing(const Affine<C1>& p, const Affine<C2>& q) {
  return pairing_detail::PairTypes<std::pair<Affine<C1>, Affine<C2>>>::Ops::pairing(p, q);
}
template <class C1, class C2>
auto miller_loop(const Affine<C1>& p, const Affine<C2>& q) {
  return pairing_detail::PairTypes<std::pair<Affine<C1>, Affine<C2>>>::Ops::miller_loop(p, q);
}
template <std::ranges::contiguous_range R>
auto multi_miller_loop(const R& pairs) {
  using Ops = pairing_detail::OpsOfRange<R>;
  return Ops::multi_miller_loop(std::span<const typename Ops::Pair>(std::ranges::data(pairs), std::ranges::size(pairs)));
}
template <std::ranges::contiguous_range R>
bool pairing_check(const R& pairs) {
  using Ops = pairing_detail::OpsOfRange<R>;
  return Ops::pairing_check(std::span<const typename Ops::Pair>(std::ranges::data(pairs), std::ranges::size(pairs)));
}
template <class E>
typename E::Fq12 final_exponentiation(const typename E::Fq12& f) {
  return PairingOps<E>::final_exponentiation(f);
}

}  // namespace cuzk::ec
