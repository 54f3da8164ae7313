// The GPU layer's tuning: the knobs that choose between equivalent ways of computing the same
// results (kernels, shapes, tables, scheduling) and the diagnostics of its device memory, in
// one typed value passed down to the code they steer (DeviceProvingKey keeps its own, the MSMs
// take one in MsmOptions, NttPlan and the shared-memory queries take one or its emulated SM).
// Plain C++ (no CUDA headers). A default-constructed Tuning is cuzk's normal behaviour.
//
// Library code never reads the environment: a program's main that wants the CUZK_* variables
// of earlier versions (benchmarks, tools/device scripts) calls tuning_from_environment() once
// and passes the result on.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "cuzk/gpu/ntt_pass_shape.hpp"

namespace cuzk::gpu {

// The MSM's level-0 bucket accumulation kernel (src/gpu/msm_impl.cuh).
enum class MsmLevel0 {
  kAuto,       // the shared-memory kernel unless the register kernel holds more threads per SM
  kShared,     // always the shared-memory kernel (same-run comparisons)
  kRegisters,  // always the register kernel
};

// The NTT twiddle tables a key layout may take (DeviceProvingKey::choose_layout, stream_layout).
enum class TwiddleChoice {
  kAuto,     // the full table, or the compact one where it buys a larger chunk or resident parts
  kFull,     // the full table only (TwiddleTable::kFull)
  kCompact,  // the compact table only (TwiddleTable::kCompact)
};

struct Tuning {
  // Run a small resident proof's witness MSMs one after another on the proof's thread instead
  // of on side threads beside the H chain (concurrent_witness_msms; comparisons and debugging).
  // CUZK_GPU_SEQUENTIAL_MSMS (set, any value).
  bool sequential_msms = false;
  // Synchronise between an MSM's phases and print their times to stderr (costs the
  // synchronisations). CUZK_MSM_PROFILE (set, any value).
  bool msm_profile = false;
  // The MSM's level-0 kernel. CUZK_MSM_LEVEL0=shared|registers|auto.
  MsmLevel0 msm_level0 = MsmLevel0::kAuto;
  // One NTT pass shape for every size instead of the measured table (NttPassShape::for_tuning;
  // empty: the table for the device's SM). CUZK_NTT_PASSES="last,inner,log_cols[,radix]".
  std::optional<NttPassShape> ntt_passes;
  // The twiddle tables a key layout may take. CUZK_NTT_TWIDDLES=full|compact|auto.
  TwiddleChoice ntt_twiddles = TwiddleChoice::kAuto;
  // Plan and launch the shared-memory kernels as on an SM of this many KiB (100: a consumer
  // card), from 16 up to the device's own; 0: the device's own SM (device_smem_limits).
  // CUZK_EMULATE_SMEM_PER_SM_KIB.
  std::size_t emulate_smem_per_sm_kib = 0;
  // Diagnostic: leave the stream-ordered memory pool's attributes as the driver sets them
  // (configure_device_memory; tools/device/gpu_hang_hunt.sh compares both).
  // CUZK_GPU_POOL_DEFAULTS (set, any value).
  bool pool_driver_defaults = false;
  // Diagnostic: bytes of 0xA5 after every stream-ordered allocation, checked at its free (an
  // abort names the buffer's size): finds writes past a buffer's end (configure_device_memory).
  // 0: none. CUZK_GPU_GUARD_BYTES=N.
  std::size_t guard_bytes = 0;

  friend bool operator==(const Tuning&, const Tuning&) = default;
};

// The text forms of the variables above (what a configuration file may hold too); nullopt for
// text that names nothing. "shared", "registers", "auto" (or empty: kAuto).
std::optional<MsmLevel0> msm_level0_from(std::string_view text);
// "full", "compact", "auto" (or empty: kAuto).
std::optional<TwiddleChoice> twiddle_choice_from(std::string_view text);
// "last,inner,log_cols[,radix]" of a valid shape (NttPassShape::valid).
std::optional<NttPassShape> ntt_pass_shape_from(std::string_view text);
// "last,inner,log_cols,radix": what ntt_pass_shape_from reads back.
std::string ntt_pass_shape_text(const NttPassShape& s);
// The names the parsers above take: "auto", "shared", "registers"; "auto", "full", "compact".
std::string_view msm_level0_name(MsmLevel0 v);
std::string_view twiddle_choice_name(TwiddleChoice v);

// The tuning the CUZK_* variables above describe (unset ones: the defaults), for programs'
// main functions; the only reader of those variables. Throws std::invalid_argument naming the
// variable and what it wants for a malformed or out-of-range value.
Tuning tuning_from_environment();

}  // namespace cuzk::gpu
