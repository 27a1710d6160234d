#!/usr/bin/env bash
# The result store as it grows (issue 18): a store of N sessions of 20 runs each, made from one real session
# (wirebench-cli against a loopback wirebenchd: tcp-send and tcp-recv x frames 1500 and 9000 x 5 repetitions)
# copied in SQL, then `wirebench-cli sessions` (its first page), `sessions --limit 0` (all) and `show ID` timed
# and their peak resident memory, at each size. `--version` is the floor (start-up alone).
# Copies start 7 minutes apart (100,000 sessions: 1.3 years of a busy team).
# Targets: sessions (a page) under 0.5 s and show under 0.2 s at 100,000 sessions, memory flat as it grows.
#
# The window's side (tests/ui/history/wirebench-history-bench, when the GUI is built): the History tab opened on
# the store and searched for what every session holds, what none holds, a text shorter than a trigram and one
# session's uuid, and the peak memory of it all.
#
# BACKEND=postgresql: the seed session copied into a PostgreSQL server that the benchmark starts (initdb and pg_ctl
# of the postgresql package, as the user postgres when run as root, on a free loopback port) and copied there in
# SQL to each size (INSERT ... SELECT, one statement per table and doubling), and the commands timed against it
# with --store postgresql://... (a team's shared store, docs/SCALE.md).
#
#   bench/store_scale.sh [BUILD_DIR]        SIZES="1000 10000 100000" REPEATS=3 BACKEND=sqlite|postgresql
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$(dirname "$here")/build}
CLI=$build/app/cli/wirebench-cli
DAEMON=$build/app/daemon/wirebenchd
HISTORY=$build/tests/ui/history/wirebench-history-bench # the window's side, when the GUI is built
SIZES=${SIZES:-"1000 10000 100000"}
REPEATS=${REPEATS:-3}
[ -x "$CLI" ] && [ -x "$DAEMON" ] || { echo "store_scale: build wirebench-cli and wirebenchd first ($build)" >&2; exit 2; }
WORK=$(mktemp -d /tmp/wirebench-store-scale.XXXXXX)
BACKEND=${BACKEND:-sqlite}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
pg_as() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop_pg() { [ -n "${PG_PORT:-}" ] && pg_as "$PGBIN/pg_ctl" -D "$WORK/pg/data" -m immediate -w stop >/dev/null 2>&1 || true; }
trap 'kill "${WBD_PID:-}" 2>/dev/null || true; stop_pg; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
if [ "$BACKEND" = postgresql ]; then
    [ -x "$PGBIN/initdb" ] || { echo "store_scale: BACKEND=postgresql needs the postgresql package (initdb)" >&2; exit 2; }
    mkdir -p "$WORK/pg"; [ "$(id -u)" = 0 ] && chown postgres: "$WORK" "$WORK/pg"
    pg_as "$PGBIN/initdb" -D "$WORK/pg/data" -U wirebench --auth=trust -E UTF8 --locale=C.UTF-8 -N >/dev/null
    PG_PORT=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
    pg_as "$PGBIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=$WORK/pg -c fsync=off -c shared_buffers=256MB" start >/dev/null
