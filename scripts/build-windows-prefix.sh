#!/usr/bin/env bash
# Builds the libraries of the Windows application (x86-64, mingw-w64 with the POSIX thread model) from Debian 12's
# source packages into one prefix, and prints its path:
#   scripts/build-windows-prefix.sh [--print-path]
# The prefix is ${XDG_CACHE_HOME:-$HOME/.cache}/wirebench/windows-prefix-HASH, HASH over this script (its options),
# the package versions and patches, the compiler and the host Qt: a second run finds it complete (the stamp file
# .complete, written last) and returns at once; a changed input builds a new one. --print-path prints the path of
# the prefix for the current inputs and returns (0 if it is complete, 1 if not) without building.
#
# What goes in, in this order, built only as far as the application uses it:
#   sqlite3     the amalgamation, as sqlite3.dll (the application's store and Qt's SQLite driver share it)
#   qt6-base    Core Gui Widgets Network Sql (SQLite driver) PrintSupport, the windows platform plugin; zlib, png,
#               jpeg, freetype, harfbuzz and pcre2 from its own bundled copies; no dbus, OpenGL, Vulkan, TLS, ODBC
#   qt6-svg     QtSvg
#   qcustomplot shared, with a QCustomPlotQt6Config.cmake as Debian's libqcustomplot-dev has
#   curl        Schannel TLS (FTP and explicit FTPS), no other library
#   qtkeychain  the Windows Credential Manager backend
# Debian's host Qt (qt6-base-dev-tools: moc, rcc, uic, 6.4.2 as the sources) serves as the cross build's host Qt.
#
# Sources: `apt-get source` through a deb-src entry this script adds (/etc/apt/sources.list.d/wirebench-src.sources,
# bookworm main, signed by the Debian archive keyring). Where the archive cannot give a package's files, the same
# upstream release from a git repository: WIREBENCH_SRC_GIT_<package> (qt6_svg, qtkeychain) names a clone holding
# the release's tag, else it is cloned from upstream.
#
# Environment: WIREBENCH_PREFIX_JOBS (2) parallel jobs; WIREBENCH_PREFIX_WORK the work folder (sources, build
# trees, the staging prefix; default ${XDG_CACHE_HOME:-$HOME/.cache}/wirebench/windows-work). Each package's build
# is kept there with a stamp of its own inputs, so that a run that was stopped goes on where it stopped.
# The timing and disk use of each package go to WORK/timings.txt and into the prefix (share/wirebench-prefix.txt).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
self="$here/$(basename "$0")"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/wirebench
work=${WIREBENCH_PREFIX_WORK:-$cache/windows-work}
jobs=${WIREBENCH_PREFIX_JOBS:-2}
triple=x86_64-w64-mingw32

# Debian 12's versions of the packages; the upstream tags where the archive's files are missing.
declare -A version=(
    [sqlite3]=3.40.1-2+deb12u2
    [qt6-base]=6.4.2+dfsg-10
    [qt6-svg]=6.4.2-2
    [qcustomplot]=2.1.0+dfsg1-3.1
    [curl]=7.88.1-10+deb12u15
    [qtkeychain]=0.13.2-5
)
declare -A upstream_git=(
    [qt6-svg]="https://github.com/qt/qtsvg.git v6.4.2"
    [qtkeychain]="https://github.com/frankosterfeld/qtkeychain.git v0.13.2"
)
order=(sqlite3 qt6-base qt6-svg qcustomplot curl qtkeychain)

say() { echo "build-windows-prefix: $*" >&2; }

# The prefix's hash: this script, the compiler, the host Qt; the versions and options are in the script.
inputs_hash() {
    {
        sha256sum "$self" | cut -d' ' -f1
        $triple-g++-posix --version | head -1
        dpkg-query -W -f='${Version}\n' qt6-base-dev-tools 2>/dev/null || echo "no host Qt"
        if [ -d "$here/windows-prefix" ]; then
            find "$here/windows-prefix" -type f -print0 | sort -z | xargs -0 -r sha256sum
        fi
    } | sha256sum | cut -c1-16
}

hash=$(inputs_hash)
prefix=$cache/windows-prefix-$hash
if [ "${1:-}" = "--print-path" ]; then
    echo "$prefix"
    [ -f "$prefix/.complete" ]
    exit
fi
if [ -f "$prefix/.complete" ]; then
    say "complete, reused: $prefix"
    echo "$prefix"
    exit 0
fi

missing=()
for tool in $triple-gcc-posix $triple-g++-posix $triple-windres cmake ninja tclsh /usr/lib/qt6/libexec/moc dpkg-source; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "not installed: ${missing[*]}: run scripts/install-deps.sh --test" 
    exit 1
