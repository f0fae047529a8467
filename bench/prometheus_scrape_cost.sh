#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Railyard contributors
#
# The Prometheus server's own cost of scraping the agents, to set beside Railyard's ingest
# (railyard-bench-telemetry): railyard-sim emulates N nodes under all-reduce traffic, `railyard-cli
# export file-sd` writes the targets, a real Prometheus scrapes them, and after a warm-up the
# script reads, over the measured seconds,
#   - the samples Prometheus appended (prometheus_tsdb_head_samples_appended_total),
#   - its CPU time (utime+stime of /proc/<pid>/stat) and so samples per second per core,
#   - the emulator's CPU time (its agents answering the scrapes; it also rewrites the counters).
# Both target layouts are measured: the export's one target per node and rail (/metrics?rail=K,
# labels node, rail, su, leaf) and one target per node (the agent's whole /metrics).
#
# Usage: bench/prometheus_scrape_cost.sh [options]
#   --nodes N            emulated DGX H100 nodes (default 32; su_size 32)
#   --seconds T          measured seconds per layout (default 30, after a 15 s warm-up)
#   --interval D         scrape interval (default 1s)
#   --layout L           rail, node or both (default both)
#   --build DIR          where railyard-sim and railyard-cli are (default build/ci/bin)
#   --keep               keep the work folder (printed)
# Exit status: 0 measured, 2 bad input or a program did not start.
set -euo pipefail

nodes=32
seconds=30
interval=1s
layout=both
keep=0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/../build/ci/bin"

die() { echo "error: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --nodes) nodes="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --interval) interval="$2"; shift 2 ;;
        --layout) layout="$2"; shift 2 ;;
        --build) bin="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '4,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done
[[ "$nodes" =~ ^[1-9][0-9]*$ ]] || die "--nodes: expected a positive number, got $nodes"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || die "--seconds: expected a positive number, got $seconds"
[[ "$interval" =~ ^[1-9][0-9]*(ms|s|m)$ ]] || die "--interval: expected a duration such as 1s, got $interval"
[[ "$layout" =~ ^(rail|node|both)$ ]] || die "--layout: rail, node or both, got $layout"
[[ -x "$bin/railyard-sim" && -x "$bin/railyard-cli" ]] || die "railyard-sim and railyard-cli not found in $bin (build them, or give --build DIR)"
prometheus="$(command -v prometheus || true)"
[[ -n "$prometheus" ]] || die "prometheus is not installed (Debian: apt install prometheus; installer/install-deps.sh installs it)"
command -v curl >/dev/null || die "curl is not installed"

work="$(mktemp -d "${TMPDIR:-/tmp}/railyard-prom-bench.XXXXXX")"
sim_pid=""
prom_pid=""
cleanup() {
    [[ -n "$prom_pid" ]] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null || true
    [[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null || true
    if [[ $keep -eq 1 ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# CPU seconds (user + system) of a process so far.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }

# Samples appended to the head so far, from the server's own /metrics (it does not scrape itself here).
appended() {
    curl -s --max-time 10 "http://127.0.0.1:$port/metrics" \
        | awk '/^prometheus_tsdb_head_samples_appended_total/ { sum += $NF } END { printf "%.0f\n", sum }'
}

# One instant query's first value.
query() {
    curl -s --max-time 10 --get --data-urlencode "query=$1" "http://127.0.0.1:$port/api/v1/query" \
        | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'
}

cat >"$work/bench.plan.json" <<EOF
{ "name": "prometheus scrape cost", "fabric": "infiniband", "nodes": $nodes, "node_type": "dgx-h100",
  "link": { "generation": "NDR", "width": 4 }, "su_size": 32 }
EOF
"$bin/railyard-sim" --plan "$work/bench.plan.json" --root "$work/sim" --traffic allreduce --update-ms 1000 >"$work/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 1 600); do [[ -f "$work/sim/agents.json" ]] && break; sleep 0.1; done
[[ -f "$work/sim/agents.json" ]] || die "railyard-sim did not write agents.json (see $work/sim.log)"
"$bin/railyard-cli" export file-sd "$work/bench.plan.json" --agents "$work/sim/agents.json" --out "$work/rail.json"
# One group per node: the first rail's group of each node, without the rail filter and rail labels.
python3 - "$work/rail.json" "$work/node.json" <<'EOF'
import json, sys
groups, seen = [], set()
for g in json.load(open(sys.argv[1])):
    node = g["labels"]["node"]
    if node in seen:
        continue
    seen.add(node)
    groups.append({"targets": g["targets"], "labels": {"node": node, "su": g["labels"]["su"]}})
json.dump(groups, open(sys.argv[2], "w"), indent=1)
EOF

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
printf '%-6s %8s %12s %12s %14s %12s %12s\n' layout targets samples/s prom_cores samples/s/core us/sample sim_cores
for l in rail node; do
    [[ "$layout" == both || "$layout" == "$l" ]] || continue
    cat >"$work/prometheus-$l.yml" <<EOF
global:
  scrape_interval: $interval
  scrape_timeout: $interval
scrape_configs:
  - job_name: railyard
    honor_labels: true
    file_sd_configs:
      - files: [ "$work/$l.json" ]
EOF
    rm -rf "$work/tsdb-$l"
    "$prometheus" --config.file="$work/prometheus-$l.yml" --storage.tsdb.path="$work/tsdb-$l" \
        --web.listen-address="127.0.0.1:$port" --log.level=warn >"$work/prometheus-$l.log" 2>&1 &
    prom_pid=$!
    sleep 15 # warm-up: targets discovered, series created, the head block's first appends
    targets="$(query 'count(up == 1)')"
    s0="$(appended)"; p0="$(cpu "$prom_pid")"; e0="$(cpu "$sim_pid")"; t0="$(date +%s.%N)"
    sleep "$seconds"
    s1="$(appended)"; p1="$(cpu "$prom_pid")"; e1="$(cpu "$sim_pid")"; t1="$(date +%s.%N)"
    awk -v l="$l" -v n="$targets" -v s0="$s0" -v s1="$s1" -v p0="$p0" -v p1="$p1" -v e0="$e0" -v e1="$e1" -v t0="$t0" -v t1="$t1" 'BEGIN {
        dt = t1 - t0; rate = (s1 - s0) / dt; cores = (p1 - p0) / dt
        printf "%-6s %8d %12.0f %12.3f %14.0f %12.2f %12.3f\n", l, n, rate, cores, (cores > 0 ? rate / cores : 0),
            (rate > 0 ? cores / rate * 1e6 : 0), (e1 - e0) / dt }'
    kill "$prom_pid"; wait "$prom_pid" 2>/dev/null || true; prom_pid=""
done
