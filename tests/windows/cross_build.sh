#!/bin/bash
# The Windows cross build of the test run (ctest's fixture WindowsBuild): wirebenchd.exe with mingw-w64 in
# BUILD_DIR (a responder-only tree, ccache'd like the main build) and its installer wirebenchd-setup.exe with
# makensis, for TestWirebenchdWindows to run under wine.
#   tests/windows/cross_build.sh BUILD_DIR
# Without mingw-w64 or makensis it skips (exit 77, ctest SKIP) unless CI=true, where that is a failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: cross_build.sh BUILD_DIR}

missing=()
command -v x86_64-w64-mingw32-g++-posix >/dev/null || missing+=("x86_64-w64-mingw32-g++-posix (g++-mingw-w64-x86-64-posix)")
command -v makensis >/dev/null || missing+=("makensis (nsis)")
if [ ${#missing[@]} -gt 0 ]; then
    echo "cross_build.sh: not installed: ${missing[*]}: run scripts/install-deps.sh --test" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
if [ ! -f "$out/build.ninja" ]; then
    cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" >/dev/null
fi
cmake --build "$out" --parallel "$(( $(nproc) > 2 ? $(nproc) : 2 ))"
ls -l "$out/app/daemon/wirebenchd.exe" "$out/installer/windows/wirebenchd-setup.exe"
