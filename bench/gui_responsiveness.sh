#!/usr/bin/env bash
# How responsive the window stays during a run: the real GUI (build/app/gui/wirebench, QT_QPA_PLATFORM=offscreen)
# with its responsiveness probe (WIREBENCH_GUI_PROBE=FILE, app/gui/ResponsivenessProbe: a timer every 5 ms on the
# GUI thread whose lateness is the time the event loop was blocked; every replot of the live graph timed), in
# three parts:
#   1. one hour:  the live graph holding one hour at 10 Hz (36,000 samples) on each of 5 lines, followed live for
#                 10 s (WIREBENCH_GUI_PROBE_FILL=5,3600,10, app/gui/HourOfSamples): the replot time at one hour
#   2. loopback:  a plan at full loopback speed against the window's own responder on 127.0.0.1
#                 (tcp-send and tcp-recv, REPS x DURATION s each): what 2 busy cores leave the window
#   3. shaped:    the same plan through a shaped lab link (tests/lab/lab.sh, WBL_ID guiresp, RATE, MTU 1500) to a
#                 wirebenchd in the lab's server namespace, the window in the client namespace (needs root)
# Prints, per part, the stall (tick lateness) p50, p99 and max in ms, the ticks later than 16 and 50 ms, the five
# worst with their time, and the live graph's replot p50, p99 and max in ms, then each target with its figure.
# Targets: shaped p99 <= 16 ms and max <= 50 ms; replot at one hour <= 16 ms (p99 and max shown). No target on
# loopback: there the measurement itself takes both cores, and the figures say what is left for the window.
#
#   bench/gui_responsiveness.sh [BUILD_DIR]      (default: build)
#   RATE=100mbit REPS=2 DURATION=20 bench/gui_responsiveness.sh     (defaults: 1gbit, 3, 10)
#   PARTS="hour loopback" bench/gui_responsiveness.sh                 (default: hour loopback shaped)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${1:-$repo/build}
gui=$build/app/gui/wirebench
daemon=$build/app/daemon/wirebenchd
lab=$repo/tests/lab/lab.sh
rate=${RATE:-1gbit}
reps=${REPS:-3}
duration=${DURATION:-10}
parts=${PARTS:-hour loopback shaped}

for f in "$gui" "$daemon"; do
    [ -x "$f" ] || { echo "gui_responsiveness.sh: $f is not built: cmake --build $build" >&2; exit 1; }
done
tmp=$(mktemp -d)
export WBL_ID=guiresp
lab_up=0
cleanup() {
    [ "$lab_up" = 0 ] || "$lab" down >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# part figures-file: one line of the part's figures
show() {
    local part=$1 file=$2
    [ -s "$file" ] || { printf '%-22s no figures (the window did not write %s)\n' "$part" "$file"; return 1; }
    # shellcheck disable=SC1090
    ( . <(sed -E 's/^([a-z0-9_]+)=(.*)$/\1="\2"/' "$file")
      printf '%-22s stall p50 %6s  p99 %6s  max %7s ms  >16 ms %4s  >50 ms %3s  (%s ticks in %s s)\n' \
          "$part" "$stall_p50_ms" "$stall_p99_ms" "$stall_max_ms" "$stalls_over_16ms" "$stalls_over_50ms" "$ticks" "$span_s"
      printf '%-22s replot p50 %6s  p99 %6s  max %7s ms  (CPU p50 %s, p99 %s ms; %s replots; %s lines, %s points, plot %s px)\n' \
          "" "$replot_p50_ms" "$replot_p99_ms" "$replot_max_ms" "$replot_cpu_p50_ms" "$replot_cpu_p99_ms" "$replots" \
          "$live_lines" "$live_points" "$plot_px"
      printf '%-22s GUI thread busy %s%% of the span; the hypervisor stole %s%% of the machine meanwhile\n' "" \
          "$gui_thread_cpu_percent" "${steal_percent:-?}"
      printf '%-22s worst stalls (where the time went, per the scheduler, schedstat; what the thread was doing):\n' ""
      printf '%s\n' "$worst_stalls" | sed 's/ | /\n/g' | sed 's/^/                         /'
      printf '%-22s marked activities on the GUI thread:\n' ""
      printf '%s\n' "${activities:-none}" | sed 's/ | /\n/g' | sed 's/^/                         /'
      printf '%-22s the most repainted widgets (paint events, area):\n' ""
      printf '%s\n' "${paints:-none}" | sed 's/ | /\n/g' | sed 's/^/                         /' )
}

# runs-of store: what the plan measured meanwhile (the window's result store), so a fast window is not an idle one
runs_of() {
    [ -s "$1" ] || return 0
    python3 - "$1" <<'PY'
import sqlite3, statistics, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT protocol, status, bytes, seconds FROM runs ORDER BY id").fetchall()
tests = {}
for proto, status, b, s in rows:
    tests.setdefault(proto, []).append((status, b / s / 1e6 if s > 0 else 0))
parts = []
for proto, runs in tests.items():
    ok = [v for st, v in runs if st == "ok"]
    med = f", median {statistics.median(ok):.1f} MB/s" if ok else ""
    parts.append(f"{proto} {len(ok)}/{len(runs)} ok{med}")
print(" " * 23 + "runs: " + "; ".join(parts))
PY
}

# value-of key file
value() { sed -n "s/^$1=//p" "$2"; }

# verdict name figure limit
verdict() {
    awk -v n="$1" -v f="$2" -v l="$3" 'BEGIN { printf "  %-40s %8.2f ms  (target <= %s ms)  %s\n", n, f, l, (f <= l ? "met" : "MISSED") }'
}

# run-gui figures-file [prefix command...] -- [gui options...]: the window with its own settings and store.
run_gui() {
    local figures=$1; shift
    local prefix=()
    while [ "$1" != -- ]; do prefix+=("$1"); shift; done
    shift
    local steal0 total0
    read -r steal0 total0 < <(steal_ticks)
    "${prefix[@]}" env QT_QPA_PLATFORM=offscreen WIREBENCH_GUI_PROBE="$figures" "$gui" \
        --settings "$tmp/settings-$(basename "$figures").ini" --store "$tmp/results-$(basename "$figures").sqlite" \
        "$@" >"$figures.log" 2>&1 || { echo "the window exited with $?; its log:"; cat "$figures.log"; }
    local steal1 total1
    read -r steal1 total1 < <(steal_ticks)
    echo "steal_percent=$(awk -v s=$((steal1 - steal0)) -v t=$((total1 - total0)) 'BEGIN { printf "%.1f", (t > 0 ? 100 * s / t : 0) }')" >>"$figures"
}

# The machine's steal ticks (the hypervisor running others on our vCPUs) and all ticks, from /proc/stat.
steal_ticks() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print $9, t }' /proc/stat; }

