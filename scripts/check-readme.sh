#!/usr/bin/env bash
# Keeps README.md true: every ```console block whose first line is
# "$ kvplan ..." is run from the repository root with the built binary, and its
# output must equal the block's remaining lines. Usage: check-readme.sh KVPLAN README
set -uo pipefail
kvplan=$1
readme=$2
root=$(cd "$(dirname "$readme")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '
  /^```console$/ { inblock = 1; n++; file = sprintf("%s/%03d", dir, n); next }
  /^```$/ && inblock { inblock = 0; close(file); next }
  inblock { print > file }
' "$readme"
# Examples run in order from the repository root, with `kvplan` meaning the
# binary under test; the run-history examples share one fresh database. The
# README names it /tmp/kvplan-readme.db; each check uses a private copy of that
# path, so two checks running at once (two build trees) cannot share a store.
db="$tmp/kvplan-readme.db"
run_example() {
  local cmd=${1//\/tmp\/kvplan-readme.db/$db}
  (cd "$root" && KVPLAN_BIN="$kvplan" COLUMNS=100 NO_COLOR=1 bash -c \
    'kvplan() { "$KVPLAN_BIN" "$@"; }; eval "kvplan $1"' _ "$cmd") 2>&1 | sed "s#$db#/tmp/kvplan-readme.db#g"
}
failed=0
checked=0
for block in "$tmp"/[0-9]*; do
  [ -f "$block" ] || continue
  first=$(head -n 1 "$block")
  case "$first" in
    '$ kvplan '*) ;;
    *) continue ;;
  esac
  cmd=${first#'$ kvplan '}
  tail -n +2 "$block" > "$block.want"
  run_example "$cmd" > "$block.got" 2>&1
  checked=$((checked + 1))
  # Wall-clock figures (tune's search speed) differ run to run.
  for f in "$block.want" "$block.got"; do
    sed -E -i 's/in [0-9.]+ s \([0-9,]+\/s\)/in <elapsed>/' "$f"
  done
  if ! diff -u "$block.want" "$block.got" > "$block.diff"; then
    echo "README example is stale: kvplan $cmd"
    head -n 40 "$block.diff"
    failed=$((failed + 1))
  fi
done
echo "README examples: $checked checked, $failed stale"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
