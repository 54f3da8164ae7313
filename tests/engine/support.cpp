#include "support.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <random>

#include "cuzk/cs/constraint_system.hpp"
#include "cuzk/gadgets/circuits/mul_chain.hpp"
#include "cuzk/groth16/bellperson_io.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/qap.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/r1cs/wtns.hpp"

namespace cuzk::engine::test {

namespace fs = std::filesystem;

const fs::path& shared_cache_dir() {
  static const ScratchDir dir("engine-test-cache");
  return dir.path();
}

CircuitSpec mul_chain(const std::string& id, const std::string& curve, std::uint64_t constraints) {
  CircuitSpec s;
  s.id = id;
  s.native = "mul-chain";
  s.curve = r1cs::parse_curve_name(curve).value();
  s.params = {{"constraints", constraints}};
  s.setup_seed = 7;
  return s;
}

EngineConfig small_config(std::vector<CircuitSpec> circuits) {
  EngineConfig c;
  c.backend = Backend::cpu;
  c.devices = 1;
  c.workers_per_device = 1;
  c.max_batch_size = 1;
  c.max_batch_wait_ms = 0;
  c.synthesis_concurrency = 1;
  c.pipeline_depth = 1;
  c.host_budget_bytes = 1ull << 30;
  c.vram_budget_bytes = 1ull << 30;
  c.cache_dir = shared_cache_dir().string();
  c.circuits = std::move(circuits);
  return c;
}

ProofRequest native_request(const std::string& circuit, std::uint64_t seed, const std::string& id) {
  ProofRequest r;
  r.request_id = id;
  r.circuit_id = circuit;
  r.native_seed = seed;
  return r;
}

namespace {
template <class E>
bool verify_with(const ProofResult& r, const io::BinFile& f) {
  using Fr = typename E::Fr;
  const groth16::ProvingKey<E> pk = groth16::read_zkey<E>(f);
  const groth16::Proof<E> proof = groth16::parse_proof_json<E>(r.proof_json);
  const std::vector<Fr> pub = groth16::parse_public_json<Fr>(r.public_json);
  if (!groth16::verify(pk.vk, proof, std::span<const Fr>(pub))) return false;
  if constexpr (std::is_same_v<E, groth16::Bls12_381>) {
    if (!(groth16::read_bellperson_proof(r.proof_bytes) == proof)) return false;
  } else {
    if (!r.proof_bytes.empty()) return false;
  }
  return true;
}

template <class Fn>
decltype(auto) on_curve(const std::string& curve, Fn&& fn) {
  if (curve == "bn254") return fn.template operator()<groth16::Bn254>();
  return fn.template operator()<groth16::Bls12_381>();
}
}  // namespace

bool verifies(const ProofResult& r, const fs::path& zkey_path) {
  if (r.state != JobState::kSucceeded) return false;
  const io::BinFile f = io::BinFile::open(zkey_path, groth16::zkey_detail::kZkeyFile);
  if (groth16::zkey_curve(f) == r1cs::Curve::bn254) return r.curve == "bn254" && verify_with<groth16::Bn254>(r, f);
  return r.curve == "bls12_381" && verify_with<groth16::Bls12_381>(r, f);
}

fs::path cached_key(const fs::path& dir, const std::string& prefix) {
  fs::path found;
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".zkey")) found = e.path(), ++n;
  }
  if (n != 1) ADD_FAILURE() << n << " cached keys named " << prefix << "* in " << dir;
  return found;
}

ZkeyFixture make_zkey_fixture(const fs::path& dir, const std::string& curve, std::uint64_t constraints) {
  return on_curve(curve, [&]<class E>() {
    using Fr = typename E::Fr;
    const auto r1cs = cs::record<Fr>(gadgets::circuits::MulChain<Fr>{constraints, 1});
    const auto pk = groth16::setup<E>(r1cs, groth16::HConvention::kOddCoset, 99);
    ZkeyFixture f;
    f.zkey = dir / ("fixture-" + curve + "-" + std::to_string(constraints) + ".zkey");
    groth16::write_zkey_file<E>(f.zkey, pk);
    f.num_vars = pk.num_vars;
    return f;
  });
}

