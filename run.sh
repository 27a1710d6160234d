#!/usr/bin/env bash
# Installs what is missing, makes a Release build and opens Wirebench.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/install-deps.sh
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWIREBENCH_BUILD_TESTS=OFF >/dev/null
cmake --build build --parallel
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "No display found: starting Wirebench inside a virtual X server (xvfb-run)." >&2
    exec xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/gui/wirebench "$@"
fi
exec ./build/app/gui/wirebench "$@"
