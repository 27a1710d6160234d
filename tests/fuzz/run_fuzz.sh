#!/bin/bash
# Builds the pre-authentication parser fuzz target with clang++ -fsanitize=fuzzer,address and runs it for
# FUZZ_SECONDS (default 60) on the committed corpus. New interesting inputs go to a scratch copy; pass
# FUZZ_MERGE=1 to merge them back into tests/fuzz/corpus.
#   tests/fuzz/run_fuzz.sh [BUILD_DIR]           (BUILD_DIR default: a temporary folder)
#   FUZZ_SECONDS=3600 tests/fuzz/run_fuzz.sh     (for longer, on demand)
# Without clang++ it skips (exit 77, ctest SKIP) unless CI=true, where that is a failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${FUZZ_SECONDS:-60}
out=${1:-}
cxx=${FUZZ_CXX:-clang++}

if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "run_fuzz.sh: $cxx not found: install clang (apt-get install clang) to fuzz the control-protocol parser" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
if [ ! -f /usr/include/nlohmann/json.hpp ] || ! pkg-config --exists libcrypto; then
    echo "run_fuzz.sh: nlohmann/json.hpp or libcrypto is missing: install nlohmann-json3-dev and libssl-dev" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
if [ -z "$out" ]; then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
bin="$out/fuzz_preauth"
# shellcheck disable=SC2046
"$cxx" -std=c++20 -g -O1 -fPIC -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$root/core" \
    "$here/fuzz_preauth.cpp" "$root/core/wire/wirebenchd/ControlMessage.cpp" "$root/core/wire/wirebenchd/Auth.cpp" \
    "$root/core/wire/wirebenchd/HmacNettle.cpp" "$root/core/wire/PrintableText.cpp" "$root/core/wire/Text.cpp" \
    "$root/core/wire/Base64.cpp" "$root/core/wire/PeerJson.cpp" $(pkg-config --cflags --libs nettle) -o "$bin"

work="$out/corpus"
rm -rf "$work"
cp -r "$here/corpus" "$work"
echo "run_fuzz.sh: fuzzing the pre-authentication parser for $seconds s ($(ls "$here/corpus" | wc -l) seed inputs)"
# -max_len above the 4 KiB pre-auth cap, so the over-limit path is reached too.
"$bin" -max_total_time="$seconds" -max_len=6000 -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$out/" "$work" 2>&1 | grep -E "^(#[0-9]+ *DONE|Done|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY|INFO: Running)" || true
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo "run_fuzz.sh: the fuzzer found a failure (exit $status); the input is in $out/crash-* (or leak-*, timeout-*)" >&2
    ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* 2>/dev/null >&2 || true
    exit 1
fi
if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    "$bin" -merge=1 "$here/corpus" "$work" >/dev/null 2>&1
    echo "run_fuzz.sh: merged new inputs into $here/corpus"
fi
echo "run_fuzz.sh: no crash, leak or sanitizer error in $seconds s"