std::string make_wtns(const std::string& curve, std::uint64_t constraints, std::uint64_t seed,
                      const std::string& kind) {
  return on_curve(curve, [&]<class E>() {
    using Fr = typename E::Fr;
    std::vector<Fr> w = cs::witness<Fr>(gadgets::circuits::MulChain<Fr>{constraints, seed}).full();
    if (kind == "unsatisfied") w[w.size() / 2] += Fr::one();
    if (kind == "short") w.pop_back();
    if (kind == "bad_one") w[0] = Fr::from_u64(2);
    const std::vector<std::uint8_t> bytes = r1cs::write_wtns<Fr>(w);
    return std::string(bytes.begin(), bytes.end());
  });
}

void wait_until_proving(const Engine& e, const std::string& id) {
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (e.peek(id).state != JobState::kProving && !is_final(e.peek(id).state) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(1ms);
}

double timing(const ProofResult& r, const std::string& phase) {
  for (const auto& t : r.timings)
    if (t.phase == phase) return t.ms;
  return -1;
}

FinishOrder::FinishOrder(const Engine& e, std::vector<std::string> ids) : e_(e), ids_(std::move(ids)), t_([this] { run(); }) {}

FinishOrder::~FinishOrder() {
  {
    std::lock_guard lk(m_);
    stop_ = true;
  }
  t_.join();
}

void FinishOrder::run() {
  for (;;) {
    {
      std::lock_guard lk(m_);
      if (stop_ || order_.size() == ids_.size()) return;
      for (const auto& id : ids_)
        if (std::find(order_.begin(), order_.end(), id) == order_.end() && is_final(e_.peek(id).state))
          order_.push_back(id);
    }
    std::this_thread::sleep_for(1ms);
  }
}

std::vector<std::string> FinishOrder::wait(std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    {
      std::lock_guard lk(m_);
      if (order_.size() == ids_.size() || std::chrono::steady_clock::now() > end) return order_;
    }
    std::this_thread::sleep_for(2ms);
  }
}

KeyStatus key_of(const StatusSnapshot& s, const std::string& id) {
  for (const auto& k : s.keys)
    if (k.circuit_id == id) return k;
  ADD_FAILURE() << "no key status for " << id;
  return {};
}

void expect_only_keys_reserved(const Engine& e) {
  const StatusSnapshot s = e.status();
  std::uint64_t host = 0, pinned = 0, vram = 0, dev_reserved = 0;
  for (const auto& k : s.keys) {
    host += k.host_bytes;
    pinned += k.pinned_bytes;
    vram += k.vram_bytes;
    EXPECT_EQ(k.refcount, 0) << k.circuit_id;
  }
  for (const auto& d : s.devices) dev_reserved += d.vram_reserved;
  EXPECT_EQ(s.budgets[0].name, "host");
  EXPECT_EQ(s.budgets[0].reserved, host);
  EXPECT_EQ(s.budgets[1].name, "pinned");
  EXPECT_EQ(s.budgets[1].reserved, pinned);
  EXPECT_EQ(dev_reserved, vram);
}

void write_hole_key(const std::filesystem::path& params, const std::filesystem::path& vk, std::uint64_t public_inputs,
                    std::uint64_t constraints, std::uint64_t vars) {
  namespace bd = groth16::bellperson_detail;
  const std::uint64_t ic = public_inputs + 1;
  const std::uint64_t h = groth16::qap_domain_size(constraints, public_inputs) - 1;
  const std::uint64_t counts[6] = {ic, h, vars - ic, 0, 0, 0};
  std::ofstream out(params, std::ios::binary);
  out.seekp(static_cast<std::streamoff>(3 * bd::kG1U + 3 * bd::kG2U));
  for (int i = 0; i < 6; ++i) {
    const char be[4] = {char(counts[i] >> 24), char(counts[i] >> 16), char(counts[i] >> 8), char(counts[i])};
    out.write(be, 4);
    out.seekp(static_cast<std::streamoff>(counts[i] * (i == 5 ? bd::kG2U : bd::kG1U)), std::ios::cur);
  }
  out.seekp(-1, std::ios::cur);
  out.put(0);  // the file's last byte: its length covers every point
  std::ofstream(vk, std::ios::binary).flush();
}

}  // namespace cuzk::engine::test
