// Key streaming and pinned uploads: a whole proof on the synthetic mul-chain key of a 2^k
// domain (k = min(max_log, 22); bellperson convention) with the key resident vs streamed
// (KeyPlacement::kStreamPoints: points from host memory, chunk by chunk, the upload of the
// next chunk overlapping the MSM of this one), from pageable and from registered (pinned)
// point arrays; then the witness upload: staged through pinned buffers (StagedUploader),
// straight from pinned memory, and the driver's own pageable copy.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/staged_upload.hpp"
#include "proof_timing.hpp"
#include "synthetic_key.hpp"

namespace cuzk::bench {

namespace {
using E = groth16::Bls12_381;
using Fr = E::Fr;
using Key = gpu::DeviceProvingKey<E>;

void time_uploads(std::span<const Fr> w, int reps) {
  const std::size_t bytes = w.size_bytes();
  gpu::DeviceBuffer<Fr> d(w.size());
  gpu::StagedUploader up;
  gpu::PinnedBuffer<Fr> pinned(w.size());
  std::copy(w.begin(), w.end(), pinned.data());
  auto gbs = [&](double ms) { return bytes / (ms * 1e-3) / 1e9; };
  const double staged = median_wall_ms(reps, [&] {
    up.upload(d.data(), w.data(), bytes);
    up.synchronize();
  });
  const double direct = median_wall_ms(reps, [&] {
    up.upload(d.data(), pinned.data(), bytes);
    up.synchronize();
  });
  const double driver = median_wall_ms(reps, [&] { d.upload(w); });
  std::printf("witness upload, %.0f MiB: pageable staged %.2f ms (%.1f GB/s), pinned %.2f ms (%.1f GB/s), "
              "driver pageable copy %.2f ms (%.1f GB/s)\n",
              bytes / double(1 << 20), staged, gbs(staged), direct, gbs(direct), driver, gbs(driver));
}
}  // namespace

void run_stream_bench(std::size_t max_log, int reps, const gpu::Tuning& tuning) {
  const std::size_t k = std::min<std::size_t>(max_log, 22);
  SyntheticProof s = synthetic_mul_chain(k);
  index_unless_disabled(s);
  const auto& pk = s.pk;
  const std::span<const Fr> w(s.w);
  const std::size_t points_b = Key::estimate_bytes(pk) - Key::estimate_bytes(pk, gpu::KeyPlacement::kStreamPoints);
  std::printf("stream: 2^%zu proof, points %.2f GiB in host memory when streamed\n", k, points_b / double(1 << 30));
  {
    const auto t0 = std::chrono::steady_clock::now();
    const Key key(pk, gpu::current_device(), gpu::KeyLayout::all_resident(), tuning);
    std::printf("    resident key upload %.0f ms\n", wall_ms_since(t0));
    (void)time_proof("proof, resident key", k, key, s, reps);
  }
  // A 16 GiB card proving a 2^26-2^27 circuit has about 2 GiB left for the chunk buffers
  // and one chunk's MSM scratch; and a small chunk (n/8) for many chunks per MSM.
  const std::size_t chunk16 = Key::stream_chunk_points(pk, std::size_t{2} << 30);
  const std::size_t small = std::max<std::size_t>(1, pk.domain_size / 8);
  for (std::size_t chunk : {chunk16, small}) {
    const Key key(pk, gpu::current_device(), gpu::KeyPlacement::kStreamPoints, chunk, tuning);
    std::printf("    streamed key: %.2f GiB on the device, chunk %zu points, per-proof scratch estimate %.2f GiB\n",
                key.bytes() / double(1 << 30), key.chunk_points(),
                Key::estimate_proof_scratch_bytes(pk, gpu::KeyPlacement::kStreamPoints, chunk) / double(1 << 30));
    const std::string c = " chunk " + std::to_string(key.chunk_points());
    if (chunk == chunk16) (void)time_proof(("proof, streamed key, pageable points," + c).c_str(), k, key, s, reps);
    const auto t0 = std::chrono::steady_clock::now();
    const auto regs = register_key(pk, false);
    std::printf("    registering the points: %.0f ms\n", wall_ms_since(t0));
    (void)time_proof(("proof, streamed key, pinned points," + c).c_str(), k, key, s, reps);
  }
  {  // the witness upload inside a proof: pageable (staged) vs registered
    const Key key(pk, gpu::current_device(), gpu::KeyLayout::all_resident(), tuning);
    gpu::CudaBackend<E> backend(key);
    std::vector<Fr> copy = s.w;
    const gpu::HostRegistration reg(copy.data(), copy.size() * sizeof(Fr));
    for (const std::vector<Fr>* v : std::initializer_list<const std::vector<Fr>*>{&s.w, &copy}) {
      groth16::PhaseTimings t;
      (void)backend.compute(pk, std::span<const Fr>(*v), t);  // warm
      t = {};
      (void)backend.compute(pk, std::span<const Fr>(*v), t);
      std::printf("    transfer_witness in a proof, %s witness: %.2f ms\n", v == &s.w ? "pageable" : "registered",
                  t.get("transfer_witness"));
    }
  }
  time_uploads(w, std::max(3, reps));
}

}  // namespace cuzk::bench
