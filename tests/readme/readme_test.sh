#!/usr/bin/env bash
# The README's commands cannot rot: every ```sh block in it is marked with the test that runs it
# (readme_blocks.sh --check); the `first-proof` blocks (circom2 -> snarkjs witness -> cuzk setup /
# prove -> snarkjs groth16 verify) run here, in an empty directory, with the built `cuzk` and the
# pinned snarkjs and circom2 on the PATH, then the `rapidsnark` block (cuzk-prover, snarkjs verify)
# in the same directory and the `doctor` block (exit 0 with the embedded config on a CPU machine);
# `entry` blocks name scripts that exist; `package` and `service` blocks are run by
# tests/package/deb_package_test.sh.
# usage: readme_test.sh <source dir> <directory holding the cuzk binary> <work dir>
set -uo pipefail
SRC=$1
BIN=$2
WORK=$3
HERE=$(cd "$(dirname "$0")" && pwd)
README=$SRC/README.md
BLOCKS="$HERE/readme_blocks.sh $README"
rm -rf "$WORK" && mkdir -p "$WORK"
fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if problems=$($BLOCKS --check); then pass "every shell block of README.md is marked with its test"
else fail "README.md's shell blocks:"; echo "$problems"; fi

while read -r line; do
  [ -n "$line" ] || continue
  words=($line)
  i=0
  while [[ ${words[$i]} == *=* || ${words[$i]} == bash ]]; do i=$((i + 1)); done
  if [ -f "$SRC/${words[$i]}" ]; then pass "entry: ${words[$i]} exists"; else fail "entry: $line: no ${words[$i]}"; fi
done < <($BLOCKS entry)

for name in package service; do
  if [ -n "$($BLOCKS $name)" ] && grep -q "readme_blocks.sh.* $name" "$SRC/tests/package/deb_package_test.sh"; then
    pass "the README's $name block is run by tests/package/deb_package_test.sh"
  else fail "the README's $name block: missing, or not run by tests/package/deb_package_test.sh"; fi
done

script=$($BLOCKS first-proof)
if [ -z "$script" ]; then
  fail "README.md has no first-proof block"
else
  mkdir -p "$WORK/first-proof"
  if (cd "$WORK/first-proof" && PATH="$BIN:$SRC/tests/oracle/node_modules/.bin:$PATH" bash -e -c "$script") >"$WORK/first-proof.log" 2>&1; then
    pass "the first proof by hand runs"
  else
    fail "the first proof by hand:"; cat "$WORK/first-proof.log"
  fi
  grep -q 'OK!' "$WORK/first-proof.log" && pass "snarkjs groth16 verify accepts cuzk's proof" || fail "snarkjs did not say OK!"
  [ "$(tr -d ' \n' <"$WORK/first-proof/public.json" 2>/dev/null)" = '["33"]' ] && pass 'public.json is ["33"] (3 x 11)' ||
    fail "public.json: $(cat "$WORK/first-proof/public.json" 2>/dev/null)"
fi

run_block() {  # run_block NAME DIR: the README's NAME block in DIR, its output in $WORK/NAME.log
  local script
  script=$($BLOCKS "$1")
  [ -n "$script" ] || { fail "README.md has no $1 block"; return 1; }
  (cd "$2" && PATH="$BIN:$SRC/tests/oracle/node_modules/.bin:$PATH" bash -e -c "$script") >"$WORK/$1.log" 2>&1
}
rm -f "$WORK/first-proof/proof.json" "$WORK/first-proof/public.json"
if run_block rapidsnark "$WORK/first-proof"; then pass "cuzk-prover as rapidsnark's prover runs"
else fail "the rapidsnark block:"; cat "$WORK/rapidsnark.log"; fi
grep -q 'OK!' "$WORK/rapidsnark.log" && pass "snarkjs groth16 verify accepts cuzk-prover's proof" ||
  fail "snarkjs did not say OK! to cuzk-prover's proof"
if run_block doctor "$WORK"; then pass "cuzk doctor exits 0 (embedded config, CPU)"
else fail "cuzk doctor:"; cat "$WORK/doctor.log"; fi
grep -Eq '^cuzk doctor: 0 failure' "$WORK/doctor.log" && pass "doctor's summary: no failure" || fail "no doctor summary"

echo "readme: $fails failed"
[ "$fails" -eq 0 ]
