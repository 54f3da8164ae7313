#!/usr/bin/env bash
# The Debian package end to end, as root on a Debian machine (elsewhere skipped: exit 77). Runs the
# README's `package` block as written (`cmake --build build/release --target package`, where
# build/release is the tree under test, already built: packaging only copies its programs; then
# `dpkg -i`), then checks the installed package: the programs, `cuzk --version`, the default
# config, the declared library dependencies and no CUDA runtime to load, the conffile, the systemd
# unit (systemd-analyze verify), the `cuzk` user, /var/cache/cuzk, and the daemon started as that
# user from /etc/cuzk/cuzk-daemon.toml proving and verifying a proof. The README's `service` block
# runs where systemd does. Then `dpkg -r` (the configuration stays) and `dpkg --purge` (nothing
# stays: files, cache, user). A cuzk package already on the machine is left alone (skipped).
# usage: deb_package_test.sh <source dir> <built tree> <version> <work dir>
set -uo pipefail
SRC=$1
BUILD=$(cd "$2" && pwd)
VERSION=$3
WORK=$4
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root: installing a package needs root"
for tool in dpkg dpkg-deb dpkg-query cpack; do command -v $tool >/dev/null || skip "no $tool here"; done
dpkg-query -W cuzk >/dev/null 2>&1 && skip "a cuzk package is already known to dpkg here: not touching it"
for tool in dpkg-shlibdeps file; do command -v $tool >/dev/null || { echo "FAIL: no $tool (scripts/install_deps.sh installs it)"; exit 1; }; done

fails=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { local what=$1; shift; if "$@" >"$WORK/last.log" 2>&1; then pass "$what"; else fail "$what"; cat "$WORK/last.log"; fi; }
SYS_PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/bin
DEB=$BUILD/cuzk_${VERSION}_$(dpkg --print-architecture).deb
DAEMON_PID=
RUN=
cleanup() {
  [ -z "$DAEMON_PID" ] || { kill -TERM "$DAEMON_PID" 2>/dev/null; wait "$DAEMON_PID" 2>/dev/null; }
  dpkg-query -W cuzk >/dev/null 2>&1 && dpkg --purge cuzk >/dev/null 2>&1
  [ -z "${RUN:-}" ] || rm -rf "$RUN"
  return 0
}
trap cleanup EXIT
rm -rf "$WORK" && mkdir -p "$WORK/build" && ln -s "$BUILD" "$WORK/build/release"
rm -f "$DEB"

block=$("$SRC/tests/readme/readme_blocks.sh" "$SRC/README.md" package)
if (cd "$WORK" && PATH=$SYS_PATH bash -e -c "$block") >"$WORK/readme-package.log" 2>&1; then
  pass "the README's package block runs (package built, installed, cuzk --version, default config)"
else
  fail "the README's package block:"; tail -n 40 "$WORK/readme-package.log"
fi
dpkg-query -W -f='${Status}' cuzk 2>/dev/null | grep -q 'install ok installed' || { echo "FAIL: not installed"; exit 1; }

programs="cuzk cuzk-daemon cuzk-bench"
[ ! -x "$BUILD/src/apps/cuzk-prover" ] || programs="$programs cuzk-prover"
for p in $programs; do check "/usr/bin/$p installed" test -x /usr/bin/$p; done
/usr/bin/cuzk --version >"$WORK/version.log" 2>&1
grep -q "$VERSION" "$WORK/version.log" && pass "cuzk --version: $(head -n 1 "$WORK/version.log")" ||
  fail "cuzk --version does not print $VERSION: $(head -n 3 "$WORK/version.log")"
/usr/bin/cuzk-daemon --print-default-config >"$WORK/default.toml" 2>&1 && grep -q '^\[engine\]' "$WORK/default.toml" &&
  pass "cuzk-daemon --print-default-config" || fail "cuzk-daemon --print-default-config: $(head -n 3 "$WORK/default.toml")"
depends=$(dpkg-deb -f "$DEB" Depends)
[[ $depends == *adduser* && $depends == *libc6* && $depends == *libgrpc* ]] && pass "Depends (shlibdeps): $depends" ||
  fail "Depends lacks adduser, libc6 or libgrpc: $depends"
libs=$(cd /usr/bin && ldd $programs)
[[ $libs != *"not found"* ]] && pass "every shared library the programs load is there" || fail "missing libraries: $libs"
[[ $libs != *libcudart* ]] && pass "no CUDA runtime library to load (linked statically)" || fail "the programs load libcudart"

