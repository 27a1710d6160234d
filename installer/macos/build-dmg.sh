#!/bin/sh
# Builds Wirebench and its DMG on macOS.
# UNTRIED: written for macOS 12+ with the Xcode command line tools, Homebrew and Qt 6.4+; never run on this project.
#   installer/macos/build-dmg.sh [QT_PREFIX]     (default: $(brew --prefix qt))
# Result: build-mac/wirebench-<version>-Darwin.dmg
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build-mac}
command -v brew >/dev/null || { echo "build-dmg.sh: Homebrew is missing: see https://brew.sh" >&2; exit 1; }
brew install cmake ninja pkg-config qt curl samba
qt=${1:-$(brew --prefix qt)}
# QCustomPlot has no Homebrew formula: build it for Qt 6 (qcustomplot.cpp as a shared library exporting
# QCustomPlotQt6::QCustomPlotQt6) and add its prefix to CMAKE_PREFIX_PATH below.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWIREBENCH_BUILD_TESTS=OFF \
    -DCMAKE_PREFIX_PATH="$qt;$(brew --prefix curl);$(brew --prefix samba);${QCUSTOMPLOT_PREFIX:-}"
cmake --build "$build" --parallel
cd "$build" && cpack -G DragNDrop
ls -l "$build"/wirebench-*.dmg
