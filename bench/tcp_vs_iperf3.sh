#!/usr/bin/env bash
# Wirebench's TCP stream against iperf3 on loopback: 5 alternating pairs of 5-second runs.
# Prints the median throughput of each (MB/s = 10^6 bytes/s, receiver-counted, as both tools report it),
# the ratio wirebench/iperf3 and the CPU seconds per GB (10^9 bytes) of each client+server pair.
#
#   bench/tcp_vs_iperf3.sh [BUILD_DIR]        (default: build, then build-cli)
# Environment: PAIRS (5), DURATION (5 s), FRAME (1500: both tools use MSS FRAME-40), MESSAGE (131072 B),
#   DIRECTION (send: tcp-send against iperf3 -c; recv: tcp-recv against iperf3 -c -R),
#   WB_SERVER (wirebenchd: our protocol against our wirebenchd; iperf3: our iperf3 driver, iperf3-send or
#   iperf3-recv, against the same iperf3 -s as iperf3 -c, so both clients meet one server),
#   ZERO_COPY (0; 1: wirebench --set tcp.zero_copy=true, which sends by sendfile(2) in tcp-send and discards on
#   arrival with MSG_TRUNC in tcp-recv; against iperf3 -Z for send; for recv iperf3's --skip-rx-copy where that
#   iperf3 has it (3.16+), else plain iperf3 -R, and the script says which),
#   LATENCY (0: wirebench runs with --set latency.idle_ms=0, no latency probe beside the run, as iperf3 has none;
#   1: with the probe, its 2 s idle lead and its round trips through the load),
#   IPERF3 (iperf3: the peer, client and server; a path to another build, e.g. a 3.16+ one for --skip-rx-copy),
#   PIN (0; 1 runs both clients on CPU 0 and both servers on CPU 1, as iperf3 -A would: on a machine with
#   few cores the scheduler otherwise sometimes puts sender and receiver on one core, which halves either
#   tool's figure and makes single pairs differ by up to 40%).
# Traffic stays on 127.0.0.1. Not part of ctest: timings on a shared machine are not test material.
set -euo pipefail
cd "$(dirname "$0")/.."

PAIRS=${PAIRS:-5}
DURATION=${DURATION:-5}
FRAME=${FRAME:-1500}
MESSAGE=${MESSAGE:-131072}
DIRECTION=${DIRECTION:-send}
PIN=${PIN:-0}
ZERO_COPY=${ZERO_COPY:-0}
IPERF3=${IPERF3:-iperf3}
LATENCY=${LATENCY:-0}
WB_LATENCY=()
[ "$LATENCY" = 1 ] || WB_LATENCY=(--set latency.idle_ms=0)
MSS=$((FRAME - 40))
case "$DIRECTION" in
    send) WB_PROTOCOL=tcp-send; IPERF_REVERSE=() ;;
    recv) WB_PROTOCOL=tcp-recv; IPERF_REVERSE=(-R) ;;
    *) echo "tcp_vs_iperf3: DIRECTION must be send or recv, not \"$DIRECTION\"" >&2; exit 2 ;;
esac
WB_SERVER=${WB_SERVER:-wirebenchd}
case "$WB_SERVER" in
    wirebenchd) ;;
    iperf3) WB_PROTOCOL=iperf3-${WB_PROTOCOL#tcp-} ;;
    *) echo "tcp_vs_iperf3: WB_SERVER must be wirebenchd or iperf3, not \"$WB_SERVER\"" >&2; exit 2 ;;
esac
WB_ZERO_COPY=()
IPERF_ZERO_COPY=()
ZERO_COPY_NOTE=""
if [ "$ZERO_COPY" = 1 ]; then
    [ "$WB_SERVER" = wirebenchd ] || { echo "tcp_vs_iperf3: ZERO_COPY=1 is for our tcp-send/tcp-recv (WB_SERVER=wirebenchd)" >&2; exit 2; }
    WB_ZERO_COPY=(--set tcp.zero_copy=true)
    if [ "$DIRECTION" = send ]; then
        IPERF_ZERO_COPY=(-Z); ZERO_COPY_NOTE="zero copy: wirebench sendfile(2), iperf3 -Z"
    elif "$IPERF3" --help 2>&1 | grep -q -- --skip-rx-copy; then
        IPERF_ZERO_COPY=(--skip-rx-copy); ZERO_COPY_NOTE="zero copy: wirebench MSG_TRUNC, iperf3 --skip-rx-copy"
    else
        ZERO_COPY_NOTE="zero copy: wirebench MSG_TRUNC; this iperf3 ($("$IPERF3" --version | head -1 | cut -d' ' -f1-2)) has no --skip-rx-copy (3.16+), so iperf3 -R copies what it receives"
    fi
fi
CLIENT_ON=()
SERVER_ON=()
if [ "$PIN" = 1 ]; then
    [ "$(nproc)" -ge 2 ] || { echo "tcp_vs_iperf3: PIN=1 needs 2 CPUs, this machine has $(nproc)" >&2; exit 2; }
    command -v taskset >/dev/null || { echo "tcp_vs_iperf3: PIN=1 needs taskset (apt-get install util-linux)" >&2; exit 2; }
    CLIENT_ON=(taskset -c 0)
    SERVER_ON=(taskset -c 1)
