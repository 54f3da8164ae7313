#!/usr/bin/env bash
# Filecoin SnapDeals through the daemon, end to end with the real binaries, on the TEST keys of the
# 2 KiB circuit that filecoin_snap_cli leaves (CTest fixture snap_test_keys; no setup here):
# cuzk-daemon serves snap-2kib from that parameter directory (CPU backend, one worker);
# `cuzk-bench gen-vanilla snap` updates the 2 KiB sector that `cuzk-bench gen-vanilla porep` seals
# with the same seed (its comm_r is the update's comm_r_old); cuzk-bench sends the vanilla proofs
# and checks the partition proof with the daemon's .vk against the inputs it derives from the
# three commitments; `cuzk snap verify` accepts the proof file. Refused at submit, before any
# proving: a changed byte in a vanilla proof, another comm_r_new, a 32 GiB update (no keys: the
# message names the circuit and the directory); options that do not go together are bad usage.
# One proof in all (on 2 cores the key load and the proof take about 20-40 s).
# usage: daemon_snap_test.sh <cuzk-daemon> <cuzk-bench> <cuzk> <keys dir> <work dir>
set -euo pipefail
DAEMON=$1
BENCH=$2
CUZK=$3
KEYS=$4
WORK=$5
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/daemon_lib.sh"
serve_test_keys "$KEYS" snap_test_keys 'Filecoin SnapDeals from .*snap-2kib (TEST key)'
B=("$BENCH" --target "unix:$WORK/d.sock")
expect_rc "status" 0 "${B[@]}" status
expect_log "status lists snap-2kib, kind snap_deals" '^circuit snap-2kib: filecoin bls12_381, serves snap_deals$'

# ---- the update of a sealed 2 KiB sector ----
expect_rc "gen-vanilla porep (2 KiB, seed 3): the sector" 0 "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 \
  --out "$WORK/c1.json"
SEALED=$(grep -Eo 'comm_r bagboea4b[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
GEN="$WORK/update"
expect_rc "gen-vanilla snap (2 KiB, seed 3): its update" 0 "$BENCH" gen-vanilla snap --sector-size 2KiB --seed 3 \
  --out-dir "$GEN"
expect_log "SYNTHETIC, of a sector sealed in memory" \
  'SYNTHETIC vanilla partition proof\(s\) of a StackedDrg2KiBV1 sector update .*sealed in memory'
OLD_R_CID=$(grep -Eo 'comm_r_old bagboea4b[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
[ -n "$SEALED" ] && [ "$OLD_R_CID" = "$SEALED" ] && pass "comm_r_old is the sealed sector's comm_r ($SEALED)" ||
  fail "comm_r_old $OLD_R_CID is not the sealed sector's comm_r $SEALED"
commitment() { awk -v k="$1" '$1 == k {print $2}' "$2/commitments.txt"; }
COMMS=(--comm-r-old "$(commitment comm_r_old "$GEN")" --comm-r-new "$(commitment comm_r_new "$GEN")"
  --comm-d-new "$(commitment comm_d_new "$GEN")")

# ---- the proof, verified here and by `cuzk snap verify` ----
t0=$SECONDS
expect_rc "single --snap-vanilla, verified, proof bytes written" 0 "${B[@]}" --verify single --snap-vanilla "$GEN" \
  --proof-bytes "$WORK/p.bin"
expect_log "the request: proof, circuit, partitions, directory" \
  '^snap: StackedDrg2KiBV1 \(snap-2kib\), 1 partition: the vanilla proofs of .*update \([0-9]+ bytes\)'
expect_log "a snap_deals proof of snap-2kib" 'circuit snap-2kib \(bls12_381\), kind snap_deals, priority'
expect_log "the partition's phases" '^  synthesis +[0-9.]+ ms'
expect_log "192 bytes; 4 inputs derived here" '^proof: 192 bytes x 1 partition; 4 public inputs each derived here$'
expect_log "verified with the daemon's key against the derived inputs" \
  '^verify: OK \(the 1 partition proof, with snap-2kib.s verifying key from the daemon, against the inputs derived here\)$'
echo "proof (key load and proof): $((SECONDS - t0)) s"
grep -Eq 'proof [^ ]+/partition-0 circuit=snap-2kib kind=snap_deals .*state=succeeded' "$WORK/daemon.log" &&
  pass "the daemon proved it as the partition job <id>/partition-0" || fail "no partition job in the daemon's log"
expect_rc "cuzk snap verify accepts the daemon's proof (the .vk file, the commitments)" 0 "$CUZK" snap verify \
  --proof StackedDrg2KiBV1 --params-dir "$KEYS" "${COMMS[@]}" --proof-file "$WORK/p.bin"
expect_log "OK" '^OK: .*\(1 partition\)'

# ---- refusals at submit (nothing proved) ----
BAD="$WORK/bad"
cp -r "$GEN" "$BAD"
off=$(($(stat -c %s "$BAD/partition-0.vproof") / 2))
old=$(od -An -tu1 -j "$off" -N1 "$BAD/partition-0.vproof" | tr -d ' ')
printf "\\x$(printf %02x $(((old + 1) % 256)))" | dd of="$BAD/partition-0.vproof" bs=1 seek="$off" conv=notrunc status=none
cmp -s "$GEN/partition-0.vproof" "$BAD/partition-0.vproof" && fail "the byte did not change"
expect_rc "a changed byte in the vanilla proof is refused: exit 1" 1 "${B[@]}" single --snap-vanilla "$BAD"
expect_log "INVALID_ARGUMENT naming the partition" '^error: INVALID_ARGUMENT: snap\.partition_proofs\[0\] is refused: '
cp "$GEN/partition-0.vproof" "$BAD/"
sed -i "s/^comm_r_new .*/comm_r_new $(commitment comm_r_old "$GEN")/" "$BAD/commitments.txt"
expect_rc "another comm_r_new is refused: exit 1" 1 "${B[@]}" single --snap-vanilla "$BAD"
expect_log "INVALID_ARGUMENT naming the partition" '^error: INVALID_ARGUMENT: snap\.partition_proofs\[0\] is refused: '
expect_rc "gen-vanilla snap (32 GiB, sparse)" 0 "$BENCH" gen-vanilla snap --proof StackedDrg32GiBV1 --out-dir "$WORK/g32"
expect_log "16 sparse partitions" '^16 SYNTHETIC .*StackedDrg32GiBV1 .*a sparse update'
expect_rc "a 32 GiB update (no keys) is refused: exit 1" 1 "${B[@]}" single --snap-vanilla "$WORK/g32"
expect_log "FAILED_PRECONDITION naming snap-32gib and the keys directory" \
  "^error: FAILED_PRECONDITION: snap-32gib is not served: its \.params and \.vk are not in $KEYS"
rm -rf "$WORK/g32"
expect_rc "--snap-vanilla with --porep-c1 is bad usage: exit 2" 2 "${B[@]}" single --snap-vanilla "$GEN" \
  --porep-c1 "$WORK/c1.json"
expect_rc "--snap-proof without --snap-vanilla is bad usage: exit 2" 2 "${B[@]}" single --snap-proof 0
expect_rc "a directory without commitments.txt: exit 2" 2 "${B[@]}" single --snap-vanilla "$WORK"
expect_log "the message names the file" "cannot open $WORK/commitments.txt"

rc=0
stop_daemon || rc=$?
[ "$rc" -eq 0 ] && pass "SIGTERM: daemon exits 0" || fail "SIGTERM: daemon exited $rc"

echo "daemon SnapDeals: $fails failed"
[ "$fails" -eq 0 ]
