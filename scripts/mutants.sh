#!/usr/bin/env bash
# make mutants: cargo-mutants over the library's rules, then over the call
# loop (see the Makefile), each group run whatever the other found. Fails
# when a run itself fails, or when a mutant survives that mutants.md does
# not list in its "Survivors" block (cargo-mutants' own name for it, the
# line and column left out: they move with every edit above them). A
# timeout is detected (the tests never pass), so it does not fail the run.
#
#   scripts/mutants.sh              both groups
#   scripts/mutants.sh rules|loop   one of them
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

mutants() {
  CARGO_TARGET_DIR="$PWD/target" cargo mutants --package user-management-client \
    --profile mutants --cargo-arg=--locked --cargo-arg=--lib -j 1 "$@"
}
# cargo-mutants exits 2 when a mutant was missed and 3 when one timed out;
# anything else but 0 is a failure of the run itself.
judge() {
  local status=$1 group=$2
  case $status in
    0 | 2 | 3) ;;
    *) echo "mutants: the $group run failed (cargo-mutants exited $status)" >&2; exit 1 ;;
  esac
}

groups=("$@")
[ $# -eq 0 ] && groups=(rules loop)
cargo build --locked -p user-management-server --profile mutants || exit 1
mkdir -p target/mutants-report
for group in "${groups[@]}"; do
  case $group in
    rules) mutants --timeout 60 --file 'src/rules/**' --output target/mutants-report/rules ;;
    loop) mutants --timeout 120 --file src/api/client.rs --file src/api/hooks.rs \
      --cargo-arg=--test=native_client --cargo-arg=--test=native --output target/mutants-report/loop ;;
    *) echo "usage: $0 [rules | loop]" >&2; exit 2 ;;
  esac
  judge $? "$group"
done

listed=$(sed -n '/^```text survivors$/,/^```$/p' mutants.md)
unlisted=$(for group in "${groups[@]}"; do cat "target/mutants-report/$group/mutants.out/missed.txt"; done |
  sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' | grep -vxF -f <(printf '%s\n' "$listed") || true)
if [ -n "$unlisted" ]; then
  printf 'mutants: survivors mutants.md does not list:\n%s\n' "$unlisted" >&2
  exit 1
fi
for group in "${groups[@]}"; do
  printf 'mutants, %s: ' "$group"
  for outcome in caught timeout missed unviable; do
    printf '%s %s  ' "$(wc -l <"target/mutants-report/$group/mutants.out/$outcome.txt")" "$outcome"
  done
  echo
done
echo "mutants: every survivor is listed in mutants.md"
