#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the VM that tests/bench/analysis.sh boots: one run of
# tests/workloads/sched-mix under `perf sched record` and `ktprof record -e
# sched` at once (as tests/vm/t-report.sh does), so that the host can time
# both tools' analyses of the same events. perf runs outermost: its window
# holds ktprof's, and within ktprof's both see the same switches, wakeups,
# migrations, forks and exits (perf's startup, seconds under TCG, would
# otherwise be in ktprof's capture alone). First the same with `true` as
# the workload: a near-empty recording of each, for the tools' fixed cost,
# which also brings perf, ktprof and the module into the page cache.
#
# Leaves in OUTDIR perf.data and cap.ktp, empty.data and empty.ktp,
# record.err (perf's and ktprof's messages) and the workload's pids. All
# are written into the guest's tmpfs and copied out at the end: perf
# cannot mmap its output on 9p, and writing there during the run would add
# the 9p traffic (kworker wakeups) to what both tools record.
#
# Not under -icount: no guest time is measured here, and multi-threaded TCG
# gets through the workload sooner. sched-mix's two hogs keep both vCPUs
# busy, so each ping-pong round waits for a slice: about 6 ms a round.
#
# usage: analysis-guest.sh OUTDIR
#        (environment: PINGS, ping-pong rounds; HOG_MS, hog time after them)
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/../vm/lib.sh"
out=${1:?usage: analysis-guest.sh OUTDIR}
PINGS=${PINGS:-30000}
HOG_MS=${HOG_MS:-500}
tmp=${TMPDIR:-/tmp}

# record NAME CMD...: CMD under both recorders, into $tmp/NAME.data and .ktp.
record() {
	local name=$1
	shift
	perf sched record -o "$tmp/$name.data" -- \
		"$KTPROF" record -q -e sched -S none --load "$KTPROF_KO" -o "$tmp/$name.ktp" -- \
		"$@" 2>>"$out/record.err" || fail "recording $name failed: $(tail -5 "$out/record.err")"
}

command -v perf >/dev/null || fail "perf is not installed (scripts/setup.sh: linux-perf)"
: >"$out/record.err"
record empty true
cat "$WORKLOADS/sched-mix" >/dev/null
start=$EPOCHREALTIME
record full "$WORKLOADS/sched-mix" -r "$PINGS" -t "$HOG_MS" >"$out/pids"
end=$EPOCHREALTIME
cp "$tmp/empty.data" "$tmp/empty.ktp" "$out/" || fail "the empty recordings were not copied"
cp "$tmp/full.data" "$out/perf.data" || fail "perf.data was not copied"
cp "$tmp/full.ktp" "$out/cap.ktp" || fail "cap.ktp was not copied"
echo "kernel $(uname -r)"
echo "workload sched-mix -r $PINGS -t $HOG_MS"
awk -v a="$start" -v b="$end" 'BEGIN { printf "recorded in %.1f s of guest time\n", b - a }'
echo "done"
