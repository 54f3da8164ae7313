// The schema tables of the daemon's TOML sections (config_schema.hpp): key names, types, ranges,
// allowed values and docs. Defaults are not written here: they are the structs' initializers.
#include "config_schema.hpp"

#include <limits>

namespace cuzk::server::schema {

namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

constexpr std::array kCurves{r1cs::Curve::bls12_381, r1cs::Curve::bn254};

// [[circuit]]: the array's doc (the generated config prints it above its keys' docs).
constexpr std::string_view kCircuitDoc =
    "Circuits, any number of [[circuit]] tables. Each has an id and exactly one source: a snarkjs .zkey "
    "(requests carry a circom .wtns) or a built-in circuit (requests carry a native_seed) whose key is a TEST "
    "key from a seeded setup, never for production. A .zkey circuit (id = \"poseidon3\", zkey = "
    "\"poseidon3.zkey\") takes its curve from the key.";

constexpr std::array kMsmLevel0{gpu::MsmLevel0::kAuto, gpu::MsmLevel0::kShared, gpu::MsmLevel0::kRegisters};
constexpr std::array kTwiddles{gpu::TwiddleChoice::kAuto, gpu::TwiddleChoice::kFull, gpu::TwiddleChoice::kCompact};

// [gpu] ntt_passes: "" (the measured table) or "last,inner,log_cols,radix".
Key<gpu::Tuning> ntt_passes_key() {
  Key<gpu::Tuning> k = key<gpu::Tuning>(
      "ntt_passes", Type::string,
      "One NTT pass shape for every size, \"last,inner,log_cols[,radix]\" (1 <= last <= 12, inner >= 1, "
      "0 <= log_cols <= last, inner + log_cols <= 12, radix 2 or 4), instead of the table measured per size and "
      "SM (\"\" = the table). For measurements only.",
      [](TableReader& t, gpu::Tuning& g) {
        if (!t.has("ntt_passes")) return;
        std::string text;
        t.get("ntt_passes", text);
        if (text.empty()) return g.ntt_passes.reset();
        g.ntt_passes = gpu::ntt_pass_shape_from(text);
        if (!g.ntt_passes) t.fail("ntt_passes", "\"" + text + "\" is not \"last,inner,log_cols[,radix]\" of a valid shape");
      },
      [](const gpu::Tuning& g) { return Value(g.ntt_passes ? gpu::ntt_pass_shape_text(*g.ntt_passes) : std::string()); });
  return k;
}

using engine::CircuitSpec;
using engine::EngineConfig;
using engine::FaultInjection;

}  // namespace

