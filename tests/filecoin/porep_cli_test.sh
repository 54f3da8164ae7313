#!/usr/bin/env bash
# `cuzk porep` end to end on 2 KiB V1_1 with TEST keys: setup, a C1 of a test sector sealed in
# memory (`cuzk-bench gen-vanilla porep`), prove (the sector, and its partition 0 alone with
# --partition), verify from what a chain verifier has; exit codes
# and messages for a changed seed / ticket / comm_r / comm_d / sector / proof byte, a truncated C1,
# a changed label, the wrong sector (replica id), Curio's and supraseal's forms, setup over a
# non-TEST key; synthetic-PoRep and 32 GiB C1s as far as proving. The setup (2.7M constraints,
# about 2 minutes on 2 cores) and the two proofs (about 35 s each) dominate; every refusal happens
# before any key is loaded.
# usage: porep_cli_test.sh <cuzk> <cuzk-bench> <data dir> <work dir>
set -euo pipefail
CUZK=$1
BENCH=$2
DATA=$3
WORK=$4
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/../server/daemon_lib.sh"
trap - EXIT  # no daemon here

KEYS="$WORK/keys"
t0=$SECONDS
expect_rc "setup TEST keys of the 2 KiB V1_1 circuit" 0 \
  "$CUZK" porep setup --proof StackedDrg2KiBV1_1 --dir "$KEYS" --seed 7
