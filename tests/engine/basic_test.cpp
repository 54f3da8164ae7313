// Engine basics: native and .zkey circuits on both curves, every proof verified against the
// key, timings, seeds, idempotent submit, kinds and priorities, bad inputs, config checks.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cuzk/engine/ids.hpp"
#include "key_cache_files.hpp"
#include "support.hpp"

namespace cuzk::engine::test {
namespace {

TEST(EngineBasic, NativeMulChainBothCurvesVerify) {
  Engine e(small_config({mul_chain("bls", "bls12_381", 200), mul_chain("bn", "bn254", 200)}));
  for (const std::string id : {"bls", "bn"}) {
    const ProofResult r = e.prove(native_request(id, 5), 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(r.code, ErrorCode::kOk);
    EXPECT_EQ(r.curve, id == "bls" ? "bls12_381" : "bn254");
    EXPECT_EQ(r.proof_bytes.size(), id == "bls" ? 192u : 0u);
    const auto file = cached_key(shared_cache_dir(), std::string("mul-chain-") + r.curve + "-constraints=200-");
    EXPECT_TRUE(verifies(r, file));
    EXPECT_EQ(e.key_file(id), file.string());
    for (const char* phase : {"queue_wait", "key_load", "synthesis", "eval_abc", "h_poly", "msm_h", "msm_a", "msm_b_g1",
                              "msm_b_g2", "msm_l", "verify", "total"})
      EXPECT_GE(timing(r, phase), 0) << phase;
    EXPECT_GE(timing(r, "total"), timing(r, "msm_a"));
    EXPECT_EQ(r.attempts, 1);
    EXPECT_EQ(r.device, 0);
  }
  const StatusSnapshot s = e.status();
  EXPECT_EQ(s.succeeded, 2u);
  EXPECT_EQ(s.failed, 0u);
}

TEST(EngineBasic, SeedDrawsTheWitness) {
  Engine e(small_config({mul_chain("c", "bn254", 100)}));
  const ProofResult a = e.prove(native_request("c", 1), 60s);
  const ProofResult b = e.prove(native_request("c", 2), 60s);
  const ProofResult a2 = e.prove(native_request("c", 1), 60s);
  ASSERT_EQ(a.state, JobState::kSucceeded) << a.error;
  ASSERT_EQ(b.state, JobState::kSucceeded) << b.error;
  EXPECT_NE(a.public_json, b.public_json);  // another chain start, another output
  EXPECT_EQ(a.public_json, a2.public_json);
  EXPECT_NE(a.proof_json, a2.proof_json);   // fresh randomness r, s per proof
}

TEST(EngineBasic, ZkeyCircuitWithWtnsBothCurves) {
  ScratchDir dir("zkey");
  for (const std::string curve : {"bls12_381", "bn254"}) {
    const ZkeyFixture fx = make_zkey_fixture(dir.path(), curve, 64);
    const CircuitSpec spec = fx.circuit("z");
    Engine e(small_config({spec}));
    ProofRequest req;
    req.circuit_id = "z";
    req.wtns = make_wtns(curve, 64, 3);
    const ProofResult r = e.prove(req, 60s);
    ASSERT_EQ(r.state, JobState::kSucceeded) << r.error;
    EXPECT_EQ(r.curve, curve);
    EXPECT_TRUE(verifies(r, fx.zkey));
    EXPECT_EQ(e.key_file("z"), fx.zkey.string());
    EXPECT_FALSE(e.key_file("nope").has_value());
  }
}

TEST(EngineBasic, BadInputsGetClearErrorsAndChangeNothing) {
  ScratchDir dir("bad");
  const ZkeyFixture fx = make_zkey_fixture(dir.path(), "bn254", 64);
  const CircuitSpec spec = fx.circuit("z");
  Engine e(small_config({spec, mul_chain("n", "bn254", 100)}));
  auto zreq = [](std::string w) {
    ProofRequest r;
    r.circuit_id = "z";
    r.wtns = std::move(w);
    return r;
  };
  // Malformed .wtns: refused at submit.
  SubmitOutcome s = e.submit(zreq({1, 2, 3, 4, 5}));
  EXPECT_EQ(s.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(s.error.find("malformed .wtns"), std::string::npos) << s.error;
  // Wrong length.
  s = e.submit(zreq(make_wtns("bn254", 64, 1, "short")));
  EXPECT_EQ(s.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(s.error.find("expects " + std::to_string(fx.num_vars)), std::string::npos) << s.error;
  // Witness of the other curve.
  s = e.submit(zreq(make_wtns("bls12_381", 64, 1)));
  EXPECT_EQ(s.code, ErrorCode::kInvalidArgument) << s.error;
  // w[0] != 1.
  s = e.submit(zreq(make_wtns("bn254", 64, 1, "bad_one")));
  EXPECT_EQ(s.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(s.error.find("w[0]"), std::string::npos) << s.error;
  // Unknown circuit; native circuit without a seed; zkey circuit with a seed.
  EXPECT_EQ(e.submit(native_request("nope", 1)).code, ErrorCode::kNotFound);
  ProofRequest no_seed;
  no_seed.circuit_id = "n";
  EXPECT_EQ(e.submit(no_seed).code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.submit(native_request("z", 1)).code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.status().succeeded + e.status().failed, 0u);  // nothing was queued
  // Unsatisfied witness: well-formed, so it runs, and the proof fails verification.
  const ProofResult bad = e.prove(zreq(make_wtns("bn254", 64, 1, "unsatisfied")), 60s);
  EXPECT_EQ(bad.state, JobState::kFailed);
  EXPECT_EQ(bad.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.attempts, 3);  // proved once more (a device fault?), then with its key reloaded (a rotten key?)
  EXPECT_NE(bad.error.find("does not verify: the witness does not satisfy the circuit"), std::string::npos) << bad.error;
  EXPECT_TRUE(bad.proof_json.empty());
  // A good job right after still succeeds, on both circuits.
  const ProofResult good = e.prove(zreq(make_wtns("bn254", 64, 2)), 60s);
  ASSERT_EQ(good.state, JobState::kSucceeded) << good.error;
  EXPECT_TRUE(verifies(good, fx.zkey));
  EXPECT_EQ(e.prove(native_request("n", 4), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(e.peek("never-submitted").code, ErrorCode::kNotFound);
}

TEST(EngineBasic, IdempotentSubmit) {
  Engine e(small_config({mul_chain("c", "bn254", 100)}));
  const SubmitOutcome a = e.submit(native_request("c", 1, "job-1"));
  ASSERT_EQ(a.code, ErrorCode::kOk) << a.error;
  EXPECT_FALSE(a.duplicate);
  const SubmitOutcome b = e.submit(native_request("c", 1, "job-1"));
  EXPECT_EQ(b.code, ErrorCode::kOk);
  EXPECT_TRUE(b.duplicate);
  const SubmitOutcome c = e.submit(native_request("c", 2, "job-1"));
  EXPECT_EQ(c.code, ErrorCode::kAlreadyExists);
  EXPECT_TRUE(c.duplicate);
  const auto r = e.await("job-1", 60s);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->state, JobState::kSucceeded);
  // Resubmitting a finished id returns the same job, not a new proof.
  EXPECT_TRUE(e.submit(native_request("c", 1, "job-1")).duplicate);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(e.status().succeeded, 1u);
  // Empty ids get fresh ones.
  const SubmitOutcome x = e.submit(native_request("c", 3));
  const SubmitOutcome y = e.submit(native_request("c", 3));
  EXPECT_FALSE(x.request_id.empty());
  EXPECT_NE(x.request_id, y.request_id);
  EXPECT_EQ(e.await(x.request_id, 60s)->state, JobState::kSucceeded);
  EXPECT_EQ(e.await(y.request_id, 60s)->state, JobState::kSucceeded);
}

TEST(EngineBasic, FilecoinKindsAreNeverServedByAStandIn) {
  Engine e(small_config({mul_chain("post", "bls12_381", 100)}));
  // A SnapDeals request is proved from its vanilla proofs, never by the circuit it names.
  ProofRequest snap = native_request("post", 9);
  snap.kind = ProofKind::kSnapDeals;
  SubmitOutcome o = e.submit(snap);
  EXPECT_EQ(o.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(o.error.find("a snap_deals request carries"), std::string::npos) << o.error;
  // With its inputs but no parameter directory, the SnapDeals circuit is named.
  snap.circuit_id.clear();
  snap.native_seed.reset();
  snap.snap = SnapRequest{};
  snap.snap->registered_proof = 4;  // StackedDrg64GiBV1
  o = e.submit(snap);
  EXPECT_EQ(o.code, ErrorCode::kFailedPrecondition) << o.error;
  EXPECT_NE(o.error.find("snap-64gib is not served"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("no Filecoin parameter directory"), std::string::npos) << o.error;
  // A PoRep request is proved from its C1 output, never by the circuit it names.
  ProofRequest porep = native_request("post", 9);
  porep.kind = ProofKind::kPorep;
  o = e.submit(porep);
  EXPECT_EQ(o.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(o.error.find("C1 output"), std::string::npos) << o.error;
  // With its C1 but no key files, the PoRep circuit is named and the missing directory too.
  porep.circuit_id.clear();
  porep.native_seed.reset();
  porep.porep = PorepRequest{};
  porep.porep->c1 = {1, 2, 3};
  porep.porep->registered_proof = 8;  // StackedDrg32GiBV1_1 (ids 0..4 are V1 for 2KiB..64GiB, 5..9 V1_1)
  o = e.submit(porep);
  EXPECT_EQ(o.code, ErrorCode::kFailedPrecondition) << o.error;
  EXPECT_NE(o.error.find("porep-32gib is not served"), std::string::npos) << o.error;
  ProofRequest w = native_request("post", 9);
  w.kind = ProofKind::kWinningPost;  // a PoSt request needs its PoSt inputs, not a seed
  EXPECT_EQ(e.submit(w).code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(default_priority(ProofKind::kWinningPost), Priority::kCritical);
  EXPECT_EQ(default_priority(ProofKind::kWindowPost), Priority::kHigh);
  EXPECT_EQ(default_priority(ProofKind::kSnapDeals), Priority::kNormal);
  EXPECT_EQ(parse_proof_kind("window_post"), ProofKind::kWindowPost);
  EXPECT_EQ(parse_priority("critical"), Priority::kCritical);
}

TEST(EngineBasic, PoseidonMerkleNative) {
  CircuitSpec p;
  p.id = "pm";
  p.native = "poseidon-merkle";
  p.curve = r1cs::Curve::bn254;
  p.params = {{"depth", 1}};
  Engine e(small_config({p}));
  const ProofResult a = e.prove(native_request("pm", 1), 60s);
  const ProofResult b = e.prove(native_request("pm", 2), 60s);
  ASSERT_EQ(a.state, JobState::kSucceeded) << a.error;
  ASSERT_EQ(b.state, JobState::kSucceeded) << b.error;
  EXPECT_NE(a.public_json, b.public_json);  // another random path, another root
  EXPECT_TRUE(verifies(a, cached_key(shared_cache_dir(), "poseidon-merkle-bn254-")));
}

TEST(EngineBasic, Sha256MerkleNative) {
  CircuitSpec p;
  p.id = "sha";
  p.native = "sha256-merkle";
  p.curve = r1cs::Curve::bls12_381;
  p.params = {{"depth", 1}};
  Engine e(small_config({p}));
  const ProofResult a = e.prove(native_request("sha", 1), 120s);
  const ProofResult b = e.prove(native_request("sha", 2), 120s);
  ASSERT_EQ(a.state, JobState::kSucceeded) << a.error;
  ASSERT_EQ(b.state, JobState::kSucceeded) << b.error;
  EXPECT_NE(a.public_json, b.public_json);  // another leaf and sibling, another root
  EXPECT_TRUE(verifies(b, cached_key(shared_cache_dir(), "sha256-merkle-bls12_381-")));
}

TEST(EngineBasic, ProveTimeoutLeavesTheJobRunning) {
  Engine e(small_config({mul_chain("c", "bn254", 4096)}));
  const ProofResult r = e.prove(native_request("c", 1, "slow"), 1ms);
  EXPECT_EQ(r.code, ErrorCode::kDeadlineExceeded);
  EXPECT_FALSE(is_final(r.state));
  EXPECT_FALSE(e.await("slow", 0ms).has_value());
  const auto done = e.await("slow", 60s);
  ASSERT_TRUE(done.has_value());
  EXPECT_EQ(done->state, JobState::kSucceeded);
}

TEST(EngineBasic, PreloadListAndRetentionLimit) {
  EngineConfig cfg = small_config({mul_chain("c", "bn254", 100), mul_chain("d", "bn254", 128)});
  cfg.preload = {"c"};
  cfg.max_retained_results = 2;
  Engine e(cfg);
  for (const auto& k : e.status().keys) EXPECT_EQ(k.tier, k.circuit_id == "c" ? "vram" : "disk") << k.circuit_id;
  const ProofResult first = e.prove(native_request("c", 1, "r1"), 60s);
  EXPECT_EQ(first.state, JobState::kSucceeded);
  EXPECT_EQ(timing(first, "key_load"), 0.0);  // preloaded
  EXPECT_EQ(e.prove(native_request("c", 2, "r2"), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(e.prove(native_request("c", 3, "r3"), 60s).state, JobState::kSucceeded);
  EXPECT_EQ(e.peek("r1").code, ErrorCode::kNotFound);  // the oldest result was dropped
  EXPECT_EQ(e.peek("r3").state, JobState::kSucceeded);
  EXPECT_EQ(e.circuit_ids(), (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(e.config().max_retained_results, 2u);
}

TEST(EngineBasic, ShutdownStopsQueuedAndRunningWork) {
  std::chrono::steady_clock::duration one_proof{}, shutdown{};
  std::chrono::steady_clock::time_point stop;
  {
    Engine e(small_config({mul_chain("c", "bn254", 4096)}));
    const auto p0 = std::chrono::steady_clock::now();
    ASSERT_EQ(e.prove(native_request("c", 99), 60s).state, JobState::kSucceeded);
    one_proof = std::chrono::steady_clock::now() - p0;
    for (int i = 0; i < 8; ++i) ASSERT_EQ(e.submit(native_request("c", i + 1)).code, ErrorCode::kOk);
    while (e.status().proving == 0) std::this_thread::sleep_for(1ms);
    stop = std::chrono::steady_clock::now();
  }
  shutdown = std::chrono::steady_clock::now() - stop;
  // Finishing the running proof would take about one proof; stopping at its next phase
  // boundary takes a fraction of one.
  EXPECT_LT(shutdown, one_proof * 4 / 5) << "one proof " << std::chrono::duration<double>(one_proof).count() << " s, shutdown " << std::chrono::duration<double>(shutdown).count() << " s";
}

TEST(EngineBasic, ConfigErrorsNameTheField) {
  auto expect_invalid = [](EngineConfig c, const std::string& needle) {
    try {
      Engine e(std::move(c));
      ADD_FAILURE() << "accepted a bad config (" << needle << ")";
    } catch (const std::invalid_argument& ex) {
      EXPECT_NE(std::string(ex.what()).find(needle), std::string::npos) << ex.what();
    }
  };
  EngineConfig c = small_config({mul_chain("c", "bn254", 100)});
  c.backend = Backend::cuda;
  expect_invalid(c, "cuda");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.circuits[0].native = "sha512";
  expect_invalid(c, "circuits[0].native");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.circuits[0].params["width"] = 3;
  expect_invalid(c, "circuits[0].params.width");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.circuits[0].native = "porep-like";
  c.circuits[0].params = {};
  expect_invalid(c, "circuits[0].curve");
  c = small_config({mul_chain("c", "bn254", 100), mul_chain("c", "bn254", 100)});
  expect_invalid(c, "circuits[1].id");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.preload = {"missing"};
  expect_invalid(c, "preload");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.filecoin_circuits = {"window-post-32gib", "porep-3gib"};
  expect_invalid(c, "filecoin_circuits[1]: \"porep-3gib\" is not a Filecoin circuit");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.workers_per_device = 0;
  expect_invalid(c, "workers_per_device: must be at least 1");
  c = small_config({mul_chain("c", "bn254", 100)});
  c.max_batch_size = std::size_t{1} << 40;  // the ranges are engine::limits', as the daemon's config checks them
  expect_invalid(c, "max_batch_size: must be at most 1048576");
  CircuitSpec z;
  z.id = "z";
  z.zkey_path = "/nonexistent/x.zkey";
  expect_invalid(small_config({z}), "circuits[0].zkey_path");
}


TEST(EngineBasic, ClientIdsAreBoundedAndNeverEchoedWhole) {
  Engine e(small_config({mul_chain("c", "bls12_381", 100)}));
  const std::string huge(1 << 20, 'x');  // 1 MiB
  SubmitOutcome o = e.submit(native_request("c", 1, huge));
  EXPECT_EQ(o.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(o.error.find("request_id \"xxxx"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("(1048576 bytes) is longer than 128 bytes"), std::string::npos) << o.error;
  EXPECT_LT(o.error.size(), 200u);
  EXPECT_LT(o.request_id.size(), 200u);
  EXPECT_EQ(e.peek(huge).code, ErrorCode::kNotFound);
  EXPECT_LT(e.peek(huge).error.size(), 200u);
  o = e.submit(native_request("c", 1, "line\nbreak"));
  EXPECT_EQ(o.code, ErrorCode::kInvalidArgument);
  EXPECT_NE(o.error.find("\"line\\x0abreak\" has a byte that is not printable"), std::string::npos) << o.error;
  EXPECT_EQ(e.submit(native_request("c", 1, "has space")).code, ErrorCode::kInvalidArgument);
  ProofRequest r = native_request("c", 1);
  r.circuit_id = huge;
  o = e.submit(r);
  EXPECT_EQ(o.code, ErrorCode::kInvalidArgument);
  EXPECT_LT(o.error.size(), 200u);
  std::string why;
  EXPECT_EQ(e.cancel(huge, &why), ErrorCode::kNotFound);
  EXPECT_LT(why.size(), 200u);
  EXPECT_EQ(e.preload(huge, &why), ErrorCode::kNotFound);
  EXPECT_LT(why.size(), 200u);
  // 128 printable bytes are an id; nothing was queued by the refusals.
  const std::string longest(kMaxIdBytes, 'a');
  o = e.submit(native_request("c", 1, longest));
  ASSERT_EQ(o.code, ErrorCode::kOk) << o.error;
  EXPECT_EQ(e.await(longest, 60s)->state, JobState::kSucceeded);
  EXPECT_EQ(e.status().succeeded, 1u);
}

TEST(EngineBasic, TheKeyCacheIsPrivateAndClearOfDeadWritersFiles) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("cuzk-cache-" + std::to_string(::getpid())) / "keys";
  std::filesystem::remove_all(dir.parent_path());
  std::filesystem::create_directories(dir);
  // A temporary key file of a process that no longer runs (pids stop below 2^22), and one of ours.
  const std::filesystem::path dead = dir / "c.zkey.tmp4194999-77", ours = dir / ("c.zkey.tmp" + std::to_string(::getpid()) + "-1");
  std::ofstream(dead) << "partial";
  std::ofstream(ours) << "partial";
  EXPECT_EQ(prepare_key_cache_dir(dir), 1);
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(ours));
  // Under umask 000 the engine still makes its directory 0700 and its key files 0600.
  const std::filesystem::path fresh = dir.parent_path() / "fresh";
  const mode_t old_mask = ::umask(0);
  EngineConfig c = small_config({mul_chain("c", "bls12_381", 100)});
  c.cache_dir = fresh.string();
  { Engine e(c); }
  ::umask(old_mask);
  using P = std::filesystem::perms;
  EXPECT_EQ(std::filesystem::status(fresh).permissions() & P::all, P::owner_all);
  int keys = 0;
  for (const auto& f : std::filesystem::directory_iterator(fresh)) {
    ++keys;
    EXPECT_EQ(f.status().permissions() & P::all, P::owner_read | P::owner_write) << f.path();
  }
  EXPECT_EQ(keys, 2);  // the key and its digest (key_digest.hpp)
  std::filesystem::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace cuzk::engine::test

