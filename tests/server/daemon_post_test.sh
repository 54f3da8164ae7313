#!/usr/bin/env bash
# Filecoin PoSt through the daemon, end to end with the real binaries: `cuzk post setup` writes TEST
# keys of the 2 KiB WinningPoSt and WindowPoSt circuits; cuzk-daemon serves them from that
# parameter directory (CPU backend); cuzk-bench proves WinningPoSt, WindowPoSt (2 sectors; 1 sector
# of partition 1, V1_2) and vanilla files from `cuzk post gen-vanilla`, and checks each 192-byte
# proof with the daemon's .vk against the inputs it derives itself; `cuzk post verify` checks one
# of them again from the key file. Refusals: a size without keys (the message names the
# directory), a vanilla proof with a flipped byte (invalid_argument). Then a batch, a stress run
# with the PoSt circuits in the mix (all verified), and the status listing them.
# usage: daemon_post_test.sh <cuzk-daemon> <cuzk-bench> <cuzk> <filecoin data dir> <work dir>
set -euo pipefail
DAEMON=$1
BENCH=$2
CUZK=$3
DATA=$4
WORK=$5
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/daemon_lib.sh"

KEYS="$WORK/keys"
R=0101010101010101010101010101010101010101010101010101010101010101
R0=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=  # all zero: the randomness of the real 32 GiB vanilla proof

expect_rc "cuzk post setup: TEST keys of WinningPoSt and WindowPoSt 2 KiB" 0 \
  "$CUZK" post setup --proof StackedDrgWinning2KiBV1 --proof StackedDrgWindow2KiBV1 --dir "$KEYS" --seed 11

# One small native circuit beside the PoSt circuits, so that stress mixes both.
cpu_daemon_config 2
cat >>"$WORK/daemon.toml" <<EOF

[[circuit]]
id = "mul-chain"
native = "mul-chain"
curve = "bls12_381"
params = { constraints = 1024 }
EOF
start_daemon --config "$WORK/daemon.toml" --params-dir "$KEYS"
grep -q 'Filecoin PoSt from .*winning-post-2kib (TEST key), window-post-2kib (TEST key)' "$WORK/daemon.log" &&
  pass "the daemon serves both circuits and says they are TEST keys" ||
  fail "the daemon's log does not list the PoSt circuits as TEST keys"
B=("$BENCH" --target "unix:$WORK/d.sock")

expect_rc "status" 0 "${B[@]}" status
expect_log "status lists winning-post-2kib" '^circuit winning-post-2kib: filecoin bls12_381, serves winning_post$'
expect_log "status lists window-post-2kib" '^circuit window-post-2kib: filecoin bls12_381, serves window_post$'

# ---- single, synthetic vanilla proofs made by cuzk-bench ----
expect_rc "WinningPoSt single, verified" 0 "${B[@]}" --verify single --post-proof StackedDrgWinning2KiBV1 --seed 3
expect_log "a winning_post proof of winning-post-2kib, priority critical by default" \
  'circuit winning-post-2kib \(bls12_381\), kind winning_post, priority critical'
expect_log "phase timings, the vanilla check among them" '^  vanilla_check +[0-9.]+ ms'
expect_log "the proof is 192 bytes; 66 slots x 2 inputs derived here" \
  '^proof: 192 bytes; 132 public inputs derived here'
expect_log "verified with the daemon's key against the derived inputs" \
  '^verify: OK \(the 192-byte proof, with winning-post-2kib'
expect_rc "WindowPoSt single of 2 sectors, verified" 0 "${B[@]}" --verify single --post-proof 5 --sectors 2 --seed 4
expect_log "2 synthetic sectors" '^post: StackedDrgWindow2KiBV1 \(window-post-2kib\) partition 0: 2 SYNTHETIC sector'
expect_log "verified" '^verify: OK'
expect_rc "WindowPoSt V1_2 single, 1 sector of partition 1, verified" 0 \
  "${B[@]}" --verify single --post-proof StackedDrgWindow2KiBV1_2 --sectors 1 --partition 1 --seed 5
expect_log "V1_2 partition 1: 22 inputs (the one sector fills both slots)" \
  '^proof: 192 bytes; 22 public inputs derived here'
expect_log "verified" '^verify: OK'

# ---- vanilla files (cuzk post gen-vanilla), and the proof checked again by `cuzk post verify` ----
V="$WORK/vanilla"
expect_rc "gen-vanilla: WindowPoSt partition 1, sectors 13 and 14" 0 \
  "$CUZK" post gen-vanilla --proof 5 --randomness $R --partition 1 --sector-ids 13,14 --out-dir "$V" --seed 3
