#!/bin/sh
# The house format (.clang-format: 4-space indent, 120 columns, braces as KeePassXC's) over every C++ file of the
# tree; exit 1 with the files that differ and the first lines of each difference.
#   scripts/check-format.sh          check (ctest's TestFormat)
#   scripts/check-format.sh --fix    rewrite the files in place
# Debian 12's clang-format (14) is the reference: another version may break some lines differently.
set -u
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format.sh: clang-format is missing (apt-get install clang-format)" >&2; exit 2; }
if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files '*.cpp' '*.h')
else
    files=$(find app core ui tests bench -name '*.cpp' -o -name '*.h')
fi
if [ "${1:-}" = --fix ]; then
    printf '%s\n' $files | xargs clang-format -i
    exit 0
fi
status=0
for f in $files; do
    if ! difference=$(clang-format "$f" | diff -u "$f" -); then
        echo "not in the house format: $f (scripts/check-format.sh --fix rewrites it)"
        printf '%s\n' "$difference" | sed -n '3,14p' | sed 's/^/    /'
        status=1
    fi
done
exit $status
