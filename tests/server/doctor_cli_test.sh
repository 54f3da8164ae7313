#!/usr/bin/env bash
# `cuzk doctor` against a daemon config, on a machine without a GPU: the report's lines (OK / WARN /
# FAIL and the reason) and the exit status (0 when everything the config needs is there, else 1).
# A parameter directory holding one circuit's correctly named TEST key and a truncated file under
# another circuit's official name; the same without the truncated file; a preloaded circuit whose
# files are missing, a missing .zkey, the cuda backend in a CPU-only setting; an unreachable and a
# running daemon.
# usage: doctor_cli_test.sh <cuzk> <cuzk-daemon> <work dir>
set -euo pipefail
CUZK=$1
DAEMON=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/daemon_lib.sh"

P="$WORK/params"
"$CUZK" post setup --proof StackedDrgWinning2KiBV1 --dir "$P" --seed 1 >/dev/null 2>&1
WINNING=$(ls "$P"/*.params)
# WindowPoSt 2 KiB's official name (parameters.json), holding a truncated .params and a .vk.
WINDOW="$P/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"
head -c 100000 "$WINNING" >"$WINDOW.params"
cp "${WINNING%.params}.vk" "$WINDOW.vk"

config() {  # config <file> <extra [engine] lines>
  cat >"$1" <<TOML
[server]
unix_socket = "$WORK/d.sock"
http_listen = ""
[engine]
backend = "${BACKEND:-cpu}"
cache_dir = "$WORK/cache"
$2
[[circuit]]
id = "mul-chain"
native = "mul-chain"
params = { constraints = 64 }
[filecoin]
parameter_dir = "$P"
preload_winning_post = false
TOML
}
config "$WORK/ok.toml" ""

expect_rc "a truncated parameter file: exit 1" 1 "$CUZK" doctor --config "$WORK/ok.toml"
expect_log "the config named" "^OK   config: $WORK/ok.toml: backend cpu, 1 circuit"
expect_log "no GPU, said so" '^(OK  |WARN) gpu.*: .*(no CUDA backend|no CUDA device|not used)'
expect_log "the memlock limit" '^OK   memlock: ulimit -l is '
expect_log "the TEST key: found, sizes checked, marked" \
  '^WARN params winning-post-2kib: \.params [0-9.]+ MiB .*sizes match their headers; a cuzk TEST key'
expect_log "the truncated file: FAIL with the reason" \
  '^FAIL params window-post-2kib: v28-proof-of-spacetime-fallback-.*0170db1f.*\.params: .*needs more bytes than the file has'
expect_log "the directory summarized" "^OK   params: $P: 1 of the 22 official keys: winning-post-2kib$"
expect_log "the cache directory's free space" "^OK   cache: $WORK/cache \(created at start, under $WORK\): [0-9.]+ [KMGT]iB free"
expect_log "the summary counts the failure" '^cuzk doctor: 1 failure\(s\)'
if grep '^FAIL' "$WORK/last.log" | grep -qv window-post-2kib; then fail "a FAIL line beside the truncated file's"; else pass "no other FAIL line"; fi

rm "$WINDOW.params" "$WINDOW.vk"
expect_rc "the key alone: exit 0" 0 "$CUZK" doctor --config "$WORK/ok.toml"
expect_log "no failure" '^cuzk doctor: 0 failure\(s\)'
expect_rc "--params-dir overrides the config's" 0 "$CUZK" doctor --config "$WORK/ok.toml" --params-dir "$WORK/none"
expect_log "a missing directory: WARN" "^WARN params: $WORK/none is not a directory: no Filecoin circuit is served"

cp "${WINNING%.params}.vk" "$WINDOW.vk"
expect_rc "a .vk without its .params: exit 1" 1 "$CUZK" doctor --config "$WORK/ok.toml"
expect_log "incomplete: said" '^FAIL params window-post-2kib: v28-.*\.vk is there but not v28-.*\.params: incomplete'
rm "$WINDOW.vk"

# Every file parameters.json lists is known by name (empty here: each key FAILs), and a v28- name it
# does not list is pointed out.
A="$WORK/all"
mkdir -p "$A"
node -e 'const fs=require("fs");for(const n of Object.keys(JSON.parse(fs.readFileSync(process.argv[1]))))fs.writeFileSync(process.argv[2]+"/"+n,"")' \
  "$(dirname "$0")/../filecoin/data/parameters.json" "$A"
touch "$A/v28-not-a-filecoin-key.params"
expect_rc "parameters.json's files, empty: exit 1" 1 "$CUZK" doctor --config "$WORK/ok.toml" --params-dir "$A"
[ "$(grep -c '^FAIL params [a-z]' "$WORK/last.log")" -eq 22 ] && pass "each of its 22 keys FAILs" ||
  fail "not 22 FAIL lines: $(grep -c '^FAIL params [a-z]' "$WORK/last.log")"
expect_log "an empty .params: the reason" '^FAIL params porep-32gib: v28-stacked-proof-of-replication-.*\.params: .*truncated'
[ "$(grep -c 'not an official' "$WORK/last.log")" -eq 1 ] && pass "only the foreign name is not official" ||
  fail "names taken for foreign: $(grep 'not an official' "$WORK/last.log")"
expect_log "the foreign name" '^WARN params: v28-not-a-filecoin-key\.params: not an official Filecoin file name'

config "$WORK/needs.toml" 'preload = ["window-post-2kib"]'
sed -i 's|^\[filecoin\]|[[circuit]]\nid = "gone"\nzkey = "'"$WORK"'/gone.zkey"\n[filecoin]|' "$WORK/needs.toml"
expect_rc "a preloaded circuit without files, a missing .zkey: exit 1" 1 "$CUZK" doctor --config "$WORK/needs.toml"
expect_log "the preloaded circuit" "^FAIL params window-post-2kib: preloaded by the config, but its files are not in $P"
expect_log "the missing .zkey" "^FAIL circuit gone: .*gone\.zkey"
BACKEND=cuda config "$WORK/cuda.toml" ""
expect_rc "backend cuda without a usable GPU: exit 1" 1 "$CUZK" doctor --config "$WORK/cuda.toml"
expect_log "backend cuda: the reason" '^FAIL gpu: .*(no CUDA backend|no usable CUDA device).*backend = "cuda" cannot start'
echo 'backend = 3' >"$WORK/bad.toml"
expect_rc "a config that does not parse: exit 1" 1 "$CUZK" doctor --config "$WORK/bad.toml"
expect_log "the config error" '^FAIL config: .*bad\.toml'

expect_rc "an unreachable daemon: exit 1" 1 "$CUZK" doctor --config "$WORK/ok.toml" --target "unix:$WORK/none.sock"
expect_log "unreachable: the reason" "^FAIL daemon: unix:$WORK/none.sock: unreachable: .+"
start_daemon --config "$WORK/ok.toml"
expect_rc "a running daemon: exit 0" 0 "$CUZK" doctor --config "$WORK/ok.toml" --target "unix:$WORK/d.sock"
expect_log "the daemon answers" "^OK   daemon: unix:$WORK/d.sock: answers; backend cpu, 1 device\(s\)"
stop_daemon

echo "cuzk doctor: $fails failed"
[ "$fails" -eq 0 ]
