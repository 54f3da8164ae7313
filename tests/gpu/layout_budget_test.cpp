// The VRAM estimates of every key layout hold on the device: a 2^k synthetic key (default 2^22,
// CUZK_LAYOUT_BUDGET_LOG) in each of its 64 layouts (KeyLayout: the matrices and the five point
// arrays each resident or streamed), in both conventions (the snarkjs one with C stored, so its
// streamed matrices are three), is uploaded and proved on a device whose free memory is cut, by
// one plain allocation holding the rest, to the layout's estimate (key + one proof) plus a slack
// of 96 MiB (less than one 2^22 point array). An estimate short by more than the slack runs the
// device out of memory (CudaError); the terms must equal the resident key's. All of it with the
// matrices' value index (as the engine loads keys) and without, each layout with the NTT's full
// twiddle table in one of the two and the compact one in the other.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/runtime.hpp"
#include "backend_test_util.hpp"
#include "require_device.hpp"
#include "synthetic_key.hpp"

namespace {
using namespace cuzk;
using E = groth16::Bls12_381;
using Key = gpu::DeviceProvingKey<E>;
using gpu::KeyLayout;

constexpr std::size_t kSlack = std::size_t{96} << 20;

groth16::ProofTerms<E> terms(const Key& key, const groth16::ProvingKey<E>& pk, std::span<const E::Fr> w) {
  gpu::CudaBackend<E> b(key);
  groth16::PhaseTimings t;
  return b.compute(pk, w, t);
}

TEST(LayoutBudget, EveryLayoutProvesWithinItsEstimate) {
  const char* env = std::getenv("CUZK_LAYOUT_BUDGET_LOG");
  const std::size_t k = env != nullptr ? std::strtoul(env, nullptr, 10) : 22;
  bench::SyntheticProof s = bench::synthetic_mul_chain(k);
  const std::size_t chunk = std::size_t{1} << (k - 3);  // several chunks per MSM and matrix
  gpu::set_device(0);
  for (bool indexed : {true, false})
  for (groth16::HConvention conv : {groth16::HConvention::kZDivided, groth16::HConvention::kOddCoset}) {
    SCOPED_TRACE(conv == groth16::HConvention::kOddCoset ? "odd coset, C stored" : "z divided");
    SCOPED_TRACE(indexed ? "value index" : "values");
    if (indexed) {
      ASSERT_EQ(groth16::index_key_values(s.pk), 3);
    } else {
      for (auto* m : {&s.pk.a, &s.pk.b, &s.pk.c}) m->val_table.clear(), m->val_idx.clear();
    }
    bench::set_convention(s, conv);
    s.pk.c_stored = true;
    const std::span<const E::Fr> w(s.w);
    groth16::ProofTerms<E> want;
    {
      const Key resident(s.pk, 0);
      want = terms(resident, s.pk, w);
    }
    int proved = 0;
    for (unsigned mask = 0; mask <= KeyLayout::kAllMask; ++mask) {
      const KeyLayout l{mask, chunk, (mask % 2 == 0) == indexed};  // each mask with both twiddle tables
      SCOPED_TRACE(l.describe());
      const std::size_t need = Key::estimate_bytes(s.pk, l) + Key::estimate_proof_scratch_bytes(s.pk, l);
      gpu::release_cached_device_memory();
      std::size_t free = 0;
      gpu::device_memory(&free, nullptr);
      ASSERT_GT(free, need + kSlack + (std::size_t{1} << 30)) << "the device is too small for this test";
      const gpu::DeviceBuffer<unsigned char> rest(free - need - kSlack);  // what the card does not have
      try {
        const Key key(s.pk, 0, l);
        test::expect_terms_eq<E>(terms(key, s.pk, w), want, "against the resident key:");
        ++proved;
      } catch (const gpu::CudaError& e) {
        ADD_FAILURE() << "out of the estimated memory (" << need / double(1 << 20) << " MiB + slack): " << e.what();
      }
    }
    EXPECT_EQ(proved, 64);
  }
}

}  // namespace
