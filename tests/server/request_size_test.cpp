// Requests are bounded by what the daemon's circuits take: a message larger than the largest
// circuit's request is refused by gRPC before any handler copies it (RESOURCE_EXHAUSTED naming
// the limit) and leaves the daemon's peak memory far below the message's size; a .wtns larger
// than its own circuit's is refused before it enters the engine, naming that circuit's size; a
// witness of the right size is still proved. A request that is accepted enters the engine without
// a copy: its .wtns, C1, vanilla and partition proofs are moved out of the received message, so a
// 256 MiB witness is held once, never twice.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "convert.hpp"
#include "cuzk/r1cs/wtns.hpp"
#include "process_memory.hpp"
#include "test_daemon.hpp"

namespace cuzk::server::test {
namespace {

using namespace std::chrono_literals;
using Fr = groth16::Bls12_381::Fr;

// Resets this process's peak RSS (VmHWM) to its current RSS; false where the kernel cannot.
bool reset_peak_rss() {
  const int fd = ::open("/proc/self/clear_refs", O_WRONLY);
  if (fd < 0) return false;
  const bool ok = ::write(fd, "5", 1) == 1;
  ::close(fd);
  return ok;
}

std::filesystem::path cached_fast_zkey() {
  for (const auto& e : std::filesystem::directory_iterator(shared_cache_dir()))
    if (e.path().filename().string().starts_with("mul-chain-bls12_381-constraints=1024-") && e.path().extension() == ".zkey")
      return e.path();
  return {};
}

TEST(RequestSize, OversizedWitnessesAreRefusedAtTheDoor) {
  ScratchDir dir("request-size");
  DaemonConfig cfg = test_config(dir.path(), 1);
  cfg.engine.circuits.resize(2);  // fast, fast-bn: their keys are cached once
  Running d = start(cfg);         // writes the "fast" TEST key
  const std::filesystem::path zkey = cached_fast_zkey();
  ASSERT_FALSE(zkey.empty());
  d.daemon.reset();
  engine::CircuitSpec spec;
  spec.id = "mc-zkey";
  spec.zkey_path = zkey.string();
  cfg.engine.circuits.push_back(spec);
  d = start(cfg);

  // The largest circuit's .wtns (checked below against a real one) and 4 MiB beside it.
  const std::uint64_t wtns_bytes = d.daemon->engine().max_request_bytes();
  const std::uint64_t limit = wtns_bytes + (4u << 20);

  const std::vector<Fr> w = cs::witness<Fr>(gadgets::circuits::MulChain<Fr>{1024, 5}).full();
  const std::vector<std::uint8_t> good = r1cs::write_wtns<Fr>(w);
  ASSERT_EQ(good.size(), wtns_bytes);
  pb::ProofRequest r;
  r.set_circuit_id("mc-zkey");
  r.set_wtns(std::string(good.begin(), good.end()));
  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, r)));

  // One byte over its circuit's size: refused before it enters the engine, naming the size.
  r.mutable_wtns()->push_back('\0');
  grpc::Status st = submit(*d.tcp, r);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
  EXPECT_NE(st.error_message().find("takes (a .wtns of " + std::to_string(wtns_bytes) + " bytes)"), std::string::npos)
      << st.error_message();
  // A .wtns for a native circuit.
  r.set_circuit_id("fast");
  st = submit(*d.tcp, r);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
  EXPECT_NE(st.error_message().find("is native"), std::string::npos) << st.error_message();

  // 128 MiB: refused by gRPC, naming the limit, before any handler sees it. This process also
  // holds the client's message and its serialized copy, and gRPC 1.51 reads a message whole
  // before refusing it: about three copies in all, and no more (the handler's parse would make
  // four; the conversion into the engine moves, see below).
  constexpr std::uint64_t kHuge = 128ull << 20;
  r.set_circuit_id("mc-zkey");
  r.mutable_wtns()->assign(kHuge, '\x01');
  const bool peak_reset = reset_peak_rss();
  const auto before = read_process_memory();
  ASSERT_TRUE(before.has_value());
  st = submit(*d.tcp, r);
  const auto after = read_process_memory();
  EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
  EXPECT_NE(st.error_message().find(std::to_string(limit)), std::string::npos) << st.error_message();
  if (peak_reset) {
    const double grew = static_cast<double>(after->peak_rss_bytes) - static_cast<double>(before->rss_bytes);
    std::printf("peak RSS grew %.0f MiB sending a %.0f MiB message (limit %.1f MiB)\n", grew / (1 << 20),
                static_cast<double>(kHuge) / (1 << 20), static_cast<double>(limit) / (1 << 20));
    EXPECT_LT(grew, 3.5 * static_cast<double>(kHuge));
  }
  r.clear_wtns();

  // The daemon keeps serving, and holds no request bytes in its budget.
  r.set_wtns(std::string(good.begin(), good.end()));
  EXPECT_TRUE(proof_ok(*d.tcp, prove(*d.tcp, r)));
  const pb::GetStatusResponse now = status(*d.tcp);
  for (const auto& b : now.budgets()) {
    if (b.name() == "host") {
      EXPECT_LT(b.reserved(), 64u << 20);
    }
  }
}

