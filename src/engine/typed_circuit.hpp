// The curve-typed half of a circuit: upload and prove-verify-encode, shared by the .zkey
// and the native circuits. Included only by the per-curve translation units.
#pragma once

#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuit.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/io/binfile.hpp"
#include "errors.hpp"

namespace cuzk::engine {

template <class E>
class TypedCircuit : public Circuit {
 public:
  using Fr = typename E::Fr;

  const std::string& id() const override { return id_; }
  const KeyShape& shape() const override { return shape_; }

  std::uint64_t device_key_bytes(Devices& b, const HostKey& key) const override {
    return b.curve<E>().key_bytes(proving_key(key));
  }
  std::uint64_t device_scratch_bytes(Devices& b, const HostKey& key) const override {
    return b.curve<E>().scratch_bytes(proving_key(key));
  }
  std::uint64_t device_batch_scratch_bytes(Devices& b, const HostKey& key) const override {
    return b.curve<E>().batch_scratch_bytes(proving_key(key));
  }

  std::unique_ptr<DeviceKey> upload(Devices& b, std::shared_ptr<const HostKey> key, int device) const override {
    return b.curve<E>().upload(typed(std::move(key)), device);
  }

  std::uint64_t host_pin_bytes(Devices& b, const HostKey& key) const override {
    return b.curve<E>().pin_bytes(proving_key(key));
  }
  std::unique_ptr<HostPin> pin_host(Devices& b, std::shared_ptr<const HostKey> key) const override {
    return b.curve<E>().pin(typed(std::move(key)));
  }
  std::unique_ptr<HostPin> pin_witness(Devices& b, const Witness& w) const override {
    return b.curve<E>().pin_witness(values(w));
  }

  std::vector<BatchOutcome> prove_batch(Devices& b, const DeviceKey& dkey, const HostKey& key,
                                        std::span<const Witness* const> ws,
                                        std::span<groth16::PhaseTimings* const> ts) const override {
    const groth16::ProvingKey<E>& pk = proving_key(key);
    std::vector<BatchOutcome> res(ws.size());
    std::vector<std::size_t> idx;  // the jobs whose witness has the key's shape
    std::vector<std::span<const Fr>> spans;
    for (std::size_t i = 0; i < ws.size(); ++i) {
      try {
        spans.push_back(checked_witness(pk, *ws[i]));
        idx.push_back(i);
      } catch (...) {
        res[i].error = std::current_exception();
      }
    }
    if (idx.empty()) return res;  // no witness of the key's shape: nothing for the device
    std::vector<groth16::PhaseTimings> local(idx.size());
    for (std::size_t k = 0; k < idx.size(); ++k) local[k].cancel = ts[idx[k]]->cancel;
    const std::vector<groth16::Proof<E>> proofs = b.curve<E>().prove_batch(dkey, pk, spans, local);
    for (std::size_t k = 0; k < idx.size(); ++k) {
      groth16::PhaseTimings& t = *ts[idx[k]];
      for (auto& [name, ms] : local[k].phases) t.add(std::move(name), ms);
      try {
        res[idx[k]].out = verified_output(pk, proofs[k], spans[k], t);
      } catch (...) {
        res[idx[k]].error = std::current_exception();
      }
    }
    return res;
  }

