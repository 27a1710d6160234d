#!/usr/bin/env bash
# Builds the Debian package with CPack and checks it end to end: contents and control fields, installation
# (apt-get when root, else dpkg -x into a scratch root), every binary's --version, desktop-file-validate,
# appstreamcli validate, the man pages, and that purging leaves nothing behind.
# Usage: test_deb.sh BUILD_DIR PROJECT_VERSION
# Under CI=true, anything that keeps the test from running fully (not root, a missing tool) is a failure.
set -uo pipefail

build_dir=${1:?usage: test_deb.sh BUILD_DIR PROJECT_VERSION}
version=${2:?usage: test_deb.sh BUILD_DIR PROJECT_VERSION}
ci=${CI:-}
failures=()
fail() { echo "FAIL: $*" >&2; failures+=("$*"); }
info() { echo "--- $*"; }
# Something the test needs is missing: a failure under CI, a note otherwise.
need() { if [ "$ci" = "true" ]; then fail "$*"; else echo "SKIP (CI unset): $*"; fi; }

# One installer test at a time on this machine (several build trees may run ctest at once): the package is
# installed system-wide, and dpkg allows one user anyway.
exec 9>/tmp/wirebench-installer-test.lock
flock -w 900 9 || { echo "FAIL: another installer test held /tmp/wirebench-installer-test.lock for 15 minutes" >&2; exit 1; }

