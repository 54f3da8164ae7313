#!/usr/bin/env bash
# Installs everything cuzk needs on a fresh Debian 12 machine (run as root), and the
# npm test-only oracles (snarkjs, circom2, circomlib, @noble/curves) under tests/oracle.
# dpkg-dev and file: the Debian package's library dependencies (dpkg-shlibdeps); adduser: its
# `cuzk` user (tests/package).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential cmake ninja-build git pkg-config time openssl \
  dpkg-dev file adduser \
  libgtest-dev libgmock-dev libbenchmark-dev libtbb-dev libgmp-dev \
  nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libspdlog-dev libfmt-dev libssl-dev \
  protobuf-compiler protobuf-compiler-grpc libprotobuf-dev libgrpc++-dev libcpp-httplib-dev >/dev/null
# Node: the machine image ships it; install Debian's only if absent.
command -v node >/dev/null && command -v npm >/dev/null || apt-get install -y -qq nodejs npm >/dev/null
(cd tests/oracle && npm ci --no-audit --no-fund --loglevel=error)
