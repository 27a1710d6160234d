# Sourced by the benchmarks: start_wirebenchd LOG [PREFIX...] -- DAEMON [ARGS...] starts wirebenchd on
# 127.0.0.1 with a free port, then sets WBD_PID and WBD_PORT (exits with the log when it does not start).
start_wirebenchd() {
    local log=$1; shift
    local prefix=()
    while [ "$1" != -- ]; do prefix+=("$1"); shift; done
    shift
    "${prefix[@]}" "$@" --listen 127.0.0.1:0 >"$log" 2>&1 &
    WBD_PID=$!
    WBD_PORT=
    for _ in $(seq 100); do
        WBD_PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | head -1)
        [ -n "$WBD_PORT" ] && return 0
        sleep 0.1
    done
    echo "$(basename "$0"): wirebenchd did not start:" >&2
    cat "$log" >&2
    exit 1
}
