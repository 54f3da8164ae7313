// The message of the cuzk::DecodeError a call throws, for the tests of the readers' refusals:
//
//   EXPECT_DECODE_ERROR(read_r1cs<F>(bytes), "section 2, offset");
//   EXPECT_EQ(decode_error_of([&] { verify(p); }), "");   // accepted
//
// Any other exception leaves decode_error_of as it is (the test fails with it).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cuzk/error.hpp"

namespace cuzk::test {

// The message of the DecodeError fn() throws; "" when it throws none.
template <class Fn>
std::string decode_error_of(Fn&& fn) {
  try {
    fn();
  } catch (const DecodeError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cuzk::test

// Expects `expr` to throw a DecodeError whose message contains `needle`.
#define EXPECT_DECODE_ERROR(expr, needle)                                                          \
  do {                                                                                             \
    const std::string cuzk_msg_ = ::cuzk::test::decode_error_of([&] { (void)(expr); });            \
    EXPECT_NE(cuzk_msg_.find(needle), std::string::npos)                                           \
        << (cuzk_msg_.empty() ? std::string("no DecodeError") : "message: \"" + cuzk_msg_ + "\""); \
  } while (0)
