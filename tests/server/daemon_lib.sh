# Shared by the daemon shell tests: pass/fail counters and starting/stopping one cuzk-daemon
# (its pid in DAEMON_PID; ports read from its --ready-file). Source it; needs DAEMON and WORK;
# READY_TIMEOUT_S (default 120) bounds the wait for a daemon to serve. Also sourced by
# tools/device/gpu_daemon_run.sh.
fails=0
DAEMON_PID=
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect_rc <what> <rc> <cmd...>: the command exits with rc; its output is in $WORK/last.log.
expect_rc() {
  local what=$1 want=$2 rc=0
  shift 2
  "$@" >"$WORK/last.log" 2>&1 || rc=$?
  if [ "$rc" -eq "$want" ]; then pass "$what"; else fail "$what (exit $rc, expected $want)"; cat "$WORK/last.log"; fi
}
expect_log() {  # expect_log <what> <regex>: the last command's output matches
  if grep -Eq "$2" "$WORK/last.log"; then pass "$1"; else fail "$1 (no /$2/ in output)"; cat "$WORK/last.log"; fi
}
json_field() {  # json_field <file> <field>
  node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1]))[process.argv[2]])' "$1" "$2"
}
cpu_daemon_config() {  # cpu_daemon_config [WORKERS]: $WORK/daemon.toml, the CPU backend on $WORK/d.sock only
  cat >"$WORK/daemon.toml" <<EOF
[server]
unix_socket = "$WORK/d.sock"
tcp_listen = ""
http_listen = ""

[engine]
backend = "cpu"
devices = 1
workers_per_device = ${1:-1}
cache_dir = "$WORK/cache"
EOF
}
# serve_test_keys <keys dir> <fixture> <log regex>: the CPU daemon (one worker) serving the
# Filecoin TEST keys that a CLI test left in <keys dir> (CTest fixture <fixture>); passes when its
# log matches <log regex> (the circuits listed as TEST keys).
serve_test_keys() {
  local keys=$1 fixture=$2 listed=$3
  compgen -G "$keys/*.params" >/dev/null ||
    { echo "no .params in $keys: the keys come from the CTest fixture $fixture"; exit 1; }
  cpu_daemon_config
  start_daemon --config "$WORK/daemon.toml" --params-dir "$keys"
  if grep -q "$listed" "$WORK/daemon.log"; then pass "the daemon's log says: $listed"
  else fail "the daemon's log does not say: $listed"; fi
}
start_daemon() {  # start_daemon <args...>: waits (bounded) until it serves
  rm -f "$WORK/ready.json"
  "$DAEMON" --ready-file "$WORK/ready.json" "$@" >"$WORK/daemon.log" 2>&1 &
  DAEMON_PID=$!
  local limit=${READY_TIMEOUT_S:-120}
  for _ in $(seq 1 $((limit * 5))); do
    [ -f "$WORK/ready.json" ] && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || { echo "daemon exited:"; cat "$WORK/daemon.log"; DAEMON_PID=; return 1; }
    sleep 0.2
  done
  echo "daemon not ready after $limit s"; cat "$WORK/daemon.log"; return 1
}
stop_daemon() {  # stop_daemon [SIGNAL]: SIGTERM by default, then wait at most 20 s; returns the daemon's exit status
  [ -n "$DAEMON_PID" ] || return 0
  kill -"${1:-TERM}" "$DAEMON_PID" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$DAEMON_PID" 2>/dev/null; then kill -KILL "$DAEMON_PID"; fi
  local rc=0
  wait "$DAEMON_PID" || rc=$?
  DAEMON_PID=
  return $rc
}
trap 'stop_daemon || true' EXIT