// The conversion into the engine's request moves every bulk field's buffer: the engine holds the
// very bytes the message held (the same addresses), the message's fields are left empty, and
// converting a 256 MiB witness raises this process's peak RSS by far less than the witness (a copy
// would raise it by the whole 256 MiB, even if the message's copy were freed right after).
TEST(RequestSize, AcceptedRequestBytesAreMovedIntoTheEngineNotCopied) {
  constexpr std::size_t kWtns = 256u << 20;
  pb::ProofRequest r;
  r.set_circuit_id("big");
  r.mutable_wtns()->assign(kWtns, '\x02');
  const char* const wtns_at = r.wtns().data();
  const bool peak_reset = reset_peak_rss();
  const auto before = read_process_memory();
  ASSERT_TRUE(before.has_value());
  const engine::ProofRequest e = from_pb(std::move(r));
  const auto after = read_process_memory();
  ASSERT_TRUE(after.has_value());
  ASSERT_EQ(e.wtns.size(), kWtns);
  EXPECT_EQ(e.wtns.data(), wtns_at) << "the witness was copied, not moved";
  EXPECT_TRUE(r.wtns().empty());  // NOLINT(bugprone-use-after-move): from_pb leaves the fields empty
  EXPECT_EQ(e.wtns.front(), '\x02');
  EXPECT_EQ(e.wtns.back(), '\x02');
  if (peak_reset) {
    const double grew = static_cast<double>(after->peak_rss_bytes) - static_cast<double>(before->rss_bytes);
    std::printf("peak RSS grew %.1f MiB converting a %.0f MiB witness\n", grew / (1 << 20),
                static_cast<double>(kWtns) / (1 << 20));
    EXPECT_LT(grew, 0.125 * static_cast<double>(kWtns));
  }

  // The Filecoin kinds' bulk fields (above the small-string size, so that a copy would move them).
  const std::string big(4096, 'c');
  pb::ProofRequest porep;
  porep.set_kind(pb::PROOF_KIND_POREP);
  porep.mutable_porep()->set_c1(big);
  const char* const c1_at = porep.porep().c1().data();
  const engine::ProofRequest ep = from_pb(std::move(porep));
  ASSERT_TRUE(ep.porep.has_value());
  EXPECT_EQ(ep.porep->c1.data(), c1_at);
  EXPECT_EQ(ep.porep->c1, big);
  EXPECT_TRUE(porep.porep().c1().empty());  // NOLINT(bugprone-use-after-move)

  pb::ProofRequest post;
  post.set_kind(pb::PROOF_KIND_WINDOW_POST);
  post.mutable_post()->add_vanilla_proofs(big);
  post.mutable_post()->add_vanilla_proofs(big + "d");
  const char* const v1_at = post.post().vanilla_proofs(1).data();
  const engine::ProofRequest epost = from_pb(std::move(post));
  ASSERT_TRUE(epost.post.has_value());
  ASSERT_EQ(epost.post->vanilla_proofs.size(), 2u);
  EXPECT_EQ(epost.post->vanilla_proofs[1].data(), v1_at);
  EXPECT_EQ(epost.post->vanilla_proofs[1], big + "d");
  EXPECT_TRUE(post.post().vanilla_proofs(1).empty());  // NOLINT(bugprone-use-after-move)

  pb::ProofRequest snap;
  snap.set_kind(pb::PROOF_KIND_SNAP_DEALS);
  snap.mutable_snap()->add_partition_proofs(big);
  const char* const p0_at = snap.snap().partition_proofs(0).data();
  const engine::ProofRequest es = from_pb(std::move(snap));
  ASSERT_TRUE(es.snap.has_value());
  ASSERT_EQ(es.snap->partition_proofs.size(), 1u);
  EXPECT_EQ(es.snap->partition_proofs[0].data(), p0_at);
  EXPECT_EQ(es.snap->partition_proofs[0], big);
  EXPECT_TRUE(snap.snap().partition_proofs(0).empty());  // NOLINT(bugprone-use-after-move)
}

}  // namespace
}  // namespace cuzk::server::test
