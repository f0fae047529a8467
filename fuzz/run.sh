#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets (the `fuzz` preset, build/fuzz) when needed and runs each for a
# bounded time over its seed corpus (fuzz/corpus/<target>) and its regression inputs
# (fuzz/regressions/<target>). Fails when any target finds a crash, a leak, a timeout or an
# out-of-memory; the input is then in build/fuzz/artifacts/<target>/.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]   fuzz (default 10 s each, every target)
#   fuzz/run.sh --replay [TARGET...]               only replay every file in fuzz/regressions/ once
#
# Environment: RAILYARD_FUZZ_RSS_MB (default 2048), RAILYARD_FUZZ_TIMEOUT_S (one input, default 10),
# RAILYARD_FUZZ_RUNS (stop after this many executions instead of, or before, the time is up),
# RAILYARD_FUZZ_MAX_LEN (libFuzzer's -max_len; default its own, 4096 for fuzz_nccl_log),
# RAILYARD_FUZZ_FORK=N (N worker processes, libFuzzer's -fork; RUNS then counts all of them),
# RAILYARD_FUZZ_WORKERS=N (N independent fuzzers on the same corpus folder, each taking the others'
# new inputs; RUNS is shared out among them, and the first that fails stops the others),
# RAILYARD_FUZZ_NO_BUILD=1 (use the binaries already in build/fuzz/bin), RAILYARD_FUZZ_LOG_DIR
# (keep each target's libFuzzer output there; default build/fuzz/logs), RAILYARD_FUZZ_WORK_DIR (where
# the inputs a run finds go, per target; default build/fuzz/corpus: CI gives an empty folder so
# that its short runs do not grow with every run).
# New inputs a run finds go to build/fuzz/corpus/<target> (not into the tree): add an input to
# fuzz/corpus or fuzz/regressions by hand when it is worth keeping.
set -euo pipefail
cd "$(dirname "$0")/.."

replay=0
seconds=10
if [ "${1:-}" = "--replay" ]; then
    replay=1
    shift
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1
    shift
fi

workers=${RAILYARD_FUZZ_WORKERS:-1}
if ! [[ "$workers" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz/run.sh: RAILYARD_FUZZ_WORKERS must be a number of processes, 1 or more (not '$workers')" >&2
    exit 2
fi
if [ "$workers" -gt 1 ] && [ -n "${RAILYARD_FUZZ_FORK:-}" ]; then
    echo "fuzz/run.sh: RAILYARD_FUZZ_WORKERS and RAILYARD_FUZZ_FORK are two ways of running processes side by side: give one" >&2
    exit 2
fi

# libFuzzer lists its output folder and stats every file there once a second (-reload=1) to take
# what other processes found, and the folder keeps every input it ever wrote, reduced ones too
# (fuzz_nccl_log: 15,102 files for a corpus of 2,347 after 40 minutes; the same 30,000 runs took
# 117.0 s with the rereading, 111.7 s without). One process has no one to take from; workers take
# from each other every 30 s, which a run of hours does not notice.
reload_s=0
if [ "$workers" -gt 1 ]; then
    reload_s=30
fi

build=build/fuzz
bin=$build/bin
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for source in fuzz/fuzz_*.cpp; do
        targets+=("$(basename "$source" .cpp)")
    done
fi

if [ "${RAILYARD_FUZZ_NO_BUILD:-0}" != 1 ]; then
    export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/railyard-ccache}"
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
    export CCACHE_NOHASHDIR=1
    if [ ! -f "$build/build.ninja" ]; then
        cmake --preset fuzz >/dev/null
    fi
    cmake --build --preset fuzz -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}" --target "${targets[@]}"
fi

# Leaks are checked (libFuzzer's -detect_leaks=1); a UBSan report is a crash.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
rss=${RAILYARD_FUZZ_RSS_MB:-2048}
timeout=${RAILYARD_FUZZ_TIMEOUT_S:-10}
logs=${RAILYARD_FUZZ_LOG_DIR:-$build/logs}
mkdir -p "$logs"

