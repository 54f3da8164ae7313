// storage-proofs-core gadgets/encode.rs: the SDR replica encoding in the circuit. A replica node
// is the data node plus the last layer's label (encode), and the data is the replica minus the
// key (decode), each one new number and one constraint (constraint::add / constraint::sub).
#pragma once

#include "cuzk/filecoin/insertion.hpp"

namespace cuzk::filecoin {

// key + value, in namespace "encode_add".
template <class CS>
AllocatedNum encode(CS& cs, const AllocatedNum& key, const AllocatedNum& value) {
  cs::Namespace ns(cs, "encode_add");
  return add_nums(cs, key, value);
}

// value - key, in namespace "decode_sub".
template <class CS>
AllocatedNum decode(CS& cs, const AllocatedNum& key, const AllocatedNum& value) {
  cs::Namespace ns(cs, "decode_sub");
  return sub_nums(cs, value, key);
}

}  // namespace cuzk::filecoin
