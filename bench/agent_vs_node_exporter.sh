#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Railyard contributors
#
# railyard-agent against the Prometheus node exporter on the same sysfs tree:
#   1. the InfiniBand values both report for the same device and port must be equal
#      (node_infiniband_X{device,port} == railyard_infiniband_X{device,port});
#   2. memory (VmRSS, VmHWM from /proc/<pid>/status) and CPU time per scrape
#      (utime+stime from /proc/<pid>/stat, before and after N scrapes) of both.
#
# Usage: bench/agent_vs_node_exporter.sh [options] SYSFS_ROOT
#   -n N                 scrapes of each exporter (default 200)
#   --agent PATH         railyard-agent (default: $RAILYARD_AGENT, else build/dev/bin/railyard-agent)
#   --node-exporter PATH (default: prometheus-node-exporter on PATH, else node_exporter)
#   --from-fixture FILE  first write SYSFS_ROOT/class/infiniband from a `path:content` dump such as
#                        ../shared/fixtures/sysfs-class-infiniband-h100-node-8x-ndr-ib-plus-roce-bond-gpud.txt
#   --emulated DIR       the agent's --emulated folder (ethtool, QoS, LLDP, GPU stand-ins: railyard-sim
#                        writes one per node as <node>/sim); default an empty folder, so that the agent
#                        does not read this host's own netdevs
#   --keep               keep the scraped texts (printed path)
# Exit status: 0 values equal, 1 a value differs or is missing, 2 bad input or an exporter did not start.
set -euo pipefail

scrapes=200
agent="${RAILYARD_AGENT:-}"
exporter=""
fixture=""
emulated=""
keep=0
root=""
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() { echo "error: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        -n) scrapes="$2"; shift 2 ;;
        --agent) agent="$2"; shift 2 ;;
        --node-exporter) exporter="$2"; shift 2 ;;
        --from-fixture) fixture="$2"; shift 2 ;;
        --emulated) emulated="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '4,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) root="$1"; shift ;;
    esac
done
[[ -n "$root" ]] || die "no SYSFS_ROOT given (see --help)"
[[ "$scrapes" =~ ^[1-9][0-9]*$ ]] || die "-n: expected a positive number, got $scrapes"
if [[ -z "$agent" ]]; then agent="$here/../build/dev/bin/railyard-agent"; fi
[[ -x "$agent" ]] || die "railyard-agent not found at $agent (build it, or give --agent PATH)"
if [[ -z "$exporter" ]]; then
    exporter="$(command -v prometheus-node-exporter || command -v node_exporter || true)"
fi
[[ -n "$exporter" && -x "$exporter" ]] || die "the Prometheus node exporter is not installed (Debian: apt install prometheus-node-exporter)"

if [[ -n "$fixture" ]]; then
    [[ -r "$fixture" ]] || die "--from-fixture $fixture: cannot read it"
    mkdir -p "$root/class/infiniband"
    # One `relative/path:content` line per file; the first colon ends the path.
    while IFS= read -r line; do
        [[ "$line" == "# source:"* || -z "$line" ]] && continue
        path="${line%%:*}"
        mkdir -p "$root/class/infiniband/$(dirname "$path")"
        printf '%s' "${line#*:}" > "$root/class/infiniband/$path"
    done < "$fixture"
fi
[[ -d "$root/class/infiniband" ]] || die "$root has no class/infiniband: not a sysfs tree with RDMA devices"

work="$(mktemp -d "${TMPDIR:-/tmp}/railyard-agent-vs-ne.XXXXXX")"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    if [[ $keep -eq 0 ]]; then rm -rf "$work"; else echo "scrapes kept in $work"; fi
}
trap cleanup EXIT

