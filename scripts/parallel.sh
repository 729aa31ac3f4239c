#!/usr/bin/env bash
# Runs each argument as a shell command, all at once, and prints each one's
# output whole, in the order given, when all have ended. Exits non-zero if
# any of them failed, naming it. For checks that spend most of their time
# waiting (builds of one thread, servers, browsers) on a machine of few cores.
# Each command is timed (scripts/phases.sh part), under a name: its words
# after those that all the commands begin with (`make … runners` and `make …
# workers`: runners, workers).
set -uo pipefail
[ "$#" -gt 0 ] || { echo "usage: scripts/parallel.sh 'command' ['command' ...]" >&2; exit 2; }
phases=$(dirname "$0")/phases.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
read -ra first <<<"$1"
common=${#first[@]}
for command in "$@"; do
  read -ra words <<<"$command"
  n=0
  while [ "$n" -lt "$common" ] && [ "$n" -lt $((${#words[@]} - 1)) ] && [ "${words[$n]}" = "${first[$n]}" ]; do
    n=$((n + 1))
  done
  common=$n
done
pids=()
i=0
for command in "$@"; do
  echo "parallel: [$i] $command"
  read -ra words <<<"$command"
  "$phases" part "${words[*]:common}" -- bash -c "$command" >"$logs/$i" 2>&1 &
  pids+=($!)
  i=$((i + 1))
done
status=0
failed=()
i=0
for command in "$@"; do
  if ! wait "${pids[$i]}"; then status=1; failed+=("[$i] $command"); fi
  i=$((i + 1))
done
i=0
for command in "$@"; do
  echo "--- parallel: [$i] $command"
  cat "$logs/$i"
  i=$((i + 1))
done
for f in "${failed[@]}"; do echo "parallel: failed: $f" >&2; done
exit "$status"
