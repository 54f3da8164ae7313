// A full assignment's vector (gigabytes at 32 GiB), allocated the fast way.
#pragma once

#include <cstddef>
#include <vector>

#include "cuzk/filecoin/fr.hpp"

namespace cuzk::filecoin::detail {

// n zeros. std::vector value-initializes on one thread, which in fresh memory is mostly page
// faults and the kernel's clearing: this asks for transparent huge pages and faults the pages in
// on every thread first (Linux 5.14+ MADV_POPULATE_WRITE). Hints only: unsupported or refused,
// the vector is zeroed all the same.
std::vector<Fr> zeroed_witness_vector(std::size_t n);

}  // namespace cuzk::filecoin::detail
