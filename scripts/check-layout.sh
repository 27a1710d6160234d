#!/bin/sh
# The structure's measures (issue 13), checked from the code itself; exit 1 with every breach listed.
#   1. core/ neither includes nor links Qt Widgets or QCustomPlot.
#   2. core/net and core/wire include nothing from core/protocols or core/responder (sockets and wire formats
#      sit below the clients and servers that use them).
#   3. No protocol id ("tcp-send", "smb-read", ...) is written outside core/protocols/.
#   4. The frame range (576..65535) is spelled in core/model/Frame.* only (576 is its mark: 65535 is also a port).
#   5. No function is longer than 120 lines in core/ and app/, 150 in ui/ (scripts/long-functions.sh).
#   6. Only core/platform/linux reads /proc or /sys, asks sock_diag (netlink) or ethtool, reads IP_MTU, or gets
#      or sets an interface MTU by ioctl: everything else asks core/platform's interfaces, so a port adds one folder;
#      core/platform includes nothing of core outside itself.
#      (getsockopt(TCP_INFO) on a socket of one's own is POSIX-ish socket code and stays in core/net.)
#      Nor does anything else use the calls only some OSes have: RUSAGE_THREAD, SIOCINQ, O_DIRECT, posix_fadvise,
#      MSG_NOSIGNAL, accept4, TCP_CONGESTION or a <linux/...> header (core/net/TcpInfo.cpp's <linux/tcp.h> aside):
#      they go through platform::CpuTimes, SocketCalls and PageCache. Code only: comments and strings may name them.
# --without-lengths leaves 5 out (ctest checks all six).
set -u
cd "$(dirname "$0")/.."
status=0
breach() { printf '%s\n' "$1"; shift; [ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/    /'; status=1; }
src() { find "$@" -name '*.h' -o -name '*.cpp' 2>/dev/null; }

hits=$(grep -nE '#include <(QtWidgets|QWidget|QApplication|qcustomplot)|Qt6?::Widgets|QCustomPlot' $(src core) core/CMakeLists.txt core/*/CMakeLists.txt 2>/dev/null)
[ -z "$hits" ] || breach "1. core/ reaches Qt Widgets or QCustomPlot:" "$hits"

hits=$(grep -nE '#include "(protocols|responder)/' $(src core/net core/wire) 2>/dev/null)
[ -z "$hits" ] || breach "2. core/net or core/wire includes upwards:" "$hits"

ids='"(tcp|iperf3|iperf3-udp|ftp|smb|copy)-(send|recv|get|put|read|write)"'
# Code only: what follows // on a line is a comment.
hits=$(grep -nE "$ids" $(src core app ui) 2>/dev/null | grep -v '^core/protocols/' |
       awk -v re="$ids" '{ line = $0; sub(/^[^:]+:[0-9]+:/, "", line); sub(/\/\/.*/, "", line); if (line ~ re) print }')
[ -z "$hits" ] || breach "3. protocol ids outside core/protocols/:" "$hits"

hits=$(grep -nw '576' $(src core app ui) 2>/dev/null | grep -v '^core/model/Frame\.')
[ -z "$hits" ] || breach "4. the frame range outside core/model/Frame.*:" "$hits"

linux='"/proc|"/sys/|SIOCSIFMTU|SIOCGIFMTU|SIOCETHTOOL|sock_diag\.h|inet_diag|NETLINK_SOCK_DIAG|AF_NETLINK|IPPROTO_IPV?6?, *IPV?6?_MTU'
hits=$(grep -nE "$linux" $(src core app ui) 2>/dev/null | grep -v '^core/platform/linux/' |
       awk -v re="$linux" '{ line = $0; sub(/^[^:]+:[0-9]+:/, "", line); sub(/\/\/.*/, "", line); if (line ~ re) print }')
[ -z "$hits" ] || breach "6. Linux-only readers outside core/platform/linux:" "$hits"
calls='RUSAGE_THREAD|SIOCINQ|O_DIRECT|posix_fadvise|MSG_NOSIGNAL|accept4|TCP_CONGESTION|#include <linux/'
hits=$(grep -nE "$calls" $(src core app ui) 2>/dev/null | grep -v '^core/platform/linux/' |
       grep -v '^core/net/TcpInfo\.cpp:[0-9]*:#include <linux/tcp\.h>' |
       awk -v re="$calls" '{ line = $0; sub(/^[^:]+:[0-9]+:/, "", line); gsub(/"([^"\\]|\\.)*"/, "\"\"", line);
                             sub(/\/\/.*/, "", line); if (line ~ re) print }')
[ -z "$hits" ] || breach "6. Linux-only calls outside core/platform/linux:" "$hits"
# ... and core/platform stands alone (the Qt-free wirebenchd links it without the rest of core).
hits=$(grep -nE '#include "' $(src core/platform) 2>/dev/null | grep -vE '#include "(platform/[^"]+|[A-Za-z]+\.h)"')
[ -z "$hits" ] || breach "6. core/platform includes other rooms of core:" "$hits"

if [ "${1:-}" = "--without-lengths" ]; then
    :
elif command -v ctags >/dev/null; then
    hits=$(scripts/long-functions.sh core app ui)
    [ -z "$hits" ] || breach "5. functions over the limit (lines, place, name):" "$hits"
else
    breach "5. cannot measure functions: universal-ctags is not installed (apt-get install universal-ctags)"
fi
[ $status -eq 0 ] && echo "layout: all measures hold"
exit $status
