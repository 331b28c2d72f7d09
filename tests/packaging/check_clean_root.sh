#!/usr/bin/env bash
# The Debian package on a clean Debian 12: a minimal bookworm root made by mmdebstrap (Debian's own
# packages only, none of this machine's build dependencies), the package installed there as a user
# would (`apt install ./tracescope_*.deb`, recommendations included), then used inside it: the CLI's
# --version and info on the bundled sample, a headless screenshot of the viewer, `launch` through
# the installed CUPTI agent (the build's fake CUDA program and fake libcupti stand for the user's
# CUDA installation, found through LD_LIBRARY_PATH as a real one would be), `launch` without CUPTI
# naming what is missing, and tracescope-pod naming Dask when it is not installed. This is what
# catches a Depends line that only works because this machine has the build's -dev packages.
#   tests/packaging/check_clean_root.sh BUILD_DIR    (after check_package.sh made BUILD_DIR/package)
# Needs root (or sudo) and Debian's mirror; CI installs mmdebstrap (packaging/install-deps.sh).
set -euo pipefail
build=$(cd "${1:?usage: check_clean_root.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
fail() { echo "check_clean_root: $*" >&2; exit 1; }

deb=$(ls "$build"/package/tracescope_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no package in $build/package (run tests/packaging/check_package.sh first)"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is not installed"

root=$(mktemp -d /tmp/tracescope-clean-root.XXXXXX)
cleanup() {
    $SUDO umount "$root/proc" 2>/dev/null || true
    $SUDO rm -rf --one-file-system "$root"
}
trap cleanup EXIT

t0=$SECONDS
$SUDO mmdebstrap --quiet --mode=root --variant=apt bookworm "$root" >"$build/package/mmdebstrap.log" 2>&1 \
    || { cat "$build/package/mmdebstrap.log"; fail "mmdebstrap"; }
echo "clean Debian 12 root made in $((SECONDS - t0)) s"

$SUDO mkdir -p "$root/tmp/in/fake"
$SUDO cp "$deb" "$src/resources/sample/torch_mlp_h100.json.gz" "$root/tmp/in/"
fake=$build/tests/cupti/fake_cuda_program
if [ -x "$fake" ]; then
    $SUDO cp "$fake" "$root/tmp/in/fake/"
    $SUDO cp -a "$build/tests/cupti/fakelib" "$root/tmp/in/fake/"
fi
$SUDO mount -t proc proc "$root/proc"

in_root() { $SUDO chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 sh -ec "cd /tmp/in; $1"; }

t0=$SECONDS
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./$(basename "$deb")" \
    >"$build/package/clean-root-apt.log" 2>&1 || { tail -40 "$build/package/clean-root-apt.log"; fail "apt install"; }
echo "installed with apt in $((SECONDS - t0)) s ($($SUDO du -sh --one-file-system "$root" | cut -f1) root)"

in_root "tracescope-cli --version" | grep -q "^tracescope-cli " || fail "tracescope-cli --version"
slices=$(in_root "tracescope-cli info torch_mlp_h100.json.gz --json 2>/dev/null" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["slices"])')
[ "$slices" -gt 0 ] || fail "info on the sample: no slices"
echo "info: $slices slices in the sample"

in_root "tracescope --screenshot shot.png --size 640x400 torch_mlp_h100.json.gz >/dev/null 2>&1" \
    || fail "tracescope --screenshot"
python3 - "$root/tmp/in/shot.png" <<'PY' || fail "the screenshot is not a 640x400 PNG"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (640, 400)
assert len(data) > 10000, "an empty picture"
PY
echo "screenshot: 640x400 PNG"

if [ -x "$fake" ]; then
    in_root "LD_LIBRARY_PATH=/tmp/in/fake/fakelib tracescope-cli launch --logdir logs --json -- fake/fake_cuda_program run 2 \
        > launch.json 2>/dev/null" || fail "launch"
    python3 - "$root/tmp/in/launch.json" <<'PY' || fail "launch through the installed agent: $(cat "$root/tmp/in/launch.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["capture_ok"] and r["processes"][0]["kernels"] > 0, r
assert r["agent"].startswith("/usr/lib/") and r["agent"].endswith("/tracescope/libtracescope_cupti.so"), r["agent"]
PY
    echo "launch: captured through the installed agent"
fi
# No CUDA in the root: launch must say that CUPTI is missing and where it comes from.
set +e
said=$(in_root "tracescope-cli launch --logdir logs -- /bin/true" 2>&1)
status=$?
set -e
[ "$status" -ne 0 ] && echo "$said" | grep -q "libcupti.so.13" || fail "launch without CUPTI (status $status): $said"
echo "launch without CUPTI: names libcupti.so.13"

# Dask is only suggested: tracescope-pod says so instead of a traceback.
set +e
said=$(in_root "mkdir -p ranks && cp torch_mlp_h100.json.gz ranks/ && tracescope-pod summarize ranks --out summaries" 2>&1)
status=$?
set -e
[ "$status" -eq 2 ] && echo "$said" | grep -q "python3-distributed" && ! echo "$said" | grep -q Traceback \
    || fail "tracescope-pod without Dask (status $status): $said"
echo "tracescope-pod without Dask: names python3-distributed"
echo "check_clean_root: OK"
