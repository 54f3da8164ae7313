// The SRS / proving-key manager. Tiers, fastest first (a key's tier is the fastest it has):
//   vram    a copy on a device (cuda: uploaded; cpu: a simulated copy accounted against the
//           simulated VRAM budget), one per device that asked for it;
//   pinned  the host copy's point arrays page-locked (cuda: registered with the driver, so
//           uploads run at full link speed; cpu: accounted only), against the pinned budget,
//           leaving `pin_headroom` bytes of it to the proofs' staging buffers;
//   host    the parsed ProvingKey in RAM (accounted against the host budget);
//   mmap    the key file mapped, its pages left to the page cache (not charged to a budget):
//           a key dropped from RAM under memory pressure keeps its mapping and the kernel is
//           asked to read it ahead, so reloading parses from memory instead of the disk;
//   disk    the file only (never loaded, explicitly evicted, or the file was replaced).
// A key whose proofs fail verification on two attempts is suspect: reload_suspect replaces its
// host copy (and drops its device copies) with a fresh load from its file, whose integrity the
// circuit checks again (a native key's cache file that fails its digest is re-derived); the old
// copies live on, still accounted, until the last job using them ends.
// Jobs hold a Lease (refcount) from admission until their proof is final; a key with
// refcount > 0 is never evicted. Making room evicts least-recently-used keys nobody holds:
// device copies for a VRAM pool, whole keys (host copy and its device copies) for the host
// pool. The budget calls reclaim() while a reservation waits.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "budget.hpp"
#include "circuit.hpp"
#include "cuzk/engine/types.hpp"
#include "device.hpp"

namespace cuzk::engine {

class KeyManager {
  struct Entry;

 public:
  // Holds one reference to a key (its host copy, and the device copies it asked for).
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& o) noexcept;
    Lease& operator=(Lease&& o) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { release(); }
    void release() noexcept;
    explicit operator bool() const { return mgr_ != nullptr; }
    const HostKey& host() const { return *host_; }

   private:
    friend class KeyManager;
    KeyManager* mgr_ = nullptr;
    Entry* entry_ = nullptr;
    std::uint64_t gen_ = 0;  // the entry's generation (reloads) its host copy is of
    std::shared_ptr<const HostKey> host_;
    std::vector<int> devices_;  // device copies this lease uses
  };

  KeyManager(Budget& budget, Devices& devices, const std::vector<const Circuit*>& circuits,
             std::uint64_t pin_headroom = 0);
  ~KeyManager();
  // Pinned bytes no pin may take (the proofs' staging buffers).
  std::uint64_t pin_headroom() const { return pin_headroom_; }

  // A reference to the circuit's key in host memory (loads it from disk if needed,
  // reserving host memory first). `load_ms` gets the time spent loading (0 on a hit).
  Lease acquire(const Circuit& c, const std::atomic<bool>* cancel, double* load_ms);
  // The key's copy on `device` (uploads it if needed, reserving VRAM first).
  const DeviceKey& on_device(Lease& lease, int device, const std::atomic<bool>* cancel, double* load_ms);
  // The lease stops using its copy on `device` (after a device fault there).
  void release_device(Lease& lease, int device);
  bool resident_on(const std::string& circuit_id, int device) const;
  // A job for the circuit was queued: a key only in the mmap tier has its file read ahead.
  void warm(const std::string& circuit_id) const;
  // A proof made with the circuit's key verified: a later suspicion may reload it again.
  void note_proof(const std::string& circuit_id);

  enum class Reload {
    kReloaded,         // the lease now holds a fresh copy (by this call, or another job's since)
    kAlreadyReloaded,  // reloaded on suspicion already, and no proof verified since: not again
    kNoRoom,           // the host budget has no room now for a fresh copy beside the one in use
  };
  // The lease's key is suspect (proofs with it failed verification twice): loads it afresh
  // from its file (Circuit::load_key, on the caller's thread, never waiting for memory) and
  // moves the lease to the new copy; the next device use uploads it. Throws what load_key throws.
  Reload reload_suspect(Lease& lease);

  // Host copy, then a device copy where the VRAM budget allows it without waiting.
  ErrorCode preload(const Circuit& c, std::string* error);
  ErrorCode evict(const std::string& circuit_id, std::string* error);
  // Evicts unreferenced keys LRU-first until `deficit` bytes of `pool` are free (vram: device
  // copies; pinned: pins; host: host copies with their pins and device copies, the mapping
  // stays); returns the bytes freed.
  std::uint64_t reclaim(PoolId pool, std::uint64_t deficit);

  std::vector<KeyStatus> status() const;

 private:
  struct DeviceCopy {
    std::unique_ptr<DeviceKey> key;
    Reservation res;
    int users = 0;
  };
  // Detaches what evicting holds; the caller destroys it after unlocking.
  struct Dropped {  // members die in reverse order: pins first, then the rest
    std::vector<DeviceCopy> copies;
    std::shared_ptr<const HostKey> host;
    Reservation host_res;
    std::shared_ptr<const io::MappedFile> file;
    std::vector<Reservation> pin_res;
    std::vector<std::unique_ptr<HostPin>> pins;
  };
  // The copies of an earlier generation (before a reload), kept while leases use them.
  struct Retired {
    std::uint64_t gen = 0;
    int refcount = 0;
    Dropped held;
  };
  struct Entry {
    const Circuit* circuit = nullptr;
    std::mutex load_m;                                   // one load from disk at a time
    std::map<int, std::unique_ptr<std::mutex>> upload_m;  // one upload per device at a time
    std::shared_ptr<const HostKey> host;
    Reservation host_res;
    std::unique_ptr<HostPin> pin;  // the pinned tier (with host)
    Reservation pin_res;
    std::shared_ptr<const io::MappedFile> file;  // the mmap tier (kept when host is dropped)
    std::map<int, DeviceCopy> devices;
    int refcount = 0;
    std::uint64_t last_use = 0;
    std::uint64_t proofs = 0;
    std::uint64_t gen = 0;             // bumped by each reload_suspect
    bool reloaded_unverified = false;  // reloaded on suspicion, no proof verified since
    std::vector<Retired> retired;
  };
  void release(Lease& l) noexcept;
  Entry& entry(const std::string& id);
  // Moves a lease of an earlier generation to the current copy (its retired copies move to
  // `gone`, which the caller destroys after unlocking, when it was their last user).
  void upgrade_locked(Entry& e, Lease& l, std::vector<Retired>& gone);
  // One lease of generation `gen` is gone: its retired copies move to `gone` with the last one.
  void unref_retired_locked(Entry& e, std::uint64_t gen, std::vector<Retired>& gone);
  // Host copy, pin and device copies; the mapping too when `unmap`.
  void drop_all_locked(Entry& e, Dropped& out, bool unmap);
  void drop_pin_locked(Entry& e, Dropped& out);
  // Pins a freshly loaded host copy when the pinned budget allows it (best effort).
  void try_pin(Entry& e, const std::shared_ptr<const HostKey>& key);

  Budget& budget_;
  Devices& devices_;
  mutable std::mutex m_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
  std::uint64_t tick_ = 0;
  std::uint64_t pin_headroom_ = 0;
};

}  // namespace cuzk::engine
