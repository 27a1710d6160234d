#!/usr/bin/env bash
# Measures iperf3 through the lab at 1 Gbit/s MTU 1500, 1 Gbit/s MTU 9000 and 100 Mbit/s MTU 1500 and prints each
# result next to the theoretical TCP goodput R*(MTU-52)/(MTU+38)/8. Needs root. Usage: verify_rates.sh [SECONDS] [REPS]
# iperf3 -J reports bytes and seconds; the figures below are MB/s = 10^6 B/s (MiB/s = 2^20 B/s in brackets).
set -euo pipefail
secs=${1:-10}
reps=${2:-2}
lab=$(cd "$(dirname "$0")" && pwd)/lab.sh
export WBL_ID=v$$
WBL_ID=${WBL_ID:0:8}
trap '"$lab" down >/dev/null 2>&1 || true' EXIT
"$lab" up >/dev/null
"$lab" serve iperf3 >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for cfg in "1gbit 1500" "1gbit 9000" "100mbit 1500"; do
    set -- $cfg
    "$lab" mtu "$2" >/dev/null
    "$lab" shape "$1" >/dev/null
    eval "$("$lab" env)"
    for rep in $(seq "$reps"); do
        ip netns exec "$WBL_CLI_NS" iperf3 -c "$WBL_SRV_ADDR" -t "$secs" -J | python3 -c '
import json, sys
r = json.load(sys.stdin)["end"]["sum_received"]
theory, rate, mtu, rep = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
got = r["bytes"] / r["seconds"]
print(f"{rate:>7} MTU {mtu:>4} run {rep}: {got/1e6:8.2f} MB/s ({got/2**20:7.2f} MiB/s)   theory {theory/1e6:7.2f} MB/s   {(got-theory)/theory*100:+6.2f}%")
' "$WBL_THEORY_BYTES_PER_S" "$1" "$2" "$rep"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
