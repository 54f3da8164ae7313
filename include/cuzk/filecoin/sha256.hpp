// bellperson's SHA-256 circuit (gadgets/sha256.rs), constraint for constraint.
//
// Method. Words are UInt32 (uint32.hpp). The IV and the round constants are constant words, so
// the first rounds fold: in round 0 everything but w[0] is constant and costs nothing, round 1's
// ch and maj see two constant operands, round 2's one. The additions feeding e and a are not
// done when they are produced but deferred to the next round (Rust's `Maybe::Deferred`), so each
// new e and a is ONE addmany of 6 (d + h + S1 + ch + K + w) and 7 (h + S1 + ch + K + w + S0 + maj)
// operands; the final e and a are summed together with the incoming hash words (7 and 8 operands).
// All additions of one compression share a MultiEq, created after the message words are formed
// and flushed after the last addition ("multieq N" under the caller's namespace, e.g. "block 3").
//
// Bit order: inputs and outputs are big-endian per 32-bit word (as the Rust: from_bits_be /
// into_bits_be), i.e. the message bits in the order SHA-256 reads them, most significant first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/filecoin/multieq.hpp"
#include "cuzk/filecoin/uint32.hpp"
#include "cuzk/gadgets/sha256_constants.hpp"

namespace cuzk::filecoin {

inline constexpr const auto& kSha256RoundConstants = sha256_constants::kRound;
inline constexpr const auto& kSha256Iv = sha256_constants::kIv;

// The IV as constant words (sha256.rs, get_sha256_iv).
inline std::array<UInt32, 8> get_sha256_iv() {
  std::array<UInt32, 8> iv;
  for (std::size_t i = 0; i < 8; ++i) iv[i] = UInt32::constant(kSha256Iv[i]);
  return iv;
}

namespace sha256_detail {

// A word that is either known as bits, or a list of operands still to be summed (Rust's Maybe).
class DeferredWord {
 public:
  explicit DeferredWord(const UInt32& w) : concrete_(w) {}
  explicit DeferredWord(std::vector<UInt32> operands) : operands_(std::move(operands)) {}

  // The word; a deferred one is summed with `others` appended (one addmany in meq's namespace).
  template <class CS>
  UInt32 compute(MultiEq<CS>& meq, std::span<const UInt32> others) const {
    if (concrete_) return *concrete_;
    std::vector<UInt32> ops = operands_;
    ops.insert(ops.end(), others.begin(), others.end());
    return UInt32::addmany(meq, ops);
  }

