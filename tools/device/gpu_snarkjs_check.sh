#!/usr/bin/env bash
# Proofs made on the GPU, checked by snarkjs (issue 7): circom2 compiles circomlib circuits
# (Poseidon(3), SHA-256 of 64 bits) for both primes, snarkjs computes their witnesses, cuzk
# makes TEST keys; cuzk-daemon with the CUDA backend proves each one from its .wtns (cuzk-bench
# --verify checks it too); `snarkjs groth16 verify` then judges every proof with the
# verification key snarkjs exported itself, and must reject a copy with pi_a changed.
#
#   tools/device/gpu_snarkjs_check.sh --prepare   HERE: the circuits, witnesses, keys and vks into
#       build/gpu-snarkjs (needs tests/oracle's npm packages and a CPU build's cuzk: CUZK=...,
#       default build/cpu/src/apps/cuzk).
#   tools/device/gpu_snarkjs_check.sh             THERE (carry build/gpu-daemon-kit, from
#       tools/device/gpu_daemon_run.sh --prepare, and build/gpu-snarkjs): the proofs, as
#       $OUT/proofs.tar, and $OUT/prove.log. The two are ~80 MiB, over the device tool's 64:
#       carry the kit as an archive (`tar cJf build/gsc/kit.tar.xz -C build gpu-daemon-kit`,
#       ~12 MiB) and untar it there first (`tar xJf build/gsc/kit.tar.xz -C build`).
#   tools/device/gpu_snarkjs_check.sh --verify DIR   HERE: snarkjs on DIR/proofs.tar; exits 1 if any
#       proof is rejected or any tampered copy accepted.
#   KEY_PLACEMENT=stream (THERE): the daemon's key_placement (default "auto": resident), so the
#       streamed path (points and matrices from host memory, H in two arrays) is judged too.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
ART=$ROOT/build/gpu-snarkjs
ORACLE=$ROOT/tests/oracle
SNARKJS="node $ORACLE/node_modules/snarkjs/build/cli.cjs"
CIRCUITS="poseidon3 sha256_64"
PRIMES="bn128 bls12381"

case "${1:-}" in
--prepare)
  set -e
  CUZK=${CUZK:-$ROOT/build/cpu/src/apps/cuzk}
  CIRCOM="node $ORACLE/node_modules/circom2/cli.js"
  rm -rf "$ART" && mkdir -p "$ART"
  sha_in=$(node -e 'console.log(JSON.stringify({in: Array.from({length:64},(_,i)=>String((0x0123456789abcdefn >> BigInt(i)) & 1n))}))')
  for prime in $PRIMES; do
    for c in $CIRCUITS; do
      d=$ART/$prime/$c tmp=$ART/tmp
      mkdir -p "$d" "$tmp"
      # circom2 runs under WASI and sees only its working directory's tree: run it from tests/oracle.
      (cd "$ORACLE" && $CIRCOM "$ROOT/tests/interop/circuits/$c.circom" --r1cs --wasm --prime "$prime" \
        -l node_modules/circomlib/circuits -o "$tmp" >/dev/null)
      if [ "$c" = poseidon3 ]; then echo '{"a": "1", "b": "2", "c": "3"}' >"$tmp/input.json"; else echo "$sha_in" >"$tmp/input.json"; fi
      $SNARKJS wtns calculate "$tmp/${c}_js/$c.wasm" "$tmp/input.json" "$d/$c.wtns"
      "$CUZK" setup --r1cs "$tmp/$c.r1cs" --zkey "$d/$c.zkey" --seed 21 >/dev/null
      $SNARKJS zkey export verificationkey "$d/$c.zkey" "$d/vk.json" >/dev/null
      rm -rf "$tmp"
    done
  done
  (git rev-parse HEAD; date -u) >"$ART/BUILT_FROM"
  du -sh "$ART"
  exit 0
  ;;
