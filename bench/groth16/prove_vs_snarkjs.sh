#!/usr/bin/env bash
# Prove time and peak memory of cuzk vs snarkjs on the same .zkey and .wtns (issue 3's benchmark).
# usage: bench/groth16/prove_vs_snarkjs.sh <build dir> <work dir> [log2 sizes...]   (default: 16 18 20)
# Needs `npm ci` in tests/oracle. Prints one line per (curve, size, prover).
set -euo pipefail
BUILD=$1
WORK=$2
shift 2
SIZES=${*:-16 18 20}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SNARKJS="node --max-old-space-size=16000 $ROOT/tests/oracle/node_modules/snarkjs/build/cli.cjs"
mkdir -p "$WORK"
measure() {  # label cmd... -> "label wall_s peak_MiB"
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/out.log" 2>&1 || { echo "$label FAILED"; cat "$WORK/out.log"; return 1; }
  read -r wall kb <"$WORK/time.txt"
  printf "%-34s %8.2f s %8.0f MiB\n" "$label" "$wall" "$((kb / 1024))"
}
printf "%-34s %10s %12s\n" "case" "wall" "peak RSS"
for curve in bn128 bls12381; do
  for k in $SIZES; do
    d="$WORK/$curve-$k"
    [ -f "$d/circuit.zkey" ] || "$BUILD/bench/groth16/groth16_fixture" "$curve" "$k" "$d" 2>"$d.fixture.log"
    measure "$curve 2^$k cuzk prove" "$BUILD/src/apps/cuzk" prove --zkey "$d/circuit.zkey" --wtns "$d/circuit.wtns" \
      --proof "$d/proof.json" --public "$d/public.json"
    cp "$WORK/out.log" "$d/cuzk_phases.log"
    measure "$curve 2^$k snarkjs groth16 prove" $SNARKJS groth16 prove "$d/circuit.zkey" "$d/circuit.wtns" "$d/sproof.json" "$d/spublic.json"
    $SNARKJS zkey export verificationkey "$d/circuit.zkey" "$d/vk.json" >/dev/null
    $SNARKJS groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json" >/dev/null && echo "  snarkjs verifies cuzk's proof: OK"
  done
done