fi
# Copies the SQLite store $1 into a new database $2 of the benchmark's server (the layout made by wirebench-cli).
copy_to_pg() {
    local url="postgresql://wirebench@127.0.0.1:$PG_PORT/$2"
    psql -q -h 127.0.0.1 -p "$PG_PORT" -U wirebench -d postgres -c "create database $2" >/dev/null
    "$CLI" sessions --store "$url" >/dev/null
    for t in sessions session_hosts runs samples session_search; do
        cols=$(python3 -c "import sqlite3,sys; print(','.join(r[1] for r in sqlite3.connect(sys.argv[1]).execute(f'pragma table_info({sys.argv[2]})')))" "$1" "$t")
        python3 - "$1" "$t" "$cols" <<'PY' | psql -q -h 127.0.0.1 -p "$PG_PORT" -U wirebench -d "$2" -c "\copy $t($cols) from pstdin with (format csv, null '__NULL__', force_null ($cols))"
import csv, sqlite3, sys
w = csv.writer(sys.stdout, quoting=csv.QUOTE_ALL)
for row in sqlite3.connect(sys.argv[1]).execute(f"select {sys.argv[3]} from {sys.argv[2]}"):
    w.writerow(["__NULL__" if v is None else v for v in row])
PY
    done
    echo "$url"
}
pg_sql() { psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U wirebench -d "$@"; }
# Doubles the sessions of the server's database $1 (as the SQLite filler below does) up to $2, in SQL on the server:
# each copy earlier than its source, with a new uuid, its hosts, runs, samples and search text. Then the sequences
# and VACUUM ANALYZE.
fill_pg() {
    local sequences="select setval(pg_get_serial_sequence('sessions', 'id'), (select max(id) from sessions)); select setval(pg_get_serial_sequence('runs', 'id'), (select max(id) from runs)); select setval(pg_get_serial_sequence('session_hosts', 'id'), (select max(id) from session_hosts))"
    pg_sql "$1" -c "$sequences" >/dev/null
    python3 - "$1" "$2" "$PG_PORT" <<'PY'
import subprocess, sys
db, want, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def sql(q):
    return subprocess.run(["psql", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", port, "-U", "wirebench", "-d", db, "-c", q],
                          check=True, capture_output=True, text=True).stdout.strip()
def cols(t):
    return sql(f"select string_agg(column_name, ',' order by ordinal_position) from information_schema.columns where table_name = '{t}' and column_name <> 'id'").split(",")
shift = "to_char((CAST({0} AS timestamptz) - (id + {1}) * interval '7 minutes') AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
s_cols, h_cols, r_cols = cols("sessions"), cols("session_hosts"), cols("runs")
while True:
    have = int(sql("select count(*) from sessions"))
    if have >= want:
        break
    take = min(have, want - have)
    off, roff = int(sql("select max(id) from sessions")), int(sql("select max(id) from runs"))
    pick = f"(select id from sessions order by id limit {take})"
    sel = [{"uuid": "md5(random()::text || id)", "started_at": shift.format("started_at", off),
            "ended_at": f"CASE WHEN ended_at IS NULL THEN NULL ELSE {shift.format('ended_at', off)} END"}.get(c, c) for c in s_cols]
    rsel = [{"session_id": f"session_id + {off}", "started_at": f"CASE WHEN started_at IS NULL THEN NULL ELSE {shift.format('started_at', off).replace('(id +', '(session_id +')} END"}.get(c, c) for c in r_cols]
    hsel = [{"session_id": f"session_id + {off}"}.get(c, c) for c in h_cols]
    sql(f"""begin;
insert into sessions(id,{','.join(s_cols)}) select id + {off}, {','.join(sel)} from sessions where id in {pick};
insert into session_hosts({','.join(h_cols)}) select {','.join(hsel)} from session_hosts where session_id in {pick};
insert into runs(id,{','.join(r_cols)}) select id + {roff}, {','.join(rsel)} from runs where session_id in {pick};
insert into samples select run_id + {roff}, end_seconds, interval_seconds, bytes from samples where run_id in (select id from runs where session_id in {pick});
insert into session_search select n.id, replace(t.text, o.uuid, n.uuid) from session_search t join sessions o on o.id = t.session_id join sessions n on n.id = o.id + {off} where t.session_id in {pick};
commit;""")
    print(f"store_scale: {db}: {have + take} sessions", file=sys.stderr)
PY
    pg_sql "$1" -c "$sequences" -c "vacuum analyze" >/dev/null
}

# shellcheck source=bench/wirebenchd.sh
. "$here/wirebenchd.sh"
start_wirebenchd "$WORK/wirebenchd.log" -- "$DAEMON"
PORT=$WBD_PORT
"$CLI" run --store "$WORK/seed.sqlite" --host "127.0.0.1:$PORT" --protocol tcp-send,tcp-recv --frame 1500,9000 \
    --reps 5 --duration 0.3 >"$WORK/seed.log" 2>&1 || { echo "store_scale: the seed run failed" >&2; tail "$WORK/seed.log" >&2; exit 1; }

echo "store_scale ($BACKEND): one session of $(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$WORK/seed.sqlite") runs from a real run, copied to each size; $REPEATS timings each (median)"
printf "  %-9s %-9s %10s %-24s %9s %10s\n" sessions runs "store MB" command seconds "peak MiB"
for n in $SIZES; do
    cp "$WORK/seed.sqlite" "$WORK/store.sqlite"
    [ "$BACKEND" = postgresql ] || python3 - "$WORK/store.sqlite" "$n" <<'PY'
