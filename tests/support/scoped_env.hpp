// One environment variable changed for a scope: the old value, or its absence, comes back when the
// scope ends, also when an assertion leaves the test early (gpu/tuning_test:
// gpu::tuning_from_environment).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace cuzk::test {

class ScopedEnv {
 public:
  explicit ScopedEnv(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) old_ = v;
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

  void set(const char* value) const { ::setenv(name_, value, 1); }
  void unset() const { ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace cuzk::test
