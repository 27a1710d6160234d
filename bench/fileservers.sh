#!/usr/bin/env bash
# File-server shoot-out benchmark: Wirebench's FTP GET/PUT against curl and its SMB read/write against
# smbclient, on the same real vsftpd and smbd (started on 127.0.0.1 by the helper, with a throw-away user),
# alternating, and the median ratios (Wirebench / tool; target >= 1.0 each). Needs root (it creates the user).
#
#   bench/fileservers.sh [--size-mib N] [--reps N]      (defaults: 128 MiB, 5 pairs)
#
# Environment: BUILD_DIR (default build-fileservers), reused if it exists.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$here/build-fileservers}"

if [ "$(id -u)" != 0 ]; then
    echo "fileservers.sh: needs root (it creates a temporary Unix user for vsftpd and smbd); run it with sudo" >&2
    exit 2
fi
for tool in curl smbclient /usr/sbin/vsftpd /usr/sbin/smbd; do
    command -v "$tool" >/dev/null || { echo "fileservers.sh: $tool is missing (apt-get install curl smbclient vsftpd samba)" >&2; exit 2; }
done

if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target wirebench-fileserver-bench --parallel "${JOBS:-2}" >/dev/null
exec "$build/tests/protocols/wirebench-fileserver-bench" "$@"