mapfile -t SECTORS <"$V/sectors.txt"
expect_rc "single with --vanilla files, verified, proof bytes written" 0 "${B[@]}" --verify single --post-proof 5 \
  --randomness $R --partition 1 --sector-ids 13,14 --vanilla "$V/13.vproof" --vanilla "$V/14.vproof" \
  --proof-bytes "$V/proof.bin"
expect_log "verified" '^verify: OK'
[ "$(stat -c %s "$V/proof.bin")" -eq 192 ] && pass "the proof file is 192 bytes" ||
  fail "the proof file is not 192 bytes"
expect_rc "cuzk post verify accepts the daemon's proof (the .vk file, chain-verifier inputs)" 0 "$CUZK" post verify \
  --proof 5 --randomness $R --partition 1 --params-dir "$KEYS" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" \
  --proof-file "$V/proof.bin"
expect_rc "... and refuses it for partition 0" 1 "$CUZK" post verify --proof 5 --randomness $R --partition 0 \
  --params-dir "$KEYS" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" --proof-file "$V/proof.bin"

# ---- refusals ----
expect_rc "WinningPoSt 8 MiB (no keys) is refused: exit 1" 1 "${B[@]}" single --post-proof StackedDrgWinning8MiBV1
expect_log "the message names the circuit and the parameter directory" \
  "FAILED_PRECONDITION: winning-post-8mib is not served: its .params and .vk are not in $KEYS"
expect_rc "the real 32 GiB vanilla proof (no keys) is refused: exit 1" 1 "${B[@]}" single --post-proof 8 \
  --randomness $R0 --vanilla "$DATA/window-post-32gib.vproof"
expect_log "the message names the parameter directory" "window-post-32gib is not served: .* not in $KEYS"
cp "$V/14.vproof" "$V/flipped.vproof"
# Byte 100 lies in the first inclusion proof's leaf (after sector id, comm_r, counts, tag and root),
# not in its top byte: the leaf stays a canonical field element but no longer hashes to the root.
B100=$(od -An -tu1 -j100 -N1 "$V/14.vproof" | tr -d ' ')
printf "\\x$(printf %02x $((B100 ^ 4)))" | dd of="$V/flipped.vproof" bs=1 seek=100 conv=notrunc status=none
cmp -s "$V/14.vproof" "$V/flipped.vproof" && fail "byte 100 not changed" || true
expect_rc "a vanilla proof with a flipped byte fails: exit 1" 1 "${B[@]}" --verify single --post-proof 5 \
  --randomness $R --partition 1 --vanilla "$V/13.vproof" --vanilla "$V/flipped.vproof"
expect_log "state failed, invalid_argument, naming the sector and the inclusion proof" \
  '^state failed \(invalid_argument: the PoSt inputs are refused: .*sector 14: inclusion proof 0'
expect_rc "--vanilla without --randomness is bad usage: exit 2" 2 \
  "${B[@]}" single --post-proof 5 --vanilla "$V/13.vproof"
expect_rc "--post-proof with --kind is bad usage: exit 2" 2 "${B[@]}" single --post-proof 5 --kind window_post
expect_rc "3 sectors in a 2 KiB WindowPoSt partition is bad usage: exit 2" 2 "${B[@]}" single --post-proof 5 --sectors 3
expect_rc "still serving after the refusals" 0 "${B[@]}" --verify single --post-proof 5 --seed 6

# ---- batch and stress ----
expect_rc "batch of 4 WindowPoSt (own seed each), all verified" 0 "${B[@]}" --verify batch --post-proof 5 --sectors 2 \
  -n 4 -j 2 --no-progress
expect_log "batch summary" 'succeeded 4, failed 0, verified by cuzk-bench 4/4'
expect_log "batch latency percentiles" 'p50 [0-9.]+ ms, p99 [0-9.]+ ms'
# Stress: each of the 3 client threads' first pick is a different entry of the 3-entry mix with seed 3
# (thread t draws from mt19937_64(seed * 1000003 + t)), so every circuit has a row.
expect_rc "stress with the PoSt circuits in the mix, all verified" 0 "${B[@]}" --verify stress --duration 2 -j 3 \
  --seed 3 --no-progress
expect_log "stress summary: none failed, all verified" 'failed 0, verified by cuzk-bench ([0-9]+)/\1$'
expect_log "a winning_post row" '^  winning_post/winning-post-2kib +(default|low|normal|high|critical) '
expect_log "a window_post row" '^  window_post/window-post-2kib +(default|low|normal|high|critical) '
expect_log "a groth16 row" '^  groth16/mul-chain +(default|low|normal|high|critical) '

rc=0
stop_daemon || rc=$?
[ "$rc" -eq 0 ] && pass "SIGTERM: daemon exits 0" || fail "SIGTERM: daemon exited $rc"

echo "daemon PoSt: $fails failed"
[ "$fails" -eq 0 ]