# last_stat NAME LOG: the figure of libFuzzer's last "stat::NAME:" line in LOG (none: nothing).
last_stat() {
    sed -n "s/^stat::$1: *//p" "$2" | tail -1
}

# run_workers PROGRAM LOG OPTION... DIR...: $workers fuzzers on the same folders (each takes the
# others' new inputs from the first every $reload_s s, libFuzzer's -reload), each with its own output;
# when one ends with a failure the others are stopped with SIGINT, as they are when run.sh gets
# one. LOG then holds every worker's output, the first failed one's last; worker_runs and
# worker_rate the sums of their figures. Returns the first failure's status, or 72 when they were
# stopped, else 0.
run_workers() {
    local program=$1 log=$2
    shift 2
    local running=() w
    for (( w = 1; w <= workers; w++ )); do
        "$program" "$@" >"$log.$w" 2>&1 &
        running+=($!)
    done
    local all=("${running[@]}")
    # libFuzzer stops on SIGINT and prints its figures; wait for that rather than end run.sh.
    # SIGTERM does the same: a shell without job control starts `run.sh &` with SIGINT ignored,
    # which bash cannot trap.
    trap 'kill -INT "${running[@]}" 2>/dev/null || true' INT TERM
    local status=0 ended worker_status first_failed=
    while [ ${#running[@]} -gt 0 ]; do
        ended=
        worker_status=0
        wait -n -p ended "${running[@]}" || worker_status=$?
        [ -z "${ended:-}" ] && continue # a signal, not a worker's end
        local left=()
        for w in "${running[@]}"; do [ "$w" != "$ended" ] && left+=("$w"); done
        running=("${left[@]}")
        if [ "$worker_status" != 0 ] && [ "$status" = 0 ]; then
            status=$worker_status
            for (( w = 0; w < workers; w++ )); do
                [ "${all[$w]}" = "$ended" ] && first_failed=$(( w + 1 ))
            done
            # 72 is a worker stopped by SIGINT (the others got it too); anything else stops them.
            [ "$worker_status" != 72 ] && [ ${#running[@]} -gt 0 ] && kill -INT "${running[@]}" 2>/dev/null
        fi
    done
    trap - INT TERM
    worker_runs=
    worker_rate=
    : >"$log"
    local order=()
    for (( w = 1; w <= workers; w++ )); do [ "$w" != "$first_failed" ] && order+=("$w"); done
    [ -n "$first_failed" ] && order+=("$first_failed")
    for w in "${order[@]}"; do
        local r
        r=$(last_stat number_of_executed_units "$log.$w")
        [ -n "$r" ] && worker_runs=$(( ${worker_runs:-0} + r ))
        r=$(last_stat average_exec_per_sec "$log.$w")
        [ -n "$r" ] && worker_rate=$(( ${worker_rate:-0} + r ))
        { echo "=== worker $w of $workers$([ "$w" = "$first_failed" ] && echo ' (the first to fail)')"; cat "$log.$w"; } >>"$log"
        rm -f "$log.$w"
    done
    return "$status"
}

failed=()
printf '%-22s %12s %8s %10s %8s  %s\n' target executions wall_s exec_per_s cov result
for target in "${targets[@]}"; do
    program=$bin/$target
    if [ ! -x "$program" ]; then
        echo "fuzz/run.sh: $program is missing (build it: cmake --build --preset fuzz --target $target)" >&2
        failed+=("$target")
        continue
    fi
    regressions=fuzz/regressions/$target
    log=$logs/$target.log
    # Targets that write files (fuzz_dumps, fuzz_agent_http) make their folders under TMPDIR and
    # remove them at exit, which libFuzzer skips when it is stopped (SIGINT, SIGTERM: _Exit) and
    # after a replay: the target gets a folder of its own, removed when it has ended.
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/railyard-fuzz-$target-XXXXXX")
    if [ "$replay" = 1 ]; then
        files=()
        if [ -d "$regressions" ]; then
            while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$regressions" -type f ! -name '*.md' -print0 | sort -z)
        fi
        if [ ${#files[@]} -eq 0 ]; then
            printf '%-22s %12s %8s %10s %8s  %s\n' "$target" 0 - - - "no regression inputs"
            rm -rf "$scratch"
            continue
        fi
        if TMPDIR=$scratch "$program" -rss_limit_mb="$rss" -timeout="$timeout" "${files[@]}" >"$log" 2>&1; then
            printf '%-22s %12s %8s %10s %8s  %s\n' "$target" "${#files[@]}" - - - "replayed"
        else
            printf '%-22s %12s %8s %10s %8s  %s\n' "$target" "${#files[@]}" - - - "FAILED (see $log)"
            failed+=("$target")
        fi
        rm -rf "$scratch"
        continue
    fi
    work=${RAILYARD_FUZZ_WORK_DIR:-$build/corpus}/$target
    artifacts=$build/artifacts/$target
    mkdir -p "$work" "$artifacts"
    dirs=("$work" "fuzz/corpus/$target")
    [ -d "$regressions" ] && dirs+=("$regressions")
    options=(-max_total_time="$seconds" -rss_limit_mb="$rss" -timeout="$timeout" -print_final_stats=1
        -artifact_prefix="$artifacts/" -reload="$reload_s")
    [ -f "fuzz/dict/$target.dict" ] && options+=(-dict="fuzz/dict/$target.dict")
    runs_each=${RAILYARD_FUZZ_RUNS:-}
    [ -n "$runs_each" ] && runs_each=$(( (runs_each + workers - 1) / workers ))
    [ -n "$runs_each" ] && options+=(-runs="$runs_each")
    # fuzz_nccl_log's seeds are logs of up to 75 KB, and libFuzzer's inputs grow to the largest:
    # 4 KB inputs run about 3 times as fast at the same coverage (measured 2026-12-02).
    max_len=${RAILYARD_FUZZ_MAX_LEN:-}
    [ -z "$max_len" ] && [ "$target" = fuzz_nccl_log ] && max_len=4096
    [ -n "$max_len" ] && options+=(-max_len="$max_len")
    [ -n "${RAILYARD_FUZZ_FORK:-}" ] && options+=(-fork="$RAILYARD_FUZZ_FORK")
    start=$(date +%s.%N)
    status=0
    if [ "$workers" = 1 ]; then
        TMPDIR=$scratch "$program" "${options[@]}" "${dirs[@]}" >"$log" 2>&1 || status=$?
    else
        TMPDIR=$scratch run_workers "$program" "$log" "${options[@]}" "${dirs[@]}" || status=$?
    fi
    rm -rf "$scratch"
    wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
    # A run that crashed at once prints no figures: none is then "-". Workers: the sums of theirs.
    if [ "$workers" = 1 ]; then
        runs=$(last_stat number_of_executed_units "$log")
        rate=$(last_stat average_exec_per_sec "$log")
    else
        runs=$worker_runs
        rate=$worker_rate
    fi
    if [ -z "$runs" ]; then
        # -fork prints no stat:: lines: its status lines are "#RUNS: cov: N ... exec/s R ...".
        runs=$(grep -oE '^#[0-9]+:' "$log" | tail -1 | tr -d '#:' || true)
        [ -n "$runs" ] && rate=$(awk -v r="$runs" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? r / w : 0) }')
    fi
    cov=$(grep -oE 'cov: [0-9]+' "$log" | cut -d' ' -f2 | sort -n | tail -1 || true) # workers: the most of any
    if [ "$status" = 0 ]; then
        result=ok
    elif [ "$status" = 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
        result="stopped (SIGINT)" # libFuzzer's -interrupted_exitcode: the run was stopped, not failed
    else
        result="FAILED (exit $status, see $log and $artifacts/)"
        failed+=("$target")
    fi
    printf '%-22s %12s %8s %10s %8s  %s\n' "$target" "${runs:--}" "$wall" "${rate:--}" "${cov:--}" "$result"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz/run.sh: failed: ${failed[*]}" >&2
    for target in "${failed[@]}"; do
        [ -f "$logs/$target.log" ] && { echo "--- $logs/$target.log (last 40 lines)" >&2; tail -40 "$logs/$target.log" >&2; }
    done
    exit 1
fi
