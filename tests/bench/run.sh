#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: what ktprof costs and how fast it goes, measured here.
#   host  ktprof convert on synthetic captures: records/s, peak RSS,
#         bytes per record in the capture and in the trace; ktprof report
#         (every section, JSON) on 0.9M and 10M records: records/s, RSS;
#         ktprof diff of two 10M-record captures; ktprof mcp as its client
#         (the MCP SDK) sees it: load_capture and run_all_analyzers of the
#         0.9M-record capture (tests/mcp/bench.mjs); ktprof sql --db
#         building its database, ktprof export as CSV and as NDJSON, of
#         1M and 10M records: records/s, peak RSS, output size
#   VM    (Debian 6.12, instruction-counted time, see
#         ../shared/design/MEASURING.md) on 1 vCPU, the same scheduler
#         tracepoints traced by ftrace, perf record and ktprof on a
#         workload with fixed events per op (tests/workloads/handoff),
#         interleaved rounds, medians: overhead per event and its ratio to
#         ftrace's, bytes per event, and ktprof's write path alone; on 2
#         vCPUs, ktprof record under 1, 2, 4 pipe floods: records/s, loss,
#         recorder peak RSS; and the recorder's ceiling: the module's load
#         file writing at a doubling rate on every CPU until records are
#         lost (tests/bench/guest.sh)
#   VM    (Debian 6.12 and 6.1) LTTng's kernel tracer in the overhead
#         rounds beside the others (Debian's lttng-modules: trixie's for
#         6.12, bookworm's for 6.1; scripts/lttng-modules.sh), its events
#         counted on the host with babeltrace2
#   VM    (Debian 6.12) the groups off by default, wakeup and power: the
#         futex handoff and a sleep loop with each (tests/bench/guest.sh
#         groups)
#   VM    (the sched_ext kernel) the handoff workload on the ext class
#         under scx_simple: ktprof's sched events alone and with the scx
#         group (tests/bench/guest.sh scx)
#   VM    (Debian 6.12, 1 vCPU, -icount) dynamic probes: instructions per
#         kprobe hit and per uprobe hit with one argument, ftrace's
#         kprobe_events/uprobe_events, perf probe + perf record and ktprof
#         record --probe on the same functions (tests/workloads/probe-hits,
#         tests/bench/guest.sh probes); --probes runs this group alone
#   VM+host  ktprof report against perf sched latency/timehist on the same
#         recorded events (tests/bench/analysis.sh)
# Figures go to stdout and build/bench/results.txt, as JSON to
# build/bench/bench.json and build/bench/analysis/analysis.json, and as
# plots to build/bench/cost-per-event.svg and ceiling.svg
# (tests/bench/summarize.py). Nothing is asserted: TCG timing is a
# measurement, not a test. docs/benchmarks.md has the method and results.
#
# usage: tests/bench/run.sh [--host-only|--probes]
#        (environment: ROUNDS, HANDOFFS, FLOOD_LOOPS, SELFTEST_N,
#        CEILING_START, CEILING_SECS, CEILING_STEPS, PROBE_OPS; BENCH_OUT:
#        another output directory than build/bench)
set -euo pipefail
case "${1:-}" in
""|--host-only|--probes) ;;
*) echo "usage: tests/bench/run.sh [--host-only|--probes]" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${BENCH_OUT:-$top/build/bench}
KTPROF=$top/user/ktprof
# build/bench is ours to empty; another directory must come empty.
if [ -z "${BENCH_OUT:-}" ]; then
	rm -rf "$out"
elif [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	echo "bench: BENCH_OUT=$out is not empty" >&2
	exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)	# the guests mount it at this path
exec > >(tee "$out/results.txt")

. "$top/tests/bench/lib.sh"

