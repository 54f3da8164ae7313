#!/usr/bin/env bash
# The main job on built-in examples. Installs the dependencies (unless SKIP_DEPS=1), builds the
# three programs the demo runs (cuzk, cuzk-daemon, cuzk-bench) and nothing else, then:
#  1. starts cuzk-daemon with its embedded default config (small built-in circuits with TEST keys;
#     gRPC on /tmp/cuzk-daemon.sock, HTTP on 127.0.0.1:9821), runs `cuzk-bench batch` (8 proofs,
#     4 at a time, every proof verified by cuzk-bench) and `cuzk-bench status`, shows a few
#     /metrics lines and stops the daemon;
#  2. compiles a circomlib Poseidon circuit with circom2, computes its witness with snarkjs,
#     makes a TEST .zkey with `cuzk setup`, starts a daemon that serves that .zkey, proves the
#     witness through it, and has snarkjs (and cuzk) verify the daemon's proof.
# Backend: without a GPU (no nvidia-smi, or it lists none) the CPU backend, built without CUDA
# (preset demo-cpu, build/demo-cpu; both demo presets compile at -O1 as a unity build, fewer and
# larger translation units); with one, the CUDA backend, compiled for that card only
# (preset demo-cuda: CMAKE_CUDA_ARCHITECTURES=native, build/demo-cuda). CUZK_DEMO_BACKEND=cpu|cuda
# chooses. CUZK_BUILD_DIR=<configured build tree> builds there instead. Packages and the tests
# build every supported card's code (preset release).
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$SECONDS
[ "${SKIP_DEPS:-0}" = 1 ] || scripts/install_deps.sh
T_DEPS=$((SECONDS - T0))
if [ -z "${CUZK_DEMO_BACKEND:-}" ]; then
  CUZK_DEMO_BACKEND=cpu
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
      CUZK_DEMO_BACKEND=cuda
    else
      echo "== a GPU but no nvcc (the CUDA toolkit): the demo runs on the CPU backend"
    fi
  fi
fi
BACKEND=$CUZK_DEMO_BACKEND
case $BACKEND in
  cpu) echo "== backend: cpu (no GPU found by nvidia-smi; CUZK_DEMO_BACKEND=cuda to force CUDA)" ;;
  cuda) echo "== backend: cuda ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1))" ;;
  *) echo "CUZK_DEMO_BACKEND must be cpu or cuda, not '$BACKEND'"; exit 2 ;;
esac
# CMake finds nvcc on the PATH; the toolkit's installer puts it in /usr/local/cuda/bin.
[ "$BACKEND" != cuda ] || command -v nvcc >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
BUILD=${CUZK_BUILD_DIR:-build/demo-$BACKEND}
[ -n "${CUZK_BUILD_DIR:-}" ] || cmake --preset "demo-$BACKEND" >/dev/null
T1=$SECONDS
cmake --build "$BUILD" -j"$(nproc)" --target cuzk cuzk-daemon cuzk-bench
T_BUILD=$((SECONDS - T1))
B=$BUILD/src/apps
W=build/demo
SNARKJS="node tests/oracle/node_modules/snarkjs/build/cli.cjs"
rm -rf "$W" && mkdir -p "$W"
DAEMON_PID=
stop_daemon() {
  [ -n "$DAEMON_PID" ] || return 0
  kill -TERM "$DAEMON_PID" 2>/dev/null || true
  wait "$DAEMON_PID" || true
  DAEMON_PID=
}
trap stop_daemon EXIT
start_daemon() {  # start_daemon <log> <args...>
  local log=$1
  shift
  rm -f "$W/ready.json"
  "$B/cuzk-daemon" --ready-file "$W/ready.json" "$@" >"$log" 2>&1 &
  DAEMON_PID=$!
  for _ in $(seq 1 600); do
    [ -f "$W/ready.json" ] && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.2
  done
  echo "cuzk-daemon did not start"; cat "$log"; exit 1
}

echo "== cuzk-daemon --backend $BACKEND with the embedded default config (cuzk-daemon --print-default-config shows it)"
start_daemon "$W/daemon.log" --backend "$BACKEND"
sed 's/^/   /' "$W/daemon.log"
echo "== cuzk-bench --verify batch -n 8 -j 4 --circuit mul-chain"
"$B/cuzk-bench" --verify batch -n 8 -j 4 --circuit mul-chain
echo "== cuzk-bench status"
"$B/cuzk-bench" status
echo "== GET http://127.0.0.1:9821/metrics (excerpt)"
node -e 'fetch("http://127.0.0.1:9821/metrics").then(r => r.text()).then(t => console.log(t.split("\n")
  .filter(l => /^cuzk_(proofs_total|server_rpcs_total)/.test(l)).join("\n")))'
stop_daemon
echo "   daemon stopped: $(tail -n 1 "$W/daemon.log")"

echo "== compiling tests/interop/circuits/poseidon3.circom for BN254 (circom2), witness (snarkjs), TEST key (cuzk setup)"
(cd tests/oracle && node node_modules/circom2/cli.js ../interop/circuits/poseidon3.circom --r1cs --wasm --prime bn128 \
   -l node_modules/circomlib/circuits -o ../../$W >/dev/null)
echo '{"a": "1", "b": "2", "c": "3"}' >"$W/input.json"
$SNARKJS wtns calculate "$W/poseidon3_js/poseidon3.wasm" "$W/input.json" "$W/witness.wtns"
"$B/cuzk" setup --r1cs "$W/poseidon3.r1cs" --zkey "$W/poseidon3.zkey" --seed 1
cat >"$W/poseidon3-daemon.toml" <<TOML
[server]
unix_socket = "$PWD/$W/poseidon3.sock"
tcp_listen = ""
http_listen = ""
[engine]
backend = "$BACKEND"
cache_dir = "$PWD/$W/cache"
[[circuit]]
id = "poseidon3"
zkey = "poseidon3.zkey"
TOML
echo "== cuzk-daemon --config $W/poseidon3-daemon.toml; cuzk-bench single --wtns witness.wtns"
start_daemon "$W/daemon2.log" --config "$W/poseidon3-daemon.toml"
"$B/cuzk-bench" --target "unix:$PWD/$W/poseidon3.sock" --verify single --circuit poseidon3 --wtns "$W/witness.wtns" \
  --proof "$W/proof.json" --public "$W/public.json"
stop_daemon
echo "== snarkjs groth16 verify (independent check of the daemon's proof, with snarkjs's own vk export)"
$SNARKJS zkey export verificationkey "$W/poseidon3.zkey" "$W/verification_key.json" >/dev/null
$SNARKJS groth16 verify "$W/verification_key.json" "$W/public.json" "$W/proof.json"
"$B/cuzk" verify --vk "$W/verification_key.json" --proof "$W/proof.json" --public "$W/public.json"
echo "public.json: $(tr -d ' \n' <"$W/public.json")"
echo "== done in $((SECONDS - T0)) s: dependencies $T_DEPS s, build $T_BUILD s, demo $((SECONDS - T1 - T_BUILD)) s"
