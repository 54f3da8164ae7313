#!/usr/bin/env bash
# End to end with tools nobody here wrote: circom2 compiles a circomlib Poseidon circuit,
# snarkjs computes its witness, `cuzk setup` makes a TEST .zkey, cuzk-daemon registers the
# circuit from that .zkey (relative path in its TOML) and proves it from the .wtns sent by
# cuzk-bench, and `snarkjs groth16 verify` accepts the daemon's proof (with the verification
# key snarkjs exports itself). Both curves.
# usage: circom_e2e_test.sh <cuzk-daemon> <cuzk-bench> <cuzk> <work dir>
set -euo pipefail
DAEMON=$1
BENCH=$2
CUZK=$3
WORK=$4
HERE=$(cd "$(dirname "$0")" && pwd)
ORACLE=$(cd "$HERE/../oracle" && pwd)
SNARKJS="node $ORACLE/node_modules/snarkjs/build/cli.cjs"
CIRCOM="node $ORACLE/node_modules/circom2/cli.js"
rm -rf "$WORK" && mkdir -p "$WORK"
source "$HERE/daemon_lib.sh"

for prime in bn128 bls12381; do
  d="$WORK/$prime"
  mkdir -p "$d"
  # circom2 runs under WASI and sees only its working directory's tree: run it from tests/oracle.
  (cd "$ORACLE" && $CIRCOM "$HERE/../interop/circuits/poseidon3.circom" --r1cs --wasm --prime "$prime" \
     -l node_modules/circomlib/circuits -o "$d" >/dev/null)
  echo '{"a": "1", "b": "2", "c": "3"}' >"$d/input.json"
  $SNARKJS wtns calculate "$d/poseidon3_js/poseidon3.wasm" "$d/input.json" "$d/poseidon3.wtns"
  "$CUZK" setup --r1cs "$d/poseidon3.r1cs" --zkey "$d/poseidon3.zkey" --seed 11 >/dev/null
  $SNARKJS zkey export verificationkey "$d/poseidon3.zkey" "$d/vk.json" >/dev/null
done
cat >"$WORK/daemon.toml" <<TOML
[server]
unix_socket = "$WORK/d.sock"
tcp_listen = ""
http_listen = ""
[engine]
cache_dir = "$WORK/cache"
[[circuit]]
id = "poseidon3-bn254"
zkey = "bn128/poseidon3.zkey"
[[circuit]]
id = "poseidon3-bls"
zkey = "bls12381/poseidon3.zkey"
TOML
start_daemon --config "$WORK/daemon.toml"
T="unix:$WORK/d.sock"
for prime in bn128 bls12381; do
  d="$WORK/$prime"
  id=$([ "$prime" = bn128 ] && echo poseidon3-bn254 || echo poseidon3-bls)
  expect_rc "$prime: the daemon proves poseidon3 from its .zkey and .wtns" 0 \
    "$BENCH" --target "$T" --verify single --circuit "$id" --wtns "$d/poseidon3.wtns" --proof "$d/proof.json" --public "$d/public.json"
  expect_rc "$prime: snarkjs groth16 verify accepts the daemon's proof" 0 $SNARKJS groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json"
  expect_log "$prime: snarkjs says OK" 'OK!'
done
expect_rc "a witness of the other curve is refused" 1 \
  "$BENCH" --target "$T" single --circuit poseidon3-bn254 --wtns "$WORK/bls12381/poseidon3.wtns"
expect_log "refused as INVALID_ARGUMENT" 'INVALID_ARGUMENT'
stop_daemon INT && pass "SIGINT: daemon exits 0" || fail "SIGINT: daemon exit status"
grep -q "SIGINT: shutting down" "$WORK/daemon.log" && pass "SIGINT shutdown logged" || fail "SIGINT shutdown not logged"

echo "circom e2e: $fails failed"
[ "$fails" -eq 0 ]
