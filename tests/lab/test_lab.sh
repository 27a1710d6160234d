#!/usr/bin/env bash
# ctest "LabIperf3": brings the two-namespace lab up at 100 Mbit/s Ethernet and MTU 1500, runs iperf3 through it
# for 3 s, checks that the goodput is within 3% of the theory R*(MTU-52)/(MTU+38)/8 bytes/s, and checks that
# "lab.sh down" leaves nothing behind, also with a server still running (as after a crash).
# Needs root: without it the test is skipped (exit 77) when CI is unset and fails under CI=true.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=$here/lab.sh

skip_or_fail() {
    if [ "${CI:-}" = "true" ]; then echo "FAIL (CI=true): $*" >&2; exit 1; fi
    echo "SKIP: $*"
    exit 77
}
[ "$(id -u)" = 0 ] || skip_or_fail "the lab needs root to create network namespaces: run ctest as root"
for tool in ip tc iperf3 python3; do
    command -v "$tool" >/dev/null || skip_or_fail "$tool is missing: apt-get install iproute2 iperf3 python3"
done

export WBL_ID=t$$
WBL_ID=${WBL_ID:0:8}
trap '"$lab" down >/dev/null 2>&1 || true' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$lab" up --mtu 1500 --rate 100mbit || fail "lab.sh up failed"
eval "$("$lab" env)"
[ "$WBL_MTU" = 1500 ] || fail "lab reports MTU $WBL_MTU, expected 1500"
for spec in "$WBL_CLI_NS $WBL_CLI_IF" "$WBL_SRV_NS $WBL_SRV_IF"; do
    set -- $spec
    mtu=$(ip netns exec "$1" cat "/sys/class/net/$2/mtu")
    [ "$mtu" = 1500 ] || fail "$2 in $1 has MTU $mtu, expected 1500"
    ip netns exec "$1" tc qdisc show dev "$2" | grep -q '^qdisc tbf' || fail "$2 in $1 is not shaped by tbf"
done

"$lab" serve iperf3 || fail "lab.sh serve iperf3 failed"
# Up to 5 runs: above the theory by more than 3% fails at once (the shaper is wrong); below it by more than 3% is
# tried again, since a starved machine makes iperf3 itself fall short (the clean-clone CI of 2026-12-03: -3.88% in
# a window where two other 100 Mbit/s lab tests fell short too; that of 2026-12-04: -4.44, -5.95 and -6.11% in
# three runs, minutes after the hypervisor took 13% of the CPU).
for attempt in 1 2 3 4 5; do
    json=$(ip netns exec "$WBL_CLI_NS" timeout 60 iperf3 -c "$WBL_SRV_ADDR" -t 3 -J) \
        || fail "iperf3 -c $WBL_SRV_ADDR in $WBL_CLI_NS failed: $(head -c 300 <<<"$json")"
    read -r bytes seconds < <(python3 -c 'import json,sys; r=json.load(sys.stdin)["end"]["sum_received"]; print(r["bytes"], r["seconds"])' <<<"$json") \
        || fail "could not read end.sum_received from iperf3's JSON"
    python3 - "$bytes" "$seconds" "$WBL_THEORY_BYTES_PER_S" "$attempt" <<'PY'
import sys
b, s, theory, attempt = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
got = b / s
dev = (got - theory) / theory * 100
print(f"attempt {attempt}: iperf3 through the lab at 100 Mbit/s, MTU 1500: {got/1e6:.3f} MB/s ({got/2**20:.3f} MiB/s) "
      f"received, theory {theory/1e6:.3f} MB/s, deviation {dev:+.2f}%")
if dev > 3.0:
    print(f"FAIL: {got/1e6:.3f} MB/s is more than 3% above the theoretical {theory/1e6:.3f} MB/s", file=sys.stderr)
    sys.exit(1)
sys.exit(2 if dev < -3.0 else 0)
PY
    rc=$?
    [ "$rc" = 0 ] && break
    [ "$rc" = 2 ] || exit 1
    [ "$attempt" = 5 ] && fail "5 runs of iperf3 were all more than 3% below the theoretical $WBL_THEORY_BYTES_PER_S B/s"
done

# "down" with iperf3 -s still running (a crashed test) removes everything; a second "down" is harmless.
srv_pid=$(cat "/run/wirebench-lab/$WBL_ID/iperf3.pid")
"$lab" down || fail "lab.sh down failed"
"$lab" down || fail "a second lab.sh down failed"
ip netns list | grep -q "wbl-.*-$WBL_ID\b" && fail "namespaces of lab $WBL_ID are still there after down"
[ ! -e "/run/wirebench-lab/$WBL_ID" ] || fail "/run/wirebench-lab/$WBL_ID is still there after down"
! kill -0 "$srv_pid" 2>/dev/null || fail "iperf3 -s (pid $srv_pid) outlived lab.sh down"
echo "lab test passed"
