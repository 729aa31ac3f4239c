#!/usr/bin/env bash
# Runs a command with the reference server up on a free loopback port and a
# fresh in-memory database, its URL in USERS_API_URL; stops it afterwards.
#   scripts/with-server.sh [--seed N] [server flags...] -- COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."

server_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do server_args+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [server flags] -- COMMAND" >&2; exit 2; }

# The debug build, brought up to date with its sources first (a no-op when
# it is); a SERVER_BIN given is the caller's to keep current.
if [ -n "${SERVER_BIN:-}" ]; then
  bin=$SERVER_BIN
else
  bin=target/debug/user-management-server
  cargo build -q --locked -p user-management-server
fi
log=$(mktemp)
"$bin" --bind 127.0.0.1:0 --db :memory: "${server_args[@]}" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT

for _ in $(seq 1 100); do
  url=$(sed -n 's/^Listening on //p' "$log")
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "the server exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "${url:-}" ] || { cat "$log" >&2; echo "the server did not start in 10 s" >&2; exit 1; }

export USERS_API_URL=$url
"$@"
