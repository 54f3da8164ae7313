// The engine's curve-indexed values: a loaded proving key (HostKey) and a full assignment
// (Witness) of either curve, as one value whose curve is data (r1cs::Curve), not a type. They
// travel through the untemplated parts of the engine; the typed code (TypedCircuit<E>, the
// CurveDevice<E> it calls) reads them back with get<E>(), which refuses the other curve.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/r1cs/curve_id.hpp"

namespace cuzk::engine {

// The curve of pairing engine E.
template <class E>
constexpr r1cs::Curve curve_of() {
  constexpr auto c = r1cs::curve_of_scalar_field<typename E::Fr>();
  static_assert(c.has_value(), "not a pairing engine of a known curve");
  return *c;
}

// Where curve c's value sits in a curve-indexed variant (PerCurve): the one mapping between a
// variant's index and its curve.
constexpr std::size_t curve_index(r1cs::Curve c) { return c == r1cs::Curve::bls12_381 ? 0 : 1; }
template <class E>
constexpr std::size_t curve_index() {
  return curve_index(curve_of<E>());
}
// The curve of index i (the inverse of curve_index).
constexpr r1cs::Curve curve_at(std::size_t i) {
  return i == curve_index(r1cs::Curve::bn254) ? r1cs::Curve::bn254 : r1cs::Curve::bls12_381;
}

// T<E> for the pairing engine E of one curve, placed by curve_index.
template <template <class> class T>
using PerCurve = std::variant<T<groth16::Bls12_381>, T<groth16::Bn254>>;
static_assert(curve_index<groth16::Bls12_381>() == 0 && curve_index<groth16::Bn254>() == 1,
              "PerCurve's alternatives follow curve_index");
static_assert(curve_at(curve_index(r1cs::Curve::bn254)) == r1cs::Curve::bn254 &&
              curve_at(curve_index(r1cs::Curve::bls12_381)) == r1cs::Curve::bls12_381);

namespace curve_values_detail {
template <class E>
using Assignment = std::vector<typename E::Fr>;

// A value of curve `held` asked for as one of curve `asked`: a logic error of the engine
// (never a bad request).
[[noreturn]] inline void wrong_curve(const char* what, r1cs::Curve held, r1cs::Curve asked) {
  throw std::logic_error(std::string(what) + " of curve " + std::string(r1cs::curve_name(held)) +
                         " used as one of curve " + std::string(r1cs::curve_name(asked)));
}
}  // namespace curve_values_detail

// A loaded key, as the backend prepared it (CurveDevice::prepare) before it was shared.
class HostKey {
 public:
  template <class E>
  explicit HostKey(groth16::ProvingKey<E> pk) : v_(std::in_place_index<curve_index<E>()>, std::move(pk)) {}
  HostKey(const HostKey&) = delete;  // a key is shared (shared_ptr), never copied
  HostKey& operator=(const HostKey&) = delete;

  r1cs::Curve curve() const { return curve_at(v_.index()); }
  // The key of curve E; throws std::logic_error naming both curves for a key of the other one.
  template <class E>
  const groth16::ProvingKey<E>& get() const {
    constexpr std::size_t i = curve_index<E>();
    if (v_.index() != i) curve_values_detail::wrong_curve("host key", curve(), curve_of<E>());
    return std::get<i>(v_);
  }

 private:
  PerCurve<groth16::ProvingKey> v_;
};

// The typed key of a shared host key, sharing its ownership (the aliasing constructor): what a
// CurveDevice<E> keeps alive while a device copy or a pin reads the host key.
template <class E>
std::shared_ptr<const groth16::ProvingKey<E>> typed_key(std::shared_ptr<const HostKey> key) {
  const groth16::ProvingKey<E>& pk = key->template get<E>();
  return std::shared_ptr<const groth16::ProvingKey<E>>(std::move(key), &pk);
}

// A full assignment (w[0] = 1) of one curve, from synthesis until its proof is done.
class Witness {
 public:
  template <class E>
  explicit Witness(std::in_place_type_t<E>, std::vector<typename E::Fr> w = {})
      : v_(std::in_place_index<curve_index<E>()>, std::move(w)) {}
  Witness(const Witness&) = delete;  // an assignment is large: moved, never copied
  Witness& operator=(const Witness&) = delete;

  r1cs::Curve curve() const { return curve_at(v_.index()); }
  // The values of curve E (read, or filled by synthesis); throws std::logic_error naming both
  // curves for a witness of the other one.
  template <class E>
  std::span<const typename E::Fr> get() const {
    check<E>();
    return std::get<curve_index<E>()>(v_);
  }
  template <class E>
  std::vector<typename E::Fr>& values() {
    check<E>();
    return std::get<curve_index<E>()>(v_);
  }

 private:
  template <class E>
  void check() const {
    if (v_.index() != curve_index<E>()) curve_values_detail::wrong_curve("witness", curve(), curve_of<E>());
  }
  PerCurve<curve_values_detail::Assignment> v_;
};

}  // namespace cuzk::engine
