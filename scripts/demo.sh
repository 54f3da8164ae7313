#!/usr/bin/env bash
# The main job on a built-in example: build cuzk, compile a circomlib Poseidon circuit with
# circom2, compute its witness with snarkjs, then cuzk setup -> prove -> verify, and have
# snarkjs verify cuzk's proof too. Set SKIP_DEPS=1 when the dependencies are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_DEPS:-0}" = 1 ] || scripts/install_deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" --target cuzk
CUZK=build/release/src/apps/cuzk
W=build/demo
rm -rf "$W" && mkdir -p "$W"
echo "== compiling tests/interop/circuits/poseidon3.circom for BN254 (circom2)"
(cd tests/oracle && node node_modules/circom2/cli.js ../interop/circuits/poseidon3.circom --r1cs --wasm --prime bn128 \
   -l node_modules/circomlib/circuits -o ../../$W >/dev/null)
echo '{"a": "1", "b": "2", "c": "3"}' >"$W/input.json"
node tests/oracle/node_modules/snarkjs/build/cli.cjs wtns calculate "$W/poseidon3_js/poseidon3.wasm" "$W/input.json" "$W/witness.wtns"
echo "== cuzk setup (test key) / prove / verify"
"$CUZK" setup --r1cs "$W/poseidon3.r1cs" --zkey "$W/poseidon3.zkey" --vk "$W/verification_key.json" --seed 1
"$CUZK" prove --zkey "$W/poseidon3.zkey" --wtns "$W/witness.wtns" --proof "$W/proof.json" --public "$W/public.json"
"$CUZK" verify --vk "$W/verification_key.json" --proof "$W/proof.json" --public "$W/public.json"
echo "== snarkjs groth16 verify (independent check of cuzk's proof)"
node tests/oracle/node_modules/snarkjs/build/cli.cjs groth16 verify "$W/verification_key.json" "$W/public.json" "$W/proof.json"
echo "public.json: $(tr -d ' \n' <"$W/public.json")"