const DaemonSchema& daemon_schema() {
  using SC = ServerConfig;
  using EC = EngineConfig;
  using FI = FaultInjection;
  using CS = CircuitSpec;
  using GT = gpu::Tuning;
  static const DaemonSchema kSchema{
      .server =
          {"server",
           "Where the daemon listens, and who may call it.",
           {
               text("unix_socket", &SC::unix_socket,
                    "gRPC on a unix socket (\"\" = none), made 0660 (owner and group) whatever the umask. A stale "
                    "socket file from a dead daemon is replaced; a live one is an error."),
               text("tcp_listen", &SC::tcp_listen,
                    "gRPC on TCP, \"host:port\" (\"\" = none; port 0 = any free port), e.g. \"127.0.0.1:9820\". An "
                    "address beyond loopback needs auth_token, else the daemon refuses to start."),
               secret(text("auth_token", &SC::auth_token,
                           "Bearer token required on TCP as gRPC metadata \"authorization: Bearer <token>\" (\"\" = "
                           "none). A missing or wrong token gets UNAUTHENTICATED. Rather than here, it may come from a "
                           "file (auth_token_file = \"/etc/cuzk/token\": its first line) or from $CUZK_TOKEN.")),
               boolean("auth_unix", &SC::auth_unix,
                       "Require the token on the unix socket too (by default file permissions guard the socket)."),
               boolean("allow_unauthenticated_tcp", &SC::allow_unauthenticated_tcp,
                       "TCP beyond loopback without a token: refused at start unless true (a warning is logged)."),
               text("tls_cert_file", &SC::tls_cert_file,
                    "TLS on TCP: the PEM certificate (chain); with tls_key_file, both or neither (\"\" = plain TCP)."),
               text("tls_key_file", &SC::tls_key_file, "TLS on TCP: the PEM private key of tls_cert_file."),
               text("http_listen", &SC::http_listen,
                    "HTTP \"host:port\" serving GET /metrics (Prometheus text) and GET /status (JSON, with the "
                    "effective configuration, the token redacted) (\"\" = none)."),
               integer("rpc_threads", &SC::rpc_threads, 4, 4096,
                       "Most gRPC handler threads (an AwaitProof call holds one while it waits)."),
               integer("max_await_ms", &SC::max_await_ms, 0, 24ll * 3600 * 1000,
                       "Longest wait an AwaitProof/Prove call is granted (ms); longer timeouts are cut to this."),
           }},
      .engine =
          {"engine",
           "The proving engine: backend, devices, workers, batching and memory budgets.",
           {
               choice("backend", &EC::backend, engine::kBackends, &engine::parse_backend, &engine::backend_name,
                      "Where proofs run: on the CPU (devices are simulated) or on CUDA GPUs."),
               integer("devices", &EC::devices, engine::limits::kDevices,
                       "cpu: simulated devices (at least 1); cuda: GPUs to use, 0 = every visible GPU."),
               integer("workers_per_device", &EC::workers_per_device, engine::limits::kWorkersPerDevice, "Proving workers per device."),
               integer("max_batch_size", &EC::max_batch_size, engine::limits::kMaxBatchSize,
                       "Jobs of one circuit proved together on one worker (with the cuda backend and a key too large "
                       "for the card, each streamed chunk of points is uploaded once for the whole batch)."),
               integer("max_batch_wait_ms", &EC::max_batch_wait_ms, engine::limits::kMaxBatchWaitMs,
                       "A partial batch is flushed after this long (or at once when a higher priority arrives)."),
               integer("synthesis_concurrency", &EC::synthesis_concurrency, engine::limits::kSynthesisConcurrency,
                       "Witness syntheses running at once (also bounded by host_budget_bytes)."),
               integer("pipeline_depth", &EC::pipeline_depth, engine::limits::kPipelineDepth,
                       "Synthesized jobs waiting for a device, per device (backpressure)."),
               bytes("host_budget_bytes", &EC::host_budget_bytes,
                     "Host memory for resident keys plus per-job working memory."),
               bytes("pinned_budget_bytes", &EC::pinned_budget_bytes,
                     "Page-locked host memory (cuda): the proofs' staging buffers first, then the \"pinned\" key tier "
                     "(a loaded key's points registered with the driver so uploads run at full link speed; idle keys "
                     "are unpinned least-recently-used first). Raise it to the key sizes to keep keys pinned (a PoRep "
                     "key's points are ~47 GiB). The cpu backend accounts it the same way."),
               bytes("pinned_witness_min_bytes", &EC::pinned_witness_min_bytes,
                     "Witnesses at least this large are page-locked once synthesized (cuda: the proof then uploads "
                     "them straight, at full link speed, instead of through its staging buffers; a 2^27 PoRep "
                     "partition's witness is ~4.2 GB), when pinned_budget_bytes has room beside the staging buffers. "
                     "Never evicts a pinned key, never waits. Result timings show it as \"pin_witness\"."),
               bytes("vram_budget_bytes", &EC::vram_budget_bytes,
                     "VRAM budget per device; 0 = (cuda) free memory minus 1 GiB, (cpu) a simulated 4 GiB."),
               choice("key_placement", &EC::key_placement, engine::kKeyPlacements, &engine::parse_key_placement,
                      &engine::key_placement_name,
                      "cuda: where a key's points live. \"resident\" (VRAM), \"stream\" (points and constraint "
                      "matrices in host memory, uploaded in chunks to every proof, overlapping its MSMs: cards smaller "
                      "than the key; a 2^27 PoRep partition proves in about 15.5 GiB; pin the key with "
                      "pinned_budget_bytes for the fastest copies), \"auto\" (resident when the key and one proof fit "
                      "vram_budget_bytes; else part by part: the largest chunks (up to 2^24 points) the card has room "
                      "for, then the constraint matrices and each of the five point arrays resident or streamed, the "
                      "set that saves the most copying per proof kept resident; all streamed when nothing more fits). "
                      "\"stream\" and \"auto\" keep the NTT's twiddle table compact where that buys a larger chunk or "
                      "another resident part. The status's key \"layout\" says which. Ignored by the cpu backend."),
               text("cache_dir", &EC::cache_dir,
                    "Test keys of native circuits are generated once and cached here as .zkey files; not \"\"."),
               string_list("preload", &EC::preload,
                           "Circuit ids whose keys are loaded at start: [[circuit]] ids or Filecoin circuit ids "
                           "(\"winning-post-32gib\", \"window-post-32gib\", \"porep-32gib\", \"snap-32gib\", ...)."),
               integer("max_retained_results", &EC::max_retained_results, engine::limits::kMaxRetainedResults,
                       "Finished results kept for AwaitProof (the oldest are dropped first)."),
           }},
      .fault_injection =
          {"engine.fault_injection",
           "Tests only: the first `failures` proofs on `device` fail with a simulated device fault (the engine retries "
           "them on another device); the next `wrong_proofs` proofs there come back wrong, as from a silent device "
           "fault (verification catches them; the engine proves them again).",
           {
               integer("device", &FI::device, -1, 1024, "The device whose proofs fail; -1 disables fault injection."),
               integer("failures", &FI::failures, 0, kInt32Max, "Proofs that fail with a device fault."),
               integer("wrong_proofs", &FI::wrong_proofs, 0, kInt32Max, "Proofs, after those, that come back wrong."),
           }},
      .circuit =
          {"circuit",
           kCircuitDoc,
           {
               text("id", &CS::id, "The circuit's id in requests (unique)."),
               text("zkey", &CS::zkey_path, "A snarkjs Groth16 .zkey; relative paths are relative to the config file."),
               text("native", &CS::native,
                    "A built-in circuit: \"mul-chain\" (params: constraints), \"sha256-merkle\" (depth, challenges), "
                    "\"poseidon-merkle\" (depth, challenges), \"porep-like\" (log2_nodes, challenges, layers, parents; "
                    "bls12_381 only: a benchmark shape, NOT Filecoin's PoRep circuit, which [filecoin] serves)."),
               choice("curve", &CS::curve, kCurves, &r1cs::parse_curve_name, &r1cs::curve_name,
                      "A native circuit's curve (also spelled bls12381, bls12-381, bn128, alt_bn128)."),
               int_map("params", &CS::params, "A native circuit's parameters, e.g. { constraints = 4096 }."),
               integer("setup_seed", &CS::setup_seed, 0, kInt64Max, "A native circuit's seed of its TEST key setup."),
           }},
      .filecoin =
          {"filecoin",
           "Filecoin proofs: WinningPoSt and WindowPoSt, PoRep C2 and SnapDeals requests are served by their real "
           "circuits, one per sector size, for each size whose key files are in parameter_dir under their official "
           "names (v28-proof-of-spacetime-fallback-*, v28-stacked-proof-of-replication-*, v28-empty-sector-update-*, "
           ".params and .vk, as Filecoin's parameter fetch writes them, or cuzk's TEST keys from `cuzk post setup` / "
           "`cuzk porep setup` / `cuzk snap setup`). The circuit ids are winning-post-<size>, window-post-<size>, "
           "porep-<size> and snap-<size> (2kib, 8mib, 512mib, 32gib, 64gib); engine.preload takes them too. There is "
           "no stand-in: a proof of another circuit would be rejected on chain.",
           {
               optional(text("parameter_dir", &EC::filecoin_parameter_dir,
                             "The parameter directory. Unset: $FIL_PROOFS_PARAMETER_CACHE, else "
                             "/var/tmp/filecoin-proof-parameters/ (the daemon's --params-dir overrides both); \"\": "
                             "none served."),
                        "\"/var/tmp/filecoin-proof-parameters/\""),
               string_list("circuits", &EC::filecoin_circuits,
                           "Serve only these Filecoin circuits (ids as above, e.g. [\"winning-post-32gib\", "
                           "\"window-post-32gib\"]) when their key files are there; empty: every one. Each circuit "
                           "served costs seconds at start (its constraint counts are recorded)."),
               boolean("preload_winning_post", &EC::filecoin_preload_winning_post,
                       "Load the served WinningPoSt keys at start: its deadline is seconds."),
           }},
      .gpu =
          {"gpu",
           "cuda: the GPU layer's tuning (gpu::Tuning): choices between equivalent ways of computing the same proof, "
           "and memory diagnostics. The defaults are cuzk's measured choices; change them to compare or to debug.",
           {
               boolean("sequential_msms", &GT::sequential_msms,
                       "Run a small resident proof's witness MSMs one after another instead of beside the H chain."),
               boolean("msm_profile", &GT::msm_profile,
                       "Synchronise between an MSM's phases and log their times to stderr (slower)."),
               choice("msm_level0", &GT::msm_level0, kMsmLevel0, &gpu::msm_level0_from, &gpu::msm_level0_name,
                      "The MSM's first accumulation kernel: \"auto\" (registers where they hold more threads per SM), "
                      "\"shared\" or \"registers\"."),
               choice("ntt_twiddles", &GT::ntt_twiddles, kTwiddles, &gpu::twiddle_choice_from,
                      &gpu::twiddle_choice_name,
                      "The NTT twiddle tables a key layout may take: \"auto\" (full, compact where that buys a larger "
                      "chunk or resident parts), \"full\" or \"compact\"."),
               ntt_passes_key(),
               integer("emulate_smem_per_sm_kib", &GT::emulate_smem_per_sm_kib, 0, 1024,
                       "Plan the shared-memory kernels as on an SM of this many KiB (100: a consumer card; from 16 up to "
                       "the card's own); 0 = the card's own SM. For measurements only."),
               boolean("pool_driver_defaults", &GT::pool_driver_defaults,
                       "Diagnostic: leave the stream-ordered memory pool's attributes as the driver sets them."),
               integer("guard_bytes", &GT::guard_bytes, 0, 1 << 20,
                       "Diagnostic: bytes checked after every stream-ordered allocation at its free (0 = none)."),
           }},
  };
  return kSchema;
}

}  // namespace cuzk::server::schema
