#!/usr/bin/env bash
# `cuzk post` end to end on the 2 KiB WindowPoSt and WinningPoSt, with TEST keys: setup, synthetic
# vanilla proofs, prove, verify from what a chain verifier has; exit codes and messages for a
# changed randomness / comm_r / proof byte, a truncated vanilla file, the other circuit's .vk, a
# non-canonical randomness, setup over a non-TEST key; and the real 32 GiB vanilla proof up to
# its missing key.
# usage: post_cli_test.sh <cuzk> <data dir> <work dir>
set -euo pipefail
CUZK=$1
DATA=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/../server/daemon_lib.sh"
trap - EXIT  # no daemon here

KEYS="$WORK/keys"
R=0101010101010101010101010101010101010101010101010101010101010101
R2=0201010101010101010101010101010101010101010101010101010101010101
R_B64=AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=  # R in base64
R_CHAIN=01010101010101010101010101010101010101010101010101010101010101c1  # R with byte 31's top bits set

expect_rc "setup TEST keys of both 2 KiB circuits (by name and by number)" 0 \
  "$CUZK" post setup --proof stackeddrgwindow2kibv1 --proof 0 --dir "$KEYS" --seed 7
expect_log "setup says TEST keys" 'TEST keys.*NOT Filecoin.s official'
WINDOW_MARKER=$(grep -l 'for StackedDrgWindow2KiBV1\.' "$KEYS"/*.cuzk-test)
WINNING_MARKER=$(grep -l 'for StackedDrgWinning2KiBV1\.' "$KEYS"/*.cuzk-test)
WINDOW_VK=${WINDOW_MARKER%.params.cuzk-test}.vk
WINNING_VK=${WINNING_MARKER%.params.cuzk-test}.vk
[ -f "$WINDOW_VK" ] && [ -f "$WINNING_VK" ] && pass "two .vk files, one per circuit" || fail "no .vk per circuit"
expect_rc "setup again over TEST keys is allowed" 0 "$CUZK" post setup --proof 5 --dir "$KEYS" --seed 7

# ---- WindowPoSt 2 KiB, partition 1 (sectors 13, 14 are sectors 2, 3 of the deadline) ----
W="$WORK/window"
expect_rc "gen-vanilla (window, partition 1)" 0 \
  "$CUZK" post gen-vanilla --proof 5 --randomness $R --partition 1 --sector-ids 13,14 --out-dir "$W" --seed 3
expect_log "gen-vanilla prints each sector's sealed CID" '14\.vproof sector 14 comm_r [0-9a-f]{64} bagboea4b'
CID14=$(grep -Eo 'bagboea4b[a-z0-9]+' "$WORK/last.log" | tail -1)
mapfile -t SECTORS <"$W/sectors.txt"
expect_rc "prove (window)" 0 "$CUZK" post prove --proof StackedDrgWindow2KiBV1 --randomness $R --partition 1 \
  --sector-ids 13,14 --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" \
  --out "$W/proof.bin" --public "$W/public.json"
expect_log "prove warns about the TEST key" 'WARNING: .*is a cuzk TEST key'
expect_log "prove prints phase timings" '^  msm_b_g2 +[0-9.]+ ms'
expect_log "prove prints the verify phase" '^  verify +[0-9.]+ ms'
expect_log "prove says where it proved" '^proved StackedDrgWindow2KiBV1 partition 1 on the (cpu|cuda) backend'
[ "$(stat -c %s "$W/proof.bin")" -eq 192 ] && pass "proof is 192 bytes" || fail "proof is not 192 bytes"
expect_rc "public.json: 22 decimal strings" 0 node -e \
  'const a=JSON.parse(require("fs").readFileSync(process.argv[1]));if(a.length!==22||!a.every(x=>/^[0-9]+$/.test(x)))process.exit(1)' \
  "$W/public.json"
expect_rc "prove --quiet with base64 randomness" 0 "$CUZK" post prove --proof 5 --randomness $R_B64 --partition 1 \
  --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" --out "$W/proof2.bin" --quiet
grep -q 'msm_' "$WORK/last.log" && fail "--quiet printed timings" || pass "--quiet prints no timings"
expect_rc "prove --backend cpu" 0 "$CUZK" post prove --proof 5 \
  --randomness $R --partition 1 --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" \
  --out "$W/proof-cpu.bin" --backend cpu
expect_log "it says the cpu backend" '^proved StackedDrgWindow2KiBV1 partition 1 on the cpu backend'
expect_rc "prove with an unknown --backend exits 2" 2 "$CUZK" post prove --proof 5 --randomness $R --partition 1 \
  --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" --out "$W/never.bin" --backend gpu

VERIFY=("$CUZK" post verify --proof 5 --randomness $R --partition 1 --params-dir "$KEYS")
expect_rc "verify (window) exits 0" 0 "${VERIFY[@]}" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" --proof-file "$W/proof.bin"
expect_log "verify says OK" '^OK: '
expect_rc "verify with comm_r as a sealed CID" 0 "${VERIFY[@]}" --sector "${SECTORS[0]}" --sector "14:$CID14" \
  --proof-file "$W/proof.bin"
expect_rc "verify with the keys from FIL_PROOFS_PARAMETER_CACHE" 0 env FIL_PROOFS_PARAMETER_CACHE="$KEYS" \
  "$CUZK" post verify --proof 5 --randomness $R --partition 1 --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" \
  --proof-file "$W/proof.bin"
expect_rc "verify with --vk" 0 "$CUZK" post verify --proof 5 --randomness $R --partition 1 --vk "$WINDOW_VK" \
  --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" --proof-file "$W/proof.bin"
expect_rc "verify with another randomness exits 1" 1 "$CUZK" post verify --proof 5 --randomness $R2 --partition 1 \
  --params-dir "$KEYS" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" --proof-file "$W/proof.bin"
expect_log "verify says INVALID" '^INVALID: '
expect_rc "verify with another partition exits 1" 1 "$CUZK" post verify --proof 5 --randomness $R --partition 0 \
  --params-dir "$KEYS" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" --proof-file "$W/proof.bin"
HEX14=${SECTORS[1]#*:}
[ "${HEX14:0:1}" = 0 ] && D=1 || D=0
BAD_COMM_R="14:$D${HEX14:1}"  # another low byte: still a canonical field element
expect_rc "verify with a changed comm_r exits 1" 1 "${VERIFY[@]}" --sector "${SECTORS[0]}" --sector "$BAD_COMM_R" \
  --proof-file "$W/proof.bin"
expect_rc "verify with the sectors swapped exits 1" 1 "${VERIFY[@]}" --sector "${SECTORS[1]}" --sector "${SECTORS[0]}" \
  --proof-file "$W/proof.bin"
cp "$W/proof.bin" "$W/flipped.bin"
B100=$(od -An -tu1 -j100 -N1 "$W/proof.bin" | tr -d ' ')
printf "\\x$(printf %02x $((B100 ^ 4)))" | dd of="$W/flipped.bin" bs=1 seek=100 conv=notrunc status=none
cmp -s "$W/proof.bin" "$W/flipped.bin" && fail "byte 100 not changed" || true
expect_rc "verify with a flipped proof byte exits 1" 1 "${VERIFY[@]}" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" \
  --proof-file "$W/flipped.bin"
head -c 191 "$W/proof.bin" >"$W/short.bin"
expect_rc "verify of a 191-byte proof file exits 2" 2 "${VERIFY[@]}" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" \
  --proof-file "$W/short.bin"
expect_rc "verify with the WinningPoSt .vk exits 2 (not 0)" 2 "$CUZK" post verify --proof 5 --randomness $R \
  --partition 1 --vk "$WINNING_VK" --sector "${SECTORS[0]}" --sector "${SECTORS[1]}" --proof-file "$W/proof.bin"
expect_log "the message says the key is another circuit's" 'another circuit'

head -c 5000 "$W/14.vproof" >"$W/14.short.vproof"
expect_rc "prove with a truncated vanilla file exits 2" 2 "$CUZK" post prove --proof 5 --randomness $R --partition 1 \
  --vanilla "$W/13.vproof" --vanilla "$W/14.short.vproof" --params-dir "$KEYS" --out "$W/never.bin"
expect_log "the message names the file and says truncated" '14\.short\.vproof: 5000 bytes; .*(truncated)'
[ ! -e "$W/never.bin" ] && pass "no proof written after bad input" || fail "a proof was written after bad input"
expect_rc "prove with the wrong sector ids exits 2" 2 "$CUZK" post prove --proof 5 --randomness $R --partition 1 \
  --sector-ids 14,13 --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" --out "$W/never.bin"
expect_log "the message names the sector" 'sector 0 is 14 but its vanilla proof is of sector 13'
expect_rc "prove for the wrong partition exits 2" 2 "$CUZK" post prove --proof 5 --randomness $R --partition 0 \
  --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" --out "$W/never.bin"
expect_rc "prove with a non-canonical randomness exits 2" 2 "$CUZK" post prove --proof 5 --randomness $R_CHAIN \
  --partition 1 --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" --out "$W/never.bin"
expect_log "the message says to clear the top two bits" 'top two bits of byte 31.*--chain-randomness'
expect_rc "--chain-randomness clears them: the same seed as R, proved" 0 "$CUZK" post prove --proof 5 \
  --randomness $R_CHAIN --chain-randomness --partition 1 --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" \
  --params-dir "$KEYS" --out "$W/proof3.bin" --quiet
expect_rc "prove without keys (FIL_PROOFS_PARAMETER_CACHE elsewhere) exits 2" 2 env FIL_PROOFS_PARAMETER_CACHE="$WORK/nokeys" \
  "$CUZK" post prove --proof 5 --randomness $R --partition 1 --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" \
  --out "$W/never.bin"
expect_log "the message names the .params looked for there" "no key file $WORK/nokeys/v28-.*\.params"
expect_rc "prove of a missing vanilla file exits 2" 2 "$CUZK" post prove --proof 5 --randomness $R --partition 1 \
  --vanilla "$W/nope.vproof" --params-dir "$KEYS"
expect_rc "prove without --randomness exits 2" 2 "$CUZK" post prove --proof 5 --vanilla "$W/13.vproof"
expect_rc "unknown registered proof exits 2" 2 "$CUZK" post verify --proof 99 --randomness $R \
  --sector "${SECTORS[0]}" --proof-file "$W/proof.bin" --params-dir "$KEYS"
expect_log "the message names it" 'registered PoSt proof 99 is not registered'

# ---- WindowPoSt V1_2 (Go: V1_1): the same key files, challenges derived with api 1.2.0 ----
V="$WORK/window12"
expect_rc "gen-vanilla by Go name (V1_1 = id 10)" 0 "$CUZK" post gen-vanilla --proof StackedDrgWindow2KiBV1_1 \
  --randomness $R --partition 1 --sector-ids 13,14 --out-dir "$V" --seed 3
mapfile -t SECTORS12 <"$V/sectors.txt"
expect_rc "prove V1_2 by number" 0 "$CUZK" post prove --proof 10 --randomness $R --partition 1 \
  --vanilla "$V/13.vproof" --vanilla "$V/14.vproof" --params-dir "$KEYS" --out "$V/proof.bin" --quiet
expect_rc "verify V1_2 by filecoin-proofs-api name exits 0" 0 "$CUZK" post verify --proof StackedDrgWindow2KiBV1_2 \
  --randomness $R --partition 1 --params-dir "$KEYS" --sector "${SECTORS12[0]}" --sector "${SECTORS12[1]}" \
  --proof-file "$V/proof.bin"
expect_rc "the V1_2 proof is not a V1 proof (other challenges)" 1 "$CUZK" post verify --proof 5 --randomness $R \
  --partition 1 --params-dir "$KEYS" --sector "${SECTORS12[0]}" --sector "${SECTORS12[1]}" --proof-file "$V/proof.bin"
expect_rc "V1 vanilla proofs are refused for V1_2" 2 "$CUZK" post prove --proof 10 --randomness $R --partition 1 \
  --vanilla "$W/13.vproof" --vanilla "$W/14.vproof" --params-dir "$KEYS" --out "$V/never.bin"

# ---- WinningPoSt 2 KiB ----
N="$WORK/winning"
expect_rc "gen-vanilla (winning)" 0 "$CUZK" post gen-vanilla --proof StackedDrgWinning2KiBV1 --randomness $R \
  --sector-ids 42 --out-dir "$N"
WIN_SECTOR=$(cat "$N/sectors.txt")
expect_rc "prove (winning)" 0 "$CUZK" post prove --proof 0 --randomness $R --vanilla "$N/42.vproof" \
  --params-dir "$KEYS" --out "$N/proof.bin" --public "$N/public.json"
expect_rc "verify (winning) exits 0" 0 "$CUZK" post verify --proof 0 --randomness $R --sector "$WIN_SECTOR" \
  --proof-file "$N/proof.bin" --params-dir "$KEYS"
expect_rc "verify (winning) with another randomness exits 1" 1 "$CUZK" post verify --proof 0 --randomness $R2 \
  --sector "$WIN_SECTOR" --proof-file "$N/proof.bin" --params-dir "$KEYS"
expect_rc "verify (winning) with another sector id exits 1" 1 "$CUZK" post verify --proof 0 --randomness $R \
  --sector "43:${WIN_SECTOR#*:}" --proof-file "$N/proof.bin" --params-dir "$KEYS"
expect_rc "verify (winning) with two sectors exits 2" 2 "$CUZK" post verify --proof 0 --randomness $R \
  --sector "$WIN_SECTOR" --sector "$WIN_SECTOR" --proof-file "$N/proof.bin" --params-dir "$KEYS"
expect_rc "verify (winning) with the WindowPoSt .vk exits 2 (not 0)" 2 "$CUZK" post verify --proof 0 --randomness $R \
  --sector "$WIN_SECTOR" --proof-file "$N/proof.bin" --vk "$WINDOW_VK"
expect_rc "a WindowPoSt proof is not a WinningPoSt proof" 1 "$CUZK" post verify --proof 0 --randomness $R \
  --sector "$WIN_SECTOR" --proof-file "$W/proof.bin" --params-dir "$KEYS"

# ---- setup never over an official (non-TEST) key ----
OFFICIAL="$WORK/official"
mkdir -p "$OFFICIAL"
cp "$WINDOW_VK" "$OFFICIAL/"
VK_NAME=$(basename "$WINDOW_VK")
expect_rc "setup into a dir holding a non-TEST file of the same name refuses" 2 \
  "$CUZK" post setup --proof 5 --dir "$OFFICIAL" --seed 1
expect_log "the message says why" 'not a cuzk TEST key; refusing to overwrite'
cmp -s "$WINDOW_VK" "$OFFICIAL/$VK_NAME" && pass "the file is untouched" || fail "the file was changed"
[ ! -e "$OFFICIAL/${VK_NAME%.vk}.params" ] && pass "nothing written" || fail "a .params was written"

# ---- the real 32 GiB vanilla proof (curio's golden file), as far as the missing key ----
R0=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
expect_rc "prove the real 32 GiB vanilla proof without its key exits 2" 2 "$CUZK" post prove \
  --proof StackedDrgWindow32GiBV1 --randomness $R0 --sector-ids 1 --vanilla "$DATA/window-post-32gib.vproof" \
  --params-dir "$WORK/nokeys" --out "$WORK/never32.bin"
expect_log "the message names the missing .params" \
  "no key file $WORK/nokeys/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-[0-9a-f]{64}\.params"
expect_rc "the real 32 GiB vanilla proof of another sector id exits 2" 2 "$CUZK" post prove --proof 8 \
  --randomness $R0 --sector-ids 2 --vanilla "$DATA/window-post-32gib.vproof" --params-dir "$WORK/nokeys"
expect_rc "the real 32 GiB vanilla proof with another randomness exits 2" 2 "$CUZK" post prove --proof 8 \
  --randomness $R --vanilla "$DATA/window-post-32gib.vproof" --params-dir "$WORK/nokeys"
expect_rc "verify of the real sector (sealed CID) without its .vk exits 2" 2 "$CUZK" post verify --proof 8 \
  --randomness $R0 --sector 1:bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl \
  --proof-file "$W/proof.bin" --params-dir "$WORK/nokeys"
expect_log "the message names the missing .vk" 'no key file .*\.vk'

echo "post CLI: $fails failed"
[ "$fails" -eq 0 ]
