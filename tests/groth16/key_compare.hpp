// Field-by-field equality of proving keys, with gtest messages naming the field.
#pragma once

#include <gtest/gtest.h>

#include "cuzk/groth16/keys.hpp"

namespace cuzk::test {

template <class E>
void expect_same_key(const groth16::ProvingKey<E>& x, const groth16::ProvingKey<E>& y, bool matrices = true) {
  EXPECT_TRUE(x.vk == y.vk) << "vk";
  EXPECT_EQ(x.h_convention, y.h_convention);
  EXPECT_EQ(x.num_vars, y.num_vars);
  EXPECT_EQ(x.domain_size, y.domain_size);
  EXPECT_TRUE(x.a_query == y.a_query) << "a_query";
  EXPECT_TRUE(x.b_g1_query == y.b_g1_query) << "b_g1_query";
  EXPECT_TRUE(x.b_g2_query == y.b_g2_query) << "b_g2_query";
  EXPECT_TRUE(x.l_query == y.l_query) << "l_query";
  EXPECT_TRUE(x.h_query == y.h_query) << "h_query";
  EXPECT_EQ(x.c_stored, y.c_stored);
  if (matrices) {
    EXPECT_TRUE(x.a == y.a) << "matrix a";
    EXPECT_TRUE(x.b == y.b) << "matrix b";
    EXPECT_TRUE(x.c == y.c) << "matrix c";
  }
}

}  // namespace cuzk::test
