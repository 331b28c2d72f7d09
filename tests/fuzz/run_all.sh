#!/usr/bin/env bash
# Runs every libFuzzer target of a -DTRACESCOPE_FUZZ=ON build for SECONDS each, starting from
# the seeds (make_seeds.sh) and the inputs found by earlier runs in WORK/corpus/<target>.
# Fails when any target finds a crash, a leak, a timeout (10 s per input) or an out-of-memory
# (2 GB); the input is kept in WORK/artifacts/<target>/. Prints executions per target.
# FUZZ_MAX_LEN (default 65536) bounds an input's size: smaller runs many more inputs per second.
#   tests/fuzz/run_all.sh BUILD SECONDS [WORK] [TARGET...]
set -uo pipefail
build=${1:?usage: run_all.sh BUILD SECONDS [WORK] [TARGET...]}
seconds=${2:?usage: run_all.sh BUILD SECONDS [WORK] [TARGET...]}
work=${3:-$build/fuzz-work}
shift $(( $# < 3 ? $# : 3 ))
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(chrome_json chrome_gzip xspace run_metadata detect logdir analyses agent_records agent_control capture_reply sql hlo)
  # Built only where the CUDA toolkit (CUPTI headers) was found.
  if [ -x "$build/tests/fuzz/fuzz_cupti_records" ]; then targets+=(cupti_records); fi
fi

mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ ! -d "$work/seeds" ]; then "$here/make_seeds.sh" "$work/seeds" >/dev/null; fi
export TRACESCOPE_FUZZ_TMP="$work/tmp"
mkdir -p "$TRACESCOPE_FUZZ_TMP"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
total=0
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/fuzz_$t"
  if [ ! -x "$bin" ]; then echo "run_all.sh: $bin is missing"; failed+=("$t(missing)"); continue; fi
  mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
  log="$work/$t.log"
  start=$(date +%s)
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" "$work/seeds/$t" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  execs=${execs:-0}
  total=$((total + execs))
  echo "fuzz_$t: rc=$rc, $execs executions in $(( $(date +%s) - start )) s, corpus $(ls "$work/corpus/$t" | wc -l)"
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    grep -E 'ERROR|SUMMARY|^ *#[0-9]+ 0x|Test unit written|runtime error' "$log" | head -40
  fi
done
echo "total: $total executions"
if [ ${#failed[@]} -ne 0 ]; then echo "FAILED: ${failed[*]} (logs and inputs under $work)"; exit 1; fi