 private:
  // f(), its wrong-curve logic_error (curve_values.hpp) prefixed with the circuit.
  template <class F>
  decltype(auto) of_this_curve(F&& f) const {
    try {
      return f();
    } catch (const std::logic_error& e) {
      throw std::logic_error("circuit " + id_ + ": " + e.what());
    }
  }
  std::span<const Fr> checked_witness(const groth16::ProvingKey<E>& pk, const Witness& wit) const {
    const std::span<const Fr> w = values(wit);
    try {
      groth16::check_witness_shape(pk, w);
    } catch (const std::invalid_argument& e) {
      throw EngineError(ErrorCode::kInvalidArgument, "circuit " + id_ + ": " + e.what());
    }
    return w;
  }
  // Verifies the proof (phase "verify") and encodes it; one that does not verify throws
  // ProofRejected (the pipeline proves it once more before the job fails).
  ProvedOutput verified_output(const groth16::ProvingKey<E>& pk, const groth16::Proof<E>& proof, std::span<const Fr> w,
                               groth16::PhaseTimings& t) const {
    const auto pub = w.subspan(1, pk.num_public());
    {
      groth16::ScopedPhase p(t, "verify");
      if (!groth16::verify(pk.vk, proof, pub)) {
        if (witness_from_request_)
          throw ProofRejected(ErrorCode::kInvalidArgument,
                              "circuit " + id_ + ": the proof does not verify: the witness does not satisfy the circuit");
        throw ProofRejected(ErrorCode::kInternal, "circuit " + id_ +
                                                      ": the proof does not verify, though the engine synthesized its "
                                                      "witness: a prover or device fault" + rejection_hint_);
      }
    }
    ProvedOutput out;
    out.proof_json = groth16::proof_to_json<E>(proof).dump();
    out.public_json = groth16::public_to_json<Fr>(pub).dump();
    if constexpr (std::is_same_v<E, groth16::Bls12_381>) {
      const auto bytes = groth16::write_bellperson_proof(proof);
      out.proof_bytes.assign(bytes.begin(), bytes.end());
    }
    return out;
  }

 protected:
  // The loaded key as the engine shares it: prepared by backend b (CurveDevice::prepare).
  static std::shared_ptr<const HostKey> host_key(Devices& b, groth16::ProvingKey<E> pk) {
    b.curve<E>().prepare(pk);
    return std::make_shared<const HostKey>(std::move(pk));
  }
  // The curve-indexed key and witness the engine hands back, read as this circuit's curve (an
  // object of the other curve is a logic error, never a bad proof).
  std::shared_ptr<const groth16::ProvingKey<E>> typed(std::shared_ptr<const HostKey> key) const {
    return of_this_curve([&] { return typed_key<E>(std::move(key)); });
  }
  const groth16::ProvingKey<E>& proving_key(const HostKey& key) const {
    return of_this_curve([&]() -> const groth16::ProvingKey<E>& { return key.get<E>(); });
  }
  std::span<const Fr> values(const Witness& w) const {
    return of_this_curve([&] { return w.get<E>(); });
  }
  // Parses a .zkey from its mapping, or maps `path` when none is given.
  static groth16::ProvingKey<E> parse_zkey(const io::MappedFile* file, const std::filesystem::path& path) {
    if (file == nullptr) return groth16::read_zkey<E>(io::BinFile::open(path, groth16::zkey_detail::kZkeyFile));
    try {
      return groth16::read_zkey<E>(io::BinFile::parse(file->bytes(), groth16::zkey_detail::kZkeyFile));
    } catch (const DecodeError& e) {
      throw DecodeError(path.string() + ": " + e.what());
    }
  }

  // The shape of a .zkey from its header (section 2) and coefficient count (section 4).
  static KeyShape zkey_shape(const io::BinFile& f) {
    auto r = f.reader(2);
    const std::uint32_t n8q = r.u32();
    (void)r.bytes(n8q);
    const std::uint32_t n8r = r.u32();
    (void)r.bytes(n8r);
    KeyShape s;
    s.curve = curve_of<E>();
    s.num_vars = r.u32();
    s.num_public = r.u32();
    s.domain_size = r.u32();
    s.h_len = s.domain_size;
    s.rows = s.domain_size;  // an upper bound: rows fit the domain
    s.nnz = f.reader(4).u32();
    s.g1_bytes = sizeof(typename E::G1Affine);
    s.g2_bytes = sizeof(typename E::G2Affine);
    s.fr_bytes = sizeof(Fr);
    if (s.num_vars < s.num_public + 1) throw DecodeError("zkey: nPublic + 1 exceeds nVars");
    return s;
  }

  std::string id_;
  KeyShape shape_;
  // False when the engine synthesizes the witness (native circuits): a proof that does not
  // verify is then the prover's fault, never the caller's.
  bool witness_from_request_ = true;
  // Appended to the message of a synthesized witness's proof that does not verify (what else
  // the failure can mean for this circuit).
  std::string rejection_hint_;
};

}  // namespace cuzk::engine
