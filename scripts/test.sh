#!/usr/bin/env bash
# Installs what is missing, builds and runs every test.
#   scripts/test.sh           release preset (-O2, unity build)
#   scripts/test.sh asan      AddressSanitizer + UndefinedBehaviorSanitizer preset
#   scripts/test.sh debug     debug preset
# Warnings are errors when CI is set (CI=true), as in .ci/run.
# The whole ctest run happens under Xvfb so tests that open a window (the app's) have a
# display; KZ_REQUIRE_DISPLAY=1 makes such tests fail rather than skip if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

preset=${1:-release}
case "$preset" in
  release|debug|asan) ;;
  *) echo "test.sh: unknown preset '$preset' (expected release, debug or asan)" >&2; exit 2 ;;
esac

scripts/deps.sh
werror=OFF
[[ -n "${CI:-}" ]] && werror=ON
cmake --preset "$preset" -DKZ_WERROR="$werror" >/dev/null
cmake --build --preset "$preset"

export KZ_REQUIRE_DISPLAY=1
# -noreset: without it Xvfb resets whenever its last client disconnects, and an SDL window opened
# during that reset falls back to SDL's offscreen driver (17 of 200 bare SDL_Init calls did).
xvfb-run --auto-servernum --server-args="-screen 0 1280x720x24 -noreset" \
  ctest --preset "$preset" --output-on-failure --no-tests=error -j "$(nproc)"