expect_log "setup announces the recording" 'StackedDrg2KiBV1_1: recording the partition circuit'
expect_log "setup prints the circuit's size" 'StackedDrg2KiBV1_1: 2687921 constraints, 39 public inputs'
expect_log "setup says TEST keys" 'TEST keys.*NOT Filecoin.s official'
MARKER=$(grep -l 'for StackedDrg2KiBV1_1\.' "$KEYS"/*.cuzk-test)
VK=${MARKER%.params.cuzk-test}.vk
case "$(basename "$VK")" in
  v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-*.vk) pass "the official name" ;;
  *) fail "not the official name: $VK" ;;
esac
grep -q "\"$(basename "${VK%.vk}").params\"" "$DATA/parameters.json" && pass "a name in filecoin's parameters.json" ||
  fail "$(basename "$VK") is not in parameters.json"
echo "setup: $((SECONDS - t0)) s"

# ---- the C1 (prover f01000, sector 1) and what a chain verifier has ----
C1="$WORK/c1.json"
expect_rc "gen-vanilla porep (2 KiB, sealed in memory)" 0 \
  "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 --out "$C1"
TICKET=$(grep -Eo 'ticket [0-9a-f]{64}' "$WORK/last.log" | cut -d' ' -f2)
SEED=$(grep -Eo 'seed [0-9a-f]{64}' "$WORK/last.log" | cut -d' ' -f2)
COMM_R_CID=$(grep -Eo 'comm_r bagboea4b[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
COMM_D_CID=$(grep -Eo 'comm_d baga6ea4sea[a-z0-9]+' "$WORK/last.log" | cut -d' ' -f2)
# The C1's own comm_r and comm_d (arrays of 32 numbers) as hex.
read -r COMM_R COMM_D < <(node -e 'const c=JSON.parse(require("fs").readFileSync(process.argv[1]));
  const h=a=>Buffer.from(a).toString("hex");console.log(h(c.comm_r),h(c.comm_d))' "$C1")
[ ${#TICKET} -eq 64 ] && [ ${#SEED} -eq 64 ] && [ -n "$COMM_R_CID" ] && [ ${#COMM_R} -eq 64 ] &&
  pass "ticket, seed, comm_r and comm_d known" || fail "ticket, seed, comm_r or comm_d missing"

t0=$SECONDS
PROOF="$WORK/proof.bin"
expect_rc "prove (replica id checked)" 0 "$CUZK" porep prove --c1 "$C1" --prover-id f01000 --sector 1 \
  --params-dir "$KEYS" --out "$PROOF"
expect_log "prove warns about the TEST key" 'WARNING: .*is a cuzk TEST key'
expect_log "prove prints the preparation phases" '^  check +[0-9.]+ ms'
expect_log "prove prints the partition's phases" '^partition 0:'
expect_log "prove prints the engine's key load" '^  key_load +[0-9.]+ ms'
expect_log "prove prints the MSM phases" '^  msm_h +[0-9.]+ ms'
expect_log "prove prints the verify phase" '^  verify +[0-9.]+ ms'
expect_log "prove says where it proved" \
  '^proved StackedDrg2KiBV1_1 on the (cpu|cuda) backend: 1 partition proof\(s\) \(39 public inputs each\)'
[ "$(stat -c %s "$PROOF")" -eq 192 ] && pass "proof is 1 partition x 192 bytes" || fail "proof is not 192 bytes"
echo "prove: $((SECONDS - t0)) s"

VERIFY=("$CUZK" porep verify --proof StackedDrg2KiBV1_1 --prover-id 1000 --sector 1 --params-dir "$KEYS")
expect_rc "verify exits 0 (CIDs)" 0 "${VERIFY[@]}" --ticket "$TICKET" --seed "$SEED" --comm-r "$COMM_R_CID" \
  --comm-d "$COMM_D_CID" --proof-file "$PROOF"
expect_log "verify says OK" '^OK: .*\(1 partition\)'
expect_log "verify warns about the TEST key" 'WARNING: .*is a cuzk TEST key'
GOOD=(--ticket "$TICKET" --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$PROOF")
expect_rc "verify exits 0 (hex commitments, proof by number)" 0 "$CUZK" porep verify --proof 5 --prover-id f01000 \
  --sector 1 --params-dir "$KEYS" "${GOOD[@]}"
expect_rc "verify with --vk and --partition 0" 0 "$CUZK" porep verify --proof 5 --prover-id 1000 --sector 1 \
  --vk "$VK" --partition 0 "${GOOD[@]}"
expect_rc "verify with the keys from FIL_PROOFS_PARAMETER_CACHE" 0 env FIL_PROOFS_PARAMETER_CACHE="$KEYS" \
  "$CUZK" porep verify --proof 5 --prover-id 1000 --sector 1 "${GOOD[@]}"

other() {  # other <64 hex digits>: another first byte, still a canonical field element where it was one
  local h=$1
  [ "${h:0:1}" = 0 ] && echo "1${h:1}" || echo "0${h:1}"
}
expect_rc "verify with another seed exits 1" 1 "${VERIFY[@]}" --ticket "$TICKET" --seed "$(other "$SEED")" \
  --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$PROOF"
expect_log "verify says INVALID" '^INVALID: .*partition 0'
expect_rc "verify with another ticket exits 1" 1 "${VERIFY[@]}" --ticket "$(other "$TICKET")" --seed "$SEED" \
  --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$PROOF"
expect_rc "verify with another comm_r exits 1" 1 "${VERIFY[@]}" --ticket "$TICKET" --seed "$SEED" \
  --comm-r "$(other "$COMM_R")" --comm-d "$COMM_D" --proof-file "$PROOF"
expect_rc "verify with another comm_d exits 1" 1 "${VERIFY[@]}" --ticket "$TICKET" --seed "$SEED" \
  --comm-r "$COMM_R" --comm-d "$(other "$COMM_D")" --proof-file "$PROOF"
expect_rc "verify with another sector exits 1" 1 "$CUZK" porep verify --proof 5 --prover-id 1000 --sector 2 \
  --params-dir "$KEYS" "${GOOD[@]}"
expect_rc "verify with another prover exits 1" 1 "$CUZK" porep verify --proof 5 --prover-id 1001 --sector 1 \
  --params-dir "$KEYS" "${GOOD[@]}"
expect_rc "verify as StackedDrg2KiBV1 (other graph, same key files) exits 1" 1 "$CUZK" porep verify --proof 0 \
  --prover-id 1000 --sector 1 --params-dir "$KEYS" "${GOOD[@]}"
cp "$PROOF" "$WORK/flipped.bin"
B100=$(od -An -tu1 -j100 -N1 "$PROOF" | tr -d ' ')
printf "\\x$(printf %02x $((B100 ^ 4)))" | dd of="$WORK/flipped.bin" bs=1 seek=100 conv=notrunc status=none
cmp -s "$PROOF" "$WORK/flipped.bin" && fail "byte 100 not changed" || true
expect_rc "verify with a flipped proof byte exits 1" 1 "${VERIFY[@]}" --ticket "$TICKET" --seed "$SEED" \
  --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$WORK/flipped.bin"
head -c 191 "$PROOF" >"$WORK/short.bin"
expect_rc "verify of a 191-byte proof file exits 2" 2 "${VERIFY[@]}" --ticket "$TICKET" --seed "$SEED" \
  --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$WORK/short.bin"
expect_log "the message gives the sizes" 'short\.bin: 191 bytes; .*1 partition\(s\) x 192 = 192'
cat "$PROOF" "$PROOF" >"$WORK/double.bin"
expect_rc "verify of a 384-byte proof file exits 2" 2 "${VERIFY[@]}" --ticket "$TICKET" --seed "$SEED" \
  --comm-r "$COMM_R" --comm-d "$COMM_D" --proof-file "$WORK/double.bin"
expect_rc "verify with a comm_r that is not a field element exits 2" 2 "${VERIFY[@]}" --ticket "$TICKET" \
  --seed "$SEED" --comm-r "${COMM_R:0:62}ff" --comm-d "$COMM_D" --proof-file "$PROOF"
expect_log "the message says so" 'not a canonical field element'
expect_rc "verify without --seed exits 2" 2 "${VERIFY[@]}" --ticket "$TICKET" --comm-r "$COMM_R" \
  --comm-d "$COMM_D" --proof-file "$PROOF"
expect_rc "verify of an unknown proof exits 2" 2 "$CUZK" porep verify --proof 99 --prover-id 1000 --sector 1 \
  --params-dir "$KEYS" "${GOOD[@]}"
expect_log "the message names it" 'registered seal proof 99 is not registered'

# ---- one partition alone (--partition; the last, 0, of the 2 KiB sector's one): its 192-byte proof ----
t0=$SECONDS
ONE="$WORK/partition0.bin"
expect_rc "prove --partition 0" 0 "$CUZK" porep prove --c1 "$C1" --prover-id f01000 --sector 1 --partition 0 \
  --params-dir "$KEYS" --out "$ONE"
expect_log "prove --partition prints the partition's phases" '^partition 0:'
expect_log "prove --partition prints the engine's phases" '^  msm_h +[0-9.]+ ms'
expect_log "prove --partition says one proof" \
  '^proved StackedDrg2KiBV1_1 on the (cpu|cuda) backend: 1 partition proof\(s\) \(39 public inputs each\)'
[ "$(stat -c %s "$ONE")" -eq 192 ] && pass "the file holds one 192-byte proof" || fail "not 192 bytes: $ONE"
cmp -s "$PROOF" "$ONE" && fail "the same bytes as the whole sector's proof (a new proof is randomized)" ||
  pass "a proof of its own"
expect_rc "verify --partition 0 of it exits 0" 0 "$CUZK" porep verify --proof 5 --prover-id 1000 --sector 1 \
  --params-dir "$KEYS" --partition 0 --ticket "$TICKET" --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D" \
  --proof-file "$ONE"
expect_log "verify says OK" '^OK: '
expect_rc "verify --partition 0 with another seed exits 1" 1 "$CUZK" porep verify --proof 5 --prover-id 1000 \
  --sector 1 --params-dir "$KEYS" --partition 0 --ticket "$TICKET" --seed "$(other "$SEED")" --comm-r "$COMM_R" \
  --comm-d "$COMM_D" --proof-file "$ONE"
echo "prove --partition: $((SECONDS - t0)) s"

# ---- bad C1s: refused (exit 2, naming the problem) before any key is loaded ----
NEVER="$WORK/never.bin"
PROVE=("$CUZK" porep prove --params-dir "$KEYS" --out "$NEVER")
CUT=$(grep -bo '"comm_r":' "$C1" | tail -1 | cut -d: -f1)  # the C1 up to its top-level comm_r
head -c "$CUT" "$C1" >"$WORK/short.json"
expect_rc "prove with a truncated C1 exits 2" 2 "${PROVE[@]}" --c1 "$WORK/short.json"
expect_log "the message names the file, the byte and the end of the input" \
  "short\.json: json C1: C1 JSON, byte $CUT.*end of the input"
node -e 'const fs=require("fs");const c=JSON.parse(fs.readFileSync(process.argv[1]));
  c.vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.c_x.column.rows[0][5]^=1;
  fs.writeFileSync(process.argv[2],JSON.stringify(c))' "$C1" "$WORK/label.json"
expect_rc "prove with a changed label byte (challenged column) exits 2" 2 "${PROVE[@]}" --c1 "$WORK/label.json"
expect_log "the message names partition, challenge, column and offset" \
  'label\.json: .*partition 0, challenge 1 \(node [0-9]+\): replica_column_proofs\.c_x \(byte [0-9]+\): the column.s hash'
node -e 'const fs=require("fs");const c=JSON.parse(fs.readFileSync(process.argv[1]));
  c.vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[1].parents[3][7]^=1;
  fs.writeFileSync(process.argv[2],JSON.stringify(c))' "$C1" "$WORK/label2.json"
expect_rc "prove with a changed label byte (labeling proof) exits 2" 2 "${PROVE[@]}" --c1 "$WORK/label2.json"
expect_log "the message names the labeling proof's parent" \
  'partition 0, challenge 0 \(node [0-9]+\): labeling_proofs\[1\]\.parents\[3\] .*is not the parent columns. label'
expect_rc "prove with the wrong --sector exits 2" 2 "${PROVE[@]}" --c1 "$C1" --prover-id 1000 --sector 2
expect_log "the message says the replica id is not the sector's" 'replica_id [0-9a-f]{64} is not the sector.s.*sector 2'
expect_rc "prove with the wrong --prover-id exits 2" 2 "${PROVE[@]}" --c1 "$C1" --prover-id 1001 --sector 1
expect_rc "prove with --prover-id but no --sector exits 2" 2 "${PROVE[@]}" --c1 "$C1" --prover-id 1000
expect_log "the message says both are needed" 'error: bad input: --prover-id needs --sector'
expect_rc "prove with another --proof than the C1's exits 2" 2 "${PROVE[@]}" --c1 "$C1" --proof StackedDrg2KiBV1
expect_log "the message names both" 'is a C1 of StackedDrg2KiBV1_1, not of StackedDrg2KiBV1'
expect_rc "prove of a partition the C1 does not have exits 2" 2 "${PROVE[@]}" --c1 "$C1" --partition 1
expect_log "the message gives the partitions" 'input: --partition 1: a StackedDrg2KiBV1_1 C1 has 1 partition'
expect_rc "prove with an unknown --backend exits 2" 2 "${PROVE[@]}" --c1 "$C1" --backend gpu
expect_rc "prove without keys (FIL_PROOFS_PARAMETER_CACHE elsewhere) exits 2" 2 env \
  FIL_PROOFS_PARAMETER_CACHE="$WORK/nokeys" "$CUZK" porep prove --c1 "$C1" --out "$NEVER"
expect_log "the message names the .params looked for there" \
  "no key file $WORK/nokeys/v28-stacked-proof-of-replication-.*\.params.*cuzk porep setup"
[ ! -e "$NEVER" ] && pass "no proof written after bad input" || fail "a proof was written after bad input"

# ---- Curio's envelope and supraseal's bincode: decoded and checked (stopped before proving) ----
expect_rc "gen-vanilla porep --format curio" 0 "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 \
  --format curio --out "$WORK/c1.curio.json"
expect_rc "a Curio envelope: its SectorNum is the sector, the replica id checked (stops at --partition 1)" 2 \
  "${PROVE[@]}" --c1 "$WORK/c1.curio.json" --prover-id 1000 --partition 1
expect_log "it got as far as the partition" 'input: --partition 1: a StackedDrg2KiBV1_1 C1 has 1 partition'
expect_rc "a Curio envelope with another --sector exits 2" 2 "${PROVE[@]}" --c1 "$WORK/c1.curio.json" \
  --prover-id 1000 --sector 2
expect_log "the message names the envelope's sector" "input: --sector 2 but .*c1\.curio\.json is Curio's request for sector 1"
expect_rc "gen-vanilla porep --format bincode" 0 "$BENCH" gen-vanilla porep --sector-size 2KiB --seed 3 \
  --format bincode --out "$WORK/c1.bin"
expect_rc "a bincode C1 without --proof exits 2" 2 "${PROVE[@]}" --c1 "$WORK/c1.bin"
expect_log "the message asks for --proof" 'does not name its registered proof: give it \(--proof'
expect_rc "a bincode C1 with --proof is decoded and checked (stops at --partition 1)" 2 "${PROVE[@]}" \
  --c1 "$WORK/c1.bin" --proof 5 --prover-id 1000 --sector 1 --partition 1
expect_log "it got as far as the partition" 'input: --partition 1: a StackedDrg2KiBV1_1 C1 has 1 partition'

# ---- synthetic PoRep (the same key files): decoded and checked (stopped before proving) ----
SYN="$WORK/syn.json"
expect_rc "gen-vanilla porep (2 KiB synthetic PoRep, f01234, sector 7)" 0 "$BENCH" gen-vanilla porep \
  --proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --prover-id 1234 --sector 7 --seed 5 --out "$SYN"
expect_rc "a synthetic C1 is decoded and checked, replica id included (stops at --partition 1)" 2 "${PROVE[@]}" \
  --c1 "$SYN" --prover-id t01234 --sector 7 --partition 1
expect_log "it got as far as the partition" 'input: --partition 1: a StackedDrg2KiBV1_1_Feat_SyntheticPoRep C1 has 1'
expect_rc "a synthetic C1 with the wrong prover exits 2" 2 "${PROVE[@]}" --c1 "$SYN" --prover-id 1000 --sector 7

# ---- a 32 GiB C1 (sparse: the challenged nodes only) is decoded and checked up to its key ----
expect_rc "gen-vanilla porep (32 GiB, sparse)" 0 "$BENCH" gen-vanilla porep --sector-size 32GiB --out "$WORK/c32.json"
expect_rc "prove of the 32 GiB C1 without its key exits 2" 2 "$CUZK" porep prove --c1 "$WORK/c32.json" \
  --prover-id 1000 --sector 1 --params-dir "$WORK/nokeys" --out "$NEVER"
P32=$(grep -Eo 'v28-stacked-proof-of-replication-[a-z0-9_-]+\.params' "$WORK/last.log" || true)
[ -n "$P32" ] && grep -q "\"$P32\"" "$DATA/parameters.json" && pass "it names the official 32 GiB .params ($P32)" ||
  fail "the missing 32 GiB key is not named as in parameters.json: $P32"
rm -f "$WORK/c32.json"  # 37 MB

# ---- setup never over an official (non-TEST) key ----
OFFICIAL="$WORK/official"
mkdir -p "$OFFICIAL"
cp "$VK" "$OFFICIAL/"
VK_NAME=$(basename "$VK")
expect_rc "setup into a dir holding a non-TEST file of the same name refuses" 2 \
  "$CUZK" porep setup --proof 5 --dir "$OFFICIAL" --seed 1
expect_log "the message says why" 'not a cuzk TEST key; refusing to overwrite'
cmp -s "$VK" "$OFFICIAL/$VK_NAME" && pass "the file is untouched" || fail "the file was changed"
[ ! -e "$OFFICIAL/${VK_NAME%.vk}.params" ] && pass "nothing written" || fail "a .params was written"
expect_rc "setup of a non-interactive PoRep proof exits 2" 2 "$CUZK" porep setup \
  --proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep --dir "$WORK/ni"
expect_log "the message says it is not supported" 'non-interactive PoRep is not supported'

# $KEYS stays: the daemon's PoRep test (fixture porep_test_keys) proves with it; its cleanup removes it.
echo "porep CLI: $fails failed"
[ "$fails" -eq 0 ]
