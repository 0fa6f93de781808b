#!/usr/bin/env bash
# Rewrites the output of every ```console block in README.md that starts with
# "$ kvplan ...", by running the command (the counterpart of
# check-readme.sh). Usage: update-readme.sh KVPLAN README
set -euo pipefail
kvplan=$(realpath "$1")
readme=$2
root=$(cd "$(dirname "$readme")" && pwd)
out=$(mktemp)
# As in check-readme.sh: in order, from the root, one fresh history database.
rm -f /tmp/kvplan-readme.db /tmp/kvplan-readme.db-wal /tmp/kvplan-readme.db-shm
run_example() {
  (cd "$root" && KVPLAN_BIN="$kvplan" COLUMNS=100 NO_COLOR=1 bash -c \
    'kvplan() { "$KVPLAN_BIN" "$@"; }; eval "kvplan $1"' _ "$1")
}
in_block=0
skip=0
while IFS= read -r line || [ -n "$line" ]; do
  if [ $in_block -eq 0 ] && [ "$line" = '```console' ]; then
    in_block=1
    printf '%s\n' "$line" >> "$out"
    continue
  fi
  if [ $in_block -eq 1 ]; then
    case "$line" in
      '$ kvplan '*)
        printf '%s\n' "$line" >> "$out"
        cmd=${line#'$ kvplan '}
        run_example "$cmd" >> "$out" 2>&1 || true
        skip=1
        in_block=2
        continue ;;
      *) in_block=2 ;;
    esac
  fi
  if [ $in_block -eq 2 ] && [ "$line" = '```' ]; then
    in_block=0
    skip=0
    printf '%s\n' "$line" >> "$out"
    continue
  fi
  [ $skip -eq 1 ] && continue
  printf '%s\n' "$line" >> "$out"
done < "$readme"
mv "$out" "$readme"
