// A circuit served from a snarkjs .zkey: requests carry circom .wtns bytes.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "typed_circuit.hpp"

namespace cuzk::engine {

template <class E>
class ZkeyCircuit final : public TypedCircuit<E> {
  using Fr = typename E::Fr;

 public:
  ZkeyCircuit(const CircuitSpec& spec, const std::string& field) : path_(spec.zkey_path) {
    this->id_ = spec.id;
    try {
      const io::BinFile f = io::BinFile::open(path_, groth16::zkey_detail::kZkeyFile);
      this->shape_ = TypedCircuit<E>::zkey_shape(f);
    } catch (const std::exception& e) {
      throw std::invalid_argument(field + ".zkey_path: " + e.what());
    }
  }

  std::string source() const override { return path_.string(); }

  void check_request(const ProofRequest& r) const override {
    const std::string& id = this->id_;
    if (r.native_seed) bad("circuit " + id + " takes a .wtns witness, not a native_seed");
    if (r.wtns.empty()) bad("circuit " + id + " needs a .wtns witness (request has none)");
    const std::string w = named(r);
    try {
      const io::BinFile f = io::BinFile::parse(byte_span(r.wtns), r1cs::kWtnsFormat);
      const r1cs::WtnsFileHeader h = r1cs::read_wtns_header(f);
      r1cs::require_prime<Fr>("wtns", h.prime_le, h.n8);
      if (h.n_witness != this->shape_.num_vars)
        bad(w + "wtns has " + std::to_string(h.n_witness) + " values but circuit " + id + " expects " +
            std::to_string(this->shape_.num_vars));
      io::ByteReader data = f.reader(r1cs::kWtnsDataSection);
      if (!data.field_std<Fr>("witness value").is_one()) bad(w + "wtns: w[0] must be 1 (the constant-one wire)");
    } catch (const DecodeError& e) {
      bad(w + "malformed .wtns: " + e.what());
    }
  }

  std::shared_ptr<const HostKey> load_key(Devices& b, const io::MappedFile* file) const override {
    return this->host_key(b, this->parse_zkey(file, path_));
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest& r, const PartitionInput*,
                                      groth16::PhaseTimings& t) const override {
    groth16::ScopedPhase p(t, "synthesis");
    auto out = std::make_unique<Witness>(std::in_place_type<E>);
    try {
      out->template values<E>() = r1cs::read_wtns<Fr>(byte_span(r.wtns));
    } catch (const DecodeError& e) {
      bad(named(r) + "malformed .wtns: " + e.what());
    }
    return out;
  }

 private:
  [[noreturn]] static void bad(const std::string& m) { throw EngineError(ErrorCode::kInvalidArgument, m); }
  // The prefix of a witness's errors: its source's name, when the request gives one.
  static std::string named(const ProofRequest& r) { return r.wtns_name.empty() ? "" : r.wtns_name + ": "; }
  std::filesystem::path path_;
};

}  // namespace cuzk::engine
