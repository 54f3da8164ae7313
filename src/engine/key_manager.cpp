#include "key_manager.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>

#include "cuzk/engine/ids.hpp"
#include "errors.hpp"

namespace cuzk::engine {

namespace {
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

KeyManager::Lease::Lease(Lease&& o) noexcept
    : mgr_(std::exchange(o.mgr_, nullptr)),
      entry_(o.entry_),
      gen_(o.gen_),
      host_(std::move(o.host_)),
      devices_(std::move(o.devices_)) {}

KeyManager::Lease& KeyManager::Lease::operator=(Lease&& o) noexcept {
  if (this != &o) {
    release();
    mgr_ = std::exchange(o.mgr_, nullptr);
    entry_ = o.entry_;
    gen_ = o.gen_;
    host_ = std::move(o.host_);
    devices_ = std::move(o.devices_);
  }
  return *this;
}

void KeyManager::Lease::release() noexcept {
  if (mgr_ != nullptr) std::exchange(mgr_, nullptr)->release(*this);
  host_.reset();
  devices_.clear();
}

KeyManager::KeyManager(Budget& budget, Devices& devices, const std::vector<const Circuit*>& circuits,
                       std::uint64_t pin_headroom)
    : budget_(budget), devices_(devices), pin_headroom_(pin_headroom) {
  for (const Circuit* c : circuits) {
    auto e = std::make_unique<Entry>();
    e->circuit = c;
    entries_.emplace(c->id(), std::move(e));
  }
}

KeyManager::~KeyManager() = default;

KeyManager::Entry& KeyManager::entry(const std::string& id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) throw EngineError(ErrorCode::kNotFound, "unknown circuit " + quote_id(id));
  return *it->second;
}

void KeyManager::release(Lease& l) noexcept {
  std::vector<Retired> gone;  // destroyed after the lock
  std::lock_guard lk(m_);
  Entry& e = *l.entry_;
  if (l.gen_ != e.gen) {
    unref_retired_locked(e, l.gen_, gone);
    return;
  }
  for (int d : l.devices_) {
    auto it = e.devices.find(d);
    if (it != e.devices.end()) --it->second.users;
  }
  --e.refcount;
  e.last_use = ++tick_;
}

void KeyManager::unref_retired_locked(Entry& e, std::uint64_t gen, std::vector<Retired>& gone) {
  auto it = std::find_if(e.retired.begin(), e.retired.end(), [&](const Retired& r) { return r.gen == gen; });
  if (it == e.retired.end() || --it->refcount > 0) return;
  gone.push_back(std::move(*it));
  e.retired.erase(it);
}

void KeyManager::upgrade_locked(Entry& e, Lease& l, std::vector<Retired>& gone) {
  if (l.gen_ == e.gen) return;
  unref_retired_locked(e, l.gen_, gone);
  ++e.refcount;
  l.gen_ = e.gen;
  l.host_ = e.host;
  l.devices_.clear();  // the retired device copies are not this generation's
}

KeyManager::Lease KeyManager::acquire(const Circuit& c, const std::atomic<bool>* cancel, double* load_ms) {
  Entry& e = entry(c.id());
  Lease l;
  {
    std::lock_guard lk(m_);
    ++e.refcount;  // pinned from here on: reclaim skips it while it loads
    e.last_use = ++tick_;
    l.mgr_ = this;
    l.entry_ = &e;
    l.gen_ = e.gen;
    if (e.host) {
      l.host_ = e.host;
      *load_ms = 0;
      return l;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::lock_guard load(e.load_m);
  {
    std::vector<Retired> gone;  // destroyed after the lock
    std::lock_guard lk(m_);
    if (e.host) {
      upgrade_locked(e, l, gone);  // a reload_suspect ran meanwhile
      l.host_ = e.host;
      *load_ms = ms_since(t0);
      return l;
    }
  }
  Reservation r = budget_.reserve(PoolId::host(), devices_.loaded_key_host_bytes(c.shape()), cancel);
  std::shared_ptr<const io::MappedFile> file;
  {
    std::lock_guard lk(m_);
    file = e.file;  // the mmap tier
  }
  if (!file || !file->same_as_on_disk()) {
    try {
      file = std::make_shared<const io::MappedFile>(io::MappedFile::open(c.source()));
    } catch (const std::system_error&) {
      file.reset();  // load_key reports (or, for a native circuit, repairs) the missing file
    }
  }
  std::shared_ptr<const HostKey> key = c.load_key(devices_, file.get());
  if (file && file->same_as_on_disk()) file->drop_pages();  // parsed: leave the pages to the page cache
  else file.reset();                                          // a native circuit rebuilt its file
  {
    std::lock_guard lk(m_);
    e.host = key;
    e.host_res = std::move(r);
    e.file = std::move(file);
  }
  try_pin(e, key);
  l.host_ = std::move(key);
  *load_ms = ms_since(t0);
  return l;
}

void KeyManager::try_pin(Entry& e, const std::shared_ptr<const HostKey>& key) {
  const std::uint64_t need = e.circuit->host_pin_bytes(devices_, *key);
  const PoolId pool = PoolId::pinned();
  if (need == 0 || need + pin_headroom_ > budget_.capacity(pool)) return;
  // Room for the pin and the staging headroom (reclaiming idle keys' pins LRU-first).
  std::optional<Reservation> r = budget_.try_reserve(pool, need + pin_headroom_);
  if (!r) return;
  r->shrink_to(need);
  std::unique_ptr<HostPin> pin;
  try {
    pin = e.circuit->pin_host(devices_, key);
  } catch (const std::exception& ex) {
    spdlog::warn("key {}: cannot pin the host copy ({}); it stays pageable", e.circuit->id(), ex.what());
    return;
  }
  if (!pin) return;
  Dropped stale;  // destroyed after the lock: a pin of a key dropped meanwhile
  std::lock_guard lk(m_);
  if (e.host != key || e.pin) {
    stale.pins.push_back(std::move(pin));
    return;
  }
  e.pin = std::move(pin);
  e.pin_res = std::move(*r);
}

const DeviceKey& KeyManager::on_device(Lease& l, int device, const std::atomic<bool>* cancel, double* load_ms) {
  Entry& e = *l.entry_;
  const auto t0 = std::chrono::steady_clock::now();
  auto hit = [&]() -> const DeviceKey* {
    std::vector<Retired> gone;  // destroyed after the lock
    std::lock_guard lk(m_);
    upgrade_locked(e, l, gone);  // a key reloaded since the lease was taken: its current copy
    auto it = e.devices.find(device);
    if (it == e.devices.end()) return nullptr;
    if (std::find(l.devices_.begin(), l.devices_.end(), device) == l.devices_.end()) {
      ++it->second.users;
      l.devices_.push_back(device);
    }
    e.last_use = ++tick_;
    return it->second.key.get();
  };
  if (const DeviceKey* k = hit()) {
    *load_ms = 0;
    return *k;
  }
  std::mutex* upload_m = nullptr;
  {
    std::lock_guard lk(m_);
    auto& m = e.upload_m[device];
    if (!m) m = std::make_unique<std::mutex>();
    upload_m = m.get();
  }
  std::lock_guard upload(*upload_m);
  for (;;) {
    if (const DeviceKey* k = hit()) {
      *load_ms = ms_since(t0);
      return *k;
    }
    Reservation r = budget_.reserve(PoolId::vram(device), e.circuit->device_key_bytes(devices_, *l.host_), cancel);
    std::unique_ptr<DeviceKey> dk = e.circuit->upload(devices_, l.host_, device);
    spdlog::info("key {}: on device {} ({} bytes reserved), {}, in {:.1f} ms", e.circuit->id(), device, r.bytes(),
                 dk->layout(), ms_since(t0));
    std::vector<Retired> gone;  // destroyed after the lock
    std::lock_guard lk(m_);
    if (l.gen_ == e.gen) {
      DeviceCopy& copy = e.devices[device];
      copy.key = std::move(dk);
      copy.res = std::move(r);
      copy.users = 1;
      l.devices_.push_back(device);
      *load_ms = ms_since(t0);
      return *copy.key;
    }
    // The key was reloaded (reload_suspect) during the upload: this copy is of the old one.
    gone.emplace_back();
    gone.back().held.copies.push_back(DeviceCopy{std::move(dk), std::move(r), 0});
  }
}

void KeyManager::release_device(Lease& l, int device) {
  std::lock_guard lk(m_);
  if (l.gen_ != l.entry_->gen) return;  // its device copies are retired
  auto at = std::find(l.devices_.begin(), l.devices_.end(), device);
  if (at == l.devices_.end()) return;
  l.devices_.erase(at);
  auto it = l.entry_->devices.find(device);
  if (it != l.entry_->devices.end()) --it->second.users;
}

bool KeyManager::resident_on(const std::string& id, int device) const {
  std::lock_guard lk(m_);
  auto it = entries_.find(id);
  return it != entries_.end() && it->second->devices.contains(device);
}

void KeyManager::note_proof(const std::string& id) {
  std::lock_guard lk(m_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  ++it->second->proofs;
  it->second->reloaded_unverified = false;
}

KeyManager::Reload KeyManager::reload_suspect(Lease& l) {
  Entry& e = *l.entry_;
  const Circuit& c = *e.circuit;
  std::lock_guard load(e.load_m);
  {
    std::vector<Retired> gone;  // destroyed after the lock
    std::lock_guard lk(m_);
    if (l.gen_ != e.gen) {
      upgrade_locked(e, l, gone);
      return Reload::kReloaded;
    }
    if (e.reloaded_unverified) return Reload::kAlreadyReloaded;
  }
  std::optional<Reservation> r = budget_.try_reserve(PoolId::host(), devices_.loaded_key_host_bytes(c.shape()));
  if (!r) return Reload::kNoRoom;
  std::shared_ptr<const io::MappedFile> file;
  try {
    file = std::make_shared<const io::MappedFile>(io::MappedFile::open(c.source()));
  } catch (const std::system_error&) {
    file.reset();  // load_key reports (or, for a native circuit, repairs) the missing file
  }
  std::shared_ptr<const HostKey> key = c.load_key(devices_, file.get());
  if (file && file->same_as_on_disk()) file->drop_pages();
  else file.reset();
  std::vector<Retired> gone;  // destroyed after the lock
  {
    std::lock_guard lk(m_);
    Retired old;
    old.gen = e.gen;
    old.refcount = e.refcount - 1;  // the other leases of the old copy (this one moves)
    drop_all_locked(e, old.held, /*unmap=*/true);
    if (old.refcount > 0) e.retired.push_back(std::move(old));
    else gone.push_back(std::move(old));
    ++e.gen;
    e.host = key;
    e.host_res = std::move(*r);
    e.file = std::move(file);
    e.refcount = 1;
    e.reloaded_unverified = true;
    l.gen_ = e.gen;
    l.host_ = key;
    l.devices_.clear();
  }
  try_pin(e, key);
  return Reload::kReloaded;
}

void KeyManager::warm(const std::string& id) const {
  std::lock_guard lk(m_);
  auto it = entries_.find(id);
  if (it != entries_.end() && !it->second->host && it->second->file) it->second->file->prefetch();
}

void KeyManager::drop_pin_locked(Entry& e, Dropped& out) {
  if (e.pin) out.pins.push_back(std::move(e.pin));
  out.pin_res.push_back(std::move(e.pin_res));
}

void KeyManager::drop_all_locked(Entry& e, Dropped& out, bool unmap) {
  for (auto& [d, copy] : e.devices) out.copies.push_back(std::move(copy));
  e.devices.clear();
  drop_pin_locked(e, out);
  out.host = std::move(e.host);
  out.host_res = std::move(e.host_res);
  if (unmap) out.file = std::move(e.file);
}

ErrorCode KeyManager::preload(const Circuit& c, std::string* error) {
  try {
    double ms = 0;
    Lease l = acquire(c, nullptr, &ms);
    const std::uint64_t need = c.device_key_bytes(devices_, l.host());
    // The device with the most free VRAM, if the copy fits there now.
    int best = -1;
    std::uint64_t best_free = 0;
    for (int d = 0; d < budget_.num_devices(); ++d) {
      if (resident_on(c.id(), d)) return ErrorCode::kOk;
      const std::uint64_t free = budget_.capacity(PoolId::vram(d)) - budget_.reserved(PoolId::vram(d));
      if (best < 0 || free > best_free) best = d, best_free = free;
    }
    if (best >= 0) {
      if (auto r = budget_.try_reserve(PoolId::vram(best), need)) {
        r->release();  // on_device reserves it again; nothing else can take it meanwhile but a racing job
        (void)on_device(l, best, nullptr, &ms);
      }
    }
    return ErrorCode::kOk;
  } catch (const EngineError& e) {
    if (error) *error = e.what();
    return e.code();
  } catch (const std::exception& e) {
    if (error) *error = std::string("preload ") + c.id() + ": " + e.what();
    return ErrorCode::kInternal;
  }
}

ErrorCode KeyManager::evict(const std::string& id, std::string* error) {
  Dropped bag;
  std::lock_guard lk(m_);
  auto it = entries_.find(id);
  if (it == entries_.end()) {
    if (error) *error = "unknown circuit " + quote_id(id);
    return ErrorCode::kNotFound;
  }
  Entry& e = *it->second;
  if (e.refcount > 0) {
    if (error) *error = "key of circuit " + id + " is in use by " + std::to_string(e.refcount) + " job(s)";
    return ErrorCode::kFailedPrecondition;
  }
  drop_all_locked(e, bag, /*unmap=*/true);
  return ErrorCode::kOk;  // bag (the key memory and its reservations) is freed here
}

std::uint64_t KeyManager::reclaim(PoolId pool, std::uint64_t deficit) {
  Dropped bag;
  std::uint64_t freed = 0;
  std::lock_guard lk(m_);
  std::vector<Entry*> lru;
  for (auto& [id, e] : entries_) {
    if (pool.is_vram()) {
      auto it = e->devices.find(pool.device());
      if (it != e->devices.end() && it->second.users == 0) lru.push_back(e.get());
    } else if (pool == PoolId::pinned() && e->pin && e->refcount == 0) {
      lru.push_back(e.get());
    } else if (pool == PoolId::host() && e->host && e->refcount == 0) {
      lru.push_back(e.get());
    }
  }
  std::sort(lru.begin(), lru.end(), [](const Entry* a, const Entry* b) { return a->last_use < b->last_use; });
  for (Entry* e : lru) {
    if (freed >= deficit) break;
    if (pool.is_vram()) {
      auto it = e->devices.find(pool.device());
      freed += it->second.res.bytes();
      bag.copies.push_back(std::move(it->second));
      e->devices.erase(it);
    } else if (pool == PoolId::pinned()) {
      freed += e->pin_res.bytes();
      drop_pin_locked(*e, bag);
    } else {
      freed += e->host_res.bytes();
      drop_all_locked(*e, bag, /*unmap=*/false);  // down to the mmap tier
    }
  }
  return freed;
}

std::vector<KeyStatus> KeyManager::status() const {
  std::lock_guard lk(m_);
  std::vector<KeyStatus> out;
  for (const auto& [id, e] : entries_) {
    KeyStatus s;
    s.circuit_id = id;
    s.curve = std::string(r1cs::curve_name(e->circuit->shape().curve));
    s.tier = !e->devices.empty() ? "vram" : e->pin ? "pinned" : e->host ? "host" : e->file ? "mmap" : "disk";
    s.host_bytes = e->host_res.bytes();
    s.pinned_bytes = e->pin_res.bytes();
    s.mapped_bytes = e->file ? e->file->size() : 0;
    for (const auto& [d, copy] : e->devices) {
      s.vram_bytes += copy.res.bytes();
      s.devices.push_back(d);
      if (s.layout.empty() && copy.key) s.layout = copy.key->layout();  // one placement on every device
    }
    s.refcount = e->refcount;
    s.proofs = e->proofs;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cuzk::engine
