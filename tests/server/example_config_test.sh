#!/usr/bin/env bash
# config/cuzk-daemon.example.toml is the text `cuzk-daemon --print-default-config` generates from
# the config schema and the structs' defaults: fails, with the difference, when it is stale.
# usage: example_config_test.sh <cuzk-daemon> <config/cuzk-daemon.example.toml>
set -uo pipefail
DAEMON=$1
EXAMPLE=$2
GENERATED=$("$DAEMON" --print-default-config) || { echo "FAIL: $DAEMON --print-default-config exited $?"; exit 1; }
if ! diff -u --label "$EXAMPLE (committed)" --label "cuzk-daemon --print-default-config" "$EXAMPLE" - <<<"$GENERATED"; then
  echo "FAIL: $EXAMPLE is stale; regenerate it from the repository root with"
  echo "  cuzk-daemon --print-default-config > config/cuzk-daemon.example.toml"
  exit 1
fi
echo "PASS: $EXAMPLE is what cuzk-daemon --print-default-config prints"
