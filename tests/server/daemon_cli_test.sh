#!/usr/bin/env bash
# The real binaries over loopback: cuzk-daemon from its printed embedded default config (with
# a token on TCP), cuzk-bench single / batch / stress with --verify, status, preload, evict,
# cancel; exit codes for bad usage, bad tokens, unknown circuits; SIGTERM shutdown.
# usage: daemon_cli_test.sh <cuzk-daemon> <cuzk-bench> <work dir>
set -euo pipefail
DAEMON=$1
BENCH=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
source "$(dirname "$0")/daemon_lib.sh"

expect_rc "--print-default-config" 0 "$DAEMON" --print-default-config
cp "$WORK/last.log" "$WORK/default.toml"
expect_log "default config has [[circuit]] tables" '^\[\[circuit\]\]'
printf '[engine]\nworkerz = 3\n' >"$WORK/bad.toml"
expect_rc "a config with an unknown key is refused" 2 "$DAEMON" --config "$WORK/bad.toml"
expect_log "the error names the key" 'engine\.workerz: unknown key'

start_daemon --config "$WORK/default.toml" --unix-socket "$WORK/d.sock" --tcp 127.0.0.1:0 --http 127.0.0.1:0 \
  --cache-dir "$WORK/cache" --token s3cret
TCP="127.0.0.1:$(json_field "$WORK/ready.json" tcp_port)"
UNIX="unix:$WORK/d.sock"

expect_rc "single over the unix socket, verified" 0 "$BENCH" --target "$UNIX" --verify single --circuit mul-chain --seed 5
expect_log "single prints phase timings" 'msm_b_g2 +[0-9.]+ ms'
expect_log "single verified the proof" '^verify: OK'
expect_rc "PoRep without its C1 is refused, never served by a stand-in circuit" 1 "$BENCH" --target "$TCP" --token s3cret single --kind porep --circuit mul-chain
expect_log "the refusal says why" "INVALID_ARGUMENT: a porep request carries the sector's C1 output"
expect_rc "SnapDeals without its vanilla proofs is refused, never served by a stand-in circuit" 1 "$BENCH" --target "$TCP" --token s3cret single --kind snap_deals --circuit mul-chain
expect_log "the refusal says why" "INVALID_ARGUMENT: a snap_deals request carries the sector update's commitments and vanilla partition proofs"
HTTP_PORT=$(json_field "$WORK/ready.json" http_port)
expect_rc "a second daemon on the same TCP port refuses to start" 2 "$DAEMON" --config "$WORK/default.toml" \
  --unix-socket "$WORK/d2.sock" --tcp "$TCP" --http 127.0.0.1:0 --cache-dir "$WORK/cache2"
expect_log "it says the address is in use" "cannot start: gRPC: cannot listen on .*$TCP \\(address in use\\?\\)"
expect_rc "a second daemon on the same HTTP port refuses to start" 2 "$DAEMON" --config "$WORK/default.toml" \
  --unix-socket "$WORK/d2.sock" --tcp 127.0.0.1:0 --http "127.0.0.1:$HTTP_PORT" --cache-dir "$WORK/cache2"
expect_log "it says the port is in use" "cannot start: http: cannot bind 127.0.0.1:$HTTP_PORT \\(in use\\?\\)"
expect_rc "the first daemon still answers over TCP" 0 "$BENCH" --target "$TCP" --token s3cret status
expect_rc "TCP beyond loopback without a token refuses to start" 2 "$DAEMON" --config "$WORK/default.toml" \
  --unix-socket "$WORK/d2.sock" --tcp 0.0.0.0:0 --http "" --cache-dir "$WORK/cache2"
expect_log "it says why and how to allow it" 'no auth_token is set.*allow_unauthenticated_tcp'
[ "$(stat -c %a "$WORK/d.sock")" = 660 ] && pass "the unix socket is 0660" || fail "the unix socket is $(stat -c %a "$WORK/d.sock")"
[ "$(stat -c %a "$WORK/cache")" = 700 ] && pass "the key cache is 0700" || fail "the key cache is $(stat -c %a "$WORK/cache")"
expect_rc "batch 6 x 3 over TCP, all verified" 0 "$BENCH" --target "$TCP" --token s3cret --verify batch -n 6 -j 3 --circuit mul-chain-bn254
expect_log "batch summary" 'succeeded 6, failed 0, verified by cuzk-bench 6/6'
expect_log "batch latency percentiles" 'p50 [0-9.]+ ms, p99 [0-9.]+ ms'
expect_log "batch daemon peak memory" 'peak RSS [0-9.]+ MiB'
expect_rc "stress for 4 s, mixed kinds and priorities, all verified" 0 \
  "$BENCH" --target "$UNIX" --verify stress --duration 4 -j 2 --max-jobs 40
