#!/usr/bin/env bash
# `cuzk snap` end to end on 2 KiB with TEST keys: setup, a synthetic sector update's vanilla
# partition proof (`cuzk snap gen-vanilla`), prove, verify from what a chain verifier has (the
# three commitments, as hex or CIDs); exit codes and messages for a changed comm_d_new / comm_r_old
# / comm_r_new / proof byte, a vanilla proof with a changed byte or truncated, the wrong number of
# vanilla files, no keys; a sparse 32 GiB update decoded and checked as far as its key; setup over a
# non-TEST key. The setup (1.7M constraints, 1-3 minutes on 2 cores) and the one proof (about 30 s)
# dominate; every refusal happens before any key is loaded.
# usage: snap_cli_test.sh <cuzk> <data dir> <work dir>
set -euo pipefail
CUZK=$1
DATA=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/../server/daemon_lib.sh"
trap - EXIT  # no daemon here

KEYS="$WORK/keys"
t0=$SECONDS
expect_rc "setup TEST keys of the 2 KiB update circuit" 0 "$CUZK" snap setup --proof StackedDrg2KiBV1 --dir "$KEYS" --seed 7
expect_log "setup announces the recording" 'StackedDrg2KiBV1: recording the partition circuit'
expect_log "setup prints the circuit's size" 'StackedDrg2KiBV1: 1705039 constraints, 4 public inputs'
expect_log "setup says TEST keys" 'TEST keys.*NOT Filecoin.s official'
MARKER=$(grep -l 'for StackedDrg2KiBV1\.' "$KEYS"/*.cuzk-test)
VK=${MARKER%.params.cuzk-test}.vk
case "$(basename "$VK")" in
  v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-*.vk) pass "the official name" ;;
  *) fail "not the official name: $VK" ;;
esac
grep -q "\"$(basename "${VK%.vk}").params\"" "$DATA/parameters.json" && pass "a name in filecoin's parameters.json" ||
  fail "$(basename "$VK") is not in parameters.json"
echo "setup: $((SECONDS - t0)) s"

# ---- the vanilla partition proof and the commitments ----
GEN="$WORK/gen"
expect_rc "gen-vanilla (2 KiB: 1 partition, an update of a sector sealed in memory)" 0 "$CUZK" snap gen-vanilla --proof 0 --seed 3 --out-dir "$GEN"
expect_log "it says SYNTHETIC and what it updates" \
  'SYNTHETIC vanilla partition proof\(s\) of a StackedDrg2KiBV1 sector update \(h = 1\) .*sealed in memory \(StackedDrg2KiBV1_1, prover'
commitment() { awk -v k="$1" '$1 == k {print $2}' "$2/commitments.txt"; }
OLD_R=$(commitment comm_r_old "$GEN") NEW_R=$(commitment comm_r_new "$GEN") NEW_D=$(commitment comm_d_new "$GEN")
OLD_R_CID=$(grep -Eo 'comm_r_old bagboea4b[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
NEW_R_CID=$(grep -Eo 'comm_r_new bagboea4b[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
NEW_D_CID=$(grep -Eo 'comm_d_new baga6ea4sea[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
[ ${#OLD_R} -eq 64 ] && [ ${#NEW_R} -eq 64 ] && [ ${#NEW_D} -eq 64 ] && [ -n "$NEW_D_CID" ] &&
  [ -f "$GEN/partition-0.vproof" ] && pass "commitments and the partition proof written" ||
  fail "commitments or partition proof missing"
COMMS=(--comm-r-old "$OLD_R" --comm-r-new "$NEW_R" --comm-d-new "$NEW_D")

t0=$SECONDS
PROOF="$WORK/proof.bin"
expect_rc "prove" 0 "$CUZK" snap prove --proof 0 --vanilla "$GEN/partition-0.vproof" "${COMMS[@]}" \
  --params-dir "$KEYS" --out "$PROOF"
expect_log "prove warns about the TEST key" 'WARNING: .*is a cuzk TEST key'
expect_log "prove prints the circuit" 'StackedDrg2KiBV1: 1 partition\(s\) of 10 challenges each'
expect_log "prove prints the public inputs" 'proved StackedDrg2KiBV1 on the (cpu|cuda) backend: 1 partition proof\(s\) \(4 public inputs each\)'
expect_log "prove prints the preparation phases" '^  check +[0-9.]+ ms'
expect_log "prove prints the partition's phases" '^partition 0:'
expect_log "prove prints the engine's key load" '^  key_load +[0-9.]+ ms'
expect_log "prove prints the verify phase" '^  verify +[0-9.]+ ms'
[ "$(stat -c %s "$PROOF")" -eq 192 ] && pass "proof is 1 partition x 192 bytes" || fail "proof is not 192 bytes"
echo "prove: $((SECONDS - t0)) s"

VERIFY=("$CUZK" snap verify --proof StackedDrg2KiBV1 --params-dir "$KEYS")
expect_rc "verify exits 0" 0 "${VERIFY[@]}" "${COMMS[@]}" --proof-file "$PROOF"
expect_log "verify says OK" '^OK: .*\(1 partition\)'
expect_log "verify warns about the TEST key" 'WARNING: .*is a cuzk TEST key'
expect_rc "verify exits 0 (CIDs, proof by Go name)" 0 "$CUZK" snap verify --proof RegisteredUpdateProof_StackedDrg2KiBV1 \
  --params-dir "$KEYS" --comm-r-old "$OLD_R_CID" --comm-r-new "$NEW_R_CID" --comm-d-new "$NEW_D_CID" --proof-file "$PROOF"
expect_rc "verify with --vk" 0 "$CUZK" snap verify --proof 0 --vk "$VK" "${COMMS[@]}" --proof-file "$PROOF"
expect_rc "verify with the keys from FIL_PROOFS_PARAMETER_CACHE" 0 env FIL_PROOFS_PARAMETER_CACHE="$KEYS" \
  "$CUZK" snap verify --proof 0 "${COMMS[@]}" --proof-file "$PROOF"

other() {  # other <64 hex digits>: another first byte, still a canonical field element
  local h=$1
  [ "${h:0:1}" = 0 ] && echo "1${h:1}" || echo "0${h:1}"
}
expect_rc "verify with another comm_d_new exits 1" 1 "${VERIFY[@]}" --comm-r-old "$OLD_R" --comm-r-new "$NEW_R" \
  --comm-d-new "$(other "$NEW_D")" --proof-file "$PROOF"
expect_log "verify says INVALID" '^INVALID: .*partition 0'
expect_rc "verify with another comm_r_old exits 1" 1 "${VERIFY[@]}" --comm-r-old "$(other "$OLD_R")" \
  --comm-r-new "$NEW_R" --comm-d-new "$NEW_D" --proof-file "$PROOF"
expect_rc "verify with another comm_r_new exits 1" 1 "${VERIFY[@]}" --comm-r-old "$OLD_R" \
  --comm-r-new "$(other "$NEW_R")" --comm-d-new "$NEW_D" --proof-file "$PROOF"
expect_rc "verify with comm_r_old and comm_r_new swapped exits 1" 1 "${VERIFY[@]}" --comm-r-old "$NEW_R" \
  --comm-r-new "$OLD_R" --comm-d-new "$NEW_D" --proof-file "$PROOF"
flip() {  # flip <file> <offset> <out>: a copy with one bit of the byte at offset changed
  cp "$1" "$3"
  local b
  b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
  printf "\\x$(printf %02x $((b ^ 4)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
  cmp -s "$1" "$3" && fail "byte $2 of $1 not changed" || true
}
flip "$PROOF" 100 "$WORK/flipped.bin"
expect_rc "verify with a flipped proof byte exits 1" 1 "${VERIFY[@]}" "${COMMS[@]}" --proof-file "$WORK/flipped.bin"
head -c 191 "$PROOF" >"$WORK/short.bin"
expect_rc "verify of a 191-byte proof file exits 2" 2 "${VERIFY[@]}" "${COMMS[@]}" --proof-file "$WORK/short.bin"
expect_log "the message gives the sizes" 'short\.bin: 191 bytes; .*1 partition\(s\) x 192 = 192'
expect_rc "verify with a comm_d_new that is not a field element exits 2" 2 "${VERIFY[@]}" --comm-r-old "$OLD_R" \
  --comm-r-new "$NEW_R" --comm-d-new "${NEW_D:0:62}ff" --proof-file "$PROOF"
expect_log "the message names the option" '\-\-comm-d-new: .*not a canonical field element'
expect_rc "verify of an unknown update proof exits 2" 2 "$CUZK" snap verify --proof 5 --params-dir "$KEYS" \
  "${COMMS[@]}" --proof-file "$PROOF"
expect_log "the message names it" 'registered update proof 5 is not registered'

# ---- bad vanilla proofs: refused (exit 2, naming the field) before any key is loaded ----
NEVER="$WORK/never.bin"
PROVE=("$CUZK" snap prove --proof 0 --params-dir "$KEYS" --out "$NEVER")
V="$GEN/partition-0.vproof"
flip "$V" 45 "$WORK/apex.vproof"  # in apex leaf 0 (the Vec's length is at byte 32)
expect_rc "prove with a changed apex leaf exits 2" 2 "${PROVE[@]}" --vanilla "$WORK/apex.vproof" "${COMMS[@]}"
expect_log "the message names the file, the partition and the apex leaves" \
  'apex\.vproof \(partition 0\): SnapDeals partition 0 .*the apex leaves \(byte 32\).* not comm_d_new'
flip "$V" 345 "$WORK/leaf.vproof"  # in challenge 0's TreeROld leaf (its proof starts at byte 304)
expect_rc "prove with a changed TreeROld leaf exits 2" 2 "${PROVE[@]}" --vanilla "$WORK/leaf.vproof" "${COMMS[@]}"
expect_log "the message names the challenge, its node, the proof and its offset" \
  'challenge 0 \(node [0-9]+\): proof_r_old \(byte 304\): the leaf hashed up the path'
SIZE=$(stat -c %s "$V")
head -c $((SIZE - 1)) "$V" >"$WORK/short.vproof"
expect_rc "prove with a truncated vanilla proof exits 2" 2 "${PROVE[@]}" --vanilla "$WORK/short.vproof" "${COMMS[@]}"
expect_log "the message names the field and says truncated" \
  "short\.vproof \(partition 0\): .*challenge_proofs\[9\]\.proof_r_new.*truncated"
expect_rc "prove with another comm_r_new exits 2" 2 "${PROVE[@]}" --vanilla "$V" --comm-r-old "$OLD_R" \
  --comm-r-new "$(other "$NEW_R")" --comm-d-new "$NEW_D"
expect_log "the message says which commitment" 'is not comm_r_new'
expect_rc "prove with two vanilla files for one partition exits 2" 2 "${PROVE[@]}" --vanilla "$V" "$V" "${COMMS[@]}"
expect_log "the message gives the count" '2 --vanilla file\(s\); a StackedDrg2KiBV1 update has 1 partition'
expect_rc "prove without keys (FIL_PROOFS_PARAMETER_CACHE elsewhere) exits 2" 2 env \
  FIL_PROOFS_PARAMETER_CACHE="$WORK/nokeys" "$CUZK" snap prove --proof 0 --vanilla "$V" "${COMMS[@]}" --out "$NEVER"
expect_log "the message names the .params looked for there" \
  "no key file $WORK/nokeys/v28-empty-sector-update-.*\.params.*cuzk snap setup"
[ ! -e "$NEVER" ] && pass "no proof written after bad input" || fail "a proof was written after bad input"

# ---- a 32 GiB update (sparse trees): 16 partitions decoded and checked up to the key ----
expect_rc "gen-vanilla (32 GiB, sparse)" 0 "$CUZK" snap gen-vanilla --proof StackedDrg32GiBV1 --out-dir "$WORK/g32"
expect_log "16 partitions" '^16 SYNTHETIC .*h = 10\) .*a sparse update'
O32=$(commitment comm_r_old "$WORK/g32") N32=$(commitment comm_r_new "$WORK/g32") D32=$(commitment comm_d_new "$WORK/g32")
P32=("$WORK"/g32/partition-{0..15}.vproof)
expect_rc "prove of the 32 GiB update without its key exits 2" 2 "$CUZK" snap prove --proof 3 --vanilla "${P32[@]}" \
  --comm-r-old "$O32" --comm-r-new "$N32" --comm-d-new "$D32" --params-dir "$WORK/nokeys" --out "$NEVER"
NAME32=$(grep -Eo 'v28-empty-sector-update-[a-z0-9_-]+\.params' "$WORK/last.log" || true)
[ -n "$NAME32" ] && grep -q "\"$NAME32\"" "$DATA/parameters.json" && pass "it names the official 32 GiB .params ($NAME32)" ||
  fail "the missing 32 GiB key is not named as in parameters.json: $NAME32"
flip "${P32[7]}" 1000 "$WORK/p7.vproof"
expect_rc "a 32 GiB update with a changed byte in partition 7 exits 2" 2 "$CUZK" snap prove --proof 3 \
  --vanilla "${P32[@]:0:7}" "$WORK/p7.vproof" "${P32[@]:8}" --comm-r-old "$O32" --comm-r-new "$N32" \
  --comm-d-new "$D32" --params-dir "$WORK/nokeys" --out "$NEVER"
expect_log "the message names the file and partition 7" 'p7\.vproof \(partition 7\): SnapDeals partition 7'
rm -rf "$WORK/g32"

# ---- setup never over an official (non-TEST) key ----
OFFICIAL="$WORK/official"
mkdir -p "$OFFICIAL"
cp "$VK" "$OFFICIAL/"
VK_NAME=$(basename "$VK")
expect_rc "setup into a dir holding a non-TEST file of the same name refuses" 2 \
  "$CUZK" snap setup --proof 0 --dir "$OFFICIAL" --seed 1
expect_log "the message says why" 'not a cuzk TEST key; refusing to overwrite'
cmp -s "$VK" "$OFFICIAL/$VK_NAME" && pass "the file is untouched" || fail "the file was changed"
[ ! -e "$OFFICIAL/${VK_NAME%.vk}.params" ] && pass "nothing written" || fail "a .params was written"

# $KEYS stays: the daemon's SnapDeals test (fixture snap_test_keys) proves with it; its cleanup removes it.
echo "snap CLI: $fails failed"
[ "$fails" -eq 0 ]
