#!/usr/bin/env bash
# The Debian package as a user gets it: built with CPack from BUILD_DIR, checked by lintian (its
# overrides travel in the package, each with its reason), installed on this machine with apt
# (root or sudo: CI runs it after the tests), and then used from /usr only: the CLI's --version,
# info on the bundled sample, a headless screenshot, `launch` through the installed CUPTI agent
# (found from the installed CLI) on the build's fake CUDA program, the man pages, the bash
# completions (bash; zsh where installed), the icons and the MIME types.
#   tests/packaging/check_package.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: check_package.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
fail() { echo "check_package: $*" >&2; exit 1; }

out=$build/package
rm -rf "$out"
mkdir -p "$out"
cpack --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; fail "cpack"; }
deb=$(ls "$out"/tracescope_*.deb)
ls "$out"/tracescope-dbgsym_*.ddeb >/dev/null || fail "no -dbgsym package"
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1)) and its -dbgsym"

if command -v lintian >/dev/null; then
    report=$(lintian "$deb" 2>&1 | grep -v 'running with root privileges' || true)
    [ -z "$report" ] || fail "lintian: $report"
    echo "lintian: clean"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -qq "$deb" >"$out/apt.log" 2>&1 || { cat "$out/apt.log"; fail "apt-get install"; }
trap '$SUDO apt-get remove -y -qq tracescope >/dev/null' EXIT
echo "installed"

cd "$(mktemp -d)"
# Only what the package installed: the build tree's executables and agent are not on the way.
export PATH=/usr/bin:/bin
unset TRACESCOPE_CUPTI_AGENT
version=$(dpkg-query -W -f='${Version}' tracescope)
/usr/bin/tracescope-cli --version | grep -q "^tracescope-cli ${version%%+*}" || fail "tracescope-cli --version: $(/usr/bin/tracescope-cli --version)"
commit=${version#*+git}
if [ "$commit" != "$version" ]; then
    /usr/bin/tracescope-cli --version | grep -q "git $commit" || fail "--version does not name commit $commit"
fi
QT_QPA_PLATFORM=offscreen /usr/bin/tracescope --version | grep -q "${version%%+*}" || fail "tracescope --version"

sample=$src/resources/sample/torch_mlp_h100.json.gz
slices=$(/usr/bin/tracescope-cli info "$sample" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["slices"])')
[ "$slices" -gt 0 ] || fail "info on the sample: no slices"
echo "info: $slices slices in the sample"

/usr/bin/tracescope --screenshot shot.png --size 640x400 "$sample" >/dev/null 2>&1 || fail "tracescope --screenshot"
python3 - shot.png <<'PY' || fail "the screenshot is not a 640x400 PNG"
import struct, sys
head = open(sys.argv[1], "rb").read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (640, 400)
PY
echo "screenshot: 640x400 PNG"

fake=$build/tests/cupti/fake_cuda_program
if [ -x "$fake" ]; then
    /usr/bin/tracescope-cli launch --logdir logs --json -- "$fake" run 2 > launch.json 2>/dev/null || fail "launch"
    python3 - launch.json <<'PY' || fail "launch through the installed agent: $(cat launch.json)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["capture_ok"] and r["processes"][0]["kernels"] > 0, r
assert r["agent"].startswith("/usr/lib/") and r["agent"].endswith("/tracescope/libtracescope_cupti.so"), r["agent"]
PY
    echo "launch: captured through $(python3 -c 'import json; print(json.load(open("launch.json"))["agent"])')"
else
    echo "launch: skipped (no fake CUDA program in $build: the CUDA toolkit was not found)"
fi

for page in tracescope tracescope-cli tracescope-pod; do
    man -w "$page" >/dev/null 2>&1 || [ -f "/usr/share/man/man1/$page.1.gz" ] || fail "no man page for $page"
done
zcat /usr/share/man/man1/tracescope-cli.1.gz | grep -q 'launch\\-stats' || fail "the CLI's man page lacks its commands"
completions=$(bash -c 'source /usr/share/bash-completion/completions/tracescope-cli
    COMP_WORDS=(tracescope-cli laun); COMP_CWORD=1; _tracescope_cli; echo "${COMPREPLY[*]}"')
[ "$completions" = "launch launch-stats" ] || fail "bash completion of 'laun': '$completions'"
if command -v zsh >/dev/null; then
    # zsh's completion system filters the candidates itself: its compadd and _files stand in here.
    completions=$(zsh -f -c 'compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} }; _files() { print "<files>" }
        f=/usr/share/zsh/vendor-completions/_tracescope-cli
        words=(tracescope-cli laun); CURRENT=2; PREFIX=laun; source $f | grep "^laun"
        words=(tracescope-cli info --st); CURRENT=3; PREFIX=--st; source $f | grep "^--strict"
        words=(tracescope-cli info tr); CURRENT=3; PREFIX=tr; source $f' | tr '\n' ' ')
    [ "$completions" = "launch launch-stats --strict <files> " ] || fail "zsh completion: '$completions'"
fi
for size in 16 32 48 128 256; do
    [ -s "/usr/share/icons/hicolor/${size}x${size}/apps/tracescope.png" ] || fail "no ${size}px icon"
done
[ -s /usr/share/icons/hicolor/scalable/apps/tracescope.svg ] || fail "no SVG icon"
grep -q '^Exec=tracescope %F' /usr/share/applications/tracescope.desktop || fail "desktop entry"
if command -v update-mime-database >/dev/null; then
    [ -f /usr/share/mime/application/x-chrome-trace+json.xml ] || fail "the MIME types were not registered"
fi
echo "man pages, bash and zsh completion, icons, desktop entry, MIME types: installed"
echo "check_package: OK"