--verify)
  DIR=${2:?usage: --verify DIR}
  WORK=$(mktemp -d)
  tar xf "$DIR/proofs.tar" -C "$WORK"
  fails=0 n=0
  for prime in $PRIMES; do
    for c in $CIRCUITS; do
      d=$WORK/$prime/$c n=$((n + 1))
      if [ ! -f "$d/proof.json" ]; then echo "FAIL: $prime $c: no proof came back"; fails=$((fails + 1)); continue; fi
      if $SNARKJS groth16 verify "$ART/$prime/$c/vk.json" "$d/public.json" "$d/proof.json" 2>&1 | grep -q 'OK!'; then
        echo "ok: snarkjs accepts the GPU proof of $c on $prime"
      else
        echo "FAIL: snarkjs rejects the GPU proof of $c on $prime"; fails=$((fails + 1))
      fi
      # Tampered: pi_a and pi_c swapped (both still points on G1, so only the pairing check fails).
      node -e 'const f=require("fs");const p=JSON.parse(f.readFileSync(process.argv[1]));[p.pi_a,p.pi_c]=[p.pi_c,p.pi_a];f.writeFileSync(process.argv[2],JSON.stringify(p))' \
        "$d/proof.json" "$d/bad.json"
      if $SNARKJS groth16 verify "$ART/$prime/$c/vk.json" "$d/public.json" "$d/bad.json" 2>&1 | grep -q 'OK!'; then
        echo "FAIL: snarkjs accepts a tampered GPU proof of $c on $prime"; fails=$((fails + 1))
      else
        echo "ok: snarkjs rejects the tampered copy ($c, $prime)"
      fi
    done
  done
  rm -rf "$WORK"
  echo "snarkjs on GPU proofs: $n proofs, $fails failed"
  [ "$fails" -eq 0 ]
  exit
  ;;
esac

# THERE: the daemon on the CUDA backend.
KIT=$ROOT/build/gpu-daemon-kit
OUT=${OUT:-$ROOT/build/gpu-snarkjs-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$KIT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
WORK=$(mktemp -d)
DAEMON=$KIT/bin/cuzk-daemon READY_TIMEOUT_S=120
# shellcheck source=../tests/server/daemon_lib.sh
. "$ROOT/tests/server/daemon_lib.sh"
{
  printf '[server]\nunix_socket = "%s"\ntcp_listen = ""\nhttp_listen = ""\n' "$WORK/d.sock"
  printf '[engine]\nbackend = "cuda"\ndevices = 1\nworkers_per_device = 2\ncache_dir = "%s"\n' "$WORK/cache"
  [ -n "${KEY_PLACEMENT:-}" ] && printf 'key_placement = "%s"\n' "$KEY_PLACEMENT"
  for prime in $PRIMES; do
    for c in $CIRCUITS; do printf '[[circuit]]\nid = "%s-%s"\nzkey = "%s"\n' "$c" "$prime" "$ART/$prime/$c/$c.zkey"; done
  done
} >"$WORK/d.toml"
{
  echo "kit: $(tr '\n' ' ' <"$KIT/BUILT_FROM"); circuits: $(tr '\n' ' ' <"$ART/BUILT_FROM")"
  start_daemon --config "$WORK/d.toml" || exit 1
  for prime in $PRIMES; do
    for c in $CIRCUITS; do
      d=$WORK/proofs/$prime/$c
      mkdir -p "$d"
      expect_rc "$c on $prime: proved on the GPU and verified by cuzk-bench" 0 \
        timeout 120 "$KIT/bin/cuzk-bench" --target "unix:$WORK/d.sock" --verify single --circuit "$c-$prime" \
        --wtns "$ART/$prime/$c/$c.wtns" --proof "$d/proof.json" --public "$d/public.json"
      head -3 "$WORK/last.log"
    done
  done
  stop_daemon INT
  grep -m1 "backend" "$WORK/daemon.log"
  echo "prove: $fails failed"
} >"$OUT/prove.log" 2>&1
tar cf "$OUT/proofs.tar" -C "$WORK/proofs" .
cat "$OUT/prove.log"
