#!/usr/bin/env bash
# Bounded fuzz run (CI): runs every src/**/*_fuzz.cc target of a clang build
# configured with -DKVPLAN_FUZZ=ON (make asan makes one) for FUZZ_SECONDS
# (default 15) from the seed corpora. Any crash, leak, timeout or sanitizer
# report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
seconds=${FUZZ_SECONDS:-15}
targets=$(find src -name '*_fuzz.cc' -exec basename {} .cc \; | sort)
cmake --build "$build" -j "$(nproc)" --target $targets
declare -A seeds=(
  [py_repr_fuzz]="tests/data/synthetic/fuzz/py_repr"
  [log_scanner_fuzz]="tests/data/synthetic/sglang tests/data/synthetic/vllm tests/data/synthetic/hostile tests/data/real/sglang"
  [line_split_fuzz]="tests/data/synthetic/vllm tests/data/real/sglang"
  [config_parser_fuzz]="data/models tests/data/synthetic/fuzz/config_parser"
  [run_record_json_fuzz]="tests/data/synthetic/fuzz/run_record"
)
for t in $targets; do
  corpus="$build/corpus-$t"
  mkdir -p "$corpus"
  echo "== $t for ${seconds}s"
  "$build/$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 "$corpus" ${seeds[$t]:-} 2>&1 | tail -n 12
done
echo "fuzz: $(echo $targets | wc -w) targets, no crash"
