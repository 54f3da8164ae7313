// Between synthesis and the devices: per device, the batches assigned to it that no
// worker has taken yet (being synthesized or synthesized and waiting). The dispatcher
// assigns a batch to a device only while that count is below pipeline_depth
// (backpressure); workers take ready batches highest priority first. Retries after a
// device fault enter uncounted, as single jobs that the worker which failed skips.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

#include "job.hpp"

namespace cuzk::engine {

struct Batch {
  std::vector<JobPtr> jobs;
  int device = -1;
  bool counted = true;  // counts against the device's pipeline depth
};

class DeviceQueues {
 public:
  DeviceQueues(int devices, int workers_per_device, std::size_t depth);

  // Blocks until some device can take another batch; empty when closed.
  std::vector<int> wait_for_room();
  void assign(int device);   // a batch for `device` enters synthesis
  void abandon(int device);  // ...and came out with no job left
  void push_ready(Batch b);
  void push_retry(JobPtr job, int device);
  // Blocks for a batch `worker` of `device` may take; nullopt when closed.
  std::optional<Batch> pop(int device, int worker);
  bool remove(const Job& job);  // a waiting job leaves its batch
  std::size_t pending(int device) const;
  std::vector<Batch> close();

 private:
  void uncount_locked(int device);
  bool allowed(const Batch& b, int worker) const;

  int workers_per_device_;
  std::size_t depth_;
  mutable std::mutex m_;
  std::condition_variable room_, ready_;
  std::vector<std::size_t> pending_;
  std::vector<std::vector<Batch>> ready_q_;
  bool closed_ = false;
};

}  // namespace cuzk::engine