CONF=/etc/cuzk/cuzk-daemon.toml
dpkg-query -W -f='${Conffiles}' cuzk | grep -q "$CONF" && pass "$CONF is a conffile" || fail "$CONF is not a conffile"
grep -q '^unix_socket = "/run/cuzk/cuzk-daemon.sock"' $CONF && grep -q '^cache_dir = "/var/cache/cuzk"' $CONF &&
  pass "$CONF has the service's socket and cache" || fail "$CONF: socket or cache_dir"
UNIT=/lib/systemd/system/cuzk-daemon.service
check "$UNIT installed, reading $CONF" grep -q "^ExecStart=/usr/bin/cuzk-daemon --config $CONF\$" $UNIT
if command -v systemd-analyze >/dev/null; then check "systemd-analyze verify $UNIT" systemd-analyze verify $UNIT
else echo "not checked: systemd-analyze verify (no systemd-analyze here)"; fi
[[ $(getent passwd cuzk) == cuzk:x:* ]] && [ "$(id -u cuzk)" -lt 1000 ] && getent group cuzk >/dev/null &&
  pass "system user and group cuzk" || fail "no system user/group cuzk: $(getent passwd cuzk)"
[ "$(stat -c '%U:%G %a' /var/cache/cuzk 2>&1)" = "cuzk:cuzk 700" ] && pass "/var/cache/cuzk cuzk:cuzk 0700" ||
  fail "/var/cache/cuzk: $(stat -c '%U:%G %a' /var/cache/cuzk 2>&1)"

# The daemon as the service runs it (user cuzk, the installed config), on a socket of its own.
RUN=$(mktemp -d /tmp/cuzk-deb-test.XXXXXX)
chown cuzk:cuzk "$RUN"
runuser -u cuzk -- /usr/bin/cuzk-daemon --config $CONF --unix-socket "$RUN/d.sock" --http "" \
  --ready-file "$RUN/ready.json" >"$WORK/daemon.log" 2>&1 &
DAEMON_PID=$!
for _ in $(seq 1 300); do [ -f "$RUN/ready.json" ] || ! kill -0 $DAEMON_PID 2>/dev/null && break; sleep 0.2; done
if [ -f "$RUN/ready.json" ]; then
  pass "cuzk-daemon starts as user cuzk from $CONF"
  check "cuzk-bench --verify single: a proof from the installed daemon, verified" \
    /usr/bin/cuzk-bench --target "unix:$RUN/d.sock" --verify single --circuit mul-chain
  [ -n "$(find /var/cache/cuzk -user cuzk -type f)" ] && pass "the key is cached in /var/cache/cuzk" ||
    fail "nothing cached in /var/cache/cuzk"
else
  fail "cuzk-daemon did not start as user cuzk:"; cat "$WORK/daemon.log"
fi
kill -TERM $DAEMON_PID 2>/dev/null; wait $DAEMON_PID 2>/dev/null; DAEMON_PID=

if [ -d /run/systemd/system ]; then
  block=$("$SRC/tests/readme/readme_blocks.sh" "$SRC/README.md" service)
  check "the README's service block (systemctl enable --now, a proof)" env PATH=$SYS_PATH bash -e -c "$block"
  systemctl disable --now cuzk-daemon >/dev/null 2>&1
else
  echo "not run: the README's service block (systemd is not running here)"
fi

files=$(dpkg-query -L cuzk | while read -r f; do [ -d "$f" ] || echo "$f"; done)
check "dpkg -r cuzk" dpkg -r cuzk
left=$(for f in $files; do [ -e "$f" ] && [ "$f" != $CONF ] && echo "$f"; done)
[ -z "$left" ] && pass "dpkg -r removed the package's files" || fail "dpkg -r left: $left"
check "dpkg -r kept the configuration" test -f $CONF
check "dpkg --purge cuzk" dpkg --purge cuzk
left=$(for f in $files /etc/cuzk /var/cache/cuzk; do [ -e "$f" ] && echo "$f"; done)
[ -z "$left" ] && pass "dpkg --purge left no files" || fail "dpkg --purge left: $left"
getent passwd cuzk >/dev/null || getent group cuzk >/dev/null && fail "dpkg --purge left the cuzk user or group" ||
  pass "dpkg --purge removed the cuzk user and group"

echo "package: $fails failed"
[ "$fails" -eq 0 ]
