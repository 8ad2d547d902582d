#!/usr/bin/env bash
# Fuzzes every parser of outside input (tests/fuzz; docs/building.md, "Fuzzing"): installs what is
# missing, builds the fuzz preset (clang, libFuzzer, ASan + UBSan) and runs each target for
# SECONDS (default 60), one after the other. Exits non-zero when any target finds a crash, a
# sanitizer report, a leak, a timeout or an out-of-memory, naming the input it kept and the
# command that reproduces it.
#   scripts/fuzz.sh [SECONDS]
# Under build/fuzz: corpus/<target>/ (the work corpus, grown across runs; seeded from the target's
# folders in tests/fuzz and assets/), artifacts/<target>/ (failing inputs), logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: SECONDS must be a positive whole number, got '$seconds'" >&2
  exit 2
fi

scripts/deps.sh
werror=OFF
[[ -n "${CI:-}" ]] && werror=ON
cmake --preset fuzz -DKZ_WERROR="$werror" >/dev/null
cmake --build --preset fuzz

# Limits, the same for every target:
# - timeout 10 s for one input: the harnesses bound their work (steps, bodies, rays), so a
#   legitimate input takes milliseconds;
# - rss_limit_mb 1024: the loaders must stay within a few hundred MB whatever the file. Under
#   ASan the same program holds up to 256 MB more in its quarantine of freed memory, plus shadow
#   memory and redzones (about 2x), so 1 GiB of RSS means a real use of several hundred MB: far
#   beyond anything an input of at most 64 KiB (max_len) legitimately needs;
# - malloc_limit_mb 512: one allocation that large fails at once, with the stack that made it.
status=0
summary=()
manifest=build/fuzz/tests/fuzz/fuzz_targets.tsv
while IFS=$'\t' read -r name binary dict max_len seed_list; do
  corpus=build/fuzz/corpus/$name
  artifacts=build/fuzz/artifacts/$name/
  log=build/fuzz/logs/$name.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  IFS=';' read -ra seed_dirs <<<"$seed_list"
  inputs=("$corpus")
  for dir in "${seed_dirs[@]}"; do
    [[ -d "$dir" ]] && inputs+=("$dir")
  done
  before=$(find "$artifacts" -type f | wc -l)

  echo "fuzz.sh: $name: ${seconds} s (log: $log)"
  rc=0
  "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=512 \
    -detect_leaks=1 -max_len="$max_len" -dict="$dict" -artifact_prefix="$artifacts" \
    -print_final_stats=1 "${inputs[@]}" >"$log" 2>&1 || rc=$?

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
  kept=$(find "$corpus" -type f | wc -l)
  if ((rc == 0)) && (($(find "$artifacts" -type f | wc -l) == before)); then
    summary+=("$name: ok, ${runs:-?} runs (${rate:-?}/s), corpus $kept inputs, peak RSS ${rss:-?} MB")
    continue
  fi
  status=1
  artifact=$(ls -t "$artifacts" 2>/dev/null | head -n 1)
  grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz check failed|.*runtime error)' "$log" | head -n 5 >&2 || true
  summary+=("$name: FAILED (exit $rc), input $artifacts$artifact; reproduce: $binary $artifacts$artifact")
done <"$manifest"

for line in "${summary[@]}"; do
  echo "fuzz.sh: $line"
done
exit "$status"
