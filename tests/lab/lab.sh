#!/usr/bin/env bash
# A two-host lab inside this machine: two network namespaces joined by a veth pair, with the MTU and an
# emulated Ethernet line rate of your choice. All traffic stays inside the two namespaces (and the router's).
#
#   lab.sh up [--mtu N] [--rate RATE] [--router]
#                                       build the lab (tears down leftovers of the same lab first); --router puts a
#                                       third namespace routing between client and server (two veth pairs, proxy
#                                       ARP, the same addresses), so a queue can sit on the path
#                                       between them rather than on either end
#   lab.sh down                         stop its servers and remove everything, also after a crash
#   lab.sh mtu N                        set the MTU on both ends (and re-shape for it)
#   lab.sh shape RATE|off [--frame F] [--queue-ms MS] [--end cli|srv|both]
#                                       emulate an Ethernet line of RATE (e.g. 1gbit, 100mbit, 10gbit, 2500000000);
#                                       --frame: the frames on the wire are F bytes (an MSS clamped below the
#                                       MTU), so the shaper is scaled for F instead of the MTU; --queue-ms: the
#                                       shaper's queue holds MS ms at the shaped rate (a bufferbloat of MS ms),
#                                       instead of 1000 frames; --end: the tbf goes on the client's end only, the
#                                       server's end only (a shaper on the far host: what it sends is held to
#                                       RATE, what it receives is not), or both (the default, a line)
#   lab.sh status                       what exists and how it is set
#   lab.sh env                          shell variables for tests (eval "$(lab.sh env)")
#   lab.sh exec cli|srv|rtr CMD [ARGS...]
#                                       run a command in the client, server or router namespace
#   lab.sh serve iperf3 [PORT]          start iperf3 -s in the server namespace (default port 5201)
#   lab.sh serve wirebenchd PATH [ARGS] start a wirebenchd binary in the server namespace (port 5301)
#   lab.sh serve vsftpd CONF [PORT]     start vsftpd with your config in the server namespace (port 21)
#   lab.sh serve smbd CONF [PORT]       start smbd with your smb.conf in the server namespace (port 445)
#   lab.sh serve cmd NAME PORT CMD...   start any server that listens on PORT in the server namespace
#   lab.sh stop NAME                    stop a server started with serve
#
# Environment: WBL_ID (default "0", at most 8 of [a-z0-9]) makes the names unique so several labs can
# exist side by side: namespaces wbl-cli-ID and wbl-srv-ID, veth ends wbc-ID and wbs-ID; with --router also
# wbl-rtr-ID, whose ends are wbr-ID (towards the client) and wbt-ID (towards the server).
# Addresses (inside the namespaces only): client 10.231.0.1/30, server 10.231.0.2/30 (the router answers ARP
# for each on the other's behalf and has 10.231.0.9/32 of its own).
#
# Why tbf and these numbers: only the tbf and htb qdiscs exist here (no netem), and TCP hands 64 KB GSO
# packets to the qdisc, so tbf's "overhead" does not model Ethernet framing. A real Ethernet line of rate R
# carries MTU+38 bytes on the wire (preamble 8, header 14, FCS 4, inter-frame gap 12) for each MTU+14 bytes
# the qdisc sees, so "tbf rate R*(MTU+14)/(MTU+38)" with a burst of about 2 ms of line rate (at least two frames)
# gives the goodput of the real line: R*(MTU-52)/(MTU+38)/8 bytes/s for TCP with timestamps.
set -euo pipefail

id=${WBL_ID:-0}
if ! [[ $id =~ ^[a-z0-9]{1,8}$ ]]; then
    echo "lab.sh: WBL_ID '$id' is not 1-8 characters of [a-z0-9]: choose a shorter id" >&2
    exit 2
fi
cli_ns=wbl-cli-$id
srv_ns=wbl-srv-$id
rtr_ns=wbl-rtr-$id
cli_if=wbc-$id
srv_if=wbs-$id
rtr_cli_if=wbr-$id
rtr_srv_if=wbt-$id
cli_addr=10.231.0.1
srv_addr=10.231.0.2
prefix=30
state=/run/wirebench-lab/$id

die() { echo "lab.sh: $*" >&2; exit 1; }
need_root() {
    [ "$(id -u)" = 0 ] || die "lab $id: creating network namespaces needs root: run as root (or with sudo)"
    command -v ip >/dev/null && command -v tc >/dev/null || die "lab $id: ip and tc are missing: apt-get install iproute2"
}
exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }
require_up() { exists "$cli_ns" && exists "$srv_ns" || die "lab $id is not up: run 'lab.sh up' first"; }
in_cli() { ip netns exec "$cli_ns" "$@"; }
in_srv() { ip netns exec "$srv_ns" "$@"; }
in_rtr() { ip netns exec "$rtr_ns" "$@"; }
saved() { cat "$state/$1" 2>/dev/null || true; }

