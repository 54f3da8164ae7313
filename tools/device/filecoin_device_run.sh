#!/usr/bin/env bash
# Filecoin PoSt, PoRep C2 and SnapDeals on a CUDA machine: the timings of bench/RESULTS.md's Filecoin section.
#
#   tools/device/filecoin_device_run.sh --prepare   HERE (nvcc, no GPU needed): builds cuzk-daemon,
#       cuzk-bench, cuzk, post_bench, porep_bench and engine_cuda_test (BINS: others, e.g. snap_bench) for sm_90 into build/h-gpu
#       and packs them with the shared libraries they load into build/filecoin-kit/bin.tar.xz.
#   tools/device/filecoin_device_run.sh             THERE (carry build/filecoin-kit): runs, in order,
#       1. post_bench synth: a 32 GiB WindowPoSt partition's vanilla check and witness synthesis
#          from the real vanilla proof, on all cores and on 2; WinningPoSt 32 GiB likewise;
#       2. WinningPoSt 32 GiB end to end from the request: `cuzk post setup` TEST keys, then
#          cuzk-daemon on the CUDA backend serving them and cuzk-bench requests (every proof
#          verified by the daemon with the .vk, and again by cuzk-bench);
#       3. post_bench gpu: the whole 32 GiB WindowPoSt partition on the GPU (synthetic key points:
#          see bench/filecoin/post_gpu_bench.cpp);
#       4. engine_cuda_test (the engine on the CUDA backend);
#       5. porep_bench synth: a 32 GiB PoRep C2 from a SYNTHETIC sparse C1 (V1_1): the C1's JSON
#          decoded and checked, the partition circuit's size and recording, every partition's
#          witness on all cores (partition 0 best of 3); partition 0 on 2 threads;
#       6. porep_bench gpu: one 32 GiB PoRep partition on the GPU (synthetic key points: see
#          bench/filecoin/porep_gpu_bench.cpp), with the estimate for the 10 partitions;
#       7. snap_bench synth: a 32 GiB SnapDeals update (SYNTHETIC sparse): the 16 partition proofs
#          decoded and checked, the circuit's size and recording, every partition's witness;
#       8. snap_bench gpu: one 32 GiB SnapDeals partition on the GPU (synthetic key points: see
#          bench/filecoin/snap_gpu_bench.cpp), with the 16-partition estimates;
#       9. snap_bench pipeline: the 16 partitions of a 32 GiB SnapDeals proof synthesized and
#          proved on the GPU as one pipelined run (synthetic key points), timed as a whole.
#   STEPS (default "1 2 3 4 5 6") picks steps: one device command may run 10 minutes (5 and 6 take
#   up to 8 minutes each: run them in their own commands).
#   Logs under $OUT (default build/filecoin-out): summary.txt and one log per step.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
KIT=$ROOT/build/filecoin-kit
BINS=${BINS:-"cuzk-daemon cuzk-bench cuzk post_bench porep_bench engine_cuda_test"}  # what --prepare builds and packs (override to pack fewer)