guest() {	# NAME KERNEL CPUS MODE [VAR=VALUE...]
	local name=$1 kernel=$2 cpus=$3 mode=$4
	shift 4
	"$top/scripts/vm-run" --kernel "$kernel" --cpus "$cpus" --icount --timeout 3000 \
		--out "$out/$name" -- \
		env ROUNDS="${ROUNDS:-5}" HANDOFFS="${HANDOFFS:-50000}" FLOOD_LOOPS="${FLOOD_LOOPS:-50000}" \
		SELFTEST_N="${SELFTEST_N:-400000}" PROBE_OPS="${PROBE_OPS:-100000}" CEILING_START="${CEILING_START:-25000}" \
		CEILING_SECS="${CEILING_SECS:-1}" CEILING_STEPS="${CEILING_STEPS:-2}" \
		KTPROF_TEST_OUT="$out/$name" "$@" \
		"$top/tests/bench/guest.sh" "$mode" "$out/$name" >"$out/$name.txt" ||
		{ echo "bench: the $name VM failed; see $out/$name/console.log" >&2; tail -5 "$out/$name.txt" >&2; exit 1; }
	grep -q '^done$' "$out/$name.txt" || { echo "bench: the $name guest did not finish" >&2; exit 1; }
}

# Dynamic probes: the cost of a kprobe hit and of a uprobe hit, each
# tracer on the same function (tests/bench/guest.sh probes); summarize.py
# makes the tables.
probes_group() {
	echo "== dynamic probes (VM: Debian 6.12, 1 vCPU, -icount): kprobe and uprobe hits," \
		"ftrace, perf probe, ktprof record --probe (tables with the summary below)"
	guest probes 6.12 1 probes
}

if [ "${1:-}" = --probes ]; then
	probes_group
	python3 "$top/tests/bench/summarize.py" --handoffs "${HANDOFFS:-50000}" \
		--json "$out/bench.json" 6.12="$out/probes.txt"
	exit 0
