#!/usr/bin/env bash
# Interop with tools nobody here wrote: circom2 compiles circomlib circuits, snarkjs
# computes witnesses, verifies cuzk's proofs and makes its own; cuzk verifies those.
# usage: snarkjs_interop.sh <cuzk binary> <work dir>
set -euo pipefail
CUZK=$1
WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
ORACLE=$(cd "$HERE/../oracle" && pwd)
SNARKJS="node $ORACLE/node_modules/snarkjs/build/cli.cjs"
CIRCOM="node $ORACLE/node_modules/circom2/cli.js"
rm -rf "$WORK" && mkdir -p "$WORK"
fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_ok() { local what=$1; shift; if "$@" >"$WORK/last.log" 2>&1; then pass "$what"; else fail "$what"; cat "$WORK/last.log"; fi; }
expect_reject() { local what=$1; shift; if "$@" >"$WORK/last.log" 2>&1; then fail "$what (accepted)"; cat "$WORK/last.log"; else pass "$what"; fi; }

compile() {  # name prime -> $WORK/<prime>/<name>.r1cs + wasm
  local name=$1 prime=$2 src=$3
  mkdir -p "$WORK/$prime"
  # circom2 runs under WASI and sees only its working directory's tree: run it from tests/oracle.
  (cd "$ORACLE" && $CIRCOM "$src" --r1cs --wasm --prime "$prime" -l node_modules/circomlib/circuits -o "$WORK/$prime" >/dev/null)
}

tamper_public() {  # add 1 to the first public value
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));p[0]=(BigInt(p[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}
tamper_proof() {  # replace pi_a by -pi_a: still a valid curve point, so only the pairing check can catch it
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));const q={bn128:21888242871839275222246405745257275088696311157297823662689037894645226208583n,bls12381:0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn}[p.curve];p.pi_a[1]=((q-BigInt(p.pi_a[1]))%q).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' "$1" "$2"
}

run_case() {  # circuit-file name prime input-json
  local src=$1 name=$2 prime=$3 input=$4
  local d="$WORK/$prime"
  local t0=$SECONDS
  compile "$name" "$prime" "$src"
  echo "$input" >"$d/$name.input.json"
  $SNARKJS wtns calculate "$d/${name}_js/$name.wasm" "$d/$name.input.json" "$d/$name.wtns" >/dev/null
  # 1. cuzk's own (test) setup writes a .zkey; cuzk proves; snarkjs verifies.
  expect_ok "$prime/$name: cuzk setup" "$CUZK" setup --r1cs "$d/$name.r1cs" --zkey "$d/$name.zkey" --vk "$d/$name.vk.json" --seed 42
  expect_ok "$prime/$name: cuzk prove" "$CUZK" prove --zkey "$d/$name.zkey" --wtns "$d/$name.wtns" --proof "$d/$name.proof.json" --public "$d/$name.public.json" --quiet
  expect_ok "$prime/$name: snarkjs verifies cuzk's proof" $SNARKJS groth16 verify "$d/$name.vk.json" "$d/$name.public.json" "$d/$name.proof.json"
  expect_ok "$prime/$name: cuzk verifies cuzk's proof" "$CUZK" verify --vk "$d/$name.vk.json" --proof "$d/$name.proof.json" --public "$d/$name.public.json"
  # 2. snarkjs proves with cuzk's .zkey; cuzk verifies; both agree on the vk.
  expect_ok "$prime/$name: snarkjs proves with cuzk's zkey" $SNARKJS groth16 prove "$d/$name.zkey" "$d/$name.wtns" "$d/$name.sproof.json" "$d/$name.spublic.json"
  expect_ok "$prime/$name: cuzk verifies snarkjs's proof" "$CUZK" verify --vk "$d/$name.vk.json" --proof "$d/$name.sproof.json" --public "$d/$name.spublic.json"
  # rapidsnark writes no "curve" in proof.json (snarkjs accepts it): the vk's curve is taken.
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));delete p.curve;fs.writeFileSync(process.argv[2],JSON.stringify(p))' "$d/$name.sproof.json" "$d/$name.rproof.json"
  expect_ok "$prime/$name: snarkjs verifies the proof without its curve" $SNARKJS groth16 verify "$d/$name.vk.json" "$d/$name.spublic.json" "$d/$name.rproof.json"
  expect_ok "$prime/$name: cuzk verifies the proof without its curve (rapidsnark's shape)" "$CUZK" verify --vk "$d/$name.vk.json" --proof "$d/$name.rproof.json" --public "$d/$name.spublic.json"
  expect_ok "$prime/$name: snarkjs exports the same vk from cuzk's zkey" $SNARKJS zkey export verificationkey "$d/$name.zkey" "$d/$name.svk.json"
  expect_ok "$prime/$name: vk JSON equal" node -e 'const fs=require("fs");const a=JSON.parse(fs.readFileSync(process.argv[1])),b=JSON.parse(fs.readFileSync(process.argv[2]));for(const k of ["protocol","curve","nPublic","vk_alpha_1","vk_beta_2","vk_gamma_2","vk_delta_2","vk_alphabeta_12","IC"]){if(JSON.stringify(a[k])!==JSON.stringify(b[k])){console.error("differs: "+k);process.exit(1);}}' "$d/$name.vk.json" "$d/$name.svk.json"
  # 3. Tampering is rejected by both verifiers.
  if [ "$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).length)' "$d/$name.public.json")" -gt 0 ]; then
    tamper_public "$d/$name.public.json" "$d/$name.badpublic.json"
    expect_reject "$prime/$name: snarkjs rejects a tampered public input" $SNARKJS groth16 verify "$d/$name.vk.json" "$d/$name.badpublic.json" "$d/$name.proof.json"
    expect_reject "$prime/$name: cuzk rejects a tampered public input" "$CUZK" verify --vk "$d/$name.vk.json" --proof "$d/$name.proof.json" --public "$d/$name.badpublic.json"
  fi
  tamper_proof "$d/$name.proof.json" "$d/$name.badproof.json"
  expect_reject "$prime/$name: snarkjs rejects a tampered proof" $SNARKJS groth16 verify "$d/$name.vk.json" "$d/$name.public.json" "$d/$name.badproof.json"
  expect_reject "$prime/$name: cuzk rejects a tampered proof" "$CUZK" verify --vk "$d/$name.vk.json" --proof "$d/$name.badproof.json" --public "$d/$name.public.json"
  echo "   ($prime/$name took $((SECONDS - t0)) s)"
}