fi

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
srclist=/etc/apt/sources.list.d/wirebench-src.sources
if [ ! -f "$srclist" ]; then
    say "adding the deb-src entry $srclist (bookworm main)"
    printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: bookworm" "Components: main" \
        "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" | $SUDO tee "$srclist" >/dev/null
    $SUDO apt-get update -qq
fi

stage=$work/stage
mkdir -p "$work/src" "$work/build" "$stage"
timings=$work/timings.txt

# The toolchain of every package: the POSIX thread model's compilers, libraries from the staging prefix and
# mingw's own root only.
toolchain=$work/mingw-posix.cmake
cat >"$toolchain.new" <<EOF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER $triple-gcc-posix)
set(CMAKE_CXX_COMPILER $triple-g++-posix)
set(CMAKE_RC_COMPILER $triple-windres)
set(CMAKE_FIND_ROOT_PATH $stage /usr/$triple)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
EOF
# Rewritten only when it changes, so that the build trees are not reconfigured for nothing.
if cmp -s "$toolchain.new" "$toolchain"; then rm "$toolchain.new"; else mv "$toolchain.new" "$toolchain"; fi

# fetch PACKAGE: the unpacked source (Debian's patches applied) in $work/src; prints its folder.
fetch() {
    local pkg=$1 ver=${version[$1]} dir
    local upver=${ver%-*}
    upver=${upver#*:}
    dir=$work/src/$pkg-$upver
    if [ ! -f "$dir/.unpacked" ]; then
        rm -rf "$dir"
        # apt-get source unpacks into PACKAGE-UPSTREAMVERSION with Debian's patches applied.
        if (cd "$work/src" && apt-get source -qq --only-source "$pkg=$ver" >"$work/src/$pkg.fetch.log" 2>&1); then
            :
        elif [ -n "${upstream_git[$pkg]:-}" ]; then
            local url tag var
            read -r url tag <<<"${upstream_git[$pkg]}"
            var=WIREBENCH_SRC_GIT_${pkg//-/_}
            say "$pkg: the archive has not its files (see $work/src/$pkg.fetch.log): upstream $tag"
            local repo=${!var:-}
            if [ -z "$repo" ]; then
                repo=$work/src/$pkg.git
                [ -d "$repo" ] || git clone -q --bare --depth 1 --branch "$tag" "$url" "$repo"
            fi
            mkdir -p "$dir"
            git -C "$repo" archive "$tag" | tar -x -C "$dir"
        else
            say "$pkg: apt-get source failed:"
            tail -5 "$work/src/$pkg.fetch.log" >&2
            exit 1
        fi
        [ -d "$dir" ] || { say "$pkg: no source folder after apt-get source"; exit 1; }
        touch "$dir/.unpacked"
    fi
    echo "$dir"
}

# step PACKAGE FUNCTION: runs FUNCTION SOURCE BUILD unless the package's stamp says it is built with the same
# inputs (its version, its function's text, the package before it); times it and measures its disk use.
previous=""
step() {
    local pkg=$1 fn=$2 src bld key stamp
    key=$( { echo "$previous"; echo "${version[$pkg]}"; declare -f "$fn"; cat "$toolchain"; } | sha256sum | cut -c1-16)
    previous=$key
    stamp=$work/build/$pkg.done-$key
    if [ -f "$stamp" ]; then
        say "$pkg: built already ($(cat "$stamp"))"
        return
    fi
    src=$(fetch "$pkg")
    bld=$work/build/$pkg
    local t0 t1 before after
    t0=$(date +%s)
    before=$(du -sk "$stage" | cut -f1)
    say "$pkg ${version[$pkg]}: building in $bld (log $work/build/$pkg.log)"
    # In the background, so that errexit holds inside the function (an `if` would switch it off there).
    ("$fn" "$src" "$bld") >"$work/build/$pkg.log" 2>&1 &
    if ! wait $!; then
        say "$pkg: failed; the log's end:"
        tail -30 "$work/build/$pkg.log" >&2
        exit 1
    fi
    t1=$(date +%s)
    after=$(du -sk "$stage" | cut -f1)
    local line
    line="$pkg ${version[$pkg]}: $((t1 - t0)) s wall with $jobs jobs, build tree $(du -sm "$bld" | cut -f1) MiB, installed $(( (after - before) / 1024 )) MiB"
    echo "$(date -u +%FT%TZ) $line" >>"$timings"
    rm -f "$work/build/$pkg".done-*
    echo "$line" >"$stamp"
    say "$line"
}

build_sqlite3() {
    local src=$1 bld=$2
    mkdir -p "$bld"
    cd "$bld"
    # The amalgamation (sqlite3.c) is generated on the build machine (tclsh, the host compiler); then compiled alone.
    if [ ! -f sqlite3.c ]; then
        "$src/configure" --disable-tcl >/dev/null
        make sqlite3.c
    fi
    # Debian's options (debian/rules) that matter to a store: threadsafe, URIs, secure delete, column metadata.
    $triple-gcc-posix -O2 -shared -o sqlite3.dll sqlite3.c -Wl,--out-implib,libsqlite3.dll.a \
        -DSQLITE_THREADSAFE=1 -DSQLITE_USE_URI=1 -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_COLUMN_METADATA \
        -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_RTREE=1 -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ENABLE_UNLOCK_NOTIFY \
        -DSQLITE_MAX_SCHEMA_RETRY=25 -DSQLITE_MAX_VARIABLE_NUMBER=250000 -DSQLITE_API='__declspec(dllexport)'
    mkdir -p "$stage/bin" "$stage/lib" "$stage/include"
    cp sqlite3.dll "$stage/bin/"
    cp libsqlite3.dll.a "$stage/lib/"
    cp sqlite3.h sqlite3ext.h "$stage/include/"
}

build_qt6_base() {
    local src=$1 bld=$2
    # Only what the application links; the bundled third-party libraries; the host tools of Debian's Qt.
    cmake -S "$src" -B "$bld" -G Ninja -Wno-dev \
        -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$stage" \
        -DQT_HOST_PATH=/usr -DQT_HOST_PATH_CMAKE_DIR=/usr/lib/x86_64-linux-gnu/cmake \
        -DQT_QMAKE_TARGET_MKSPEC=win32-g++ -DBUILD_SHARED_LIBS=ON \
        -DQT_BUILD_EXAMPLES=OFF -DQT_BUILD_TESTS=OFF -DQT_BUILD_BENCHMARKS=OFF \
        -DFEATURE_dbus=OFF -DFEATURE_opengl=OFF -DFEATURE_vulkan=OFF -DFEATURE_concurrent=OFF \
        -DFEATURE_xml=OFF -DFEATURE_testlib=OFF -DFEATURE_direct2d=OFF \
        -DFEATURE_ssl=OFF -DFEATURE_openssl=OFF -DFEATURE_schannel=OFF -DFEATURE_gssapi=OFF \
        -DFEATURE_libproxy=OFF -DFEATURE_brotli=OFF -DFEATURE_zstd=OFF -DFEATURE_icu=OFF -DFEATURE_glib=OFF \
        -DFEATURE_sql=ON -DFEATURE_sql_sqlite=ON -DFEATURE_system_sqlite=ON -DFEATURE_sql_odbc=OFF \
        -DFEATURE_sql_psql=OFF -DFEATURE_sql_mysql=OFF -DFEATURE_sql_db2=OFF -DFEATURE_sql_ibase=OFF \
        -DFEATURE_sql_oci=OFF -DFEATURE_sql_mimer=OFF \
        -DSQLite3_INCLUDE_DIR="$stage/include" -DSQLite3_LIBRARY="$stage/lib/libsqlite3.dll.a" \
        -DFEATURE_system_zlib=OFF -DFEATURE_system_png=OFF -DFEATURE_system_jpeg=OFF \
        -DFEATURE_system_freetype=OFF -DFEATURE_system_harfbuzz=OFF -DFEATURE_system_pcre2=OFF \
        -DFEATURE_system_doubleconversion=OFF \
        -DFEATURE_gui=ON -DFEATURE_widgets=ON -DFEATURE_printsupport=ON -DFEATURE_network=ON
    cmake --build "$bld" --parallel "$jobs"
    cmake --install "$bld"
}

# A CMake project built against the prefix's Qt (its toolchain file, Debian's host tools) and installed into the prefix.
build_on_prefix_qt() {
    local src=$1 bld=$2
    shift 2
    cmake -S "$src" -B "$bld" -G Ninja -Wno-dev \
        -DCMAKE_TOOLCHAIN_FILE="$stage/lib/cmake/Qt6/qt.toolchain.cmake" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$stage" -DQT_HOST_PATH=/usr \
        -DQT_HOST_PATH_CMAKE_DIR=/usr/lib/x86_64-linux-gnu/cmake "$@"
    cmake --build "$bld" --parallel "$jobs"
    cmake --install "$bld"
}

build_qt6_svg() {
    build_on_prefix_qt "$1" "$2" -DQT_BUILD_EXAMPLES=OFF -DQT_BUILD_TESTS=OFF
}

build_qcustomplot() {
    local src=$1 bld=$2
    # Debian's libqcustomplot2.1 is qcustomplot.cpp as one shared library (no OpenGL: software drawing); the
    # config file gives the target QCustomPlotQt6::QCustomPlotQt6, as Debian's libqcustomplot-dev does.
    mkdir -p "$bld"
    cat >"$bld/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(QCustomPlotQt6 VERSION 2.1.0 LANGUAGES CXX)
find_package(Qt6 REQUIRED COMPONENTS Core Gui Widgets PrintSupport)
set(CMAKE_AUTOMOC ON)
add_library(qcustomplot SHARED "$src/qcustomplot.cpp" "$src/qcustomplot.h")
set_target_properties(qcustomplot PROPERTIES OUTPUT_NAME qcustomplot-qt6 CXX_STANDARD 17)
target_compile_definitions(qcustomplot PRIVATE QCUSTOMPLOT_COMPILE_LIBRARY INTERFACE QCUSTOMPLOT_USE_LIBRARY)
target_link_libraries(qcustomplot PUBLIC Qt6::Core Qt6::Gui Qt6::Widgets Qt6::PrintSupport)
target_include_directories(qcustomplot INTERFACE \$<INSTALL_INTERFACE:include>)
install(TARGETS qcustomplot EXPORT QCustomPlotQt6Targets RUNTIME DESTINATION bin ARCHIVE DESTINATION lib
        LIBRARY DESTINATION lib)
install(FILES "$src/qcustomplot.h" DESTINATION include)
install(EXPORT QCustomPlotQt6Targets NAMESPACE QCustomPlotQt6:: DESTINATION lib/cmake/QCustomPlotQt6)
file(WRITE "\${CMAKE_BINARY_DIR}/QCustomPlotQt6Config.cmake"
"include(CMakeFindDependencyMacro)
find_dependency(Qt6 COMPONENTS Core Gui Widgets PrintSupport)
include(\"\\\${CMAKE_CURRENT_LIST_DIR}/QCustomPlotQt6Targets.cmake\")
if(NOT TARGET QCustomPlotQt6::QCustomPlotQt6)
    add_library(QCustomPlotQt6::QCustomPlotQt6 ALIAS QCustomPlotQt6::qcustomplot)
endif()
")
install(FILES "\${CMAKE_BINARY_DIR}/QCustomPlotQt6Config.cmake" DESTINATION lib/cmake/QCustomPlotQt6)
EOF
    build_on_prefix_qt "$bld" "$bld/build"
}

build_curl() {
    local src=$1 bld=$2
    # Schannel for FTPS; FTP, FTPS (and HTTP, which costs nothing) only; no zlib, brotli, ssh, idn, psl.
    cmake -S "$src" -B "$bld" -G Ninja -Wno-dev \
        -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$stage" \
        -DBUILD_SHARED_LIBS=ON -DBUILD_CURL_EXE=OFF -DBUILD_TESTING=OFF -DCURL_USE_SCHANNEL=ON \
        -DCURL_USE_OPENSSL=OFF -DCURL_ZLIB=OFF -DCURL_BROTLI=OFF -DCURL_ZSTD=OFF -DCURL_USE_LIBSSH2=OFF \
        -DCURL_USE_LIBPSL=OFF -DUSE_LIBIDN2=OFF -DUSE_NGHTTP2=OFF -DENABLE_MANUAL=OFF -DCURL_DISABLE_LDAP=ON \
        -DCURL_DISABLE_LDAPS=ON -DCURL_DISABLE_TELNET=ON -DCURL_DISABLE_DICT=ON -DCURL_DISABLE_TFTP=ON \
        -DCURL_DISABLE_GOPHER=ON -DCURL_DISABLE_POP3=ON -DCURL_DISABLE_IMAP=ON -DCURL_DISABLE_SMTP=ON \
        -DCURL_DISABLE_RTSP=ON -DCURL_DISABLE_MQTT=ON -DCURL_DISABLE_SMB=ON -DCURL_DISABLE_FILE=ON
    cmake --build "$bld" --parallel "$jobs"
    cmake --install "$bld"
}

build_qtkeychain() {
    build_on_prefix_qt "$1" "$2" -DBUILD_WITH_QT6=ON -DBUILD_TRANSLATIONS=OFF -DBUILD_TEST_APPLICATION=OFF \
        -DUSE_CREDENTIAL_STORE=ON
}

for pkg in "${order[@]}"; do
    step "$pkg" "build_${pkg//-/_}"
done

# The prefix of these inputs: a copy of the staging prefix (which the next change of input builds on), the
# timings beside it, the stamp last.
say "copying the staging prefix to $prefix"
rm -rf "$prefix.tmp"
cp -a "$stage" "$prefix.tmp"
mkdir -p "$prefix.tmp/share"
cp "$timings" "$prefix.tmp/share/wirebench-prefix.txt"
rm -rf "$prefix"
mv "$prefix.tmp" "$prefix"
date -u +%FT%TZ >"$prefix/.complete"
say "complete: $prefix ($(du -sm "$prefix" | cut -f1) MiB; work folder $(du -sm "$work" | cut -f1) MiB)"
echo "$prefix"
