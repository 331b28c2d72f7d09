#!/usr/bin/env bash
# Makes the peers' Python environment for the peer tests: BUILD/peers-venv with the pinned
# JAX, TensorFlow and XProf of requirements.txt (constraints.txt pins what they pull in).
#
#   tests/peers/setup.sh BUILD          make it, or reuse it when its stamp matches
#   tests/peers/setup.sh --check BUILD  exit 0 if it is ready, else say why and exit 1
#
# A second run reuses the environment: the stamp file holds the hash of the two pin files and
# the Python version; anything else makes it again from scratch. PEERS_PYTHON picks the
# interpreter (default: the first Python 3.12 or 3.13 found, pyenv's included; jax 0.12 needs
# 3.12 or newer, and Debian 12's own python3 is 3.11).
# The product never needs Python; without this environment the peer tests are skipped (and
# fail under CI=true, where it must be made).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
check_only=0
if [ "${1:-}" = "--check" ]; then check_only=1; shift; fi
if [ $# -ne 1 ]; then
  echo "usage: $0 [--check] BUILD_DIR" >&2
  exit 2
fi
build="$1"
venv="$build/peers-venv"
stamp="$venv/tracescope-peers.stamp"

pins_hash() {
  cat "$here/requirements.txt" "$here/constraints.txt" | sha256sum | cut -d' ' -f1
}

# A Python 3.12-3.13 with venv and ensurepip.
usable() {
  "$1" -c 'import sys, venv, ensurepip; sys.exit(not ((3, 12) <= sys.version_info[:2] <= (3, 13)))' 2>/dev/null
}

find_python() {
  if [ -n "${PEERS_PYTHON:-}" ]; then
    usable "$PEERS_PYTHON" && { echo "$PEERS_PYTHON"; return; }
    echo "PEERS_PYTHON=$PEERS_PYTHON is not a Python 3.12-3.13 with venv" >&2
    return 1
  fi
  local candidates=(python3.12 python3.13)
  # pyenv's interpreters, also when pyenv itself is not on PATH (a CI shell may not have it).
  local root roots=("${PYENV_ROOT:-$HOME/.pyenv}")
  if root="$(pyenv root 2>/dev/null)"; then roots=("$root" "${roots[@]}"); fi
  for root in "${roots[@]}"; do
    for v in 3.12 3.13; do
      for p in "$root"/versions/"$v".*/bin/python3; do [ -x "$p" ] && candidates+=("$p"); done
    done
  done
  candidates+=(python3)
  for p in "${candidates[@]}"; do
    if usable "$p"; then echo "$p"; return; fi
  done
  echo "no Python 3.12 or 3.13 with the venv module found (jax 0.12 needs >= 3.12; Debian 12 has 3.11):" \
       "set PEERS_PYTHON, or install one with pyenv" >&2
  return 1
}

expected_stamp() {
  echo "$(pins_hash) $("$venv/bin/python" -c 'import platform; print(platform.python_version())' 2>/dev/null)"
}

if [ $check_only = 1 ]; then
  if [ ! -f "$stamp" ]; then
    echo "the peers' environment $venv is not made: run tests/peers/setup.sh $build"
    exit 1
  fi
  if [ "$(cat "$stamp")" != "$(expected_stamp)" ]; then
    echo "the peers' environment $venv is out of date (pins changed): run tests/peers/setup.sh $build"
    exit 1
  fi
  exit 0
fi

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(expected_stamp)" ]; then
  echo "peers: reusing $venv"
  exit 0
fi

python="$(find_python)"
echo "peers: making $venv with $python ($("$python" --version 2>&1))"
start=$(date +%s)
rm -rf "$venv"
"$python" -m venv "$venv"
pip_flags=(--disable-pip-version-check --no-input --quiet)
if [ "${PEERS_NO_PIP_CACHE:-}" = 1 ]; then pip_flags+=(--no-cache-dir); fi
"$venv/bin/python" -m pip install "${pip_flags[@]}" -r "$here/requirements.txt" -c "$here/constraints.txt"
"$venv/bin/python" -m pip check
expected_stamp > "$stamp"
echo "peers: ready in $(( $(date +%s) - start )) s: $("$venv/bin/python" -m pip freeze 2>/dev/null \
  | grep -E '^(jax|jaxlib|tensorflow-cpu|tensorflow_cpu|xprof)==' | tr '\n' ' ')"
