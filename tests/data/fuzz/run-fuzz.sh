#!/usr/bin/env bash
# Bounded fuzz run for CI: 3 targets x 20 s (60 s in all), from the repo root,
# after building build-fuzz (see the report in the logs branch / README).
set -euo pipefail
B=${1:-build-fuzz}
for t in py_repr_fuzz log_scanner_fuzz line_split_fuzz; do
  mkdir -p "$B/corpus-$t"
done
"$B/py_repr_fuzz" -max_total_time=20 -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 "$B/corpus-py_repr_fuzz" tests/data/fuzz/py_repr
"$B/log_scanner_fuzz" -max_total_time=20 -timeout=5 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "$B/corpus-log_scanner_fuzz" tests/data/sglang tests/data/vllm tests/data/hostile
"$B/line_split_fuzz" -max_total_time=20 -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 "$B/corpus-line_split_fuzz" tests/data/vllm
