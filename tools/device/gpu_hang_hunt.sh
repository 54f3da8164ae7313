#!/bin/bash
# Hunts hangs and out-of-bounds writes in the stream-ordered temporaries (runtime.hpp,
# DeviceAlloc). Written for an intermittent hang of gpu_stream_key_test (bench/gpu/NOTES.md),
# not seen since each thread drains its stream before it ends (StreamDrain): 0 hangs in 40 runs
# since, against 2 in 11 before. On the device, from the repository root, with the
# lean kit carried (build/gpu-carry-lean, from `bash tools/device/gpu_device_run.sh --prepare`):
#   OUT=$OUT bash tools/device/gpu_hang_hunt.sh
# 1. Guard bytes after every stream-ordered buffer (CUZK_GPU_GUARD_BYTES): a write past a
#    buffer's end aborts the test with the buffer's size (one run of each test is enough).
# 2. Without guards, gpu_stream_key_test up to TRIES times (it hung once in ~9 runs) under a
#    watchdog; on a hang, cuda-gdb attaches and prints every thread's stack.
# CUZK_GPU_POOL_DEFAULTS=1 in the environment keeps the driver's pool attributes; compare hunts
# with and without it.
# Writes at most 4 files under $OUT (the device tool returns 8): guard.log, hunt.log, bt.txt,
# last.log. Never waits on a process it could not kill (a process stuck in the driver).
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${OUT:-$ROOT/build/hunt-out}
TRIES=${TRIES:-20}
LIMIT=${LIMIT:-30}
mkdir -p "$OUT" build/gpu-kit-bin
tar xJf build/gpu-carry-lean/bin.tar.xz -C build/gpu-kit-bin
export LD_LIBRARY_PATH=$ROOT/build/gpu-kit-bin/lib:${LD_LIBRARY_PATH:-}
cd build/gpu-kit-bin/bin || exit 1

# gpu_runtime_test expects the pool to keep freed memory, which CUZK_GPU_POOL_DEFAULTS undoes.
TESTS="gpu_backend_test gpu_stream_key_test gpu_msm_test"
[ -z "${CUZK_GPU_POOL_DEFAULTS:-}" ] && TESTS="$TESTS gpu_runtime_test"
for t in $TESTS; do
  CUZK_GPU_GUARD_BYTES=4096 timeout -k 5 60 ./$t > /tmp/guard.$t.log 2>&1
  echo "$t rc=$? $(grep -E 'PASSED|FAILED|cuzk: write' /tmp/guard.$t.log | tr '\n' ' ')"
done > "$OUT/guard.log"

for i in $(seq 1 "$TRIES"); do
  t0=$(date +%s)
  ./gpu_stream_key_test > "$OUT/last.log" 2>&1 &
  pid=$!
  while kill -0 $pid 2>/dev/null && [ $(($(date +%s) - t0)) -lt "$LIMIT" ]; do sleep 0.5; done
  if kill -0 $pid 2>/dev/null; then
    echo "try $i: still running after $LIMIT s"
    timeout -k 5 90 cuda-gdb -batch -p $pid -ex "info threads" -ex "thread apply all bt" > "$OUT/bt.txt" 2>&1
    kill -9 $pid
    break
  fi
  wait $pid
  echo "try $i: rc=$? $(($(date +%s) - t0)) s"
done > "$OUT/hunt.log" 2>&1
echo "guard:"; cat "$OUT/guard.log"; echo "hunt:"; tail -3 "$OUT/hunt.log"
