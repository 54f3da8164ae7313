// The curve-indexed values (src/engine/curve_values.hpp): a host key and a witness know their
// curve, read back as that curve only, and refuse the other with an error naming both; a typed
// key taken from a shared host key keeps it alive; a circuit handed another curve's key or
// witness says which circuit and which curves.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "circuit.hpp"
#include "curve_values.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

using Bls = groth16::Bls12_381;
using Bn = groth16::Bn254;

// The message of the logic_error f throws ("" when it throws none).
template <class F>
std::string logic_error_of(F&& f) {
  try {
    f();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(EngineCurveValues, HostKeyIsReadAsItsOwnCurveOnly) {
  groth16::ProvingKey<Bn> pk;
  pk.num_vars = 7;
  const HostKey key(std::move(pk));
  EXPECT_EQ(key.curve(), r1cs::Curve::bn254);
  EXPECT_EQ(key.get<Bn>().num_vars, 7u);
  EXPECT_EQ(logic_error_of([&] { (void)key.get<Bls>(); }), "host key of curve bn254 used as one of curve bls12_381");

  const HostKey bls{groth16::ProvingKey<Bls>{}};
  EXPECT_EQ(bls.curve(), r1cs::Curve::bls12_381);
  EXPECT_EQ(logic_error_of([&] { (void)bls.get<Bn>(); }), "host key of curve bls12_381 used as one of curve bn254");
}

TEST(EngineCurveValues, TypedKeyKeepsTheHostKeyAlive) {
  groth16::ProvingKey<Bls> pk;
  pk.num_vars = 3;
  auto host = std::make_shared<const HostKey>(std::move(pk));
  const std::weak_ptr<const HostKey> watch = host;
  std::shared_ptr<const groth16::ProvingKey<Bls>> typed = typed_key<Bls>(std::move(host));
  EXPECT_EQ(typed.get(), &watch.lock()->get<Bls>());  // the host key's own key, not a copy
  EXPECT_FALSE(watch.expired());
  typed.reset();
  EXPECT_TRUE(watch.expired());

  const auto bn = std::make_shared<const HostKey>(groth16::ProvingKey<Bn>{});
  EXPECT_THROW((void)typed_key<Bls>(bn), std::logic_error);
  EXPECT_EQ(bn.use_count(), 1);  // a refused key is not kept
}

TEST(EngineCurveValues, WitnessIsFilledAndReadAsItsOwnCurveOnly) {
  Witness w(std::in_place_type<Bls>);
  EXPECT_EQ(w.curve(), r1cs::Curve::bls12_381);
  EXPECT_TRUE(w.get<Bls>().empty());
  w.values<Bls>() = {Bls::Fr::one(), Bls::Fr::one()};
  EXPECT_EQ(w.get<Bls>().size(), 2u);
  EXPECT_EQ(logic_error_of([&] { (void)w.get<Bn>(); }), "witness of curve bls12_381 used as one of curve bn254");
  EXPECT_EQ(logic_error_of([&] { (void)w.values<Bn>(); }), "witness of curve bls12_381 used as one of curve bn254");

  const Witness bn(std::in_place_type<Bn>, std::vector<Bn::Fr>(5, Bn::Fr::one()));
  EXPECT_EQ(bn.curve(), r1cs::Curve::bn254);
  EXPECT_EQ(bn.get<Bn>().size(), 5u);
}

// The engine never mixes curves; were it to, the circuit refuses the object (a logic error
// naming the circuit and both curves) instead of reading it as its own curve's.
TEST(EngineCurveValues, CircuitRefusesAnotherCurvesKeyAndWitness) {
  const auto circuit = make_circuit(mul_chain("bls", "bls12_381", 8), shared_cache_dir(), "circuits[0]");
  EXPECT_EQ(circuit->shape().curve, r1cs::Curve::bls12_381);
  const auto devices = make_sim_devices(small_config({mul_chain("bls", "bls12_381", 8)}));
  const auto bn_key = std::make_shared<const HostKey>(groth16::ProvingKey<Bn>{});
  EXPECT_EQ(logic_error_of([&] { (void)circuit->device_key_bytes(*devices, *bn_key); }),
            "circuit bls: host key of curve bn254 used as one of curve bls12_381");
  EXPECT_EQ(logic_error_of([&] { (void)circuit->upload(*devices, bn_key, 0); }),
            "circuit bls: host key of curve bn254 used as one of curve bls12_381");
  const Witness bn_witness(std::in_place_type<Bn>, std::vector<Bn::Fr>(3, Bn::Fr::one()));
  EXPECT_EQ(logic_error_of([&] { (void)circuit->pin_witness(*devices, bn_witness); }),
            "circuit bls: witness of curve bn254 used as one of curve bls12_381");
}

}  // namespace
}  // namespace cuzk::engine::test