# Waits (bounded) until a log file contains a pattern.
wait_for() {
    local file="$1" pattern="$2" pid="$3"
    for _ in $(seq 1 200); do
        grep -q -- "$pattern" "$file" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# --- start both ---------------------------------------------------------------------------
if [[ -z "$emulated" ]]; then emulated="$work/emulated"; mkdir -p "$emulated"; fi
[[ -d "$emulated" ]] || die "--emulated $emulated: not a folder"
"$agent" --sysfs-root "$root" --listen 127.0.0.1:0 --node bench --emulated "$emulated" --threads 1 2> "$work/agent.log" &
agent_pid=$!
pids+=("$agent_pid")
wait_for "$work/agent.log" "listening on" "$agent_pid" || { cat "$work/agent.log" >&2; die "railyard-agent did not start"; }
agent_port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/agent.log" | head -1)"

ne_pid=""
for offset in $(seq 1 40); do
    ne_port=$((agent_port + offset))
    (( ne_port < 65536 )) || break
    "$exporter" --path.sysfs="$root" --collector.disable-defaults --collector.infiniband \
        --web.disable-exporter-metrics --web.listen-address="127.0.0.1:$ne_port" > "$work/ne.log" 2>&1 &
    ne_pid=$!
    if wait_for "$work/ne.log" "Listening on" "$ne_pid"; then
        pids+=("$ne_pid")
        break
    fi
    wait "$ne_pid" 2>/dev/null || true
    ne_pid=""
done
[[ -n "$ne_pid" ]] || { cat "$work/ne.log" >&2; die "the node exporter did not start"; }

# --- scrape -------------------------------------------------------------------------------
ticks="$(getconf CLK_TCK)"
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

scrape() { # name pid url
    local name="$1" pid="$2" url="$3"
    curl -fsS "$url" > "$work/$name.txt" || die "$name: scraping $url failed"
    local t0 c0 t1 c1
    c0="$(cpu_ticks "$pid")"
    t0="$(date +%s%N)"
    for _ in $(seq 1 "$scrapes"); do curl -fsS -o /dev/null "$url"; done
    t1="$(date +%s%N)"
    c1="$(cpu_ticks "$pid")"
    local bytes
    bytes="$(wc -c < "$work/$name.txt")"
    awk -v n="$name" -v c="$((c1 - c0))" -v hz="$ticks" -v s="$scrapes" -v w="$((t1 - t0))" \
        -v rss="$(status_kb "$pid" VmRSS)" -v hwm="$(status_kb "$pid" VmHWM)" -v b="$bytes" \
        'BEGIN { printf "%-16s cpu %7.3f ms/scrape  wall %7.3f ms/scrape  VmRSS %6.1f MiB  VmHWM %6.1f MiB  %7d bytes/scrape\n",
                 n, 1000 * c / hz / s, w / 1e6 / s, rss / 1024, hwm / 1024, b }'
}

echo "sysfs root: $root ($(ls "$root/class/infiniband" | wc -l) RDMA devices), $scrapes scrapes each"
echo "node exporter: $("$exporter" --version 2>&1 | head -1)"
echo "railyard-agent: $("$agent" --version 2>&1 | head -1)"
scrape railyard-agent "$agent_pid" "http://127.0.0.1:$agent_port/metrics"
scrape node-exporter "$ne_pid" "http://127.0.0.1:$ne_port/metrics"

# --- compare values -----------------------------------------------------------------------
# Every node_infiniband_* sample with device and port labels must have a railyard_infiniband_*
# twin with the same device and port and the same value.
awk '
    function key(line,   name, dev, port) {
        name = line; sub(/\{.*/, "", name)
        dev = line; if (!sub(/.*device="/, "", dev)) return ""; sub(/".*/, "", dev)
        port = line; if (!sub(/.*port="/, "", port)) return ""; sub(/".*/, "", port)
        return name "|" dev "|" port
    }
    /^#/ { next }
    FNR == NR {
        if ($0 !~ /^railyard_infiniband_/) next
        k = key($1); if (k == "") next
        sub(/^railyard_/, "node_", k); ours[k] = $NF; next
    }
    $0 ~ /^node_infiniband_/ {
        k = key($1); if (k == "") next
        n++
        if (!(k in ours)) { missing++; print "  missing in railyard-agent: " k " = " $NF; next }
        if (ours[k] + 0 != $NF + 0) { differ++; print "  differs: " k ": node exporter " $NF ", railyard-agent " ours[k]; next }
        same++
    }
    END {
        printf "values: %d node exporter samples with device and port; %d equal, %d differ, %d missing\n", n, same, differ, missing
        exit (n == 0 || differ + missing > 0) ? 1 : 0
    }
' "$work/railyard-agent.txt" "$work/node-exporter.txt"