expect_log "stress summary" 'failed 0'
expect_log "stress per-kind rows" '^  (winning_post|window_post|porep|snap_deals|groth16/[a-z0-9-]+) +(default|low|normal|high|critical) '
expect_rc "status" 0 "$BENCH" --target "$UNIX" status
expect_log "status lists the keys" '^key mul-chain \(bls12_381\): tier'
expect_rc "status --json" 0 "$BENCH" --target "$UNIX" status --json
cp "$WORK/last.log" "$WORK/status.json"
expect_rc "status JSON parses: >= 8 succeeded, none failed" 0 node -e 'const s=JSON.parse(require("fs").readFileSync(process.argv[1]));if(!(s.jobs.succeeded>=8&&s.jobs.failed===0))process.exit(1)' "$WORK/status.json"
expect_rc "preload" 0 "$BENCH" --target "$UNIX" preload --circuit mul-chain-bn254
expect_rc "evict" 0 "$BENCH" --target "$UNIX" evict --circuit mul-chain-bn254
expect_rc "evict of an unknown circuit" 1 "$BENCH" --target "$UNIX" evict --circuit nope
expect_rc "cancel of an unknown id" 1 "$BENCH" --target "$UNIX" cancel --id nope
expect_log "cancel says NOT_FOUND" 'NOT_FOUND'
expect_rc "unknown circuit: proof fails" 1 "$BENCH" --target "$UNIX" single --circuit nope
expect_log "unknown circuit: NOT_FOUND" 'NOT_FOUND.*nope'
expect_rc "wrong token: exit 2" 2 "$BENCH" --target "$TCP" --token wrong status
expect_log "wrong token: UNAUTHENTICATED" 'UNAUTHENTICATED'
expect_rc "missing token on TCP: exit 2" 2 "$BENCH" --target "$TCP" batch -n 1
expect_rc "bad usage: exit 2" 2 "$BENCH" --target "$UNIX" batch --count zero
expect_rc "bad kind: exit 2" 2 "$BENCH" --target "$UNIX" single --kind nonsense
expect_rc "still serving after the errors" 0 "$BENCH" --target "$UNIX" --verify single --circuit mul-chain --seed 6

rc=0
stop_daemon || rc=$?
[ "$rc" -eq 0 ] && pass "SIGTERM: daemon exits 0" || fail "SIGTERM: daemon exited $rc"
[ ! -e "$WORK/d.sock" ] && pass "socket removed on shutdown" || fail "socket left behind"
grep -q "shutting down" "$WORK/daemon.log" && pass "shutdown logged" || fail "shutdown not logged"
expect_rc "no daemon: exit 2" 2 "$BENCH" --target "$UNIX" status

# ---- TLS on TCP (a self-signed certificate made here), the token from a file ----
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -addext subjectAltName=DNS:localhost \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" >/dev/null 2>&1 && pass "self-signed certificate made" ||
  fail "openssl could not make a certificate"
printf 'filed-s3cret\n' >"$WORK/token"
cat >"$WORK/tls.toml" <<EOF
[server]
unix_socket = "$WORK/t.sock"
tcp_listen = "localhost:0"
http_listen = ""
auth_token_file = "$WORK/token"
tls_cert_file = "$WORK/cert.pem"
tls_key_file = "$WORK/key.pem"

[engine]
cache_dir = "$WORK/cache"

[[circuit]]
id = "mul-chain"
native = "mul-chain"
params = { constraints = 256 }
EOF
start_daemon --config "$WORK/tls.toml"
TLS="localhost:$(json_field "$WORK/ready.json" tcp_port)"
grep -q "(bearer token required) (TLS)" "$WORK/daemon.log" && pass "the log says TLS and token" || fail "no TLS in the log"
expect_rc "TLS + the token from the file: a verified proof" 0 "$BENCH" --target "$TLS" --tls-ca "$WORK/cert.pem" \
  --token filed-s3cret --verify single --circuit mul-chain --seed 2
expect_log "verified" '^verify: OK'
expect_rc "the token from \$CUZK_TOKEN" 0 env CUZK_TOKEN=filed-s3cret "$BENCH" --target "$TLS" --tls-ca "$WORK/cert.pem" status
expect_rc "plain TCP to the TLS port fails: exit 2" 2 "$BENCH" --target "$TLS" --token filed-s3cret --timeout 5 status
expect_rc "TLS without the token: exit 2" 2 "$BENCH" --target "$TLS" --tls-ca "$WORK/cert.pem" status
expect_log "UNAUTHENTICATED" 'UNAUTHENTICATED'
stop_daemon || true

echo "daemon CLI: $fails failed"
[ "$fails" -eq 0 ]