fi

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
echo
echo "== ktprof sql (the SQLite database built in memory, ready for queries; with --db also written to disk and synced) and ktprof export (host; sql's pass and inserts in two threads, export one; synthetic captures of 4 CPUs)"
printf '%-20s %12s %10s %9s %12s %12s\n' command records seconds rec/s "peak RSS" output
for n in 1000000 10000000; do
	"$top/build/tools/gen-capture" -n "$n" -c 4 -o "$syn/syn.ktp"
	records=$(capture_records "$syn/syn.ktp")
	for cmd in sql sql-db export export-ndjson; do
		after=()
		case $cmd in
		sql) args=(sql); after=('SELECT 1') ;;
		sql-db) args=(sql --db "$syn/out.sqlite") ;;
		export) args=(export -o "$syn/out") ;;
		export-ndjson) args=(export --format ndjson -o "$syn/out") ;;
		esac
		/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" "${args[@]}" "$syn/syn.ktp" \
			"${after[@]}" >/dev/null 2>&1
		read -r secs rss <"$out/time"
		bytes=$(du -sb "$syn"/out* | awk '{ n += $1 } END { print n + 0 }')
		awk -v c="$cmd" -v r="$records" -v s="$secs" -v m="$rss" -v b="$bytes" 'BEGIN {
			printf "%-20s %12d %10.2f %9.2fM %9.1f MB %9.1f MB\n", c, r, s,
				r / (s > 0 ? s : 0.01) / 1e6, m / 1024, b / 1048576 }'
		rm -rf "$syn"/out*
	done
	rm -f "$syn"/*
done
echo
echo "== ktprof top's analysis (host, one core): a capture replayed in intervals of 100,000 records each, --json to /dev/null; its CPU time per interval is the share of one CPU the live analysis takes at 100,000 events/s"
printf '%12s %10s %12s %12s %14s %12s\n' records intervals "CPU s" "us/record" "CPU at 100k/s" "peak RSS"
for n in 1000000 10000000; do
	"$top/build/tools/gen-capture" -n "$n" -c 4 -o "$syn/syn.ktp"
	records=$(capture_records "$syn/syn.ktp")
	span=$("$KTPROF" report --json --cpu "$syn/syn.ktp" 2>/dev/null |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["window"]["duration_ns"])')
	d=$((span * 100000 / records))
	/usr/bin/time -f '%U %S %M' -o "$out/time" "$KTPROF" top --replay "$syn/syn.ktp" --json \
		-d "${d}ns" >"$syn/top.json" 2>/dev/null
	read -r user sys rss <"$out/time"
	awk -v r="$records" -v u="$user" -v s="$sys" -v m="$rss" -v k="$(wc -l <"$syn/top.json")" 'BEGIN {
		c = u + s; printf "%12d %10d %12.2f %12.3f %13.1f%% %9.1f MB\n", r, k, c, c / r * 1e6,
			c / r * 1e5 * 100, m / 1024 }'
	rm -f "$syn"/*
done
[ "${1:-}" != --host-only ] || exit 0

echo
# LTTng's rounds name the trace they left (@lttng/DIR): count its events
# with babeltrace2, here at native speed, up to the workload's exit (its
# last thread's sched_process_exit), and put the count in its place.
lttng_count() {	# FILE
	local f=$1 line dir n
	while read -r line; do
		dir=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^@/) print substr($i, 2) }')
		if [ -z "$dir" ]; then
			echo "$line"
			continue
		fi
		n=$(babeltrace2 "$out/${f%.txt}/$dir" 2>"$out/babeltrace2.err" | awk '
			/^\[/ { n++ }
			/ sched_process_exit: .* comm = "handoff"/ { upto = n }
			END { print upto; exit !upto }') ||
			{ echo "bench: babeltrace2 read no events from $dir: $(head -3 "$out/babeltrace2.err")" >&2; exit 1; }
		echo "${line/@$dir/$n}"
		rm -rf "${out:?}/${f%.txt}/$dir"
	done <"$out/$f"
}

echo "== tracing overhead (VM: Debian 6.12, 1 vCPU, -icount: 1 guest ns = 1 instruction)"
# LTTng's kernel tracer beside the others, on each kernel a Debian
# lttng-modules builds for: trixie's for 6.12, bookworm's for 6.1.
lttng_for() {	# KERNEL [--suite SUITE]
	local rel
	rel=$("$top/scripts/kernels.sh" "$1" | cut -d' ' -f2) &&
		"$top/scripts/lttng-modules.sh" "${@:2}" "$rel"
}
lttng=()
if ko=$(lttng_for 6.12 --suite trixie); then
	lttng=(LTTNG_KO="$ko")
else
	echo "(no LTTng rows on 6.12: lttng-modules does not build for it, above)"
fi
guest overhead 6.12 1 overhead "${lttng[@]}"
lttng_count overhead.txt >"$out/overhead.counted.txt"
guest flood 6.12 2 flood
guest ceiling 6.12 2 ceiling
inputs=(6.12="$out/overhead.counted.txt" 6.12="$out/flood.txt" 6.12="$out/ceiling.txt")
if ko=$(lttng_for 6.1); then
	guest overhead-6.1 6.1 1 overhead LTTNG_KO="$ko"
	lttng_count overhead-6.1.txt >"$out/overhead-6.1.counted.txt"
	inputs+=(6.1="$out/overhead-6.1.counted.txt")
else
	echo "(no LTTng rows on 6.1: lttng-modules does not build for it, above)"
fi

echo "== where the write path's instructions go (VM: Debian 6.12 and 6.1, 1 vCPU, -icount):" \
	"the module with one piece taken out at a time (tests/bench/ablate.py; tables with the summary below)"
ablation_group() {	# KERNEL
	local dir v release kdir
	read -r _ release kdir < <("$top/scripts/kernels.sh" "$1")
	dir=$top/build/ablate/$release
	python3 "$top/tests/bench/ablate.py" "$top/kmod" "$dir" >/dev/null
	for v in "$dir"/*/; do
		ln -sfn "$top/Kbuild" "$v/Kbuild"
		make -s -C "$kdir" M="$v" modules
	done
	guest "ablation-$1" "$1" 1 ablation ABLATE_DIR="$dir"
}
for k in 6.12 6.1; do
	ablation_group "$k"
	inputs+=("$k=$out/ablation-$k.txt")
