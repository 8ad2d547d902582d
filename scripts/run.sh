#!/usr/bin/env bash
# Installs what is missing, builds (release preset) and runs Kolize.
# Until the interactive window lands: the geometry core's worked examples, then the default
# scenario (two-balls) run headless for 10 simulated seconds, printing its JSON report.
# Arguments are passed to `kolize --headless` (e.g. scripts/run.sh --scenario high-speed).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh
cmake --preset release -DKZ_BUILD_TESTS=OFF -DKZ_BUILD_BENCH=OFF >/dev/null
cmake --build --preset release --target kz_geom_demo kolize
build/release/src/tools/kz_geom_demo
echo
exec build/release/src/app/kolize --headless "$@"
