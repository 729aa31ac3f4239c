# What scripts/mutants.sh and scripts/mutants-wasm.sh share, sourced by
# both: reading --sample, judging a cargo-mutants run's exit, and what a
# group's report keeps beside it (how long the run took, which shard).

# --sample (the first argument) sets `sample` to cargo-mutants' arguments
# for one round-robin shard in ten (SHARD, default 0) and `sample_arg` to
# the flag itself, to pass on; the caller shifts it away when `sample_arg`
# is set.
sample=() sample_arg=()
if [ "${1:-}" = --sample ]; then
  sample=(--shard "${SHARD:-0}/10" --sharding round-robin) sample_arg=(--sample)
fi

# cargo-mutants exits 2 when a mutant was missed and 3 when one timed out;
# anything else but 0 is a failure of the run itself.
judge() {
  case $1 in
    0 | 2 | 3) ;;
    *) echo "mutants: the $2 run failed (cargo-mutants exited $1)" >&2; exit 1 ;;
  esac
}

# After group $1's run, begun at $2 (SECONDS): its time and, for a sampled
# run, its shard, beside its report.
finish_group() {
  echo $((SECONDS - $2)) >"target/mutants-report/$1/seconds"
  if [ ${#sample[@]} -gt 0 ]; then
    echo "${SHARD:-0}/10 round-robin" >"target/mutants-report/$1/sample"
  else
    rm -f "target/mutants-report/$1/sample"
  fi
}
