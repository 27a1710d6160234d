#!/usr/bin/env bash
# Installs what is missing, builds and runs every test.
set -euo pipefail
cd "$(dirname "$0")"
./scripts/install-deps.sh --test
# ccache keys on paths relative to the checkout, so a fresh clone reuses earlier builds.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test --parallel
cd build-test
# Two or more at once: the lab's tests and the others that need the machine to themselves are RUN_SERIAL
# (wirebench_add_test's SERIAL).
ctest --output-on-failure --timeout 600 -j "$(( $(nproc) > 2 ? $(nproc) : 2 ))" "$@"