ceremony_case() {  # a real snarkjs ceremony key (small power: phase-2 preparation is slow)
  local prime=$1 curve=$2 name=mulchain
  local d="$WORK/$prime/ceremony"
  mkdir -p "$d"
  local t0=$SECONDS
  $SNARKJS powersoftau new "$curve" 6 "$d/pot0.ptau" >/dev/null
  $SNARKJS powersoftau contribute "$d/pot0.ptau" "$d/pot1.ptau" --name=ci -e="cuzk ci entropy" >/dev/null
  $SNARKJS powersoftau prepare phase2 "$d/pot1.ptau" "$d/pot.ptau" >/dev/null
  $SNARKJS groth16 setup "$WORK/$prime/$name.r1cs" "$d/pot.ptau" "$d/k0.zkey" >/dev/null
  $SNARKJS zkey contribute "$d/k0.zkey" "$d/k.zkey" --name=ci -e="more entropy" >/dev/null
  $SNARKJS zkey export verificationkey "$d/k.zkey" "$d/vk.json" >/dev/null
  expect_ok "$prime/ceremony: cuzk proves with snarkjs's zkey" "$CUZK" prove --zkey "$d/k.zkey" --wtns "$WORK/$prime/$name.wtns" --proof "$d/proof.json" --public "$d/public.json" --quiet
  expect_ok "$prime/ceremony: snarkjs verifies" $SNARKJS groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json"
  expect_ok "$prime/ceremony: cuzk exports the same vk" "$CUZK" export vk --zkey "$d/k.zkey" --out "$d/cvk.json"
  expect_ok "$prime/ceremony: cuzk verifies with snarkjs's vk" "$CUZK" verify --vk "$d/vk.json" --proof "$d/proof.json" --public "$d/public.json"
  $SNARKJS groth16 prove "$d/k.zkey" "$WORK/$prime/$name.wtns" "$d/sproof.json" "$d/spublic.json" >/dev/null
  expect_ok "$prime/ceremony: cuzk verifies snarkjs's proof" "$CUZK" verify --vk "$d/cvk.json" --proof "$d/sproof.json" --public "$d/spublic.json"
  # A witness for another circuit is refused with a clear error, not a bad proof.
  expect_reject "$prime/ceremony: wrong witness is refused" "$CUZK" prove --zkey "$d/k.zkey" --wtns "$WORK/$prime/poseidon3.wtns" --proof "$d/x.json" --public "$d/y.json" --quiet
  echo "   ($prime/ceremony took $((SECONDS - t0)) s)"
}

R1CS_CIRCUITS="$HERE/../r1cs/circuits"
SHA_IN=$(node -e 'console.log(JSON.stringify({in: Array.from({length:64},(_,i)=>String((0xcafe1234beef5678n >> BigInt(i)) & 1n))}))')
for prime in bn128 bls12381; do
  curve=$([ "$prime" = bn128 ] && echo bn128 || echo bls12381)
  run_case "$R1CS_CIRCUITS/mulchain.circom" mulchain "$prime" '{"a": "3", "b": "11"}'
  run_case "$HERE/circuits/poseidon3.circom" poseidon3 "$prime" '{"a": "1", "b": "2", "c": "3"}'
  run_case "$HERE/circuits/sha256_64.circom" sha256_64 "$prime" "$SHA_IN"
  ceremony_case "$prime" "$curve"
done

echo "snarkjs interop: $fails failed"
[ "$fails" -eq 0 ]
