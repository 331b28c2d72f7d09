#!/usr/bin/env bash
# A long fuzzing run: each target runs SECONDS in a coverage-only build (-DTRACESCOPE_FUZZ=ON
# -DTRACESCOPE_FUZZ_SANITIZE=OFF, several times faster), then every input of the grown corpus
# is replayed once in the sanitizer fuzz build, so that memory errors that do not crash
# without AddressSanitizer are still found. Fails on any crash in either pass.
#   tests/fuzz/long_run.sh FAST_BUILD SANITIZER_BUILD SECONDS WORK [TARGET...]
set -uo pipefail
usage="usage: long_run.sh FAST_BUILD SANITIZER_BUILD SECONDS WORK [TARGET...]"
fast=${1:?$usage}
sanitized=${2:?$usage}
seconds=${3:?$usage}
work=${4:?$usage}
shift 4
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for bin in "$fast"/tests/fuzz/fuzz_*; do [ -x "$bin" ] && targets+=("${bin##*/fuzz_}"); done
fi

"$here/run_all.sh" "$fast" "$seconds" "$work" "${targets[@]}"
rc=$?
export TRACESCOPE_FUZZ_TMP="$work/tmp"
for t in "${targets[@]}"; do
  log="$work/$t.replay.log"
  start=$(date +%s)
  "$sanitized/tests/fuzz/fuzz_$t" -runs=0 -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" \
    -artifact_prefix="$work/artifacts/$t/" "$work/corpus/$t" >"$log" 2>&1
  r=$?
  echo "fuzz_$t under the sanitizers: rc=$r, $(ls "$work/corpus/$t" | wc -l) inputs replayed in $(( $(date +%s) - start )) s"
  if [ $r -ne 0 ]; then
    rc=1
    grep -E 'ERROR|SUMMARY|^ *#[0-9]+ 0x|Test unit written|runtime error' "$log" | head -40
  fi
done
exit $rc