scratch=$(mktemp -d /tmp/wirebench-deb-test.XXXXXX)
installed_by_us=0
cleanup() {
    if [ "$installed_by_us" = 1 ] && dpkg-query -W -f='${Status}' wirebench 2>/dev/null | grep -q installed; then
        apt-get purge -y -qq wirebench >/dev/null 2>&1 || dpkg --purge wirebench >/dev/null 2>&1
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT

for tool in cpack dpkg-deb; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing: install cmake and dpkg" >&2; exit 1; }
done

# 1. Build the package into the scratch directory (the build tree stays as it was).
info "cpack -G DEB (build dir $build_dir)"
if ! (cd "$scratch" && cpack -G DEB --config "$build_dir/CPackConfig.cmake" -B "$scratch/out" >"$scratch/cpack.log" 2>&1); then
    tail -20 "$scratch/cpack.log" >&2
    echo "FAIL: cpack could not build the package: see the log above" >&2
    exit 1
fi
deb=$(ls "$scratch"/out/wirebench_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL: cpack ran but no wirebench_*.deb appeared in $scratch/out" >&2; exit 1; }
info "package: $(basename "$deb") ($(stat -c %s "$deb") bytes)"

# 2. Control fields.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = wirebench ] || fail "Package field is '$(field Package)', expected wirebench"
[ "$(field Version)" = "$version" ] || fail "Version field is '$(field Version)', expected the project version $version"
[ "$(field Section)" = net ] || fail "Section field is '$(field Section)', expected net"
depends=$(field Depends)
echo "Depends: $depends"
for dep in libc6 libqt6core6; do
    grep -q "\b$dep\b" <<<"$depends" || fail "Depends lacks $dep: dpkg-shlibdeps did not run (CPACK_DEBIAN_PACKAGE_SHLIBDEPS)"
done
# Opened at run time (SMB), so dpkg-shlibdeps cannot see it: listed by hand.
grep -qE "(^|, )libsmbclient( |,|$)" <<<"$depends" || fail "Depends lacks libsmbclient, which the SMB driver opens at run time"
grep -qE "(^|, )libqt6sql6-psql( |,|$)" <<<"$depends" || fail "Depends lacks libqt6sql6-psql, Qt's plugin for a store on a PostgreSQL server"
[ -n "$(field Description)" ] || fail "the package has no Description"
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles 2>/dev/null | grep -qx /etc/wirebench/wirebenchd.conf \
    || fail "/etc/wirebench/wirebenchd.conf is not marked as a conffile"

# 3. Contents.
contents=$(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|')
expected=(
    /usr/bin/wirebench /usr/bin/wirebench-cli /usr/bin/wirebenchd
    /usr/libexec/wirebench/wirebench-cli-charts
    /usr/share/applications/wirebench.desktop
    /usr/share/metainfo/io.github.wirebench.Wirebench.metainfo.xml
    /usr/share/icons/hicolor/scalable/apps/wirebench.svg
    /usr/share/man/man1/wirebench.1.gz /usr/share/man/man1/wirebench-cli.1.gz /usr/share/man/man8/wirebenchd.8.gz
    /lib/systemd/system/wirebenchd.service
    /etc/wirebench/wirebenchd.conf
)
for s in 16 24 32 48 64 128 256; do expected+=("/usr/share/icons/hicolor/${s}x${s}/apps/wirebench.png"); done
for path in "${expected[@]}"; do
    grep -qx "$path" <<<"$contents" || fail "the package lacks $path"
done

# 4. Install: the real thing when root, a scratch root otherwise.
if [ "$(id -u)" = 0 ]; then
    command -v apt-get >/dev/null || { echo "FAIL: apt-get is missing" >&2; exit 1; }
    if dpkg-query -W -f='${Status}' wirebench 2>/dev/null | grep -q installed; then
        info "purging a wirebench package left by an earlier run"
        apt-get purge -y -qq wirebench >/dev/null 2>&1 || dpkg --purge wirebench
    fi
    info "apt-get install -y $deb"
    installed_by_us=1
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=120 --no-install-recommends "$deb" >"$scratch/apt.log" 2>&1; then
        tail -20 "$scratch/apt.log" >&2
        echo "FAIL: apt-get could not install $(basename "$deb"): see the log above" >&2
        exit 1
    fi
    root=""
    dpkg -L wirebench >"$scratch/files.txt"
else
    if [ "$ci" = "true" ]; then
        fail "not root under CI=true: the package cannot be installed with apt-get (run the tests as root)"
    else
        echo "NOTE: not root, so the package is unpacked with dpkg -x into a scratch root instead of installed"
    fi
    root="$scratch/root"
    dpkg-deb -x "$deb" "$root"
fi

# 5. Every binary answers --version with the project version.
declare -A owners=([wirebench]=app/gui [wirebench-cli]=app/cli [wirebenchd]=app/daemon)
for bin in wirebench wirebench-cli wirebenchd; do
    out=$(QT_QPA_PLATFORM=offscreen timeout 20 "$root/usr/bin/$bin" --version 2>&1)
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q -- "$version" <<<"$out"; then
        fail "$bin --version exited $rc and printed '$(head -c 200 <<<"$out")': it must print the version $version ($bin, ${owners[$bin]}/main.cpp: add --version, e.g. QCommandLineParser::addVersionOption)"
    else
        echo "$bin --version: $(head -1 <<<"$out")"
    fi
done

# wirebench-cli hands --chart to the installed wirebench-cli-charts (../libexec/wirebench): with it missing, the run
# would stop at once saying so; with it, the run goes on to the host (here a closed port on loopback) and fails there.
out=$(QT_QPA_PLATFORM=offscreen HOME="$scratch" timeout 60 "$root/usr/bin/wirebench-cli" run --host 127.0.0.1:9 \
      --duration 1 --chart "$scratch/c.png" 2>&1 || true)
if grep -q "wirebench-cli-charts" <<<"$out"; then
    fail "wirebench-cli could not hand --chart to wirebench-cli-charts: $(head -c 300 <<<"$out")"
else
    echo "wirebench-cli --chart: handed to wirebench-cli-charts ($(grep -m1 -o '127.0.0.1:9[^.]*' <<<"$out" || echo 'ran'))"
fi

# 6. Desktop integration validators and the man pages.
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$root/usr/share/applications/wirebench.desktop" || fail "desktop-file-validate rejects wirebench.desktop"
else
    need "desktop-file-validate is missing (apt-get install desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.wirebench.Wirebench.metainfo.xml" \
        || fail "appstreamcli validate rejects io.github.wirebench.Wirebench.metainfo.xml"
else
    need "appstreamcli is missing (apt-get install appstream)"
fi
if command -v man >/dev/null; then
    for page in man1/wirebench.1.gz man1/wirebench-cli.1.gz man8/wirebenchd.8.gz; do
        warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$root/usr/share/man/$page" 2>&1 >/dev/null)
        [ -z "$warnings" ] || fail "man page $page has troff warnings: $warnings"
    done
fi
if command -v systemd-analyze >/dev/null && [ -z "$root" ]; then
    # Only the unit's own messages count; a container without a running systemd adds unrelated noise.
    unit_msgs=$(systemd-analyze verify /lib/systemd/system/wirebenchd.service 2>&1 | grep '^wirebenchd.service' || true)
    [ -z "$unit_msgs" ] || fail "systemd-analyze verify: $unit_msgs"
fi
if command -v systemd-analyze >/dev/null; then
    # The hardening must keep systemd's exposure score at or below 2.0 ("OK"; 16 of 100 when written).
    exposure=$(systemd-analyze security --offline=true "$root/lib/systemd/system/wirebenchd.service" 2>&1 | grep 'Overall exposure')
    echo "wirebenchd.service: ${exposure:-no exposure score}"
    systemd-analyze security --offline=true --threshold=20 "$root/lib/systemd/system/wirebenchd.service" >/dev/null 2>&1 \
        || fail "wirebenchd.service is less hardened than before ($exposure): keep DynamicUser, the Protect* options and the system-call filter"
fi
# Enabled by default would start a network service nobody configured.
if [ -z "$root" ] && command -v systemctl >/dev/null; then
    state=$(systemctl is-enabled wirebenchd.service 2>/dev/null || true)
    [ "$state" != enabled ] || fail "wirebenchd.service was enabled by the installation; it must stay disabled"
fi

# 7. Remove: nothing the package installed may be left.
if [ -z "$root" ]; then
    info "apt-get purge -y wirebench"
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=120 wirebench >"$scratch/purge.log" 2>&1 \
        || { cat "$scratch/purge.log" >&2; fail "apt-get purge wirebench failed"; }
    installed_by_us=0
    dpkg-query -W -f='${Status}' wirebench 2>/dev/null | grep -q "ok installed" && fail "wirebench is still installed after purge"
    left=0
    while IFS= read -r path; do
        # Directories such as /usr/share/icons/hicolor are shared with other packages and stay.
        if [ -e "$path" ] && [ ! -d "$path" ]; then fail "left behind after purge: $path"; left=1; fi
    done <"$scratch/files.txt"
    for dir in /etc/wirebench /var/lib/wirebench /var/lib/private/wirebench; do
        [ ! -e "$dir" ] || fail "left behind after purge: $dir"
    done
    [ $left = 1 ] || echo "purge removed all $(grep -c . "$scratch/files.txt") paths the package listed"
fi

if [ ${#failures[@]} -gt 0 ]; then
    echo "installer test: ${#failures[@]} failure(s):" >&2
    printf '  - %s\n' "${failures[@]}" >&2
    exit 1
fi
echo "installer test: all checks passed"
