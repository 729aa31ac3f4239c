#!/usr/bin/env bash
# Times the phases of `make test`: each one's wall time and CPU time (user +
# system of the processes it ran, as Linux counts a process's children: those
# waited for), a line as each one ends, and a table of them all when the run
# ends, a failed or interrupted run too.
#
#   scripts/phases.sh run -- COMMAND...   runs COMMAND (the make of the phases)
#       with the table target/phases.tsv emptied, prints the table when it
#       ends, and exits with its status
#   scripts/phases.sh start NAME PID      phase NAME begins, and ends: PID is
#   scripts/phases.sh end NAME PID        the make running it, whose children's
#       CPU time grows by what the phase's processes spend
#   scripts/phases.sh part NAME -- COMMAND...   runs COMMAND, one of the
#       commands scripts/parallel.sh runs side by side, and times it
#
# Without `run` around them (PHASES_TABLE unset), `start` and `end` do
# nothing and `part` only prints its line. The table's rows, tab-separated,
# in the order of the events (times in microseconds, CPU in clock ticks):
#   start NAME TIME CPU_OF_MAKE | end NAME TIME CPU_OF_MAKE | part NAME WALL CPU STATUS
set -uo pipefail

ticks_per_s=$(getconf CLK_TCK)

# Sets NOW to the time in microseconds (EPOCHREALTIME, whose separator is the
# locale's).
now() { NOW=${EPOCHREALTIME/[^0-9]/}; }
# `children_cpu PID`: sets CPU to the user + system time of PID's children
# that it waited for, in clock ticks (fields 16 and 17 of /proc/PID/stat).
children_cpu() {
  local stat fields
  read -r stat <"/proc/$1/stat"
  read -ra fields <<<"${stat##*) }"
  CPU=$((fields[13] + fields[14]))
}
# `seconds MICROSECONDS` and `cpu_seconds TICKS`: set S to tenths of a second, as text.
seconds() { local tenths=$((($1 + 50000) / 100000)); S=$((tenths / 10)).$((tenths % 10)); }
cpu_seconds() { seconds $(($1 * 1000000 / ticks_per_s)); }
# `say NAME WALL_US CPU_TICKS [STATUS]`: the line for one phase or part.
say() {
  local wall cpu
  seconds "$2"; wall=$S
  cpu_seconds "$3"; cpu=$S
  printf '[phase] %s: %swall %s s, cpu %s s\n' "$1" "${4:+$4 after }" "$wall" "$cpu"
}

# `row NAME WALL_US CPU_TICKS [NOTE]`: a row of the table.
row() {
  local wall cpu line
  seconds "$2"; wall=$S
  cpu_seconds "$3"; cpu=$S
  printf -v line '  %-36s %9s %9s  %s' "$1" "$wall" "$cpu" "${4:-}"
  echo "${line%"${line##*[! ]}"}"
}

# The table, from the events: a phase's parts below it; a phase begun and
# not ended FAILED, its time up to the next phase's start or the run's end.
table() {
  local run_end=$1 run_cpu=$2 kind name a b c open= open_at open_cpu parts=() part
  close() {
    local part_name wall cpu note
    row "$open" $(($1 - open_at)) $(($2 - open_cpu)) "${3:-}"
    for part in "${parts[@]}"; do
      IFS=$'\t' read -r part_name wall cpu note <<<"$part"
      row "  $part_name" "$wall" "$cpu" "side by side${note:+, $note}"
    done
    open= parts=()
  }
  echo "[phase] the phases of make test (CPU: user + system of their processes)"
  printf '  %-36s %9s %9s\n' phase "wall s" "cpu s"
  while IFS=$'\t' read -r kind name a b c; do
    case $kind in
      start) [ -z "$open" ] || close "$a" "$b" FAILED
        open=$name open_at=$a open_cpu=$b ;;
      end) close "$a" "$b" ;;
      part) parts+=("$name"$'\t'"$a"$'\t'"$b"$'\t'"$c") ;;
    esac
  done <"$PHASES_TABLE"
  [ -z "$open" ] || close "$run_end" "$run_cpu" FAILED
}

case "${1:-}" in
  run)
    shift
    [ "${1:-}" = -- ] && shift
    root=$(cd "$(dirname "$0")/.." && pwd)
    mkdir -p "$root/target"
    export PHASES_TABLE=$root/target/phases.tsv
    : >"$PHASES_TABLE"
    now; started=$NOW
    children_cpu $$; cpu_before=$CPU
    finish() {
      local status=$1 total_wall total_cpu
      now; total_wall=$((NOW - started))
      children_cpu $$; total_cpu=$((CPU - cpu_before))
      # The make's children's CPU time starts at 0 with it: at the end, the
      # run's total stands for it (a phase still open ends with the run).
      table "$NOW" "$total_cpu"
      row total "$total_wall" "$total_cpu" "$([ "$status" = 0 ] || echo "FAILED (status $status)")"
      exit "$status"
    }
    trap 'finish 130' INT
    trap 'finish 143' TERM
    "$@"
    finish $?
    ;;
  start | end)
    [ -n "${PHASES_TABLE:-}" ] || exit 0
    now; children_cpu "$3"
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$NOW" "$CPU" >>"$PHASES_TABLE"
    if [ "$1" = end ]; then
      at= cpu=
      while IFS=$'\t' read -r kind name a b _; do
        [ "$kind" = start ] && [ "$name" = "$2" ] && at=$a cpu=$b
      done <"$PHASES_TABLE"
      say "$2" $((NOW - at)) $((CPU - cpu))
    fi
    ;;
  part)
    name=$2
    shift 2
    [ "${1:-}" = -- ] && shift
    now; started=$NOW
    children_cpu $$; cpu_before=$CPU
    "$@"
    status=$?
    now; children_cpu $$
    failed=$([ "$status" = 0 ] || echo FAILED)
    say "$name (side by side)" $((NOW - started)) $((CPU - cpu_before)) "$failed"
    [ -z "${PHASES_TABLE:-}" ] ||
      printf 'part\t%s\t%s\t%s\t%s\n' "$name" $((NOW - started)) $((CPU - cpu_before)) "$failed" >>"$PHASES_TABLE"
    exit "$status"
    ;;
  *)
    echo "usage: $0 run -- COMMAND... | start NAME PID | end NAME PID | part NAME -- COMMAND..." >&2
    exit 2
    ;;
esac
