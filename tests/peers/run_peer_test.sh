#!/usr/bin/env bash
# run_peer_test.sh BUILD SCRIPT.py ARGS...: runs SCRIPT with the peers' Python (BUILD/peers-venv).
# Without that environment the test is skipped (exit 77, CTest's SKIP_RETURN_CODE) with the
# reason; under CI=true it fails instead, since CI must make it (tests/peers/setup.sh).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$1"
shift
if ! why="$("$here/setup.sh" --check "$build")"; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL (CI=true): $why"
    exit 1
  fi
  echo "SKIP: $why"
  exit 77
fi
exec "$build/peers-venv/bin/python" "$@"
