#!/usr/bin/env bash
# Installs the Debian packages TraceScope needs to build, run and test.
# Only Debian's own packages are used; nothing is downloaded from elsewhere.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libprotobuf-dev protobuf-compiler
  libgrpc++-dev protobuf-compiler-grpc
  libsimdjson-dev zlib1g-dev libdeflate-dev nlohmann-json3-dev
  # SQL over a trace (model/sql): SQLite 3.40 and its virtual-table API.
  libsqlite3-dev
  # SHA-256 of the files a rank summary describes (model/export/file_digest).
  libssl-dev
  # tracescope-pod, the Dask driver of rank summaries (app/pod), and its tests.
  python3-distributed
  libgraphviz-dev
  xvfb xauth python3
  # A private session bus for the theme test's stand-in desktop portal (tests/gui/tst_theme.cc).
  dbus-daemon
  # The sanitizer build and the libFuzzer targets (.ci/run): clang, its sanitizer and
  # libFuzzer runtimes, and llvm-symbolizer for readable stack traces.
  clang-14 libclang-rt-14-dev llvm-14
  # LLVM's linker: links the ~90 test executables several times faster than GNU ld.
  lld
  # `go tool pprof`, which the peer test peers_pprof runs on our pprof profiles.
  golang-go
  # The .deb (packaging/): man pages made from --help, CPack's file-type probe, and the checks
  # of tests/packaging/check_package.sh (lintian, man).
  help2man file lintian man-db
  # The zsh completion's check in check_package.sh.
  zsh
  # A clean Debian 12 root to install the .deb into (tests/packaging/check_clean_root.sh).
  mmdebstrap
)

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}"
