// For the standalone .cu benchmarks, which do not link cuzk_gpu's checked wrappers:
// CHECK(call) exits with the CUDA error's text when a runtime call fails, and
// median_event_ms times launches with CUDA events.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));               \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

namespace cuzk::bench {

// Median event time of `reps` launches after one warm-up; setup() (e.g. restoring the
// inputs a launch overwrites) runs before each launch, outside the timed span.
inline float median_event_ms(int reps, auto&& launch, auto&& setup) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r <= reps; ++r) {
    setup();
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaGetLastError());
    float m = 0;
    CHECK(cudaEventElapsedTime(&m, a, b));
    if (r > 0) ms.push_back(m);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
inline float median_event_ms(int reps, auto&& launch) {
  return median_event_ms(reps, launch, [] {});
}

}  // namespace cuzk::bench
