#!/usr/bin/env bash
# Installs the Debian 12 packages Wirebench needs to build, run and test. Only what is missing.
set -euo pipefail

BUILD_PKGS=(build-essential cmake ninja-build ccache pkg-config git lld
    qt6-base-dev libqt6sql6-sqlite libqt6sql6-psql qt6-svg-dev libqcustomplot-dev
    libcurl4-openssl-dev libsmbclient-dev qtkeychain-qt6-dev libsqlite3-dev
    nlohmann-json3-dev nettle-dev)
RUN_PKGS=(fonts-dejavu-core xvfb xauth)
TEST_PKGS=(vsftpd samba smbclient iperf3 iputils-ping curl iproute2 ethtool imagemagick poppler-utils
    desktop-file-utils appstream dpkg-dev file clang clang-format libclang-rt-14-dev procps psmisc
    openssl util-linux universal-ctags postgresql
    g++-mingw-w64-x86-64-posix wine wine64 nsis systemd prometheus tcl python3-impacket
    dbus-daemon gnome-keyring libsecret-1-0)

want=("${BUILD_PKGS[@]}" "${RUN_PKGS[@]}")
if [ "${1:-}" = "--test" ]; then
    want+=("${TEST_PKGS[@]}")
fi

missing=()
for p in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then SUDO="sudo"; else
        echo "Wirebench needs these packages and this user is not root and has no sudo: ${missing[*]}" >&2
        exit 1
    fi
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# Packages like samba and vsftpd try to start their services; the tests start their own instances.
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
