#!/usr/bin/env bash
# Filecoin PoRep C2 through the daemon, end to end with the real binaries, on the TEST keys of the
# 2 KiB V1_1 circuit that filecoin_porep_cli leaves (CTest fixture porep_test_keys; no setup here):
# cuzk-daemon serves porep-2kib from that parameter directory (CPU backend, one worker); cuzk-bench
# sends a C1 made by `cuzk-bench gen-vanilla porep` and checks the partition proof with the daemon's
# .vk against the inputs it derives itself from the C1, the prover and the sector; `cuzk porep
# verify` accepts the proof file from what a chain verifier has. Refused at submit, before any
# proving: a truncated C1, the wrong sector (replica id), a bincode C1 naming no proof, an 8 MiB C1
# (no keys: the message names the circuit and the directory); options that do not go together are
# bad usage. A Curio envelope is proved after the refusals (the daemon still serves). Two proofs in
# all, which dominate: on 2 cores the first takes about 33 s (13 s of it the key load, once), the
# second about 18 s (msm_h 12 s, h_poly 3.5 s); the whole test about 70 s on idle cores, 120 s
# beside other builds.
# usage: daemon_porep_test.sh <cuzk-daemon> <cuzk-bench> <cuzk> <keys dir> <work dir>
set -euo pipefail
DAEMON=$1
BENCH=$2
CUZK=$3
KEYS=$4
WORK=$5
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/daemon_lib.sh"
serve_test_keys "$KEYS" porep_test_keys 'Filecoin PoRep from .*porep-2kib (TEST key)'
B=("$BENCH" --target "unix:$WORK/d.sock")

expect_rc "status" 0 "${B[@]}" status
expect_log "status lists porep-2kib, kind porep" '^circuit porep-2kib: filecoin bls12_381, serves porep$'

# ---- the C1 (prover f01000 and sector 1: gen-vanilla's defaults) and what a chain verifier has ----
C1="$WORK/c1.json"
expect_rc "gen-vanilla porep (2 KiB, sealed in memory)" 0 "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 \
  --out "$C1"