 private:
  std::optional<UInt32> concrete_;
  std::vector<UInt32> operands_;
};

// x.rotr(r0) xor x.rotr(r1) xor (x.rotr(r2) or x.shr(r2)), the two xors named as the Rust.
template <class CS>
UInt32 sigma(CS& cs, const UInt32& x, std::size_t r0, std::size_t r1, const UInt32& third, const char* first_name,
             const char* second_name) {
  UInt32 s = x.rotr(r0);
  {
    cs::Namespace ns(cs, first_name);
    s = s.xor_(cs, x.rotr(r1));
  }
  cs::Namespace ns(cs, second_name);
  return s.xor_(cs, third);
}

}  // namespace sha256_detail

// One compression of a 512-bit block (big-endian words) into the 8-word state
// (sha256.rs, sha256_compression_function). Returns the new state.
template <class CS>
std::array<UInt32, 8> sha256_compression_function(CS& cs, std::span<const Boolean> input,
                                                  std::span<const UInt32> current_hash_value) {
  using sha256_detail::DeferredWord;
  if (input.size() != 512) throw std::invalid_argument("sha256_compression_function: input must be 512 bits");
  if (current_hash_value.size() != 8) throw std::invalid_argument("sha256_compression_function: state must be 8 words");

  std::vector<UInt32> w;
  w.reserve(64);
  for (std::size_t i = 0; i < 16; ++i) w.push_back(UInt32::from_bits_be<CS>(input.subspan(32 * i, 32)));

  MultiEq<CS> meq(cs);

  // Message schedule: w[i] = w[i-16] + s0(w[i-15]) + w[i-7] + s1(w[i-2]).
  for (std::size_t i = 16; i < 64; ++i) {
    cs::Namespace ns(cs, [i] { return "w extension " + std::to_string(i); });
    UInt32 s0 = sha256_detail::sigma(cs, w[i - 15], 7, 18, w[i - 15].shr(3), "first xor for s0", "second xor for s0");
    UInt32 s1 = sha256_detail::sigma(cs, w[i - 2], 17, 19, w[i - 2].shr(10), "first xor for s1", "second xor for s1");
    UInt32 tmp;
    {
      cs::Namespace ns2(cs, "computation of w[i]");
      const std::array<UInt32, 4> ops = {w[i - 16], s0, w[i - 7], s1};
      tmp = UInt32::addmany(meq, ops);
    }
    w.push_back(tmp);
  }

  DeferredWord a(current_hash_value[0]);
  UInt32 b = current_hash_value[1];
  UInt32 c = current_hash_value[2];
  UInt32 d = current_hash_value[3];
  DeferredWord e(current_hash_value[4]);
  UInt32 f = current_hash_value[5];
  UInt32 g = current_hash_value[6];
  UInt32 h = current_hash_value[7];

  for (std::size_t i = 0; i < 64; ++i) {
    cs::Namespace ns(cs, [i] { return "compression round " + std::to_string(i); });

    UInt32 new_e;
    {
      cs::Namespace ns2(cs, "deferred e computation");
      new_e = e.compute(meq, {});
    }
    // S1 = (e >>> 6) ^ (e >>> 11) ^ (e >>> 25)
    UInt32 s1 = sha256_detail::sigma(cs, new_e, 6, 11, new_e.rotr(25), "first xor for s1", "second xor for s1");
    UInt32 ch;
    {
      cs::Namespace ns2(cs, "ch");
      ch = UInt32::sha256_ch(cs, new_e, f, g);
    }
    // temp1 = h + S1 + ch + K[i] + w[i]
    std::vector<UInt32> temp1 = {h, s1, ch, UInt32::constant(kSha256RoundConstants[i]), w[i]};

    UInt32 new_a;
    {
      cs::Namespace ns2(cs, "deferred a computation");
      new_a = a.compute(meq, {});
    }
    // S0 = (a >>> 2) ^ (a >>> 13) ^ (a >>> 22)
    UInt32 s0 = sha256_detail::sigma(cs, new_a, 2, 13, new_a.rotr(22), "first xor for s0", "second xor for s0");
    UInt32 maj;
    {
      cs::Namespace ns2(cs, "maj");
      maj = UInt32::sha256_maj(cs, new_a, b, c);
    }

    // h = g, g = f, f = e, e = d + temp1, d = c, c = b, b = a, a = temp1 + S0 + maj
    h = g;
    g = f;
    f = new_e;
    std::vector<UInt32> e_ops = temp1;
    e_ops.push_back(d);
    e = DeferredWord(std::move(e_ops));
    d = c;
    c = b;
    b = new_a;
    std::vector<UInt32> a_ops = std::move(temp1);
    a_ops.push_back(s0);
    a_ops.push_back(maj);
    a = DeferredWord(std::move(a_ops));
  }

  // The new state: h_k + (a..h)_k, in the Rust's order h0 .. h7.
  std::array<UInt32, 8> out;
  auto add_to = [&](const char* name, const UInt32& hv, const UInt32& x) {
    cs::Namespace ns(cs, name);
    const std::array<UInt32, 2> ops = {hv, x};
    return UInt32::addmany(meq, ops);
  };
  {
    cs::Namespace ns(cs, "deferred h0 computation");
    out[0] = a.compute(meq, std::span<const UInt32>(&current_hash_value[0], 1));
  }
  out[1] = add_to("new h1", current_hash_value[1], b);
  out[2] = add_to("new h2", current_hash_value[2], c);
  out[3] = add_to("new h3", current_hash_value[3], d);
  {
    cs::Namespace ns(cs, "deferred h4 computation");
    out[4] = e.compute(meq, std::span<const UInt32>(&current_hash_value[4], 1));
  }
  out[5] = add_to("new h5", current_hash_value[5], f);
  out[6] = add_to("new h6", current_hash_value[6], g);
  out[7] = add_to("new h7", current_hash_value[7], h);

  meq.finish();  // where the Rust MultiEq is dropped: the end of this function
  return out;
}

namespace sha256_detail {
inline void append_be(std::vector<Boolean>& out, const std::array<UInt32, 8>& state) {
  for (const UInt32& word : state) {
    const auto& bits = word.bits();
    for (std::size_t i = 32; i-- > 0;) out.push_back(bits[i]);
  }
}
}  // namespace sha256_detail

// The compression of one 512-bit block from the IV, no padding: 256 bits, most significant first
// (sha256.rs, sha256_block_no_padding).
template <class CS>
std::vector<Boolean> sha256_block_no_padding(CS& cs, std::span<const Boolean> input) {
  if (input.size() != 512) throw std::invalid_argument("sha256_block_no_padding: input must be 512 bits");
  const std::array<UInt32, 8> iv = get_sha256_iv();
  std::vector<Boolean> out;
  out.reserve(256);
  sha256_detail::append_be(out, sha256_compression_function(cs, input, iv));
  return out;
}

// SHA-256 of a whole number of bytes given as bits, most significant bit of each byte first
// (sha256.rs, sha256): the padding (a 1, zeros, the 64-bit big-endian bit length) is constant
// bits; block i is compressed in namespace "block i". Returns the 256 digest bits, MSB first.
template <class CS>
std::vector<Boolean> sha256(CS& cs, std::span<const Boolean> input) {
  if (input.size() % 8 != 0) throw std::invalid_argument("sha256: input must be whole bytes");
  std::vector<Boolean> padded;
  padded.reserve((input.size() + 1 + 64 + 511) / 512 * 512);
  padded.assign(input.begin(), input.end());
  const std::uint64_t len = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant(((len >> i) & 1) != 0));

  std::array<UInt32, 8> cur = get_sha256_iv();
  for (std::size_t blk = 0; blk * 512 < padded.size(); ++blk) {
    cs::Namespace ns(cs, [blk] { return "block " + std::to_string(blk); });
    cur = sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(512 * blk, 512), cur);
  }
  std::vector<Boolean> out;
  out.reserve(256);
  sha256_detail::append_be(out, cur);
  return out;
}

}  // namespace cuzk::filecoin