done

echo "== event groups off by default (VM: Debian 6.12, 1 vCPU, -icount): wakeup, power"
# What each adds to the sched events: per op and per record of the group,
# medians of the rounds (tests/bench/guest.sh groups).
guest groups 6.12 1 groups
awk '$1 == "groups" { k = $2 " " $3; n[k]++; ns[k, n[k]] = $4; ev[k] = $5 }
function med(k,   i, j, t, v) { for (i = 1; i <= n[k]; i++) v[i] = ns[k, i]
	for (i = 1; i <= n[k]; i++) for (j = i + 1; j <= n[k]; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return v[int((n[k] + 1) / 2)] }
END { printf "%-6s %-7s %11s %11s %11s %11s %11s %10s\n", "mode", "group", "none ns/op",
		"sched", "+group", "adds/op", "records/op", "ns/record"
	ops["futex"] = 2 * '"${HANDOFFS:-50000}"'; ops["sleep"] = '"${HANDOFFS:-50000}"'
	split("futex sleep", m, " "); split("wakeup power", g, " ")
	for (i = 1; i <= 2; i++) for (j = 1; j <= 2; j++) {
		x = m[i]; t0 = med(x " none"); t1 = med(x " sched"); t2 = med(x " " g[j])
		r = ev[x " " g[j]] / ops[x]
		printf "%-6s %-7s %11.1f %11.1f %11.1f %11.1f %11.2f %10s\n", x, g[j], t0, t1, t2,
			t2 - t1, r, (r > 0.01 ? sprintf("%.0f", (t2 - t1) / r) : "-")
	} }' "$out/groups.txt" | tee "$out/groups-summary.txt"

echo "== sched_ext (VM: the scx kernel, 1 vCPU, -icount): handoff under scx_simple"
# What the scx group adds: task state at every switch and waking, a record
# for every DSQ insert and removal (kprobes). Medians of the rounds.
scx_bin=$(dirname "$("$top/scripts/kernels.sh" scx | cut -d' ' -f3)")/scx/bin
guest scx scx 1 scx SCX_BIN="$scx_bin"
awk '$1 == "scx" { k = $2 " " $3; n[k]++; ns[k, n[k]] = $4; ev[k] = $5; by[k] = $6 }
function med(k,   i, j, t, a) { for (i = 1; i <= n[k]; i++) a[i] = ns[k, i]
	for (i = 1; i <= n[k]; i++) for (j = i + 1; j <= n[k]; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((n[k] + 1) / 2)] }
END { printf "%-6s %12s %12s %12s %14s %16s\n", "mode", "none ns/op", "sched", "sched,scx",
	"scx adds/op", "scx bytes/op"
	split("yield futex", m, " ")
	for (i = 1; i <= 2; i++) { x = m[i]; a = med(x " none"); b = med(x " ktprof"); c = med(x " ktprof_scx")
		printf "%-6s %12.1f %12.1f %12.1f %14.1f %16.1f\n", x, a, b, c, c - b,
			(by[x " ktprof_scx"] - by[x " ktprof"]) / (2 * '"${HANDOFFS:-50000}"') } }' \
	"$out/scx.txt" | tee "$out/scx-summary.txt"
probes_group
inputs+=(6.12="$out/probes.txt")
echo
python3 "$top/tests/bench/summarize.py" --handoffs "${HANDOFFS:-50000}" \
	--json "$out/bench.json" --svg-dir "$out" "${inputs[@]}"
echo
"$top/tests/bench/analysis.sh" "$out/analysis"
echo
echo "figures: $out/bench.json, $out/analysis/analysis.json; plots: $out/*.svg"
