#!/usr/bin/env bash
# GPU backend: build, test (ctest -L gpu) and time on a machine with a CUDA GPU.
#
#   tools/device/gpu_device_run.sh --prepare   HERE (dev machine, nvcc, no GPU needed): packs into
#       build/gpu-carry the dev files of the CPU dependencies that the device image lacks
#       (oneTBB, GTest, nlohmann-json, OpenSSL, spdlog, fmt, Google Benchmark), and, unless
#       DEPS_ONLY=1, a fallback kit: every test labelled `gpu` (the list comes from ctest, never
#       from this script) and the GPU benchmarks built for sm_90 into build/h-gpu ($PREP_BUILD),
#       with their libraries.
#   tools/device/gpu_device_run.sh             THERE (carry build/gpu-carry):
#       1. configures the current tree with the device's nvcc (sm_90, the server and apps layers
#          left out: their gRPC stack is not carried), finding the CPU dependencies in the
#          carried kit, builds the `gpu`-labelled tests and the GPU benchmarks (-j16), runs
#          `ctest -L gpu --output-on-failure` and the benchmark;
#       2. if that build cannot be configured or fails, runs the carried prebuilt binaries
#          (same tests through a generated CTest file, same benchmark) instead, and says so.
#   Knobs: SKIP_CTEST=1, SKIP_BENCH=1; BASELINE=DIR, the source tree of an older commit (e.g.
#   `git archive <commit> CMakeLists.txt CMakePresets.json src include bench packaging config | tar x -C DIR`,
#   carried, e.g. under build/): its gpu_bench is built too (build/gpu-baseline, no tests)
#   and timed between two runs of this tree's, same arguments (bench_baseline.log, bench_again.log):
#   a same-card, same-session before/after.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
KIT=${CUZK_GPU_KIT:-$ROOT/build/gpu-carry}
JOBS=${JOBS:-16}
BENCHES="gpu_bench gpu_mul_bench gpu_affine_bench"
# The tests labelled `gpu` in the configured tree $1, one name per line (a test's name is its target's).
gpu_tests() { ctest --test-dir "$1" -N -L gpu | sed -n 's/^ *Test *#[0-9]*: *//p'; }

