#!/bin/sh
# Lists functions longer than the house limit (issue 13): 120 lines in core/ and app/, 150 in ui/.
# Usage: scripts/long-functions.sh [DIR...]   (default: core app ui). Exit 1 when any is found.
# Needs Universal Ctags (Debian package universal-ctags).
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- core app ui
command -v ctags >/dev/null || { echo "long-functions: install universal-ctags" >&2; exit 2; }
out=$(ctags -R --languages=C++ --kinds-C++=f --fields=+ne --extras=+q -o - "$@" 2>/dev/null | awk -F'\t' '
{
    line = 0; end = 0; scope = ""
    for (i = 4; i <= NF; i++) {
        if ($i ~ /^line:/) line = substr($i, 6)
        else if ($i ~ /^end:/) end = substr($i, 5)
        else if ($i ~ /^(class|struct|namespace|function):/) scope = substr($i, index($i, ":") + 1)
    }
    if ($1 ~ /^__anon/ || !end) next          # lambdas count inside their function
    if (index($1, "::")) next                 # the qualified duplicate of a tag
    limit = ($2 ~ /^ui\//) ? 150 : 120
    n = end - line + 1
    if (n > limit) printf "%5d  %s:%d  %s%s\n", n, $2, line, (scope != "" ? scope "::" : ""), $1
}
' | sort -rn)
[ -z "$out" ] && exit 0
printf '%s\n' "$out"
exit 1
