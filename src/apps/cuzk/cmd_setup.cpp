// cuzk setup --r1cs c.r1cs --zkey c.zkey [--vk verification_key.json] [--seed N]
// A test setup: the toxic waste comes from a seeded RNG. Never use its keys in production.
#include <cstdio>
#include <random>

#include "commands.hpp"
#include "cuzk/groth16/curve_dispatch.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/circom_header.hpp"
#include "cuzk/r1cs/circom_r1cs.hpp"
#include "files.hpp"

namespace cuzk::cli {

int run_setup(const SetupArgs& a) {
  return reading_inputs({a.r1cs}, [&] {
    const r1cs::Curve curve = r1cs::detect_r1cs_curve_file(a.r1cs);
    std::uint64_t seed = a.seed;
    if (!a.seed_given) seed = (std::uint64_t{std::random_device{}()} << 32) | std::random_device{}();
    return groth16::dispatch_curve(curve, [&]<class E>() {
      using Fr = typename E::Fr;
      const r1cs::R1CS<Fr> cs = r1cs::read_r1cs_file<Fr>(a.r1cs);
      const groth16::ProvingKey<E> pk = groth16::setup<E>(cs, groth16::HConvention::kOddCoset, seed);
      groth16::write_zkey_file<E>(a.zkey, pk);
      if (!a.vk.empty()) write_text_file(a.vk, groth16::vk_to_json<E>(pk.vk).dump(1) + "\n");
      std::fprintf(stderr,
                   "test setup (%s): %u constraints, %u variables, %u public, domain %zu -> %s\n"
                   "WARNING: the toxic waste comes from a%s seed; this key is for testing only.\n",
                   std::string(E::kName).c_str(), cs.num_constraints, cs.num_vars, cs.num_public, pk.domain_size,
                   a.zkey.c_str(), a.seed_given ? " fixed" : " random");
      return 0;
    });
  });
}

}  // namespace cuzk::cli
