#!/usr/bin/env bash
# Wirebench's SMB write and read against smbclient's own reported rate, through the two-namespace lab
# (tests/lab/lab.sh, with a lab id of its own) at each line rate x MTU, taken in turn (Wirebench, then
# smbclient, on the same server, file size and line), printing the ratio of the medians per cell and a
# Markdown table at the end (also Wirebench's and smbclient's share of the line's theoretical goodput).
# Targets (issue 17): smb-write at least 1.0x smbclient at every cell; smb-read where it was or better.
# Needs root (network namespaces, a throw-away user for smbd).
#
#   bench/smb_vs_smbclient.sh [BUILD_DIR] [-- options of wirebench-smb-bench]
#     --rates 100mbit,250mbit,1gbit,2500mbit   --mtus 1500,4000,9000   --protocols smb-write,smb-read
#     --set KEY=VALUE (smb.* on the host, any other on the plan, e.g. latency.idle_ms=0)
#     --write-connections 4[,2,3]   --read-connections 2[,...]   (default: the driver's, 4 and 2)   --reps 3   --seconds 3
#     --warm-up 1 (pairs run first in each cell and not counted)
#     --settle 3 (seconds of pause after each written file is removed, before the next run; 0 for none)
#     --warm-memory 3000 (MB touched and freed after that pause, so the server's tmpfs gets memory the VM backs)
#
# Example: the connection counts of a cell that falls short, one after the other:
#   bench/smb_vs_smbclient.sh build -- --rates 250mbit --mtus 4000 --write-connections 1,2,3,4
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
build=$repo/build
if [ $# -gt 0 ] && [ "$1" != -- ]; then build=$1; shift; fi
[ "${1:-}" = -- ] && shift
bench=$build/tests/accuracy/wirebench-smb-bench

[ "$(id -u)" = 0 ] || { echo "smb_vs_smbclient.sh: the lab needs root to create network namespaces: run with sudo" >&2; exit 2; }
for tool in smbclient /usr/sbin/smbd ip tc; do
    command -v "$tool" >/dev/null || { echo "smb_vs_smbclient.sh: $tool is missing (apt-get install smbclient samba iproute2)" >&2; exit 2; }
done
[ -x "$bench" ] || { echo "smb_vs_smbclient.sh: $bench is not built: cmake --build $build --target wirebench-smb-bench" >&2; exit 2; }
export WIREBENCH_SOURCE_DIR=$repo
exec "$bench" "$@"