# RATE in bit/s from "1gbit", "100mbit", "2.5gbit", "500kbit" or a plain number of bit/s.
parse_rate() {
    local r=${1,,}
    awk -v r="$r" 'BEGIN {
        if (match(r, /^[0-9]+(\.[0-9]+)?/) == 0) exit 1
        n = substr(r, 1, RLENGTH); u = substr(r, RLENGTH + 1)
        if (u == "" || u == "bit") m = 1
        else if (u == "kbit") m = 1e3
        else if (u == "mbit") m = 1e6
        else if (u == "gbit") m = 1e9
        else exit 1
        v = n * m
        if (v < 1e5 || v > 1e11) exit 1
        printf "%.0f\n", v
    }'
}

valid_mtu() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge 576 ] && [ "$1" -le 65535 ]; }

apply_mtu() {
    local mtu=$1
    in_cli ip link set dev "$cli_if" mtu "$mtu"
    in_srv ip link set dev "$srv_if" mtu "$mtu"
    if [ -n "$(saved router)" ]; then
        in_rtr ip link set dev "$rtr_cli_if" mtu "$mtu"
        in_rtr ip link set dev "$rtr_srv_if" mtu "$mtu"
    fi
    echo "$mtu" >"$state/mtu"
}

# Shape both directions (each end's egress) to the Ethernet line rate in bit/s, or remove shaping ("off").
apply_shape() {
    local rate=$1 mtu
    # Scaled for the frames on the wire: the MTU, or the frame size given with "shape --frame" (a tbf scaled
    # for MTU M overstates the line by about 1% for packets clamped well below M).
    mtu=$(saved frame)
    [ -n "$mtu" ] || mtu=$(saved mtu)
    for spec in "$cli_ns $cli_if" "$srv_ns $srv_if"; do
        set -- $spec
        ip netns exec "$1" tc qdisc del dev "$2" root 2>/dev/null || true
    done
    if [ "$rate" = off ]; then
        rm -f "$state/rate"
        return
    fi
    local tbf_rate burst limit
    tbf_rate=$(awk -v r="$rate" -v m="$mtu" 'BEGIN { printf "%.0f", r * (m + 14) / (m + 38) }')
    # The bucket lets a burst through at once, which a real line never does: a run of a few seconds on a slow
    # line would read above the line (32 KB at 10 Mbit/s is 26 ms, 2.6% of a 1 s run). So the burst is 2 ms
    # of line rate, and at least two full frames (tbf needs one; it segments larger GSO packets itself).
    burst=$(awk -v r="$rate" -v m="$mtu" 'BEGIN { b = r / 8 * 0.002; f = 2 * (m + 14); if (b < f) b = f; printf "%.0f", b }')
    # The queue of a real interface: 1000 full frames (the default txqueuelen). A shorter queue drops
    # packets under TCP's bursts (measured: about 800 retransmissions/s with BBR at 100 Mbit/s and a 20 ms
    # queue, none with this one), which a host sending at its own line rate never sees.
    limit=$(awk -v m="$mtu" -v b="$burst" 'BEGIN { l = 1000 * (m + 14); if (l < 4 * b) l = 4 * b; printf "%.0f", l }')
    # With a queue of MS ms asked for: what tbf's rate drains in MS ms (the wait of a packet that finds it full).
    local queue_ms; queue_ms=$(saved queue_ms)
    if [ -n "$queue_ms" ]; then
        limit=$(awk -v r="$tbf_rate" -v q="$queue_ms" 'BEGIN { printf "%.0f", r / 8 * q / 1000 }')
        echo "lab $id: tbf rate ${tbf_rate} bit/s, limit ${limit} bytes = ${queue_ms} ms at ${tbf_rate} bit/s (${tbf_rate} / 8 x ${queue_ms} / 1000), burst ${burst} bytes"
    fi
    local ends
    case $(saved end) in
        cli) ends=("$cli_ns $cli_if") ;;
        srv) ends=("$srv_ns $srv_if") ;;
        *) ends=("$cli_ns $cli_if" "$srv_ns $srv_if") ;;
    esac
    for spec in "${ends[@]}"; do
        set -- $spec
        ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "${tbf_rate}bit" burst "$burst" limit "$limit"
    done
    echo "$rate" >"$state/rate"
}

