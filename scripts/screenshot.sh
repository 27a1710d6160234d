#!/usr/bin/env bash
# Makes docs/screenshot.png from the real window: runs the built GUI under Xvfb with a short plan against
# its embedded loopback responder, waits for the plan to end and grabs the X screen with ImageMagick.
# Builds nothing.
#
#   scripts/screenshot.sh [BINARY] [OUTPUT.png]
#   BINARY defaults to build/app/gui/wirebench, OUTPUT to docs/screenshot.png.
#   The plan comes from the environment: REPS (2), DURATION seconds (2), PROTOCOLS (tcp-send,tcp-recv),
#   FRAMES (1500,9000), STREAMS (1). Needs xvfb-run and /usr/bin/import (Debian: xvfb, imagemagick).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build/app/gui/wirebench}
out=${2:-$root/docs/screenshot.png}
reps=${REPS:-2}
duration=${DURATION:-2}
protocols=${PROTOCOLS:-tcp-send,tcp-recv}
frames=${FRAMES:-1500,9000}
streams=${STREAMS:-1}

[[ -x $bin ]] || { echo "screenshot.sh: $bin is not an executable: build first (cmake --build build)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "screenshot.sh: xvfb-run missing: apt-get install xvfb" >&2; exit 2; }
[[ -x /usr/bin/import ]] || { echo "screenshot.sh: /usr/bin/import missing: apt-get install imagemagick" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Inside the virtual display: start the app (its own settings file, so the user's are untouched), wait for
# the file it writes when the plan has ended, grab the whole screen, then close the app.
xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
    set -u
    bin=$1 tmp=$2 out=$3; shift 3
    "$bin" --settings "$tmp/settings.ini" --store "$tmp/results.sqlite" --start --done-file "$tmp/done" --quit-when-done --linger 600 "$@" \
        >"$tmp/app.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 1200); do
        [[ -f $tmp/done ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    if [[ ! -f $tmp/done ]]; then
        echo "screenshot.sh: the plan did not end; app log:" >&2
        cat "$tmp/app.log" >&2
        kill "$pid" 2>/dev/null
        exit 1
    fi
    sleep 1
    /usr/bin/import -window root "$out"
    rc=$?
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    exit $rc
' bash "$bin" "$tmp" "$out" --reps "$reps" --duration "$duration" --protocol "$protocols" --frame "$frames" --streams "$streams"

echo "screenshot.sh: wrote $out"
