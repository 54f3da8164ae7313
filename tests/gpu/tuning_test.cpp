// gpu::tuning_from_environment (cuzk/gpu/tuning.hpp), no device needed (CI): every CUZK_* variable
// of the GPU layer unset gives the default Tuning; each one set gives its field; malformed or
// out-of-range values are refused with a message naming the variable, the value and what it
// wants. The text forms (msm_level0_from, twiddle_choice_from, ntt_pass_shape_from) alone too.
#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/gpu/tuning.hpp"
#include "support/scoped_env.hpp"

namespace {
using namespace cuzk;
using test::ScopedEnv;

constexpr const char* kVariables[] = {"CUZK_GPU_SEQUENTIAL_MSMS", "CUZK_MSM_PROFILE",    "CUZK_MSM_LEVEL0",
                                      "CUZK_NTT_PASSES",          "CUZK_NTT_TWIDDLES",   "CUZK_EMULATE_SMEM_PER_SM_KIB",
                                      "CUZK_GPU_POOL_DEFAULTS",   "CUZK_GPU_GUARD_BYTES"};

// Every variable unset for the test (restored after it).
class TuningFromEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kVariables) {
      env_.push_back(std::make_unique<ScopedEnv>(v));
      env_.back()->unset();
    }
  }
  static void set(const char* name, const char* value) { ::setenv(name, value, 1); }
  // The message of the std::invalid_argument tuning_from_environment throws ("" when none).
  static std::string refusal() {
    try {
      (void)gpu::tuning_from_environment();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  }
  // Each text in `good` gives its value in `field`; each in `bad` is refused with `want`.
  template <class T>
  static void expect_values(const char* name, T gpu::Tuning::*field,
                            std::initializer_list<std::pair<const char*, T>> good,
                            std::initializer_list<const char*> bad, const std::string& want) {
    for (const auto& [text, value] : good) {
      set(name, text);
      EXPECT_EQ(gpu::tuning_from_environment().*field, value) << name << "=" << text;
    }
    expect_refused(name, bad, want);
    ::unsetenv(name);  // unset again: another variable's checks read this one's default
  }
  // Each of `bad` is refused with the message `name="bad": want`.
  static void expect_refused(const char* name, std::initializer_list<const char*> bad, const std::string& want) {
    for (const char* b : bad) {
      set(name, b);
      EXPECT_EQ(refusal(), std::string(name) + "=\"" + b + "\": " + want);
    }
  }

 private:
  std::vector<std::unique_ptr<ScopedEnv>> env_;
};

TEST_F(TuningFromEnvironment, UnsetIsTheDefault) {
  EXPECT_EQ(gpu::tuning_from_environment(), gpu::Tuning{});
  const gpu::Tuning t;
  EXPECT_FALSE(t.sequential_msms || t.msm_profile || t.pool_driver_defaults);
  EXPECT_EQ(t.msm_level0, gpu::MsmLevel0::kAuto);
  EXPECT_EQ(t.ntt_twiddles, gpu::TwiddleChoice::kAuto);
  EXPECT_FALSE(t.ntt_passes.has_value());
  EXPECT_EQ(t.emulate_smem_per_sm_kib, 0u);
  EXPECT_EQ(t.guard_bytes, 0u);
}

TEST_F(TuningFromEnvironment, SwitchesAreOnWhenSetToAnything) {
  for (const char* value : {"1", "", "no"}) {
    set("CUZK_GPU_SEQUENTIAL_MSMS", value);
    set("CUZK_MSM_PROFILE", value);
    set("CUZK_GPU_POOL_DEFAULTS", value);
    const gpu::Tuning t = gpu::tuning_from_environment();
    EXPECT_TRUE(t.sequential_msms) << '"' << value << '"';
    EXPECT_TRUE(t.msm_profile) << '"' << value << '"';
    EXPECT_TRUE(t.pool_driver_defaults) << '"' << value << '"';
  }
}

TEST_F(TuningFromEnvironment, ChoicesByName) {
  using L = gpu::MsmLevel0;
  expect_values<L>("CUZK_MSM_LEVEL0", &gpu::Tuning::msm_level0,
                   {{"shared", L::kShared}, {"registers", L::kRegisters}, {"auto", L::kAuto}, {"", L::kAuto}}, {"fast"},
                   "want shared, registers or auto");
  using T = gpu::TwiddleChoice;
  expect_values<T>("CUZK_NTT_TWIDDLES", &gpu::Tuning::ntt_twiddles,
                   {{"full", T::kFull}, {"compact", T::kCompact}, {"auto", T::kAuto}, {"", T::kAuto}}, {"half"},
                   "want full, compact or auto");
}

TEST_F(TuningFromEnvironment, NttPasses) {
  set("CUZK_NTT_PASSES", "11,8,2");
  EXPECT_EQ(gpu::tuning_from_environment().ntt_passes, (gpu::NttPassShape{11, 8, 2, gpu::NttPassShape{}.radix}));
  set("CUZK_NTT_PASSES", "10,9,1,2");
  EXPECT_EQ(gpu::tuning_from_environment().ntt_passes, (gpu::NttPassShape{10, 9, 1, 2}));
  set("CUZK_NTT_PASSES", "");
  EXPECT_FALSE(gpu::tuning_from_environment().ntt_passes.has_value());
  expect_refused("CUZK_NTT_PASSES",
                 {"13,8,2", "10,9", "10,9,4", "10,0,1", "10,9,1x", "a,b,c", "10,-1,1", "4,3,5", "10,9,1,3", "10,9,1,4x",
                  "10,9,1,8"},
                 "want \"last,inner,log_cols[,radix]\" with 1 <= last <= 12, inner >= 1, 0 <= log_cols <= last, "
                 "inner + log_cols <= 12 and radix 2 or 4");
}

// Counts in decimal digits (unset or empty: 0). The emulated SM's upper bound (the device's own)
// is the device's to check: device_smem_limits.
TEST_F(TuningFromEnvironment, Counts) {
  expect_values<std::size_t>("CUZK_EMULATE_SMEM_PER_SM_KIB", &gpu::Tuning::emulate_smem_per_sm_kib,
                             {{"100", 100}, {"16", 16}, {"", 0}},
                             {"abc", "8", "0", "100x", "-5", " 100", "99999999999999999999999"},
                             "want KiB of shared memory per SM from 16 up to the device's own");
  expect_values<std::size_t>("CUZK_GPU_GUARD_BYTES", &gpu::Tuning::guard_bytes, {{"4096", 4096}, {"0", 0}, {"", 0}},
                             {"4k", "-1", "1.5"}, "want a number of bytes");
}

TEST(TuningText, FormsOfEachChoice) {
  EXPECT_EQ(gpu::msm_level0_from("registers"), gpu::MsmLevel0::kRegisters);
  EXPECT_FALSE(gpu::msm_level0_from("Shared").has_value());
  EXPECT_EQ(gpu::twiddle_choice_from("compact"), gpu::TwiddleChoice::kCompact);
  EXPECT_FALSE(gpu::twiddle_choice_from("full ").has_value());
  EXPECT_EQ(gpu::ntt_pass_shape_from("9,8,3"), (gpu::NttPassShape{9, 8, 3}));
  EXPECT_FALSE(gpu::ntt_pass_shape_from("").has_value());
  EXPECT_FALSE(gpu::ntt_pass_shape_from("12,8,5").has_value());  // a tile of 2^13
}

}  // namespace
