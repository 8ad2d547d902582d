#!/usr/bin/env bash
# Installs what is missing, builds (release preset) and runs Kolize.
# Until the interactive app lands, this runs the geometry core's worked examples.
# Extra arguments are passed to the program.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh
cmake --preset release -DKZ_BUILD_TESTS=OFF -DKZ_BUILD_BENCH=OFF >/dev/null
cmake --build --preset release --target kz_geom_demo
exec build/release/src/tools/kz_geom_demo "$@"