expect_log "prover f01000 (ID address payload e807), sector 1" 'prover_id e807(00){30}  sector 1$'
TICKET=$(grep -Eo 'ticket [0-9a-f]{64}' "$WORK/last.log" | cut -d' ' -f2)
SEED=$(grep -Eo 'seed [0-9a-f]{64}' "$WORK/last.log" | cut -d' ' -f2)
COMM_R=$(grep -Eo 'comm_r bagboea4b[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
COMM_D=$(grep -Eo 'comm_d baga6ea4sea[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
[ ${#TICKET} -eq 64 ] && [ ${#SEED} -eq 64 ] && [ -n "$COMM_R" ] && [ -n "$COMM_D" ] &&
  pass "ticket, seed, comm_r and comm_d known" || fail "ticket, seed, comm_r or comm_d missing"
VERIFY=("$CUZK" porep verify --proof StackedDrg2KiBV1_1 --prover-id f01000 --sector 1 --params-dir "$KEYS"
  --ticket "$TICKET" --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D")

# ---- proof 1: the JSON C1, verified here and by `cuzk porep verify` ----
t0=$SECONDS
expect_rc "single --porep-c1, verified, proof bytes written" 0 "${B[@]}" --verify single --porep-c1 "$C1" \
  --prover-id f01000 --sector 1 --proof-bytes "$WORK/p.bin"
expect_log "the request: proof, circuit, partitions, form, replica id" \
  '^porep: StackedDrg2KiBV1_1 \(porep-2kib\), 1 partition of 2 challenges: the json C1 of .*c1\.json .*replica id of prover f01000.s sector 1$'
expect_log "a porep proof of porep-2kib, succeeded" 'circuit porep-2kib \(bls12_381\), kind porep, priority'
expect_log "the partition's phases" '^  synthesis +[0-9.]+ ms'
expect_log "the MSMs among them" '^  msm_h +[0-9.]+ ms'
expect_log "192 bytes per partition; 39 inputs derived here" \
  '^proof: 192 bytes x 1 partition; 39 public inputs each derived here$'
expect_log "verified with the daemon's key against the derived inputs" \
  '^verify: OK \(the 1 partition proof, with porep-2kib.s verifying key from the daemon, against the inputs derived here\)$'
echo "proof 1 (key load and proof): $((SECONDS - t0)) s"
grep -Eq 'proof [^ ]+/partition-0 circuit=porep-2kib kind=porep .*state=succeeded' "$WORK/daemon.log" &&
  pass "the daemon proved it as the partition job <id>/partition-0" || fail "no partition job in the daemon's log"
[ "$(stat -c %s "$WORK/p.bin")" -eq 192 ] && pass "the proof file is 1 partition x 192 bytes" ||
  fail "the proof file is not 192 bytes"
expect_rc "cuzk porep verify accepts the daemon's proof (the .vk file, chain-verifier inputs)" 0 "${VERIFY[@]}" \
  --proof-file "$WORK/p.bin"
expect_log "OK" '^OK: .*\(1 partition\)'
expect_rc "... and refuses it for sector 2" 1 "$CUZK" porep verify --proof 5 --prover-id 1000 --sector 2 \
  --params-dir "$KEYS" --ticket "$TICKET" --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$WORK/p.bin"

# ---- refusals at submit (nothing proved) ----
CUT=$(grep -bo '"comm_r":' "$C1" | tail -1 | cut -d: -f1)  # the C1 up to its top-level comm_r
head -c "$CUT" "$C1" >"$WORK/short.json"
expect_rc "a truncated C1 is refused: exit 1" 1 "${B[@]}" --verify single --porep-c1 "$WORK/short.json"
expect_log "cuzk-bench warns that it does not decode here either" 'warning: .*short\.json: .*end of the input'
expect_log "INVALID_ARGUMENT naming the byte and the end of the input" \
  "^error: INVALID_ARGUMENT: porep\.c1 is refused: .*byte $CUT.*end of the input"
expect_rc "the wrong --sector is refused: exit 1" 1 "${B[@]}" single --porep-c1 "$C1" --prover-id f01000 --sector 2
expect_log "cuzk-bench warns: not the replica id of that sector" "warning: .*replica id is not the one of prover f01000's sector 2"
expect_log "INVALID_ARGUMENT: the replica id is not the sector's" \
  '^error: INVALID_ARGUMENT: porep\.c1 is refused: .*replica_id [0-9a-f]{64} is not the sector.s.*sector 2'
expect_rc "gen-vanilla porep --format bincode" 0 "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 \
  --format bincode --out "$WORK/c1.bin"
expect_rc "a bincode C1 without --porep-proof is refused: exit 1" 1 "${B[@]}" single --porep-c1 "$WORK/c1.bin"
expect_log "INVALID_ARGUMENT asking for the registered proof" '^error: INVALID_ARGUMENT: .*registered proof'
expect_rc "gen-vanilla porep (8 MiB)" 0 "$BENCH" gen-vanilla porep --sector-size 8MiB --seed 3 --out "$WORK/c8.json"
expect_rc "an 8 MiB C1 (no keys) is refused: exit 1" 1 "${B[@]}" single --porep-c1 "$WORK/c8.json" --prover-id 1000 \
  --sector 1
expect_log "FAILED_PRECONDITION naming porep-8mib and the keys directory" \
  "^error: FAILED_PRECONDITION: porep-8mib is not served: its \.params and \.vk are not in $KEYS"
rm -f "$WORK/c8.json"
expect_rc "--porep-c1 with --kind is bad usage: exit 2" 2 "${B[@]}" single --porep-c1 "$C1" --kind porep
expect_rc "--porep-c1 with --post-proof is bad usage: exit 2" 2 "${B[@]}" single --porep-c1 "$C1" --post-proof 5
expect_rc "--sector without --porep-c1 is bad usage: exit 2" 2 "${B[@]}" single --sector 1

# ---- proof 2: Curio's envelope (its SectorNum is the sector), after the refusals ----
expect_rc "gen-vanilla porep --format curio" 0 "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 \
  --format curio --out "$WORK/c1.curio.json"
t0=$SECONDS
expect_rc "still serving: a Curio envelope, verified" 0 "${B[@]}" --verify single --porep-c1 "$WORK/c1.curio.json" \
  --prover-id 1000 --proof-bytes "$WORK/p2.bin"
expect_log "the envelope's form and sector" '^porep: .*the curio C1 of .*replica id of prover 1000.s sector 1$'
expect_log "verified" '^verify: OK \(the 1 partition proof'
echo "proof 2: $((SECONDS - t0)) s"
expect_rc "cuzk porep verify accepts it too" 0 "${VERIFY[@]}" --proof-file "$WORK/p2.bin"

rc=0
stop_daemon || rc=$?
[ "$rc" -eq 0 ] && pass "SIGTERM: daemon exits 0" || fail "SIGTERM: daemon exited $rc"

echo "daemon PoRep: $fails failed"
[ "$fails" -eq 0 ]