echo "Wirebench window responsiveness: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
     "tick every 5 ms (lateness = event loop blocked)"
plan=(--start --quit-when-done --protocol tcp-send,tcp-recv --frame 1500 --reps "$reps" --duration "$duration")

if [[ " $parts " == *" hour "* ]]; then
    WIREBENCH_GUI_PROBE_FILL=5,3600,10 run_gui "$tmp/hour" -- 
    show "one hour x 5 lines" "$tmp/hour" || true
fi
if [[ " $parts " == *" loopback "* ]]; then
    run_gui "$tmp/loopback" -- "${plan[@]}"
    show "loopback full speed" "$tmp/loopback" || true
    runs_of "$tmp/results-loopback.sqlite"
fi
if [[ " $parts " == *" shaped "* ]]; then
    if [ "$(id -u)" != 0 ]; then
        echo "shaped: skipped: the lab needs root to create network namespaces (run with sudo)"
    else
        "$lab" up --mtu 1500 --rate "$rate" >/dev/null
        lab_up=1
        "$lab" serve wirebenchd "$daemon" >/dev/null
        eval "$("$lab" env)"
        # The lab's server as the only host of the window (Config's host list, hosts/list in the INI file).
        python3 - "$tmp/settings-shaped.ini" "$WBL_SRV_ADDR" "$rate" <<'PY'
import json, sys
host = {"name": "lab server (" + sys.argv[3] + ")", "address": sys.argv[2], "port": 5301, "os": "Linux",
        "server_type": "wirebenchd", "link_speed_Mbps": 0, "embedded": False, "options": {}, "selected": True}
text = json.dumps([host], separators=(",", ":")).replace("\\", "\\\\").replace('"', '\\"')
open(sys.argv[1], "w").write("[General]\nschemaVersion=1\n\n[hosts]\nlist=\"" + text + "\"\n")
PY
        run_gui "$tmp/shaped" ip netns exec "$WBL_CLI_NS" -- "${plan[@]}"
        show "shaped $rate" "$tmp/shaped" || true
        runs_of "$tmp/results-shaped.sqlite"
    fi
fi

echo "Targets:"
if [ -s "$tmp/hour" ]; then
    verdict "replot p99, one hour x 5 lines" "$(value replot_p99_ms "$tmp/hour")" 16
    verdict "replot max, one hour x 5 lines" "$(value replot_max_ms "$tmp/hour")" 16
fi
if [ -s "$tmp/shaped" ]; then
    verdict "stall p99, shaped $rate" "$(value stall_p99_ms "$tmp/shaped")" 16
    verdict "stall max, shaped $rate" "$(value stall_max_ms "$tmp/shaped")" 50
fi
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
