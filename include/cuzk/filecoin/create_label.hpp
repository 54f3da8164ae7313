// The SDR labeling hash in circuit form (storage-proofs-porep stacked/circuit/create_label.rs):
// SHA-256 over replica_id (padded to 32 bytes) | layer (u32 BE) | node (u64 BE) | zeros to 64
// bytes | 37 parent labels of 32 bytes each, the digest read back with each byte's bits reversed
// and its first 254 bits packed into one number.
#pragma once

#include <span>
#include <stdexcept>
#include <vector>

#include "cuzk/filecoin/multipack.hpp"
#include "cuzk/filecoin/sha256.hpp"
#include "cuzk/filecoin/uint32.hpp"
#include "cuzk/filecoin/uint64.hpp"

namespace cuzk::filecoin {

inline constexpr std::size_t kSdrTotalParents = 37;  // stacked/vanilla TOTAL_PARENTS

template <class CS>
AllocatedNum create_label_circuit(CS& cs, std::span<const Boolean> replica_id,
                                  const std::vector<std::vector<Boolean>>& parents, const UInt32& layer,
                                  const UInt64& node) {
  if (replica_id.size() < 32 || replica_id.size() > 256) throw std::invalid_argument("create_label: replica id size");
  if (parents.size() != kSdrTotalParents) throw std::invalid_argument("create_label: expected 37 parents");
  std::vector<Boolean> msg(replica_id.begin(), replica_id.end());
  msg.reserve((2 + kSdrTotalParents) * 256);
  while (msg.size() < 256) msg.push_back(Boolean::constant(false));
  for (const Boolean& b : layer.into_bits_be()) msg.push_back(b);
  for (const Boolean& b : node.to_bits_be()) msg.push_back(b);
  while (msg.size() < 512) msg.push_back(Boolean::constant(false));
  for (const auto& p : parents) {
    msg.insert(msg.end(), p.begin(), p.end());
    while (msg.size() % 256 != 0) msg.push_back(Boolean::constant(false));
  }
  std::vector<Boolean> digest;
  {
    cs::Namespace ns(cs, "hash");
    digest = sha256(cs, std::span<const Boolean>(msg));
  }
  const std::vector<Boolean> bits = reverse_bit_numbering(std::move(digest));
  cs::Namespace ns(cs, "result_num");
  return pack_bits(cs, std::span<const Boolean>(bits).subspan(0, kFrCapacity));
}

}  // namespace cuzk::filecoin
