// Internal error types: a request-level failure with the ErrorCode it maps to, the budget's
// "can never fit" refusal, and a proof that failed verification.
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

// EngineError kInvalidArgument: the request is wrong (what says how).
inline EngineError invalid_argument(const std::string& what) { return EngineError(ErrorCode::kInvalidArgument, what); }

// A reservation larger than its pool's whole budget: waiting would never help.
class BudgetExhausted : public EngineError {
 public:
  explicit BudgetExhausted(const std::string& what) : EngineError(ErrorCode::kResourceExhausted, what) {}
};

// A proof that failed verification. The pipeline proves the job once more, as after a device
// fault (on another device when there is one: a silent device fault gives a wrong proof too);
// a second failure ends the job with code(): kInvalidArgument when the witness came with the
// request (it does not satisfy the circuit), kInternal when the engine synthesized it.
class ProofRejected : public EngineError {
 public:
  using EngineError::EngineError;
};

}  // namespace cuzk::engine
