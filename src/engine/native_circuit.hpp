// A built-in circuit: requests carry a seed and the witness is synthesized from it. Its
// TEST key comes from the seeded setup, recorded once and cached under cache_dir as a
// .zkey (the disk tier) with its digest beside it (key_digest.hpp): a restart reuses the file;
// a missing file, or one that fails its digest check or does not parse, is rebuilt.
#pragma once

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/parallel_witness.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "key_cache_files.hpp"
#include "key_digest.hpp"
#include "native_circuits.hpp"
#include "typed_circuit.hpp"

namespace cuzk::engine {

template <class E>
class NativeCircuit final : public TypedCircuit<E> {
  using Fr = typename E::Fr;

 public:
  NativeCircuit(const CircuitSpec& spec, const std::filesystem::path& cache_dir, const std::string& field)
      : name_(spec.native), params_(resolve_native_params(spec.native, spec.params, field)), setup_seed_(spec.setup_seed) {
    this->id_ = spec.id;
    this->witness_from_request_ = false;
    if constexpr (Fr::kBits <= 254)
      if (name_ == "porep-like") throw std::invalid_argument(field + ".curve: porep-like needs bls12_381");
    std::string file = name_ + "-" + std::string(E::kName);
    for (const auto& [k, v] : params_) file += "-" + k + "=" + std::to_string(v);
    path_ = cache_dir / (file + "-seed" + std::to_string(setup_seed_) + ".zkey");
    prepare_key_cache_dir(cache_dir);
    try {
      this->shape_ = TypedCircuit<E>::zkey_shape(io::BinFile::open(path_, groth16::zkey_detail::kZkeyFile));
    } catch (const std::exception& e) {
      if (std::filesystem::exists(path_)) spdlog::warn("key cache {} unreadable ({}); rebuilding", path_.string(), e.what());
      (void)build_key();
      this->shape_ = TypedCircuit<E>::zkey_shape(io::BinFile::open(path_, groth16::zkey_detail::kZkeyFile));
    }
  }

  std::string source() const override { return path_.string(); }

  void check_request(const ProofRequest& r) const override {
    if (!r.wtns.empty()) throw EngineError(ErrorCode::kInvalidArgument, "circuit " + this->id_ + " is native: send a native_seed, not a .wtns");
    if (!r.native_seed)
      throw EngineError(ErrorCode::kInvalidArgument, "circuit " + this->id_ + " is native: the request needs a native_seed");
  }

  // Checks the cache file against its digest (key_digest.hpp) before parsing it: a file that
  // fails the check, does not parse or has another shape is rebuilt from the seeded setup.
  std::shared_ptr<const HostKey> load_key(Devices& b, const io::MappedFile* file) const override {
    try {
      std::optional<io::MappedFile> own;
      if (file == nullptr) file = &own.emplace(io::MappedFile::open(path_));
      if (const auto problem = key_digest_problem(path_, file->bytes())) {
        spdlog::warn("key cache {} is corrupt: {}; rebuilding it from the seeded setup", path_.string(), *problem);
      } else {
        groth16::ProvingKey<E> pk = this->parse_zkey(file, path_);
        if (pk.num_vars == this->shape_.num_vars && pk.num_public() == this->shape_.num_public)
          return this->host_key(b, std::move(pk));
        spdlog::warn("key cache {} has another shape; rebuilding", path_.string());
      }
    } catch (const std::exception& e) {
      spdlog::warn("key cache {} is corrupt ({}); rebuilding", path_.string(), e.what());
    }
    return this->host_key(b, build_key());
  }

  std::unique_ptr<Witness> synthesize(const ProofRequest& r, const PartitionInput*,
                                      groth16::PhaseTimings& t) const override {
    groth16::ScopedPhase p(t, "synthesis");
    auto out = std::make_unique<Witness>(std::in_place_type<E>);
    out->template values<E>() = with_native_circuit<Fr>(name_, params_, *r.native_seed, [](const auto& c) {
      using C = std::decay_t<decltype(c)>;
      if constexpr (gadgets::circuits::ChallengeCircuit<C, Fr>) return gadgets::circuits::parallel_witness<Fr>(c).full();
      else return cs::witness<Fr>(c).full();
    });
    return out;
  }

 private:
  // Records the circuit (the seed does not change its shape), runs the seeded TEST setup
  // and writes the cache file atomically (temporary file + rename).
  groth16::ProvingKey<E> build_key() const {
    auto r1cs = with_native_circuit<Fr>(name_, params_, 1, [](const auto& c) { return cs::record<Fr>(c); });
    groth16::ProvingKey<E> pk = groth16::setup<E>(r1cs, groth16::HConvention::kOddCoset, setup_seed_);
    const auto tmp = path_.string() + ".tmp" + std::to_string(::getpid()) + "-" +
                     std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    groth16::write_zkey_file<E>(tmp, pk);
    restrict_key_file(tmp);
    // The digest first: a crash between the two renames leaves a key that fails its check.
    write_key_digest(path_, io::MappedFile::open(tmp).bytes());
    std::filesystem::rename(tmp, path_);
    // The key as the disk tier holds it (snarkjs layout: C is not stored).
    pk = groth16::read_zkey<E>(io::BinFile::open(path_, groth16::zkey_detail::kZkeyFile));
    spdlog::info("built TEST key for {} ({} vars, domain {}) -> {}", this->id_, pk.num_vars, pk.domain_size, path_.string());
    return pk;
  }

  std::string name_;
  NativeParams params_;
  std::uint64_t setup_seed_;
  std::filesystem::path path_;
};

}  // namespace cuzk::engine
