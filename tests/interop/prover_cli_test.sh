#!/usr/bin/env bash
# cuzk-prover as a drop-in for rapidsnark's `prover <zkey> <wtns> <proof> <public>`: circom2
# compiles a circuit, snarkjs computes its witness, cuzk-prover proves (through the engine, on the
# CPU here) and `snarkjs groth16 verify` accepts the proof; both curves. Then rapidsnark's exit
# codes: 1 for a wrong argument count, a missing file, a file of the wrong kind, and a witness that
# does not satisfy the circuit (nothing written: the proof is verified before it is written).
# usage: prover_cli_test.sh <cuzk-prover> <cuzk> <work dir>
set -euo pipefail
PROVER=$1
CUZK=$2
WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
ORACLE=$(cd "$HERE/../oracle" && pwd)
SNARKJS="node $ORACLE/node_modules/snarkjs/build/cli.cjs"
CIRCOM="node $ORACLE/node_modules/circom2/cli.js"
rm -rf "$WORK" && mkdir -p "$WORK"
source "$HERE/../server/daemon_lib.sh"
trap - EXIT  # no daemon here

for prime in bn128 bls12381; do
  d="$WORK/$prime"
  mkdir -p "$d"
  # circom2 runs under WASI and sees only its working directory's tree: run it from tests/oracle.
  (cd "$ORACLE" && $CIRCOM "$HERE/../r1cs/circuits/mulchain.circom" --r1cs --wasm --prime "$prime" \
     -l node_modules/circomlib/circuits -o "$d" >/dev/null)
  echo '{"a": "3", "b": "11"}' >"$d/input.json"
  $SNARKJS wtns calculate "$d/mulchain_js/mulchain.wasm" "$d/input.json" "$d/w.wtns"
  "$CUZK" setup --r1cs "$d/mulchain.r1cs" --zkey "$d/c.zkey" --seed 5 >/dev/null 2>&1
  $SNARKJS zkey export verificationkey "$d/c.zkey" "$d/vk.json" >/dev/null
  expect_rc "$prime: cuzk-prover c.zkey w.wtns proof.json public.json" 0 \
    "$PROVER" "$d/c.zkey" "$d/w.wtns" "$d/proof.json" "$d/public.json"
  expect_rc "$prime: snarkjs verifies cuzk-prover's proof" 0 \
    $SNARKJS groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json"
  expect_log "$prime: snarkjs says OK" 'OK!'
done

d="$WORK/bn128"
expect_rc "no arguments: exit 1" 1 "$PROVER"
expect_log "no arguments: rapidsnark's usage" 'Invalid number of parameters:'
expect_log "no arguments: the usage line" 'Usage: cuzk-prover <circuit.zkey> <witness.wtns> <proof.json> <public.json>'
expect_rc "three arguments: exit 1" 1 "$PROVER" "$d/c.zkey" "$d/w.wtns" "$d/x.json"
expect_rc "--help: exit 0" 0 "$PROVER" --help
expect_rc "missing .zkey: exit 1" 1 "$PROVER" "$d/none.zkey" "$d/w.wtns" "$d/x.json" "$d/y.json"
expect_log "missing .zkey: named" 'cannot open the proving key .*none\.zkey: No such file'
expect_rc "missing .wtns: exit 1" 1 "$PROVER" "$d/c.zkey" "$d/none.wtns" "$d/x.json" "$d/y.json"
expect_log "missing .wtns: named" 'cannot open the witness .*none\.wtns: No such file'
expect_rc "a .zkey given as the witness: exit 1" 1 "$PROVER" "$d/c.zkey" "$d/c.zkey" "$d/x.json" "$d/y.json"
expect_log "a .zkey given as the witness: said" "malformed \.wtns.*bad magic"
expect_rc "the other curve's witness: exit 1" 1 "$PROVER" "$d/c.zkey" "$WORK/bls12381/w.wtns" "$d/x.json" "$d/y.json"
# The first byte of the last witness value, changed by one: a witness that does not satisfy the circuit.
cp "$d/w.wtns" "$d/bad.wtns"
off=$(($(stat -c %s "$d/bad.wtns") - 32))
byte=$(od -An -tu1 -j "$off" -N1 "$d/bad.wtns" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$d/bad.wtns" bs=1 seek="$off" conv=notrunc status=none
expect_rc "a witness that does not satisfy the circuit: exit 1" 1 "$PROVER" "$d/c.zkey" "$d/bad.wtns" "$d/x.json" "$d/y.json"
expect_log "a witness that does not satisfy the circuit: said" 'does not verify'
[ ! -e "$d/x.json" ] && [ ! -e "$d/y.json" ] && pass "nothing written for a proof that does not verify" ||
  fail "a file was written for a proof that does not verify"
expect_rc "an unknown CUZK_PROVER_BACKEND: exit 1" 1 env CUZK_PROVER_BACKEND=gpu "$PROVER" "$d/c.zkey" "$d/w.wtns" "$d/x.json" "$d/y.json"

echo "cuzk-prover: $fails failed"
[ "$fails" -eq 0 ]
