// Reading tower elements and points from the oracle JSON of gen_pairing.mjs: flat lists of
// canonical hex Fq coefficients in memory order (see that script's header).
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "cuzk/ec/pairing.hpp"
#include "support/oracle.hpp"

namespace cuzk::test {

template <class Cfg>
ff::Fp2<Cfg> parse_fq2(const nlohmann::json& j, std::size_t off = 0) {
  using B = typename Cfg::Base;
  if (!j.is_array() || j.size() < off + 2) throw std::runtime_error("oracle: expected >= 2 coefficients: " + j.dump());
  return ff::Fp2<Cfg>(parse_field<B>(j[off]), parse_field<B>(j[off + 1]));
}
template <class Cfg>
ff::Fp6<Cfg> parse_fq6(const nlohmann::json& j, std::size_t off = 0) {
  if (j.size() < off + 6) throw std::runtime_error("oracle: expected >= 6 coefficients: " + j.dump());
  return ff::Fp6<Cfg>(parse_fq2<Cfg>(j, off), parse_fq2<Cfg>(j, off + 2), parse_fq2<Cfg>(j, off + 4));
}
template <class Cfg>
ff::Fp12<Cfg> parse_fq12(const nlohmann::json& j) {
  if (j.size() != 12) throw std::runtime_error("oracle: expected 12 coefficients: " + j.dump());
  return ff::Fp12<Cfg>(parse_fq6<Cfg>(j, 0), parse_fq6<Cfg>(j, 6));
}
template <class C>
ec::Affine<C> parse_g1(const nlohmann::json& j) {
  if (j.size() != 2) throw std::runtime_error("oracle: expected a G1 point [x, y]: " + j.dump());
  return ec::Affine<C>{parse_field<typename C::Base>(j[0]), parse_field<typename C::Base>(j[1])};
}
template <class C>
ec::Affine<C> parse_g2(const nlohmann::json& j) {
  using Cfg = typename C::Base::Config;
  if (j.size() != 4) throw std::runtime_error("oracle: expected a G2 point [x.c0, x.c1, y.c0, y.c1]: " + j.dump());
  return ec::Affine<C>{parse_fq2<Cfg>(j, 0), parse_fq2<Cfg>(j, 2)};
}

}  // namespace cuzk::test
