// cuzk-bench batch: N proofs with J in flight; throughput, latency percentiles, mean phase
// times and the daemon's peak memory (from GetStatus, sampled during the run). PoSt requests
// (--post-proof): request i has synthetic vanilla proofs made from seed + i (its randomness too,
// unless --randomness), made by the thread that sends it; with --vanilla every request carries
// the same files. PoRep requests (--porep-c1) all carry the same C1, SnapDeals requests
// (--snap-vanilla) the same vanilla proofs, read once. Each request gets its own id from the daemon.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <thread>

#include "commands.hpp"
#include "partition_verify.hpp"
#include "post_verify.hpp"
#include "progress.hpp"

namespace cuzk::bench {

namespace {

// Samples the daemon's resident memory every 250 ms until stopped.
class MemorySampler {
 public:
  explicit MemorySampler(server::Client& client)
      : thread_([this, &client] {
          std::unique_lock lock(mu_);
          while (!stop_) {
            lock.unlock();
            pb::GetStatusResponse s;
            if (client.stub().GetStatus(client.context(std::chrono::seconds(5)).get(), {}, &s).ok()) {
              max_rss_ = std::max<std::uint64_t>(max_rss_, s.rss_bytes());
              peak_ = std::max<std::uint64_t>(peak_, s.peak_rss_bytes());
            }
            lock.lock();
            cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; });
          }
        }) {}
  ~MemorySampler() { stop(); }
  void stop() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  std::uint64_t max_rss() const { return max_rss_; }
  std::uint64_t peak() const { return peak_; }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::atomic<std::uint64_t> max_rss_{0}, peak_{0};
  std::thread thread_;
};

}  // namespace

int run_batch(const Common& c, const BatchArgs& a) {
  server::Client client(c.client);
  if (!check_connection(client)) return kExitUsage;
  const std::vector<char> wtns = a.req.wtns_path.empty() ? std::vector<char>{} : read_file_bytes(a.req.wtns_path);
  std::optional<PostSource> post;
  std::optional<PostJob> first_post;  // request 0's, made here so that bad options fail before anything runs
  std::optional<PartitionedJob> parts;             // PoRep or SnapDeals
  std::optional<pb::ProofRequest> parts_request;  // every request's (the daemon assigns each its id)
  if (a.req.post.enabled()) {
    post.emplace(a.req.post);
    first_post = post->make(a.req.seed);
    (void)make_post_request(a.req, *first_post);
  } else if (a.req.partitioned()) {
    parts = make_partitioned_job(a.req);
    parts_request = make_partitioned_request(a.req, *parts);
  } else {
    (void)make_request(a.req, 0, wtns);  // bad kind/priority: usage error before anything runs
  }
  Verifier verifier(client);
  std::vector<Outcome> outcomes(static_cast<std::size_t>(a.count));
  std::atomic<int> next{0}, done{0}, failed{0};
  Progress progress(a.count, a.progress, "batch");
  MemorySampler memory(client);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < std::min(a.concurrency, a.count); ++t)
    threads.emplace_back([&] {
      for (int i; (i = next.fetch_add(1)) < a.count;) {
        Outcome& o = outcomes[static_cast<std::size_t>(i)];
        Verifier* v = c.verify ? &verifier : nullptr;
        if (post) {
          try {
            const PostJob job = i == 0 ? *first_post : post->make(a.req.seed + static_cast<std::uint64_t>(i));
            o = prove_one(client, make_post_request(a.req, job), c.timeout_s, v, job.expect);
          } catch (const std::exception& e) {
            o.rpc = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, std::string("not sent: ") + e.what());
          }
        } else if (parts) {
          o = prove_one(client, *parts_request, c.timeout_s, v, parts->expect);
        } else {
          o = prove_one(client, make_request(a.req, static_cast<std::uint64_t>(i), wtns), c.timeout_s, v);
        }
        if (!o.ok()) failed.fetch_add(1);
        progress.update(done.fetch_add(1) + 1, failed.load());
      }
    });
  for (auto& t : threads) t.join();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  memory.stop();
  progress.finish();

  std::vector<double> lat;
  std::map<std::string, std::pair<double, int>> phases;
  int ok = 0, verified = 0;
  for (const Outcome& o : outcomes) {
    if (o.ok()) {
      ++ok;
      lat.push_back(o.latency_s);
      for (const auto& t : o.result.timings()) {
        phases[t.phase()].first += t.ms();
        ++phases[t.phase()].second;
      }
    }
    verified += o.verified ? 1 : 0;
    if (!o.ok()) {
      const std::string why = !o.rpc.ok() ? std::string(server::status_code_name(o.rpc.error_code())) + ": " + o.rpc.error_message()
                              : !o.done  ? "not finished in time"
                              : !o.verify_error.empty() ? o.verify_error
                                                        : state_name(o.result.state()) + ": " + o.result.error();
      std::cerr << "failed: " << (o.result.request_id().empty() ? "(refused)" : o.result.request_id()) << ": " << why << "\n";
    }
  }
  const std::string what = post    ? post->describe()
                           : parts ? parts->description
                           : a.req.circuit.empty() ? "kind " + a.req.kind
                                                   : a.req.circuit;
  std::printf("batch: %d proofs of %s, concurrency %d\n", a.count, what.c_str(), a.concurrency);
  std::printf("  succeeded %d, failed %d", ok, a.count - ok);
  if (c.verify) std::printf(", verified by cuzk-bench %d/%d", verified, a.count);
  std::printf("\n  wall %.2f s, throughput %.2f proofs/s\n", wall, wall > 0 ? ok / wall : 0.0);
  if (!lat.empty()) {
    double sum = 0;
    for (double l : lat) sum += l;
    std::printf("  latency p50 %.1f ms, p99 %.1f ms, mean %.1f ms, min %.1f ms, max %.1f ms\n", percentile(lat, 50) * 1e3,
                percentile(lat, 99) * 1e3, sum / static_cast<double>(lat.size()) * 1e3,
                *std::min_element(lat.begin(), lat.end()) * 1e3, *std::max_element(lat.begin(), lat.end()) * 1e3);
  }
  std::printf("  daemon memory: peak RSS %s (VmHWM), highest sampled RSS %s\n", fmt_bytes(memory.peak()).c_str(),
              fmt_bytes(memory.max_rss()).c_str());
  if (!phases.empty()) {
    std::printf("  mean phase times:");
    for (const auto& [name, v] : phases) std::printf(" %s %.1f ms;", name.c_str(), v.first / v.second);
    std::printf("\n");
  }
  return ok == a.count ? kExitOk : kExitProofsFailed;
}

}  // namespace cuzk::bench