import sqlite3, sys, uuid
db = sqlite3.connect(sys.argv[1]); want = int(sys.argv[2])
cols = lambda t: [r[1] for r in db.execute(f"pragma table_info({t})") if r[1] != "id"]
s_cols, h_cols, r_cols = cols("sessions"), cols("session_hosts"), cols("runs")
def copy_once():
    # Doubles the sessions (at most up to `want`): each copy one day earlier, with its hosts, runs and samples.
    have = db.execute("select count(*) from sessions").fetchone()[0]
    take = min(have, want - have)
    src = [r[0] for r in db.execute("select id from sessions order by id limit ?", (take,))]
    off = db.execute("select max(id) from sessions").fetchone()[0]
    roff = db.execute("select max(id) from runs").fetchone()[0]
    db.execute("create temp table if not exists pick(id integer primary key)"); db.execute("delete from pick")
    db.executemany("insert into pick values (?)", [(i,) for i in src])
    sc = ",".join(s_cols)
    sel = ",".join({"uuid": "lower(hex(randomblob(16)))",
                    "started_at": "strftime('%Y-%m-%dT%H:%M:%fZ', started_at, '-' || ((id + ?) * 7) || ' minutes')",
                    "ended_at": "strftime('%Y-%m-%dT%H:%M:%fZ', ended_at, '-' || ((id + ?) * 7) || ' minutes')"}.get(c, c) for c in s_cols)
    db.execute(f"insert into sessions(id,{sc}) select id + ?, {sel} from sessions where id in (select id from pick)", (off, off, off))
    hc = ",".join(h_cols)
    db.execute(f"insert into session_hosts({hc}) select {hc.replace('session_id', 'session_id + ?')} from session_hosts where session_id in (select id from pick)", (off,))
    rc = ",".join(r_cols)
    rsel = rc.replace("session_id", "session_id + ?").replace("started_at", "strftime('%Y-%m-%dT%H:%M:%fZ', started_at, '-' || ((session_id + ?) * 7) || ' minutes')")
    db.execute(f"insert into runs(id,{rc}) select id + ?, {rsel} from runs where session_id in (select id from pick)", (roff, off, off))
    db.execute("insert into samples select run_id + ?, end_seconds, interval_seconds, bytes from samples where run_id in (select id from runs where session_id in (select id from pick))", (roff,))
    # The search text (schema 4) of the copy: its source's, with the copy's uuid (its FTS5 index follows by trigger).
    db.execute("insert into session_search(session_id, text) select n.id, replace(t.text, o.uuid, n.uuid) from pick p"
               " join sessions o on o.id = p.id join sessions n on n.id = p.id + ? join session_search t on t.session_id = p.id", (off,))
    db.commit()
while db.execute("select count(*) from sessions").fetchone()[0] < want:
    copy_once()
db.execute("vacuum")
PY
    target="$WORK/store.sqlite"
    if [ "$BACKEND" = postgresql ]; then
        target=$(copy_to_pg "$WORK/store.sqlite" "scale_$n")
        fill_pg "scale_$n" "$n"
        mb=$(pg_sql "scale_$n" -At -c "select pg_database_size(current_database()) / 1000000")
        runs=$(pg_sql "scale_$n" -At -c "select count(*) from runs")
        read -r mid uuid < <(pg_sql "scale_$n" -At -F ' ' -c "select id, left(uuid, 8) from sessions order by id limit 1 offset $((n / 2))")
    else
        runs=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$WORK/store.sqlite")
        mb=$(( $(stat -c %s "$WORK/store.sqlite") / 1000000 ))
        read -r mid uuid < <(python3 -c "import sqlite3,sys; print(*sqlite3.connect(sys.argv[1]).execute('select id, substr(uuid, 1, 8) from sessions order by id limit 1 offset ?', (int(sys.argv[2])//2,)).fetchone())" "$WORK/store.sqlite" "$n")
    fi
    for cmd in "--version" "sessions" "sessions --limit 0" "show $mid"; do
        # shellcheck disable=SC2086
        python3 - "$REPEATS" "$n" "$runs" "$mb" "$cmd" "$CLI" $cmd --store "$target" <<'PY'
import statistics, subprocess, sys, time, resource
reps, n, runs, mb, label = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
argv = sys.argv[6:]
if label == "--version":
    argv = [argv[0], "--version"]
times, peaks = [], []
for _ in range(reps):
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", "/dev/stderr"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    times.append(time.monotonic() - t0)
    if p.returncode != 0:
        sys.exit(f"store_scale: {' '.join(argv)} failed: {p.stderr}")
    peaks.append(int(p.stderr.strip().splitlines()[-1]) / 1024)
print(f"  {n:<9} {runs:<9} {mb:>10} {label:<24} {statistics.median(times):9.3f} {statistics.median(peaks):10.1f}")
PY
    done
    if [ -x "$HISTORY" ]; then
        "$HISTORY" "$target" 127.0.0.1 no-such-host zq "$uuid" 2>/dev/null | sed 's/^/  /'
    fi
done
