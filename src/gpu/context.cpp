// DeviceContext (cuzk/gpu/context.hpp).
#include "cuzk/gpu/context.hpp"

#include <stdexcept>
#include <utility>

#include "cuzk/gpu/runtime.hpp"

namespace cuzk::gpu {

namespace {
std::size_t checked_proofs(std::size_t proofs) {
  if (proofs == 0) throw std::invalid_argument("gpu: a device context for 0 proofs at once");
  return proofs;
}
// Selects the device (CudaError for one that cannot be selected) and gives it back.
int checked_device(int device) {
  const DeviceGuard g(device);
  return device;
}
}  // namespace

class DeviceContext::Lane {
 public:
  Lane(int device, DeviceContext& ctx) : pool(device, [&ctx] { ctx.reclaim_idle(); }) {}
  MemoryPool pool;
  LaneUse last;
  bool busy = false;
};

DeviceContext::DeviceContext(int device, const Tuning& tuning, std::size_t proofs)
    : device_(checked_device(device)),
      tuning_(tuning),
      copies_(kCopyThreadsPerProof * checked_proofs(proofs), [device] { set_device(device); }),
      tasks_(kTaskThreadsPerProof * proofs, [device] { set_device(device); }) {}

DeviceContext::~DeviceContext() = default;

DeviceContext::Lease DeviceContext::lease(const LaneUse& use) {
  const std::lock_guard lock(m_);
  Lane* pick = nullptr;
  for (auto& l : lanes_)
    if (!l->busy && l->last == use) {
      pick = l.get();
      break;
    }
  if (pick == nullptr)
    for (auto& l : lanes_)
      if (!l->busy) {
        pick = l.get();
        pick->pool.trim_idle();  // another key's or batch's cache: not this lease's to hold
        break;
      }
  if (pick == nullptr) {
    lanes_.push_back(std::make_unique<Lane>(device_, *this));
    pick = lanes_.back().get();
  }
  pick->busy = true;
  pick->last = use;
  return Lease(this, pick);
}

void DeviceContext::give_back(Lane* l) {
  const std::lock_guard lock(m_);
  l->busy = false;
}

void DeviceContext::reclaim_idle() {
  {
    const std::lock_guard lock(m_);
    for (auto& l : lanes_)
      if (!l->busy) l->pool.trim_idle();
  }
  trim_default_pool(device_);
}

std::size_t DeviceContext::lanes() const {
  const std::lock_guard lock(m_);
  return lanes_.size();
}

DeviceContext::Lease::Lease(Lease&& o) noexcept : ctx_(std::exchange(o.ctx_, nullptr)), lane_(o.lane_) {}
DeviceContext::Lease::~Lease() {
  if (ctx_ != nullptr) ctx_->give_back(lane_);
}
MemoryPool& DeviceContext::Lease::memory() { return lane_->pool; }

}  // namespace cuzk::gpu
