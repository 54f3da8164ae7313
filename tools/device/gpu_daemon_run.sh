#!/usr/bin/env bash
# The proving daemon on a CUDA machine: the engine's GPU tests, then cuzk-daemon with the CUDA
# backend under cuzk-bench load (every proof verified by the client), then the same batch on the
# CPU backend of the same machine for comparison.
#
#   tools/device/gpu_daemon_run.sh --prepare   HERE (nvcc, no GPU needed): builds cuzk-daemon,
#       cuzk-bench and engine_cuda_test for sm_90 into build/h-gpu and packs them with
#       the shared libraries they load (gRPC, protobuf, TBB, ...) into build/gpu-daemon-kit.
#   tools/device/gpu_daemon_run.sh             THERE (carry build/gpu-daemon-kit): runs everything,
#       writes logs under $OUT (default build/gpu-daemon-out).
# Knobs: CONSTRAINTS (mul-chain size, default 250000: a 2^18 domain), N (batch size, 16), J (concurrency, 4),
# WORKERS (per GPU, 2), CPU_N (CPU batch size, 4), PINNED (pinned_budget_bytes, 8GiB: the key's points are page-locked),
# PIN_WITNESS (pinned_witness_min_bytes, one CUDA run per value, e.g. "64MiB 1TiB" to compare page-locked
# witnesses with pageable ones; default 64MiB), BACKENDS (default "cuda cpu"), SKIP_ENGINE_TEST=1.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
KIT=$ROOT/build/gpu-daemon-kit
BINS="cuzk-daemon cuzk-bench engine_cuda_test"

if [ "${1:-}" = "--prepare" ]; then
  set -e
  # The build directory of tools/device/gpu_device_run.sh --prepare (same flags): one CUDA build.
  B=${PREP_BUILD:-$ROOT/build/h-gpu}
  gen=(); [ -f "$B/CMakeCache.txt" ] || gen=(-G Ninja)
  cmake -S "$ROOT" -B "$B" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCUZK_TESTS=ON -DCUZK_BENCH=ON -DCUZK_GPU_SHARED=ON >/dev/null
  cmake --build "$B" --target $BINS -j"$(nproc)"
  rm -rf "$KIT" && mkdir -p "$KIT/bin" "$KIT/lib"
  for b in $BINS; do cp "$(find "$B" -name "$b" -type f -perm -u+x | head -1)" "$KIT/bin/"; done
  # Everything the binaries load except the C runtime itself.
  ldd "$KIT"/bin/* | awk '$3 ~ /^\// {print $3}' | sort -u | grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r so; do cp -L "$so" "$KIT/lib/"; done
  (git rev-parse HEAD; date -u) > "$KIT/BUILT_FROM"
  du -sh "$KIT"
  exit 0
fi

OUT=${OUT:-$ROOT/build/gpu-daemon-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$KIT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CONSTRAINTS=${CONSTRAINTS:-250000} N=${N:-16} J=${J:-4} WORKERS=${WORKERS:-2} CPU_N=${CPU_N:-4} PINNED=${PINNED:-8GiB}
PIN_WITNESS=${PIN_WITNESS:-64MiB} BACKENDS=${BACKENDS:-cuda cpu}
WORK=$(mktemp -d)
SUMMARY=$OUT/summary.txt
{ echo "built from: $(tr '\n' ' ' < "$KIT/BUILT_FROM")"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; } > "$SUMMARY" 2>&1

if [ -z "${SKIP_ENGINE_TEST:-}" ]; then
  echo "== engine_cuda_test" | tee -a "$SUMMARY"
  CUZK_ORACLE_DIR=$WORK timeout 240 "$KIT/bin/engine_cuda_test" > "$OUT/engine_cuda_test.log" 2>&1
  echo "rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/engine_cuda_test.log" | tr '\n' ' ')" | tee -a "$SUMMARY"
fi

DAEMON=$KIT/bin/cuzk-daemon READY_TIMEOUT_S=180
# shellcheck source=../tests/server/daemon_lib.sh
. "$ROOT/tests/server/daemon_lib.sh"  # start_daemon / stop_daemon (stopped at exit)
write_config() {  # write_config <backend> <devices> <workers> <pinned_witness_min_bytes>
  cat > "$WORK/d.toml" <<EOF
[server]
unix_socket = "$WORK/d.sock"
tcp_listen = ""
http_listen = "127.0.0.1:19821"
[engine]
backend = "$1"
devices = $2
workers_per_device = $3
cache_dir = "$WORK/cache"
host_budget_bytes = "64GiB"
pinned_budget_bytes = "$PINNED"
pinned_witness_min_bytes = "$4"
preload = ["chain"]
[[circuit]]
id = "chain"
native = "mul-chain"
curve = "bls12_381"
params = { constraints = $CONSTRAINTS }
EOF
}
bench() { timeout 200 "$KIT/bin/cuzk-bench" --target "unix:$WORK/d.sock" --timeout 300 --verify "$@"; }

runs=()
for backend in $BACKENDS; do
  if [ "$backend" = cuda ]; then for pw in $PIN_WITNESS; do runs+=("cuda:$pw"); done; else runs+=("$backend:64MiB"); fi
done
for run in "${runs[@]}"; do
  backend=${run%%:*} pw=${run#*:} tag=$backend
  [ "$backend" = cuda ] && [ "$PIN_WITNESS" != 64MiB ] && tag=cuda_pin$pw
  n=$N; j=$J; w=$WORKERS
  [ "$backend" = cpu ] && { n=$CPU_N; j=2; w=1; }
  echo "== daemon, backend $backend, mul-chain $CONSTRAINTS constraints, $w worker(s), batch $n x $j, pinned_witness_min_bytes $pw" | tee -a "$SUMMARY"
  write_config "$backend" 1 "$w" "$pw"
  start_daemon --config "$WORK/d.toml" || { cat "$WORK/daemon.log" >> "$OUT/daemon.log"; echo "daemon did not start" | tee -a "$SUMMARY"; continue; }
  { bench single --circuit chain --seed 7; bench batch -n "$n" -j "$j" --circuit chain --no-progress; echo "rc=$?"; } \
    > "$OUT/bench_$tag.log" 2>&1
  grep -E 'succeeded|throughput|p50|rc=|total|msm_|eval_abc|h_poly|queue_wait|transfer_witness' "$OUT/bench_$tag.log" | tee -a "$SUMMARY"
  bench status >> "$OUT/bench_$tag.log" 2>&1
  [ "$backend" = cuda ] && curl -s http://127.0.0.1:19821/metrics > "$OUT/metrics_$tag.txt"
  stop_daemon
  cat "$WORK/daemon.log" >> "$OUT/daemon.log"
done
nvidia-smi >> "$SUMMARY" 2>&1
rm -rf "$WORK"
