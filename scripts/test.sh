#!/usr/bin/env bash
# The test command (README): configure, build and run every CPU test.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${CUZK_PRESET:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)"
