// Internal error types: a request-level failure with the ErrorCode it maps to, and the
// budget's "can never fit" refusal.
#pragma once

#include <stdexcept>
#include <string>

#include "cuzk/engine/types.hpp"

namespace cuzk::engine {

class EngineError : public std::runtime_error {
 public:
  EngineError(ErrorCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// A reservation larger than its pool's whole budget: waiting would never help.
class BudgetExhausted : public EngineError {
 public:
  explicit BudgetExhausted(const std::string& what) : EngineError(ErrorCode::kResourceExhausted, what) {}
};

}  // namespace cuzk::engine
