#!/usr/bin/env bash
# Remakes the framework-made fixtures in tests/data/peers with the peers' Python environment
# (tests/peers/setup.sh BUILD first). Not run by the tests: the outputs are committed.
#
#   tests/peers/generators/make_fixtures.sh BUILD [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$1"
out="${2:-$here/../../data/peers}"
py="$build/peers-venv/bin/python"
"$here/../setup.sh" --check "$build"
for g in jax_train_steps.py jax_default_capture.py tf_data_slow_map.py tf1_run_metadata.py tf_memory_heavy.py tf_keras_fit.py; do
  echo "== $g"
  "$py" "$here/$g" "$out" 2> >(grep -v -E '^(WARNING: All log messages|[IWE][0-9]{4} )' >&2)
done
ls -l "$out"
