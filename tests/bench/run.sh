#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: what ktprof costs and how fast it goes, measured here.
#   host  ktprof convert on synthetic captures: records/s, peak RSS,
#         bytes per record in the capture and in the trace; ktprof report
#         (every section, JSON) on 0.9M and 10M records: records/s, RSS;
#         ktprof diff of two 10M-record captures; ktprof mcp as its client
#         (the MCP SDK) sees it: load_capture and run_all_analyzers of the
#         0.9M-record capture (tests/mcp/bench.mjs)
#   VM    (Debian 6.12, instruction-counted time, see
#         ../shared/design/MEASURING.md) on 1 vCPU, the same scheduler
#         tracepoints traced by ftrace, perf record and ktprof on a
#         workload with fixed events per op (tests/workloads/handoff),
#         interleaved rounds, medians: overhead per event and its ratio to
#         ftrace's, bytes per event, and ktprof's write path alone; on 2
#         vCPUs, ktprof record under 1, 2, 4 pipe floods: records/s, loss,
#         recorder peak RSS, the highest lossless rate (tests/bench/guest.sh)
# Figures go to stdout and build/bench/results.txt. Nothing is asserted:
# TCG timing is a measurement, not a test.
#
# usage: tests/bench/run.sh [--host-only]
#        (environment: ROUNDS, HANDOFFS, FLOOD_LOOPS, SELFTEST_N)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/bench
KTPROF=$top/user/ktprof
rm -rf "$out"
mkdir -p "$out"
exec > >(tee "$out/results.txt")

. "$top/tests/bench/lib.sh"

# On tmpfs when there is one: the converter's speed, not the disk's (a 10M
# record trace is 730 MB).
syn=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "$out")/ktprof-bench.XXXXXX")
trap 'rm -rf "$syn"' EXIT
echo "== ktprof convert (host, $(nproc) CPUs, synthetic captures of 4 CPUs, output in ${syn%/*})"
printf '%12s %10s %9s %12s %11s %11s\n' records seconds rec/s "peak RSS" "capture B/r" "trace B/r"
for n in 1000000 10000000; do
	"$top/build/tools/gen-capture" -n "$n" -c 4 -o "$syn/syn.ktp"
	records=$(capture_records "$syn/syn.ktp")
	/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" convert -o "$syn/syn.pftrace" \
		"$syn/syn.ktp" 2>/dev/null
	read -r secs rss <"$out/time"
	awk -v r="$records" -v s="$secs" -v m="$rss" -v c="$(stat -c %s "$syn/syn.ktp")" \
		-v t="$(stat -c %s "$syn/syn.pftrace")" 'BEGIN {
		printf "%12d %10.2f %9.2fM %9.1f MB %11.1f %11.1f\n",
			r, s, r / (s > 0 ? s : 0.01) / 1e6, m / 1024, c / r, t / r }'
	rm -f "$syn"/*
done
echo
echo "== ktprof report --json, every section (host, one core, synthetic captures of 4 CPUs)"
printf '%12s %10s %9s %12s\n' records seconds rec/s "peak RSS"
for n in 900000 10000000; do
	"$top/build/tools/gen-capture" -n "$n" -c 4 -o "$syn/syn.ktp"
	records=$(capture_records "$syn/syn.ktp")
	/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" report --json "$syn/syn.ktp" \
		>/dev/null 2>&1
	read -r secs rss <"$out/time"
	awk -v r="$records" -v s="$secs" -v m="$rss" 'BEGIN {
		printf "%12d %10.2f %9.2fM %9.1f MB\n", r, s, r / (s > 0 ? s : 0.01) / 1e6, m / 1024 }'
	rm -f "$syn"/*
done
echo
echo "== ktprof diff --json of two captures (host, one core, synthetic, 4 CPUs each)"
printf '%12s %10s %9s %12s\n' "records/side" seconds rec/s "peak RSS"
"$top/build/tools/gen-capture" -n 10000000 -c 4 -s 1 -o "$syn/a.ktp"
"$top/build/tools/gen-capture" -n 10000000 -c 4 -s 2 -o "$syn/b.ktp"
records=$(capture_records "$syn/a.ktp")
/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" diff --json "$syn/a.ktp" "$syn/b.ktp" \
	>/dev/null 2>&1
read -r secs rss <"$out/time"
awk -v r="$records" -v s="$secs" -v m="$rss" 'BEGIN {
	printf "%12d %10.2f %9.2fM %9.1f MB\n", r, s, 2 * r / (s > 0 ? s : 0.01) / 1e6, m / 1024 }'
rm -f "$syn"/*
echo
echo "== ktprof mcp over stdio, as the MCP SDK client sees it (host, synthetic capture of 4 CPUs)"
"$top/build/tools/gen-capture" -n 900000 -c 4 -o "$syn/syn.ktp"
node "$top/tests/mcp/bench.mjs" "$KTPROF" "$syn/syn.ktp" 5
rm -f "$syn"/*
[ "${1:-}" != --host-only ] || exit 0

echo
guest() {	# MODE CPUS
	"$top/scripts/vm-run" --kernel 6.12 --cpus "$2" --icount --timeout 3000 --out "$out/$1" -- \
		env ROUNDS="${ROUNDS:-5}" HANDOFFS="${HANDOFFS:-50000}" FLOOD_LOOPS="${FLOOD_LOOPS:-50000}" \
		SELFTEST_N="${SELFTEST_N:-400000}" KTPROF_TEST_OUT="$out/$1" \
		"$top/tests/bench/guest.sh" "$1" "$out/$1" >"$out/$1.txt" ||
		{ echo "bench: the $1 VM failed; see $out/$1/console.log" >&2; tail -5 "$out/$1.txt" >&2; exit 1; }
	grep -q '^done$' "$out/$1.txt" || { echo "bench: the $1 guest did not finish" >&2; exit 1; }
}
echo "== tracing overhead (VM: Debian 6.12, 1 vCPU, -icount: 1 guest ns = 1 instruction)"
guest overhead 1
guest flood 2
cat "$out/overhead.txt" "$out/flood.txt" >"$out/guest.txt"
awk -v handoffs="${HANDOFFS:-50000}" -f "$top/tests/bench/summarize.awk" "$out/guest.txt"
echo
echo "raw figures: $out/guest.txt"
