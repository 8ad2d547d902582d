#!/usr/bin/env bash
# Installs what is missing, builds (release preset) and launches the Kolize demo on its default
# scene (two-balls). Arguments go to kolize, e.g. scripts/run.sh --scenario mixed-100, or
# scripts/run.sh --headless --scenario high-speed to run without a window.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh
cmake --preset release -DKZ_BUILD_TESTS=OFF -DKZ_BUILD_BENCH=OFF >/dev/null
cmake --build --preset release --target kolize
exec build/release/src/app/kolize "$@"
