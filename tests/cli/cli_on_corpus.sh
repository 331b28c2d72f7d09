#!/usr/bin/env bash
# Every tracescope-cli command that reads a trace, on every file given (folders: every file in
# them): each must end by itself within 60 s, with status 0 (done) or 1-3 (a clear error, a
# usage error, --strict), never by a signal, a timeout or a sanitizer report. A two-file command
# (pod, diff) gets the file twice. Used by CTest on the hostile files and the fuzz seeds, and by
# hand on the corpus a long fuzzing run grew (tests/fuzz/long_run.sh).
#   tests/cli/cli_on_corpus.sh TRACESCOPE_CLI FILE|DIR...
set -uo pipefail
cli=${1:?usage: cli_on_corpus.sh TRACESCOPE_CLI FILE|DIR...}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
for a in "$@"; do
  if [ -d "$a" ]; then while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$a" -maxdepth 1 -type f -print0 | sort -z)
  else files+=("$a"); fi
done
commands=("info --json" "stats --json" "stats --by type --side device --csv" "tracks --json" "kernels --json"
  "overview --json" "input-pipeline --json" "tfdata --json" "scopes --json" "torch-ops --json"
  "torch-ops --group-by-shape --csv" "memory --json" "memory --csv --breakdown" "convert --to chrome-json"
  "gpu-util --json --gaps" "launch-stats --json --rows" "queue --json" "advice --json"
  "flame --json --by-thread" "flame --folded --bottom-up" "flame --code --csv" "flame --pprof"
  "query --json" "convert --to sqlite" "collectives --json" "collectives --csv" "summarize")
# Every table of `query`, its parents and args included, in one statement.
every_table="SELECT (SELECT count(*) FROM slice), (SELECT count(parent_id) FROM slice),
  (SELECT count(*) FROM slice WHERE ts BETWEEN 0 AND 1000000), (SELECT count(*) FROM instant),
  (SELECT sum(value) FROM counter), (SELECT count(*) FROM thread_slice), (SELECT count(*) FROM flow),
  (SELECT count(*) FROM args), (SELECT count(extract_arg(arg_set_id, 'correlation')) FROM slice),
  (SELECT count(*) FROM process), (SELECT count(*) FROM metadata), (SELECT count(*) FROM op_stats),
  (SELECT count(*) FROM kernel_stats), (SELECT count(*) FROM steps), (SELECT count(*) FROM call_tree),
  (SELECT count(*) FROM memory_events), (SELECT count(*) FROM memory_peaks), (SELECT count(*) FROM gpu_idle_gaps),
  (SELECT count(*) FROM launches), (SELECT count(*) FROM collectives)"
runs=0 failures=0 done=0
check() {  # check LABEL STATUS: counts the run, reports a failure
  runs=$((runs + 1))
  if [ "$2" -eq 0 ]; then done=$((done + 1)); fi
  if [ "$2" -gt 3 ] || grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$tmp/err"; then
    failures=$((failures + 1))
    echo "FAIL ($2): $1"
    head -c 2000 "$tmp/err"
  fi
}
for f in "${files[@]}"; do
  for c in "${commands[@]}"; do
    read -r -a words <<<"$c"
    extra=()
    if [ "${words[*]}" = "convert --to chrome-json" ]; then extra=("$tmp/out.json"); fi
    if [ "${words[*]}" = "convert --to sqlite" ]; then extra=("$tmp/out.db"); fi
    if [ "${words[0]}" = query ]; then extra=("$every_table"); fi
    if [ "${words[*]}" = "flame --pprof" ]; then extra=("$tmp/profile.pb.gz"); fi
    timeout 60 "$cli" "${words[0]}" "$f" "${words[@]:1}" "${extra[@]}" >/dev/null 2>"$tmp/err"
    check "${words[0]} $f ${words[*]:1}" $?
  done
  for c in pod diff collectives; do
    timeout 60 "$cli" $c "$f" "$f" --json >/dev/null 2>"$tmp/err"
    check "$c $f $f" $?
  done
done
echo "$runs runs on ${#files[@]} files: $done ended with status 0, $((runs - done - failures)) with a clear error, $failures failed"
[ "$failures" -eq 0 ]