if [ "${1:-}" = "--prepare" ]; then
  set -e
  B=${PREP_BUILD:-$ROOT/build/h-gpu}
  gen=(); [ -f "$B/CMakeCache.txt" ] || gen=(-G Ninja)
  cmake -S "$ROOT" -B "$B" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCUZK_TESTS=ON -DCUZK_BENCH=ON -DCUZK_GPU_SHARED=ON >/dev/null
  cmake --build "$B" --target $BINS -j"$(nproc)"
  STAGE=$(mktemp -d)
  mkdir -p "$STAGE/bin" "$STAGE/lib"
  for b in $BINS; do cp "$(find "$B" -name "$b" -type f -perm -u+x | head -1)" "$STAGE/bin/"; done
  strip "$STAGE"/bin/* 2>/dev/null || true
  ldd "$STAGE"/bin/* | awk '$3 ~ /^\// {print $3}' | sort -u | grep -Ev '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r so; do cp -L "$so" "$STAGE/lib/"; done
  rm -rf "$KIT" && mkdir -p "$KIT"
  tar cJf "$KIT/bin.tar.xz" -C "$STAGE" bin lib
  (git rev-parse HEAD; date -u) > "$KIT/BUILT_FROM"
  rm -rf "$STAGE"
  du -sh "$KIT"
  exit 0
fi

OUT=${OUT:-$ROOT/build/filecoin-out}
mkdir -p "$OUT"
WORK=$(mktemp -d)
tar xJf "$KIT/bin.tar.xz" -C "$WORK"
export LD_LIBRARY_PATH=$WORK/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export CUZK_FILECOIN_DATA=$ROOT/tests/filecoin/data
BIN=$WORK/bin
SUMMARY=$OUT/summary.txt
say() { echo "$*" | tee -a "$SUMMARY"; }
STEPS=${STEPS:-1 2 3 4 5 6}  # run in this order
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
{ echo "built from: $(tr '\n' ' ' < "$KIT/BUILT_FROM")"; date -u
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; echo "cores $(nproc)"; free -g | head -2; } > "$SUMMARY" 2>&1
cat "$SUMMARY"

step1() {
say "== 1. synthesis (post_bench synth)"
timeout 300 "$BIN/post_bench" synth 8 3 > "$OUT/synth.log" 2>&1; say "window 32 GiB, all cores rc=$?"
CUZK_BENCH_THREADS=2 timeout 300 "$BIN/post_bench" synth 8 1 >> "$OUT/synth.log" 2>&1; say "window 32 GiB, 2 threads rc=$?"
timeout 120 "$BIN/post_bench" synth 3 5 >> "$OUT/synth.log" 2>&1; say "winning 32 GiB rc=$?"
grep -E "StackedDrg|decoded|synthesized|QAP" "$OUT/synth.log" | tee -a "$SUMMARY"
}

step2() {
say "== 2. WinningPoSt 32 GiB through cuzk-daemon (cuda backend)"
PARAMS=$WORK/params
t0=$(now_ms)
timeout 400 "$BIN/cuzk" post setup --proof StackedDrgWinning32GiBV1 --proof StackedDrgWindow2KiBV1 --dir "$PARAMS" --seed 1 \
  > "$OUT/daemon.log" 2>&1
say "TEST keys written rc=$? in $(( $(now_ms) - t0 )) ms"
DAEMON=$BIN/cuzk-daemon READY_TIMEOUT_S=240
# shellcheck source=../tests/server/daemon_lib.sh
. "$ROOT/tests/server/daemon_lib.sh"  # start_daemon / stop_daemon (stopped at exit)
cat > "$WORK/d.toml" <<EOF
[server]
unix_socket = "$WORK/d.sock"
tcp_listen = ""
http_listen = ""
[engine]
backend = "cuda"
devices = 1
workers_per_device = 2
max_batch_wait_ms = 0
pinned_budget_bytes = "8GiB"
cache_dir = "$WORK/cache"
[filecoin]
parameter_dir = "$PARAMS"
EOF
start_daemon --config "$WORK/d.toml" >> "$OUT/daemon.log" 2>&1
BENCH=("$BIN/cuzk-bench" --target "unix:$WORK/d.sock" --timeout 120 --verify)
for i in 1 2 3; do
  timeout 120 "${BENCH[@]}" single --post-proof StackedDrgWinning32GiBV1 --seed "$i" >> "$OUT/daemon.log" 2>&1
  say "single WinningPoSt 32 GiB #$i rc=$?"
done
timeout 240 "${BENCH[@]}" batch -n 30 -j 1 --post-proof StackedDrgWinning32GiBV1 --no-progress >> "$OUT/daemon.log" 2>&1
say "batch 30 x 1 WinningPoSt 32 GiB rc=$?"
timeout 120 "${BENCH[@]}" batch -n 8 -j 2 --post-proof StackedDrgWindow2KiBV1 --sectors 2 --no-progress >> "$OUT/daemon.log" 2>&1
say "batch 8 x 2 WindowPoSt 2 KiB rc=$?"
grep -E "total|latency|throughput|succeeded|verify|phase|ms$" "$OUT/daemon.log" | tail -40 | tee -a "$SUMMARY"
stop_daemon >> "$OUT/daemon.log" 2>&1
cp "$WORK/daemon.log" "$OUT/daemon_server.log"
}

step3() {
say "== 3. 32 GiB WindowPoSt partition on the GPU (post_bench gpu)"
timeout 420 "$BIN/post_bench" gpu 8 2 > "$OUT/gpu.log" 2>&1
say "rc=$?"
tee -a "$SUMMARY" < "$OUT/gpu.log"
}

step4() {
  say "== 4. engine_cuda_test"
  CUZK_ORACLE_DIR=$WORK timeout 300 "$BIN/engine_cuda_test" > "$OUT/engine_cuda_test.log" 2>&1
  say "rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/engine_cuda_test.log" | tr '\n' ' ')"
}

step5() {
say "== 5. PoRep C2 32 GiB synthesis (porep_bench synth)"
timeout 240 "$BIN/porep_bench" synth 32GiB 3 --all > "$OUT/porep_synth.log" 2>&1; say "porep 32 GiB, all cores rc=$?"
CUZK_BENCH_THREADS=2 timeout 240 "$BIN/porep_bench" synth 32GiB 1 --no-record >> "$OUT/porep_synth.log" 2>&1
say "porep 32 GiB partition 0, 2 threads rc=$?"
grep -E "StackedDrg|C1 generated|submit|circuit:|recorded|value-indexed|partition|best of|error" "$OUT/porep_synth.log" | tee -a "$SUMMARY"
}

step6() {
say "== 6. 32 GiB PoRep partition on the GPU (porep_bench gpu)"
timeout 480 "$BIN/porep_bench" gpu 32GiB 2 > "$OUT/porep_gpu.log" 2>&1
say "rc=$?"
tee -a "$SUMMARY" < "$OUT/porep_gpu.log"
}

step7() {
say "== 7. SnapDeals 32 GiB synthesis (snap_bench synth)"
timeout 300 "$BIN/snap_bench" synth 32GiB 3 --all > "$OUT/snap_synth.log" 2>&1; say "snap 32 GiB, all cores rc=$?"
grep -E "StackedDrg|update generated|submit|circuit:|recorded|partition|best of|error" "$OUT/snap_synth.log" | tee -a "$SUMMARY"
}

step8() {
say "== 8. 32 GiB SnapDeals partition on the GPU (snap_bench gpu)"
timeout 480 "$BIN/snap_bench" gpu 32GiB 2 > "$OUT/snap_gpu.log" 2>&1
say "rc=$?"
tee -a "$SUMMARY" < "$OUT/snap_gpu.log"
}

step9() {
say "== 9. 32 GiB SnapDeals, 16 partitions pipelined as one run (snap_bench pipeline)"
timeout 540 "$BIN/snap_bench" pipeline 32GiB > "$OUT/snap_pipeline.log" 2>&1
say "rc=$?"
tee -a "$SUMMARY" < "$OUT/snap_pipeline.log"
}

for s in $STEPS; do "step$s"; done
rm -rf "$WORK"
