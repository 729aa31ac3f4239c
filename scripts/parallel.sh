#!/usr/bin/env bash
# Runs each argument as a shell command, all at once, and prints each one's
# output whole, in the order given, when all have ended. Exits non-zero if
# any of them failed, naming it. For checks that spend most of their time
# waiting (builds of one thread, servers, browsers) on a machine of few cores.
set -uo pipefail
[ "$#" -gt 0 ] || { echo "usage: scripts/parallel.sh 'command' ['command' ...]" >&2; exit 2; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
i=0
for command in "$@"; do
  echo "parallel: [$i] $command"
  bash -c "$command" >"$logs/$i" 2>&1 &
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
