// A registered circuit, curve-erased: what the scheduler and key manager need (shape,
// request checks, key loading) and the typed steps (synthesis, upload, prove + verify)
// behind virtual calls. Implementations: ZkeyCircuit<E> (snarkjs .zkey + .wtns requests)
// and NativeCircuit<E> (built-in circuits, witness synthesized from the request's seed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/engine/config.hpp"
#include "cuzk/engine/types.hpp"
#include "cuzk/groth16/timings.hpp"
#include "cuzk/io/binfile.hpp"
#include "device.hpp"
#include "shape.hpp"

namespace cuzk::engine {

struct ProvedOutput {
  std::string proof_json, public_json;
  std::vector<std::uint8_t> proof_bytes;
};

// One job's outcome of Circuit::prove_batch: its output, or its own error.
struct BatchOutcome {
  std::optional<ProvedOutput> out;
  std::exception_ptr error;
};

// One partition's input of a request proved as several SNARKs (Circuit::split), decoded and
// checked once at submit and shared by the partitions' jobs.
struct PartitionInput {
  virtual ~PartitionInput() = default;
  // Its partition number (split() sets it), named in its job's id ("<request>/partition-<index>"):
  // a request for one partition of a sector is that partition's only input.
  std::size_t index = 0;
};

class Circuit {
 public:
  virtual ~Circuit() = default;
  virtual const std::string& id() const = 0;
  virtual const KeyShape& shape() const = 0;
  virtual std::string source() const = 0;  // the .zkey path, or the native key's cache file
  // Cheap checks at submit (input form, witness length, w[0] = 1); throws EngineError.
  virtual void check_request(const ProofRequest& r) const = 0;
  // Parses the key from `file` (the mapped source(); null: maps it here) and has backend b
  // prepare it (CurveDevice::prepare). A native circuit rebuilds a missing, corrupt or
  // mis-shaped cache file instead (file is then stale).
  virtual std::shared_ptr<const HostKey> load_key(Devices& b, const io::MappedFile* file) const = 0;
  // A request proved as several SNARKs (a PoRep: one per partition of the sector): checked in
  // full, and each partition's input, in order (the engine proves each as its own job and joins
  // the proofs). Empty: the request is one proof. Throws EngineError.
  virtual std::vector<std::shared_ptr<const PartitionInput>> split(const ProofRequest&) const { return {}; }
  // The full assignment for the request (parsed .wtns, or synthesized from the seed), or for
  // the partition `part` of it (null unless split() gave partitions).
  virtual std::unique_ptr<Witness> synthesize(const ProofRequest& r, const PartitionInput* part,
                                              groth16::PhaseTimings& t) const = 0;
  // VRAM of the resident key and of one running proof on backend b, for the loaded key.
  virtual std::uint64_t device_key_bytes(Devices& b, const HostKey& key) const = 0;
  virtual std::uint64_t device_scratch_bytes(Devices& b, const HostKey& key) const = 0;
  // VRAM of a batch of proofs (prove_batch) while it runs.
  virtual std::uint64_t device_batch_scratch_bytes(Devices& b, const HostKey& key) const = 0;
  virtual std::unique_ptr<DeviceKey> upload(Devices& b, std::shared_ptr<const HostKey> key, int device) const = 0;
  // The pinned tier on backend b: the bytes a pin takes (0: b does not pin) and the pin.
  virtual std::uint64_t host_pin_bytes(Devices& b, const HostKey& key) const = 0;
  virtual std::unique_ptr<HostPin> pin_host(Devices& b, std::shared_ptr<const HostKey> key) const = 0;
  // A synthesized witness page-locked on backend b (CurveDevice::pin_witness; null: not pinned).
  virtual std::unique_ptr<HostPin> pin_witness(Devices& b, const Witness& w) const = 0;
  // Proves k >= 1 jobs' witnesses with one key (CurveDevice::prove_batch; a single proof is a
  // batch of one), verifies each (phase "verify") and encodes it: one outcome per witness. A
  // witness of the wrong shape, or a proof that does not verify (ProofRejected, errors.hpp),
  // fails its own job only; a device fault or a set cancel flag throws for the whole batch. The
  // timings' cancel flags are the attempt's (Pipeline::BatchScope: set once every job in it is
  // cancelled).
  virtual std::vector<BatchOutcome> prove_batch(Devices& b, const DeviceKey& dkey, const HostKey& key,
                                                std::span<const Witness* const> ws,
                                                std::span<groth16::PhaseTimings* const> ts) const = 0;
};

// The one curve dispatch: the .zkey header or CircuitSpec::curve picks the engine. Throws
// std::invalid_argument naming the bad field (`field` is e.g. "circuits[2]").
std::unique_ptr<Circuit> make_circuit(const CircuitSpec& spec, const std::filesystem::path& cache_dir,
                                      const std::string& field);

template <class E>
std::unique_ptr<Circuit> make_zkey_circuit(const CircuitSpec& spec, const std::string& field);
template <class E>
std::unique_ptr<Circuit> make_native_circuit(const CircuitSpec& spec, const std::filesystem::path& cache_dir,
                                             const std::string& field);

}  // namespace cuzk::engine