stop_server() {
    local name=$1 pidfile=$state/$1.pid pid
    [ -f "$pidfile" ] || return 0
    pid=$(cat "$pidfile")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
}

cmd_down() {
    need_root
    if [ -d "$state" ]; then
        for pidfile in "$state"/*.pid; do
            [ -e "$pidfile" ] && stop_server "$(basename "$pidfile" .pid)"
        done
    fi
    # Whatever else still runs inside the namespaces (a crashed test's servers) goes too.
    for ns in "$cli_ns" "$srv_ns" "$rtr_ns"; do
        if exists "$ns"; then
            pids=$(ip netns pids "$ns" 2>/dev/null || true)
            [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
            ip netns del "$ns" 2>/dev/null || true   # deleting a namespace deletes its veth end and the peer
        fi
    done
    rm -rf "$state"
    if exists "$cli_ns" || exists "$srv_ns" || exists "$rtr_ns"; then
        die "lab $id: could not delete the namespaces $cli_ns/$srv_ns/$rtr_ns: see 'ip netns pids' for what holds them"
    fi
}

# The router namespace between client and server: each end's veth leads into it, it forwards between them and
# answers ARP for each end on the other's behalf (proxy ARP), so both ends keep their addresses and one subnet.
make_router() {
    ip netns add "$rtr_ns"
    echo 1 >"$state/router"
    ip link add "$cli_if" netns "$cli_ns" type veth peer name "$rtr_cli_if" netns "$rtr_ns"
    ip link add "$srv_if" netns "$srv_ns" type veth peer name "$rtr_srv_if" netns "$rtr_ns"
    in_rtr ip link set lo up
    in_rtr sysctl -qw net.ipv4.ip_forward=1
    for dev in "$rtr_cli_if" "$rtr_srv_if"; do
        in_rtr ip addr add 10.231.0.9/32 dev "$dev"
        in_rtr sysctl -qw "net.ipv4.conf.$dev.proxy_arp=1"
        in_rtr ip link set "$dev" up
    done
    in_rtr ip route add "$cli_addr/32" dev "$rtr_cli_if"
    in_rtr ip route add "$srv_addr/32" dev "$rtr_srv_if"
}

cmd_up() {
    local mtu=1500 rate="" router=""
    while [ $# -gt 0 ]; do
        case $1 in
            --mtu) mtu=${2:-}; shift 2 ;;
            --rate) rate=${2:-}; shift 2 ;;
            --router) router=1; shift ;;
            *) die "up: unknown option '$1' (use --mtu N, --rate RATE, --router)" ;;
        esac
    done
    valid_mtu "$mtu" || die "up: MTU '$mtu' is not a number from 576 to 65535"
    local rate_bps=""
    if [ -n "$rate" ]; then
        rate_bps=$(parse_rate "$rate") || die "up: rate '$rate' is not like 1gbit, 100mbit or a number of bit/s (100 kbit/s to 100 Gbit/s)"
    fi
    need_root
    cmd_down
    mkdir -p "$state"
    ip netns add "$cli_ns"
    ip netns add "$srv_ns"
    if [ -n "$router" ]; then
        make_router
    else
        ip link add "$cli_if" netns "$cli_ns" type veth peer name "$srv_if" netns "$srv_ns"
    fi
    in_cli ip link set lo up
    in_srv ip link set lo up
    in_cli ip addr add "$cli_addr/$prefix" dev "$cli_if"
    in_srv ip addr add "$srv_addr/$prefix" dev "$srv_if"
    apply_mtu "$mtu"
    in_cli ip link set "$cli_if" up
    in_srv ip link set "$srv_if" up
    [ -z "$rate_bps" ] || apply_shape "$rate_bps"
    # Wait until the link passes traffic: a TCP connect to a closed port of the server is answered with a
    # reset ("refused") only when packets get through (no ping needed).
    local ok="" out
    for _ in $(seq 30); do
        out=$(in_cli timeout 2 bash -c "exec 3<>/dev/tcp/$srv_addr/9" 2>&1) && { ok=1; break; }
        if grep -qi refused <<<"$out"; then ok=1; break; fi
        sleep 0.1
    done
    [ -n "$ok" ] || die "lab $id: $cli_ns cannot reach $srv_addr after setup: check 'lab.sh status'"
    echo "lab $id up: $cli_ns ($cli_addr) <-> ${router:+$rtr_ns (routing) <-> }$srv_ns ($srv_addr), MTU $mtu, rate $([ -n "$rate_bps" ] && echo "$rate_bps bit/s (Ethernet line)" || echo unshaped)"
}

cmd_mtu() {
    local mtu=${1:-}
    valid_mtu "$mtu" || die "mtu: '$mtu' is not a number from 576 to 65535"
    need_root; require_up
    apply_mtu "$mtu"
    local rate; rate=$(saved rate)
    [ -z "$rate" ] || apply_shape "$rate"
    echo "lab $id: MTU $mtu on $cli_if and $srv_if"
}

cmd_shape() {
    local arg=${1:-} frame="" queue_ms="" end=""
    [ -n "$arg" ] || die "shape: give a rate (1gbit, 100mbit, ...) or 'off'"
    shift
    while [ $# -gt 0 ]; do
        case $1 in
            --frame) frame=${2:-}; shift 2
                valid_mtu "$frame" || die "shape: --frame '$frame' is not a number from 576 to 65535" ;;
            --queue-ms) queue_ms=${2:-}; shift 2
                [[ $queue_ms =~ ^[0-9]+$ ]] && [ "$queue_ms" -ge 1 ] && [ "$queue_ms" -le 10000 ] \
                    || die "shape: --queue-ms '$queue_ms' is not a number of ms from 1 to 10000" ;;
            --end) end=${2:-}; shift 2
                [[ $end =~ ^(cli|srv|both)$ ]] || die "shape: --end '$end' is not cli, srv or both" ;;
            *) die "shape: unknown option '$1' (use --frame F, --queue-ms MS, --end cli|srv|both)" ;;
        esac
    done
    need_root; require_up
    if [ -n "$frame" ]; then echo "$frame" >"$state/frame"; else rm -f "$state/frame"; fi
    if [ -n "$end" ] && [ "$end" != both ]; then echo "$end" >"$state/end"; else rm -f "$state/end"; fi
    if [ -n "$queue_ms" ]; then echo "$queue_ms" >"$state/queue_ms"; else rm -f "$state/queue_ms"; fi
    if [ "$arg" = off ]; then
        apply_shape off
        echo "lab $id: shaping off"
        return
    fi
    local rate; rate=$(parse_rate "$arg") || die "shape: rate '$arg' is not like 1gbit, 100mbit or a number of bit/s (100 kbit/s to 100 Gbit/s)"
    apply_shape "$rate"
    local f; f=$(saved frame); [ -n "$f" ] || f=$(saved mtu)
    local on="both ends"
    case $(saved end) in cli) on="$cli_if only" ;; srv) on="$srv_if only" ;; esac
    echo "lab $id: Ethernet line rate $rate bit/s at MTU $(saved mtu), shaped for $f-byte frames on $on (theoretical TCP goodput $(theory "$rate" "$f") bytes/s)"
}

# Theoretical TCP goodput with timestamps on an Ethernet line, in bytes/s.
theory() { awk -v r="$1" -v m="$2" 'BEGIN { printf "%.0f", r * (m - 52) / (m + 38) / 8 }'; }

cmd_env() {
    require_up
    local rate mtu
    rate=$(saved rate); mtu=$(saved mtu)
    cat <<EOF
WBL_ID=$id
WBL_CLI_NS=$cli_ns
WBL_SRV_NS=$srv_ns
WBL_CLI_IF=$cli_if
WBL_SRV_IF=$srv_if
WBL_RTR_NS=$([ -n "$(saved router)" ] && echo "$rtr_ns" || true)
WBL_CLI_ADDR=$cli_addr
WBL_SRV_ADDR=$srv_addr
WBL_MTU=$mtu
WBL_RATE_BPS=${rate:-0}
WBL_LINK_SPEED_MBPS=$([ -n "$rate" ] && awk -v r="$rate" 'BEGIN { printf "%.0f", r / 1e6 }' || echo 0)
WBL_THEORY_BYTES_PER_S=$([ -n "$rate" ] && theory "$rate" "$mtu" || echo 0)
EOF
}

cmd_status() {
    if ! exists "$cli_ns" && ! exists "$srv_ns"; then
        echo "lab $id: down"
        return 0
    fi
    echo "lab $id: MTU $(saved mtu), rate $( [ -n "$(saved rate)" ] && echo "$(saved rate) bit/s" || echo unshaped)"
    for spec in "$cli_ns $cli_if" "$srv_ns $srv_if"; do
        set -- $spec
        echo "== $1"
        ip netns exec "$1" ip -brief addr show dev "$2" 2>&1 || true
        ip netns exec "$1" ip -details link show dev "$2" 2>&1 | grep -o 'mtu [0-9]*' | head -1 || true
        ip netns exec "$1" tc qdisc show dev "$2" 2>&1 || true
    done
    for pidfile in "$state"/*.pid; do
        [ -e "$pidfile" ] || continue
        local pid; pid=$(cat "$pidfile")
        if kill -0 "$pid" 2>/dev/null; then s=running; else s=dead; fi
        echo "server $(basename "$pidfile" .pid): pid $pid ($s), log $state/$(basename "$pidfile" .pid).log"
    done
}

cmd_exec() {
    local side=${1:-}; shift || true
    require_up
    case $side in
        cli) exec ip netns exec "$cli_ns" "$@" ;;
        srv) exec ip netns exec "$srv_ns" "$@" ;;
        rtr) [ -n "$(saved router)" ] || die "exec rtr: lab $id has no router (bring it up with 'up --router')"
             exec ip netns exec "$rtr_ns" "$@" ;;
        *) die "exec: say 'cli', 'srv' or 'rtr' before the command" ;;
    esac
}

# Starts a server in the server namespace in the background and waits until it listens on PORT.
start_server() {
    local name=$1 port=$2; shift 2
    stop_server "$name"
    ip netns exec "$srv_ns" setsid "$@" >"$state/$name.log" 2>&1 </dev/null &
    echo $! >"$state/$name.pid"
    for _ in $(seq 100); do
        if in_srv ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then
            echo "lab $id: $name listens on $srv_addr:$port (pid $(cat "$state/$name.pid"), log $state/$name.log)"
            return 0
        fi
        kill -0 "$(cat "$state/$name.pid")" 2>/dev/null || break
        sleep 0.1
    done
    tail -5 "$state/$name.log" >&2 || true
    stop_server "$name"
    die "lab $id: $name did not start listening on $srv_addr:$port: see the log lines above"
}

cmd_serve() {
    local what=${1:-}; shift || true
    need_root; require_up
    case $what in
        iperf3)
            local port=${1:-5201}
            command -v iperf3 >/dev/null || die "serve: iperf3 is missing: apt-get install iperf3"
            start_server iperf3 "$port" iperf3 -s -B "$srv_addr" -p "$port"
            ;;
        wirebenchd)
            local path=${1:-}; shift || true
            [ -x "$path" ] || die "serve wirebenchd: '$path' is not an executable wirebenchd: give the path of the built binary"
            # --open: the lab is a network namespace of its own, so no key is needed there.
            start_server wirebenchd 5301 "$path" --listen "$srv_addr:5301" --open "$@"
            ;;
        vsftpd)
            # The caller's config (listen=YES, background=NO, its own users and directories); the lab only
            # runs it inside the server namespace, where it can only listen on the lab's addresses.
            local conf=${1:-} port=${2:-21}
            [ -r "$conf" ] || die "serve vsftpd: give a readable vsftpd.conf (with listen=YES and background=NO)"
            command -v vsftpd >/dev/null || die "serve vsftpd: vsftpd is missing: apt-get install vsftpd"
            start_server vsftpd "$port" vsftpd "$conf"
            ;;
        smbd)
            local conf=${1:-} port=${2:-445}
            [ -r "$conf" ] || die "serve smbd: give a readable smb.conf (with its own lock, state, pid and private dirs)"
            command -v smbd >/dev/null || die "serve smbd: smbd is missing: apt-get install samba"
            start_server smbd "$port" smbd --foreground --no-process-group --debug-stdout -s "$conf"
            ;;
        cmd)
            # Any other server: serve cmd NAME PORT COMMAND [ARGS...]
            local name=${1:-} port=${2:-}; shift 2 || true
            [[ $name =~ ^[a-z0-9_-]+$ ]] || die "serve cmd: give a NAME of [a-z0-9_-], a PORT and the command"
            [[ $port =~ ^[0-9]+$ ]] && [ $# -gt 0 ] || die "serve cmd $name: give the PORT it listens on and the command"
            start_server "$name" "$port" "$@"
            ;;
        *) die "serve: unknown server '$what' (iperf3, wirebenchd, vsftpd, smbd, cmd)" ;;
    esac
}

cmd_stop() {
    local name=${1:-}
    [ -n "$name" ] || die "stop: name a server (iperf3, wirebenchd, vsftpd, smbd or a cmd NAME)"
    need_root
    stop_server "$name"
}

verb=${1:-}
shift || true
case $verb in
    up) cmd_up "$@" ;;
    down) cmd_down ;;
    mtu) cmd_mtu "$@" ;;
    shape) cmd_shape "$@" ;;
    status) cmd_status ;;
    env) cmd_env ;;
    exec) cmd_exec "$@" ;;
    serve) cmd_serve "$@" ;;
    stop) cmd_stop "$@" ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; [ -z "$verb" ] || [ "$verb" = help ] || exit 2 ;;
esac
