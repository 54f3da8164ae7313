// cuzk prove --zkey c.zkey --wtns w.wtns --proof proof.json --public public.json
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "cuzk/groth16/cpu_backend.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "files.hpp"

namespace cuzk::cli {

int run_prove(const ProveArgs& a) {
  return reading_inputs({a.zkey, a.wtns}, [&] {
    const io::BinFile zkey = io::BinFile::open(a.zkey, groth16::zkey_detail::kZkeyFile);
    return with_engine(groth16::zkey_curve(zkey), [&]<class E>() {
      using Fr = typename E::Fr;
      groth16::PhaseTimings t;
      groth16::ProvingKey<E> pk;
      {
        groth16::ScopedPhase p(t, "load_key");
        pk = groth16::read_zkey<E>(zkey);
      }
      std::vector<Fr> w;
      {
        groth16::ScopedPhase p(t, "load_witness");
        w = r1cs::read_wtns_file<Fr>(a.wtns);
      }
      groth16::CpuBackend<E> backend;
      const groth16::Proof<E> proof = groth16::prove_verified(pk, std::span<const Fr>(w), backend, t);
      const std::span<const Fr> pub = std::span<const Fr>(w).subspan(1, pk.num_public());
      write_text_file(a.proof, groth16::proof_to_json<E>(proof).dump(1) + "\n");
      write_text_file(a.pub, groth16::public_to_json<Fr>(pub).dump(1) + "\n");
      if (!a.quiet) {
        double total = 0;
        std::fprintf(stderr, "proved %s circuit: %zu variables, %zu public, domain 2^%zu (backend %s)\n",
                     std::string(E::kName).c_str(), pk.num_vars, pk.num_public(),
                     static_cast<std::size_t>(__builtin_ctzll(pk.domain_size)), std::string(backend.name()).c_str());
        for (const auto& [name, ms] : t.phases) {
          std::fprintf(stderr, "  %-14s %10.2f ms\n", name.c_str(), ms);
          total += ms;
        }
        std::fprintf(stderr, "  %-14s %10.2f ms\n", "total", total);
      }
      return 0;
    });
  });
}

}  // namespace cuzk::cli
