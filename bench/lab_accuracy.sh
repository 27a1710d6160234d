#!/usr/bin/env bash
# Wirebench's TCP send and receive and iperf3 through the two-namespace lab (tests/lab/lab.sh) at
# 1 Gbit/s MTU 1500, 1 Gbit/s MTU 9000 and 100 Mbit/s MTU 1500, each compared with the theoretical TCP
# goodput of an Ethernet line of rate R at MTU M with timestamps: R*(M-52)/(M+38)/8 bytes/s.
# Then Wirebench's FTP GET/PUT and SMB read/write through the same lab setup with real vsftpd and smbd
# (tests/accuracy/TestFileServerAccuracy, which brings up a lab of its own: wirebench-cli has no FTP/SMB
# host options), with files of SECONDS x 100 MB at 1 Gbit/s and SECONDS x 10 MB at 100 Mbit/s.
# Prints one line per run: MB/s (10^6 bytes/s), theory, ratio, MSS. Needs root (network namespaces).
#
#   bench/lab_accuracy.sh [BUILD_DIR] [SECONDS]     (default: build, 3 s per run)
#   REPS=N bench/lab_accuracy.sh ...                 (TCP runs per cell, default 1)
#   FILESERVERS=0 bench/lab_accuracy.sh ...          (TCP and iperf3 only)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=${1:-$repo/build}
secs=${2:-3}
reps=${REPS:-1}
lab=$repo/tests/lab/lab.sh
cli=$build/app/cli/wirebench-cli
daemon=$build/app/daemon/wirebenchd
fstest=$build/tests/accuracy/TestFileServerAccuracy
fileservers=${FILESERVERS:-1}

[ "$(id -u)" = 0 ] || { echo "lab_accuracy.sh: the lab needs root to create network namespaces: run with sudo" >&2; exit 1; }
for f in "$cli" "$daemon"; do
    [ -x "$f" ] || { echo "lab_accuracy.sh: $f is not built: cmake --build $build --target wirebench-cli wirebenchd" >&2; exit 1; }
done
if [ "$fileservers" != 0 ] && [ ! -x "$fstest" ]; then
    echo "lab_accuracy.sh: $fstest is not built: cmake --build $build --target TestFileServerAccuracy (or FILESERVERS=0)" >&2
    exit 1
fi
for tool in iperf3 python3; do
    command -v $tool >/dev/null || { echo "lab_accuracy.sh: $tool is missing: apt-get install $tool" >&2; exit 1; }
done

export WBL_ID=${WBL_ID:-bench}
trap '"$lab" down >/dev/null 2>&1 || true' EXIT
"$lab" up --mtu 1500 --rate 1gbit >/dev/null
open=(); "$daemon" --help 2>&1 | grep -q -- --open && open=(--open)   # the lab is private: no key
"$lab" serve wirebenchd "$daemon" "${open[@]}" >/dev/null
"$lab" serve iperf3 >/dev/null
eval "$("$lab" env)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; "$lab" down >/dev/null 2>&1 || true' EXIT

# tool protocol rate_bps mtu value_Bps mss
report() {
    python3 - "$@" <<'PY'
import sys
tool, proto, rate, mtu, got, mss = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
theory = rate * (mtu - 52) / (mtu + 38) / 8
print(f"{tool:14s} {proto:9s} {rate/1e6:6.0f} Mbit/s MTU {mtu:5d}: {got/1e6:9.3f} MB/s  theory {theory/1e6:8.3f} MB/s"
      f"  ratio {got/theory:7.4f}  MSS {mss} bytes")
PY
}

printf '%s\n' "Lab $WBL_ID: $WBL_CLI_NS ($WBL_CLI_ADDR) -> $WBL_SRV_NS ($WBL_SRV_ADDR), $secs s per run, $reps run(s) per cell; MB/s = 10^6 bytes/s"
for cell in "1gbit 1000000000 1500" "1gbit 1000000000 9000" "100mbit 100000000 1500"; do
    set -- $cell
    rate=$1 bps=$2 mtu=$3
    "$lab" mtu "$mtu" >/dev/null
    "$lab" shape "$rate" >/dev/null
    for rep in $(seq "$reps"); do
        for proto in tcp-send tcp-recv; do
            json=$tmp/wb.json
            if ip netns exec "$WBL_CLI_NS" "$cli" run --host "$WBL_SRV_ADDR:5301" --protocol "$proto" --frame "$mtu" \
                    --reps 1 --duration "$secs" --json "$json" >"$tmp/wb.out" 2>&1; then
                read -r bps_got mss < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["bytes"]/r["seconds"], r["mss"])' "$json")
                report wirebench "$proto" "$bps" "$mtu" "$bps_got" "$mss"
            else
                echo "wirebench      $proto $rate MTU $mtu: FAILED: $(tail -1 "$tmp/wb.out")"
            fi
            rflag=(); [ "$proto" = tcp-recv ] && rflag=(-R)
            if ip netns exec "$WBL_CLI_NS" iperf3 -c "$WBL_SRV_ADDR" -t "$secs" "${rflag[@]}" -J >"$tmp/ip.json" 2>&1; then
                read -r bps_got mss < <(python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); r=d["end"]["sum_received"]
print(r["bytes"]/r["seconds"], d["start"].get("tcp_mss_default", "?"))' "$tmp/ip.json")
                report iperf3 "$proto" "$bps" "$mtu" "$bps_got" "$mss"
            else
                echo "iperf3         $proto $rate MTU $mtu: FAILED: $(head -c 200 "$tmp/ip.json")"
            fi
        done
    done
done

[ "$fileservers" != 0 ] || exit 0
# The file servers: their own lab (WBL_ID fs...), so this one goes first.
"$lab" down >/dev/null 2>&1 || true
echo "FTP and SMB (files of $((secs * 100)) MB at 1 Gbit/s, $((secs * 10)) MB at 100 Mbit/s; up to 2 attempts per row;" \
     "the whole transfer is judged; SMB's first three I/O calls are untimed (smb.warm_up); MB = 10^6 bytes):"
WIREBENCH_FS_MB_1G=$((secs * 100)) WIREBENCH_FS_MB_100M=$((secs * 10)) \
    "$fstest" goodputMatchesTheory >"$tmp/fs.out" 2>&1 && fs_ok=1 || fs_ok=0
# "row:" lines as above; "reference:" iperf3 after a row missed 3%; "overloaded:" the row was compared with iperf3.
sed -n 's/^QINFO *: [^)]*) //p' "$tmp/fs.out" | grep -E '^(row|reference|overloaded):' | sed -E 's/^row: //'
grep -E '^(FAIL!|SKIP)' -A1 "$tmp/fs.out" || true
grep -E '^Totals' "$tmp/fs.out"
[ "$fs_ok" = 1 ]