if [ "${1:-}" = "--prepare" ]; then
  set -e
  rm -rf "$KIT" && mkdir -p "$KIT/deps"
  # Dev files (headers, libraries, CMake configs) of the CPU dependencies the on-device
  # configure needs, copied from the installed Debian packages.
  for pkg in libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 libgtest-dev libgmock-dev nlohmann-json3-dev libssl-dev libssl3 \
             libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 libbenchmark-dev libbenchmark1debian; do
    dpkg -L "$pkg" 2>/dev/null | while read -r f; do
      if [ -f "$f" ] || [ -L "$f" ]; then mkdir -p "$KIT/deps$(dirname "$f")"; cp -P "$f" "$KIT/deps$f"; fi
    done
  done
  rm -rf "$KIT/deps/usr/share/doc" "$KIT/deps/usr/share/man"
  (cd "$ROOT" && git rev-parse HEAD 2>/dev/null; date -u) > "$KIT/BUILT_FROM"
  if [ -n "${DEPS_ONLY:-}" ]; then
    du -sh "$KIT"
    echo "kit (dependencies only, no fallback binaries) ready: carry build/gpu-carry, command: bash tools/device/gpu_device_run.sh"
    exit 0
  fi
  # The fallback binaries. cuzk_gpu as a shared library: the kernels' fatbins once in the kit.
  B=${PREP_BUILD:-$ROOT/build/h-gpu}
  cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DCUZK_TESTS=ON -DCUZK_BENCH=ON -DCUZK_GPU_SHARED=ON >/dev/null
  KIT_TESTS=$(gpu_tests "$B" | tr '\n' ' ')
  [ -n "$KIT_TESTS" ] || { echo "no test labelled gpu in $B"; exit 1; }
  cmake --build "$B" --target $KIT_TESTS $BENCHES -j"$(nproc)"
  mkdir -p "$KIT/bin" "$KIT/lib"
  for t in $KIT_TESTS; do cp "$(find "$B/tests" -name "$t" -type f -perm -u+x | head -1)" "$KIT/bin/"; done
  echo "$KIT_TESTS" > "$KIT/GPU_TESTS"
  for b in $BENCHES; do cp "$B/bench/gpu/$b" "$KIT/bin/"; done
  strip "$KIT"/bin/* 2>/dev/null || true
  for so in $(ldd "$KIT"/bin/* | awk '/libtbb|libcuzk_gpu|libspdlog|libfmt|libbenchmark/ {print $3}' | sort -u); do cp -L "$so" "$KIT/lib/"; done
  # A lean copy for runs that skip the on-device build: the binaries as one xz archive
  # with their libraries (the fatbins compress ~2x), no dependency dev files.
  LEAN=$ROOT/build/gpu-carry-lean
  rm -rf "$LEAN" && mkdir -p "$LEAN"
  tar cJf "$LEAN/bin.tar.xz" -C "$KIT" bin lib
  cp "$KIT/BUILT_FROM" "$KIT/GPU_TESTS" "$LEAN/"
  du -sh "$KIT" "$LEAN"
  echo "lean kit: carry build/gpu-carry-lean, command: CUZK_GPU_KIT=build/gpu-carry-lean CUZK_GPU_SKIP_BUILD=1 bash tools/device/gpu_device_run.sh"
  echo "kit ready: carry build/gpu-carry in the device call, command: bash tools/device/gpu_device_run.sh"
  exit 0
fi

OUT=${OUT:-$ROOT/build/gpu-out}
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
start=$(date +%s)

{
  echo "== date"; date -u
  echo "== nvidia-smi"; nvidia-smi 2>&1 | head -20
  echo "== nvcc"; command -v nvcc && nvcc --version; ls -d /usr/local/cuda* 2>/dev/null
  echo "== cmake / g++ / ninja"; cmake --version | head -1; g++ --version | head -1; command -v ninja
  echo "== os"; head -3 /etc/os-release; ldd --version | head -1; nproc; free -g | head -2
  echo "== libs"; for l in libtbb libgtest libbenchmark libssl; do ldconfig -p | grep -m1 "$l" || echo "no $l"; done
  for h in tbb/parallel_for.h gtest/gtest.h nlohmann/json.hpp openssl/sha.h; do [ -e /usr/include/$h ] && echo "have $h" || echo "no $h"; done
  echo "== kit"; cat "$KIT/BUILT_FROM" 2>/dev/null || echo "no carried kit"
} > "$OUT/env.txt" 2>&1

export PATH=$PATH:/usr/local/cuda/bin
NVCC=$(command -v nvcc || true)
B=$ROOT/build/gpu-onbox
path=none

# ---- 1. build on the device ------------------------------------------------------------
if [ -n "${CUZK_GPU_SKIP_BUILD:-}" ]; then
  say "CUZK_GPU_SKIP_BUILD set: on-device build skipped"
elif [ -n "$NVCC" ]; then
  prefix=""; extra=()
  if [ -d "$KIT/deps/usr" ]; then
    prefix="$KIT/deps/usr"
    extra+=(-DCMAKE_PREFIX_PATH="$prefix" -DOPENSSL_ROOT_DIR="$prefix")
    export LD_LIBRARY_PATH="$KIT/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
  fi
  command -v node >/dev/null || extra+=(-DNODE_EXECUTABLE=/bin/true)
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  # Configures source tree $1 into $2 for sm_90 with the carried dependencies (tests: $3, ON/OFF).
  configure() {
    cmake -S "$1" -B "$2" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON -DCMAKE_CUDA_COMPILER="$NVCC" \
          -DCMAKE_CUDA_ARCHITECTURES=90 -DCUZK_TESTS="$3" -DCUZK_BENCH=ON -DCUZK_SKIP_LAYERS="server;apps" "${extra[@]}"
  }
  (
    echo "== configure"; set -x
    configure "$ROOT" "$B" ON
  ) > "$OUT/build.log" 2>&1
  if [ $? -eq 0 ]; then
    targets=$(gpu_tests "$B" | tr '\n' ' ')
    echo "== build: $targets $BENCHES" >> "$OUT/build.log"
    if [ -n "$targets" ] && cmake --build "$B" --target $targets $BENCHES -j"$JOBS" >> "$OUT/build.log" 2>&1; then
      path=onbox
    fi
  fi
  say "on-device build: $([ $path = onbox ] && echo OK || echo FAILED, see build.log) ($(( $(date +%s) - start )) s)"
  if [ -n "${BASELINE:-}" ]; then
    BB=$ROOT/build/gpu-baseline
    { configure "$BASELINE" "$BB" OFF && cmake --build "$BB" --target gpu_bench -j"$JOBS"; } > "$OUT/build_baseline.log" 2>&1
    say "baseline build ($BASELINE): rc=$? ($(( $(date +%s) - start )) s)"
  fi
else
  say "no nvcc on PATH: on-device build skipped"
fi

# ---- 2. fallback: the carried prebuilt kit -------------------------------------------
case $KIT in /*) ;; *) KIT=$ROOT/$KIT ;; esac
if [ ! -d "$KIT/bin" ] && [ -f "$KIT/bin.tar.xz" ]; then
  mkdir -p "$ROOT/build/gpu-kit-bin" && tar xJf "$KIT/bin.tar.xz" -C "$ROOT/build/gpu-kit-bin" &&
    ln -sfn "$ROOT/build/gpu-kit-bin/bin" "$KIT/bin"
  [ -d "$ROOT/build/gpu-kit-bin/lib" ] && mkdir -p "$KIT/lib" && cp "$ROOT/build/gpu-kit-bin/lib/"* "$KIT/lib/"
fi
if [ $path = none ] && [ -f "$KIT/GPU_TESTS" ]; then
  path=kit
  export LD_LIBRARY_PATH="$KIT/lib:${LD_LIBRARY_PATH:-}"
  {
    for t in $(cat "$KIT/GPU_TESTS"); do
      echo "add_test($t \"$KIT/bin/$t\")"
      echo "set_tests_properties($t PROPERTIES LABELS gpu RUN_SERIAL TRUE)"
    done
  } > "$KIT/CTestTestfile.cmake"
  say "using the carried prebuilt binaries ($(head -c 200 "$KIT/BUILT_FROM" | tr '\n' ' '))"
fi

case $path in
  onbox) TESTDIR=$B; BENCH=$B/bench/gpu/gpu_bench; MULB=$B/bench/gpu/gpu_mul_bench ;;
  kit) TESTDIR=$KIT; BENCH=$KIT/bin/gpu_bench; MULB=$KIT/bin/gpu_mul_bench ;;
  *) say "NOTHING TO RUN: no build and no carried kit"; exit 1 ;;
esac

# ---- Montgomery product variants (first: a minute, and tells what the rest will show) --------
if [ -x "$MULB" ] && { [ "${BENCH_SECTIONS:-all}" = all ] || [[ ${BENCH_SECTIONS} == *mul* ]]; }; then
  timeout 120 "$MULB" 5 > "$OUT/mul_bench.log" 2>&1
  echo "gpu_mul_bench rc=$?" >> "$OUT/mul_bench.log"
  say "gpu_mul_bench: $(grep -c Gmul "$OUT/mul_bench.log") rows, $(grep -E 'agree|MISMATCH' "$OUT/mul_bench.log" | tr '\n' ' ')"
fi

# ---- tests -------------------------------------------------------------------------------
trc=0
if [ -n "${SKIP_CTEST:-}" ]; then
  say "SKIP_CTEST set: ctest -L gpu not run"
else
  ( cd "$TESTDIR" && ctest -L gpu ${CTEST_REGEX:+-R "$CTEST_REGEX"} --output-on-failure --timeout "${CTEST_TIMEOUT:-300}" -j"${CTEST_JOBS:-1}" ) > "$OUT/ctest.log" 2>&1
  trc=$?
  say "ctest -L gpu ($path): rc=$trc  $(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)"
fi
if [ $path = onbox ] && [ $trc -ne 0 ] && [ -f "$KIT/GPU_TESTS" ]; then
  # Cross-check with the kit's binaries (tells build-environment trouble from code bugs).
  ( export LD_LIBRARY_PATH="$KIT/lib:${LD_LIBRARY_PATH:-}"
    for t in $(cat "$KIT/GPU_TESTS"); do "$KIT/bin/$t" 2>&1 | tail -30; done ) > "$OUT/ctest_fallback.log" 2>&1
fi

# ---- benchmark -------------------------------------------------------------------------------
run_bench() { timeout "${BENCH_TIMEOUT:-240}" "$1" "${BENCH_MAX_LOG:-27}" "${BENCH_REPS:-10}" "${BENCH_SECTIONS:-all}" > "$OUT/$2" 2>&1; say "$2: rc=$?"; }
if [ -z "${SKIP_BENCH:-}" ]; then
  run_bench "$BENCH" bench.log
  BBENCH=${BB:-/nonexistent}/bench/gpu/gpu_bench
  if [ -n "${BASELINE:-}" ] && [ -x "$BBENCH" ]; then
    run_bench "$BBENCH" bench_baseline.log
    run_bench "$BENCH" bench_again.log
  fi
fi
# NTT pass shapes (NttPassShape): BENCH_NTT_SHAPES="10,9,1 11,8,2" times the ntt section under
# each CUZK_NTT_PASSES into ntt_shapes.log.
for sh in ${BENCH_NTT_SHAPES:-}; do
  echo "== CUZK_NTT_PASSES=$sh" >> "$OUT/ntt_shapes.log"
  CUZK_NTT_PASSES=$sh timeout 120 "$BENCH" "${BENCH_MAX_LOG:-27}" "${BENCH_REPS:-10}" ntt 2>&1 | grep -E "NTT|H " >> "$OUT/ntt_shapes.log"
done
[ -n "${BENCH_NTT_SHAPES:-}" ] && say "ntt shapes: $(grep -c '==' "$OUT/ntt_shapes.log") timed"
# Another card's shared memory per SM emulated (runtime.hpp): BENCH_EMULATE="100 100:11,8,3"
# reruns the bench's sections with CUZK_EMULATE_SMEM_PER_SM_KIB=100 (and, after a colon, one
# CUZK_NTT_PASSES shape for every size) into emulate.log.
for em in ${BENCH_EMULATE:-}; do
  kib=${em%%:*} shape=""; [ "$kib" != "$em" ] && shape=${em#*:}
  echo "== CUZK_EMULATE_SMEM_PER_SM_KIB=$kib${shape:+ CUZK_NTT_PASSES=$shape}" >> "$OUT/emulate.log"
  CUZK_EMULATE_SMEM_PER_SM_KIB=$kib CUZK_NTT_PASSES=$shape timeout "${BENCH_TIMEOUT:-240}" "$BENCH" "${BENCH_MAX_LOG:-27}" \
    "${BENCH_REPS:-10}" "${BENCH_SECTIONS:-all}" >> "$OUT/emulate.log" 2>&1
  echo "rc=$?" >> "$OUT/emulate.log"
done
[ -n "${BENCH_EMULATE:-}" ] && say "emulated SMs: $(grep -c '^== CUZK_EMULATE' "$OUT/emulate.log") runs"
say "total $(( $(date +%s) - start )) s"
for f in bench.log bench_baseline.log bench_again.log; do [ -f "$OUT/$f" ] && { echo "----- $f -----"; cat "$OUT/$f"; }; done
echo "----- summary -----"; cat "$SUMMARY"
[ $trc -eq 0 ]
