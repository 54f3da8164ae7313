// The tuning's text forms and tuning_from_environment (cuzk/gpu/tuning.hpp): the CUZK_* variables
// of the GPU layer are read here and nowhere else in the library, for programs' main functions.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cuzk/gpu/tuning.hpp"

namespace cuzk::gpu {

std::optional<MsmLevel0> msm_level0_from(std::string_view v) {
  if (v.empty() || v == "auto") return MsmLevel0::kAuto;
  if (v == "shared") return MsmLevel0::kShared;
  if (v == "registers") return MsmLevel0::kRegisters;
  return std::nullopt;
}

std::optional<TwiddleChoice> twiddle_choice_from(std::string_view v) {
  if (v.empty() || v == "auto") return TwiddleChoice::kAuto;
  if (v == "full") return TwiddleChoice::kFull;
  if (v == "compact") return TwiddleChoice::kCompact;
  return std::nullopt;
}

std::optional<NttPassShape> ntt_pass_shape_from(std::string_view text) {
  const std::string s(text);
  const char* e = s.c_str();
  NttPassShape sh;
  int end = -1, end4 = -1;
  bool ok = std::sscanf(e, "%d,%d,%d%n", &sh.last, &sh.inner, &sh.log_cols, &end) == 3 && end > 0;
  if (ok && e[end] == ',') ok = std::sscanf(e + end + 1, "%d%n", &sh.radix, &end4) == 1 && end4 > 0, end += 1 + end4;
  if (!ok || e[end] != 0 || !sh.valid()) return std::nullopt;
  return sh;
}

std::string ntt_pass_shape_text(const NttPassShape& s) {
  return std::to_string(s.last) + "," + std::to_string(s.inner) + "," + std::to_string(s.log_cols) + "," +
         std::to_string(s.radix);
}

std::string_view msm_level0_name(MsmLevel0 v) {
  return v == MsmLevel0::kShared ? "shared" : v == MsmLevel0::kRegisters ? "registers" : "auto";
}

std::string_view twiddle_choice_name(TwiddleChoice v) {
  return v == TwiddleChoice::kFull ? "full" : v == TwiddleChoice::kCompact ? "compact" : "auto";
}

namespace {
// The variable's value, or nullptr when it is unset.
const char* variable(const char* name) { return std::getenv(name); }

std::invalid_argument bad_value(const char* name, std::string_view value, const char* want) {
  return std::invalid_argument(std::string(name) + "=\"" + std::string(value) + "\": " + want);
}

// A decimal count of digits only (no sign, no spaces); nullopt for anything else.
std::optional<std::size_t> count_from(std::string_view v) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  const std::string s(v);
  errno = 0;
  const unsigned long long x = std::strtoull(s.c_str(), nullptr, 10);
  if (errno != 0 || x > static_cast<unsigned long long>(static_cast<std::size_t>(-1))) return std::nullopt;
  return static_cast<std::size_t>(x);
}

// The value of a variable with a text form, its default when unset.
template <class T>
T parsed(const char* name, std::optional<T> (*from)(std::string_view), const char* want) {
  const char* e = variable(name);
  const std::optional<T> v = from(e == nullptr ? "" : e);
  if (!v) throw bad_value(name, e, want);
  return *v;
}

std::optional<NttPassShape> ntt_passes() {
  const char* e = variable("CUZK_NTT_PASSES");
  if (e == nullptr || *e == 0) return std::nullopt;
  if (std::optional<NttPassShape> sh = ntt_pass_shape_from(e)) return sh;
  throw bad_value("CUZK_NTT_PASSES", e,
                  "want \"last,inner,log_cols[,radix]\" with 1 <= last <= 12, inner >= 1, 0 <= log_cols <= last, "
                  "inner + log_cols <= 12 and radix 2 or 4");
}

// A count (unset or empty: 0) of at least `least`.
std::size_t count(const char* name, std::size_t least, const char* want) {
  const char* e = variable(name);
  if (e == nullptr || *e == 0) return 0;
  const std::optional<std::size_t> n = count_from(e);
  if (!n || *n < least) throw bad_value(name, e, want);
  return *n;
}
}  // namespace

Tuning tuning_from_environment() {
  Tuning t;
  t.sequential_msms = variable("CUZK_GPU_SEQUENTIAL_MSMS") != nullptr;
  t.msm_profile = variable("CUZK_MSM_PROFILE") != nullptr;
  t.msm_level0 = parsed("CUZK_MSM_LEVEL0", &msm_level0_from, "want shared, registers or auto");
  t.ntt_passes = ntt_passes();
  t.ntt_twiddles = parsed("CUZK_NTT_TWIDDLES", &twiddle_choice_from, "want full, compact or auto");
  // From 16 KiB; the upper bound, the device's own, is checked on the device (device_smem_limits).
  t.emulate_smem_per_sm_kib =
      count("CUZK_EMULATE_SMEM_PER_SM_KIB", 16, "want KiB of shared memory per SM from 16 up to the device's own");
  t.pool_driver_defaults = variable("CUZK_GPU_POOL_DEFAULTS") != nullptr;
  t.guard_bytes = count("CUZK_GPU_GUARD_BYTES", 0, "want a number of bytes");
  return t;
}

}  // namespace cuzk::gpu