fi

BUILD=${1:-}
if [ -z "$BUILD" ]; then
    for d in build build-cli build-test; do
        if [ -x "$d/app/cli/wirebench-cli" ] && [ -x "$d/app/daemon/wirebenchd" ]; then BUILD=$d; break; fi
    done
fi
CLI=${BUILD:-build}/app/cli/wirebench-cli
DAEMON=${BUILD:-build}/app/daemon/wirebenchd
for tool in "$CLI" "$DAEMON"; do
    [ -x "$tool" ] || { echo "tcp_vs_iperf3: $tool not found; build first (cmake --build build) or pass the build folder" >&2; exit 2; }
done
for tool in "$IPERF3" python3; do
    command -v "$tool" >/dev/null || { echo "tcp_vs_iperf3: $tool is not installed; apt-get install $tool" >&2; exit 2; }
done

WORK=$(mktemp -d)
WBD_PID=""
IPERF_PID=""
cleanup() {
    [ -n "$WBD_PID" ] && kill "$WBD_PID" 2>/dev/null || true
    [ -n "$IPERF_PID" ] && kill "$IPERF_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# CPU seconds (user + system, all threads) a running process has used so far.
proc_cpu() {
    python3 - "$1" <<'PY'
import os, sys
fields = open(f"/proc/{sys.argv[1]}/stat").read().rsplit(")", 1)[1].split()
print((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
PY
}

# Runs a client, prints "CPU_SECONDS" of the client (user + sys of it and its children); its peak
# resident memory (KiB) goes to $out.rss.
client_cpu() {
    local out=$1; shift
    /usr/bin/time -f "%U %S %M" -o "$out.time" "$@" >"$out.stdout" 2>"$out.stderr" || {
        echo "tcp_vs_iperf3: client failed: $*" >&2; cat "$out.stderr" >&2; tail -3 "$out.stdout" >&2; exit 1; }
    awk '{print $3}' "$out.time" >"$out.rss"
    awk '{print $1 + $2}' "$out.time"
}

# Peak resident memory (VmHWM, KiB) of a running server so far.
proc_peak_rss() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status"; }
# Memory of a running server that is its own (anonymous: heap, stacks, buffers; KiB), without the pages of
# shared libraries that other processes share.
proc_own_memory() { awk '/^Anonymous:/ {print $2}' "/proc/$1/smaps_rollup"; }

# shellcheck source=bench/wirebenchd.sh
. "$(dirname "$0")/wirebenchd.sh"
start_wirebenchd "$WORK/wirebenchd.log" "${SERVER_ON[@]}" -- "$DAEMON"

IPERF_PORT=$(free_port)
"${SERVER_ON[@]}" "$IPERF3" -s -B 127.0.0.1 -p "$IPERF_PORT" >"$WORK/iperf3-server.log" 2>&1 &
IPERF_PID=$!
for _ in $(seq 100); do
    grep -q "Server listening" "$WORK/iperf3-server.log" 2>/dev/null && break
    sleep 0.1
done

# The server wirebench-cli talks to: our wirebenchd, or (WB_SERVER=iperf3) the same iperf3 -s as iperf3 -c.
if [ "$WB_SERVER" = iperf3 ]; then
    WB_SRV_PID=$IPERF_PID; WB_SRV_PORT=$IPERF_PORT; WB_SRV_ARGS=(--server iperf3)
else
    WB_SRV_PID=$WBD_PID; WB_SRV_PORT=$WBD_PORT; WB_SRV_ARGS=()
fi

echo "tcp_vs_iperf3: $PAIRS pairs of ${DURATION}-s $WB_PROTOCOL runs on 127.0.0.1, frame $FRAME (MSS $MSS requested by both), message $MESSAGE B"
[ -n "$ZERO_COPY_NOTE" ] && echo "  $ZERO_COPY_NOTE"
if [ "$LATENCY" = 1 ]; then echo "  wirebench with its latency probe (LATENCY=1)"; else echo "  wirebench without its latency probe (latency.idle_ms=0; LATENCY=1 keeps it)"; fi
if [ "$PIN" = 1 ]; then echo "  clients on CPU 0, servers on CPU 1 (PIN=1)"; else echo "  not pinned to CPUs (PIN=1 pins clients and servers apart)"; fi
echo "  wirebench: $("$CLI" --version) / $WB_SERVER on port $WB_SRV_PORT; iperf3: $("$IPERF3" --version | head -1) on port $IPERF_PORT"
printf "  %-4s %-10s %12s %12s %10s %10s %12s\n" pair tool "MB/s" "GB moved" "client s" "server s" "CPU s/GB"

ROWS="$WORK/rows"
: >"$ROWS"
for pair in $(seq "$PAIRS"); do
    # wirebench
    s0=$(proc_cpu "$WB_SRV_PID")
    c=$(client_cpu "$WORK/wb$pair" "${CLIENT_ON[@]}" "$CLI" run --host "127.0.0.1:$WB_SRV_PORT" "${WB_SRV_ARGS[@]}" --protocol "$WB_PROTOCOL" --frame "$FRAME" \
        --reps 1 --duration "$DURATION" --message-size "$MESSAGE" "${WB_ZERO_COPY[@]}" "${WB_LATENCY[@]}" --json "$WORK/wb$pair.json")
    s1=$(proc_cpu "$WB_SRV_PID")
    python3 - "$WORK/wb$pair.json" "$c" "$s0" "$s1" "$pair" >>"$ROWS" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["status"] == "ok", r["error"]
print(sys.argv[5], "wirebench", r["bytes"] / r["seconds"] / 1e6, r["bytes"], sys.argv[2], float(sys.argv[4]) - float(sys.argv[3]))
PY
    echo "wirebench $(cat "$WORK/wb$pair.rss")" >>"$WORK/rss"
    # iperf3
    s0=$(proc_cpu "$IPERF_PID")
    c=$(client_cpu "$WORK/ip$pair" "${CLIENT_ON[@]}" "$IPERF3" -c 127.0.0.1 -p "$IPERF_PORT" "${IPERF_REVERSE[@]}" "${IPERF_ZERO_COPY[@]}" -t "$DURATION" -M "$MSS" -l "$MESSAGE" -J)
    s1=$(proc_cpu "$IPERF_PID")
    python3 - "$WORK/ip$pair.stdout" "$c" "$s0" "$s1" "$pair" >>"$ROWS" <<'PY'
import json, sys
end = json.load(open(sys.argv[1]))["end"]
rx = end["sum_received"]  # the receiver's count over the receiver's time, as Wirebench's figure
print(sys.argv[5], "iperf3", rx["bytes"] / rx["seconds"] / 1e6, rx["bytes"], sys.argv[2], float(sys.argv[4]) - float(sys.argv[3]))
PY
    echo "iperf3 $(cat "$WORK/ip$pair.rss")" >>"$WORK/rss"
    tail -2 "$ROWS" | while read -r p tool mbps bytes cc sc; do
        python3 -c "import sys; p,t,m,b,c,s=sys.argv[1:]; b=float(b); print(f'  {p:<4} {t:<10} {float(m):12.1f} {b/1e9:12.2f} {float(c):10.2f} {float(s):10.2f} {(float(c)+float(s))/(b/1e9):12.3f}')" \
            "$p" "$tool" "$mbps" "$bytes" "$cc" "$sc"
    done
done

python3 - "$ROWS" "$WORK/rss" "$(proc_peak_rss "$WBD_PID")" "$(proc_peak_rss "$IPERF_PID")" \
    "$(proc_own_memory "$WBD_PID")" "$(proc_own_memory "$IPERF_PID")" "$WB_SERVER" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
rss = [l.split() for l in open(sys.argv[2])]
def pick(tool):
    rs = [r for r in rows if r[1] == tool]
    mbps = statistics.median(float(r[2]) for r in rs)
    gb = sum(float(r[3]) for r in rs) / 1e9
    cpu = sum(float(r[4]) + float(r[5]) for r in rs)
    per_gb = statistics.median((float(r[4]) + float(r[5])) / (float(r[3]) / 1e9) for r in rs)
    return mbps, per_gb, cpu / gb
wb, ip = pick("wirebench"), pick("iperf3")
print()
print(f"  median throughput: wirebench {wb[0]:.1f} MB/s, iperf3 {ip[0]:.1f} MB/s (MB/s = 10^6 bytes/s)")
print(f"  ratio wirebench/iperf3 (medians): {wb[0] / ip[0]:.3f}")
print(f"  CPU seconds per GB (client+server, median of pairs): wirebench {wb[1]:.3f}, iperf3 {ip[1]:.3f} "
      f"(overall {wb[2]:.3f} vs {ip[2]:.3f}; GB = 10^9 bytes)")
wb_rss = statistics.median(int(r[1]) for r in rss if r[0] == "wirebench") / 1024
ip_rss = statistics.median(int(r[1]) for r in rss if r[0] == "iperf3") / 1024
wbd_rss, ips_rss = int(sys.argv[3]) / 1024, int(sys.argv[4]) / 1024
print(f"  peak resident memory (MiB = 2^20 bytes): client wirebench-cli {wb_rss:.1f}, iperf3 -c {ip_rss:.1f} "
      f"(ratio {wb_rss / ip_rss:.2f}); server wirebenchd {wbd_rss:.1f}, iperf3 -s {ips_rss:.1f} (ratio {wbd_rss / ips_rss:.2f})")
wbd_own, ips_own = int(sys.argv[5]) / 1024, int(sys.argv[6]) / 1024
print(f"  servers' own memory after the runs (anonymous, without shared libraries; MiB): wirebenchd {wbd_own:.1f}, "
      f"iperf3 -s {ips_own:.1f} (ratio {wbd_own / ips_own:.2f}); most of wirebench's resident memory is Qt's and the "
      f"protocol libraries' shared pages")
if sys.argv[7] == "iperf3":
    print("  (WB_SERVER=iperf3: both clients used the same iperf3 -s; wirebenchd above sat idle)")
PY
