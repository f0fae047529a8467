#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Railyard contributors
#
# Long run: railyard-sim emulates a 1,024-node fabric (dgx-b200-superpod-32su) and
# `railyard-cli live watch` streams every node's counters from its agents for DURATION, while
# the resident memory (VmRSS from /proc/<pid>/status) of the CLI and of the emulator is sampled
# every SAMPLE seconds. At the end it says whether the CLI's memory stayed flat: the largest
# sample of the last 10 minutes (of the last third, for runs shorter than 30 minutes) within
# TOLERANCE % of the sample at minute 10 (at the first third).
#
# Usage: bench/long_run.sh [options]
#   --minutes N       how long to watch (default 60; the CI-free full run)
#   --sample S        seconds between memory samples (default 60)
#   --example NAME    the plan (default dgx-b200-superpod-32su, 1,024 nodes)
#   --interval-ms MS  live watch's sampling interval (default 1000)
#   --tolerance PCT   allowed growth (default 5)
#   --start-timeout S how long the emulator may take to write its trees and start (default 1800)
#   --bin DIR         where railyard-sim and railyard-cli are (default build/ci/bin)
#   --out DIR         where the samples (memory.csv), the watch's output and the emulator's
#                     folder go (default a new folder under /dev/shm or the temp folder; kept)
# Exit status: 0 flat, 1 memory grew past the tolerance or the watch failed, 2 bad input or a
# program did not start.
set -euo pipefail

minutes=60
sample=60
example=dgx-b200-superpod-32su
interval=1000
tolerance=5
start_timeout=1800
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$here/build/ci/bin"
out=""

die() { echo "error: $*" >&2; exit 2; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --minutes) minutes="$2"; shift 2 ;;
        --sample) sample="$2"; shift 2 ;;
        --example) example="$2"; shift 2 ;;
        --interval-ms) interval="$2"; shift 2 ;;
        --tolerance) tolerance="$2"; shift 2 ;;
        --start-timeout) start_timeout="$2"; shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '4,23p' "$0"; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
[[ -x "$bin/railyard-sim" && -x "$bin/railyard-cli" ]] || die "no railyard-sim or railyard-cli in $bin (build them, or give --bin)"
if [[ -z "$out" ]]; then
    base="${TMPDIR:-/tmp}"
    [[ -w /dev/shm ]] && base=/dev/shm
    out="$(mktemp -d "$base/railyard-long-run-XXXXXX")"
fi
mkdir -p "$out"
seconds=$((minutes * 60))

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

sim_pid=""
watch_pid=""
cleanup() {
    [[ -n "$watch_pid" ]] && kill "$watch_pid" 2>/dev/null || true
    [[ -n "$sim_pid" ]] && kill "$sim_pid" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT

# The emulator runs a little longer than the watch, so that the watch's last sweep finds it.
"$bin/railyard-sim" --example "$example" --root "$out/sim" --seconds $((seconds + 120)) >"$out/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 1 $((start_timeout * 2))); do
    grep -q "nodes serving on" "$out/sim.log" 2>/dev/null && break
    kill -0 "$sim_pid" 2>/dev/null || die "railyard-sim ended: $(tail -5 "$out/sim.log")"
    sleep 0.5
done
grep -q "nodes serving on" "$out/sim.log" || die "railyard-sim did not start within $start_timeout s: $(tail -5 "$out/sim.log")"
nodes=$(grep -o '"node"' "$out/sim/agents.json" | wc -l)

"$bin/railyard-cli" live watch --example "$example" --agents "$out/sim/agents.json" --seconds "$seconds" \
    --interval-ms "$interval" >"$out/watch.out" 2>"$out/watch.err" &
watch_pid=$!
echo "long run: $nodes emulated nodes ($example), live watch every $interval ms for $minutes min; samples every $sample s in $out/memory.csv"
echo "minute,watch_rss_kib,sim_rss_kib" >"$out/memory.csv"
start=$(date +%s)
while kill -0 "$watch_pid" 2>/dev/null; do
    now=$(date +%s)
    printf '%.2f,%s,%s\n' "$(echo "($now - $start) / 60" | bc -l)" "$(rss_kib "$watch_pid")" "$(rss_kib "$sim_pid")" >>"$out/memory.csv"
    for _ in $(seq 1 "$sample"); do
        kill -0 "$watch_pid" 2>/dev/null || break
        sleep 1
    done
done
set +e
wait "$watch_pid"
watch_status=$?
set -e
watch_pid=""
echo "live watch exited with status $watch_status (0: healthy, 1: findings; see $out/watch.out and watch.err)"

# Flat: the last 10 minutes' (or last third's) largest sample against minute 10 (or the first third).
if awk -F, -v minutes="$minutes" -v tolerance="$tolerance" '
    BEGIN { n = 0; max = 0 }
    NR == 1 { next }
    $2 > 0 { t[n] = $1; r[n] = $2; n++ }
    END {
        if (n < 3) { print "too few memory samples (" n ") to judge"; exit 1 }
        ref_at = minutes >= 30 ? 10 : minutes / 3
        tail_from = minutes >= 30 ? minutes - 10 : minutes * 2 / 3
        ref = -1; peak = 0; first = r[0]
        for (i = 0; i < n; i++) {
            if (ref < 0 && t[i] >= ref_at) ref = r[i]
            if (t[i] >= tail_from && r[i] > peak) peak = r[i]
            if (r[i] > max) max = r[i]
        }
        if (ref < 0) ref = r[n - 1]
        growth = (peak - ref) * 100 / ref
        printf "watch RSS: first %d KiB, at minute %.1f %d KiB, largest of the last part %d KiB (%+.1f %%), largest %d KiB, %d samples\n", first, ref_at, ref, peak, growth, max, n
        if (growth > tolerance) { printf "NOT FLAT: grew %.1f %% (tolerance %s %%)\n", growth, tolerance; exit 1 }
        printf "FLAT: within %s %%\n", tolerance
    }' "$out/memory.csv"; then flat=0; else flat=1; fi
[[ $watch_status -le 1 ]] || exit 1
exit $flat
