#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the VMs that tests/bench/run.sh boots with instruction-counted
# time. Prints lines for tests/bench/summarize.py.
#
#   overhead  (1 vCPU: the clock counts only the instructions of the CPU
#             that runs the benchmark) the cost of tracing the same
#             scheduler tracepoints with ftrace, perf and ktprof, in
#             interleaved rounds, on tests/workloads/handoff: two SCHED_FIFO
#             threads handing one CPU to each other, so every run repeats
#             the same events (yield: a switch per handoff; futex: a waking
#             and a switch). The threads starve every reader, so each
#             tracer buffers the whole run: ftrace and ktprof 16 MiB per
#             CPU, perf 64 MiB (its records are 112-128 bytes); none loses
#             events. With LTTNG_KO (a directory of lttng-modules' .ko
#             files built for this kernel: scripts/lttng-modules.sh), LTTng's
#             kernel tracer as well, 16 MiB per CPU in discard mode, once
#             with its consumer daemon stopped for the run (buffer only) and
#             once with it writing to the guest's tmpfs; its streams are
#             copied to OUTDIR/lttng/ for the host to count the events
#             (babeltrace2). Then ktprof's write path alone (selftest
#             records).
#   flood     (2 vCPUs) ktprof record at its defaults under 1, 2 and 4
#             concurrent perf bench sched pipe floods: records/s, loss,
#             recorder memory; then ktprof top --json live for TOP_SECS
#             intervals of 1 s under 2 floods: its CPU time over the
#             session's, and the events it took.
#   ceiling   (2 vCPUs) ktprof record at its defaults while the module's
#             load file (kmod/load.c) writes selftest records at a set
#             rate on every CPU, for CEILING_SECS each, the rate doubling
#             from CEILING_START until records are lost, then CEILING_STEPS
#             bisections: what the recorder keeps up with, its CPU time
#             and memory.
#
#   probes    (1 vCPU) the cost of a kprobe hit and of a uprobe hit with
#             one argument: ftrace's kprobe_events/uprobe_events, perf
#             probe with perf record, and ktprof record --probe on the
#             same functions, interleaved rounds (tests/workloads/probe-hits)
#
#   ablation  (1 vCPU) the module with one piece of its write path taken
#             out at a time (tests/bench/ablate.py, built in ABLATE_DIR)
#             against the unchanged one and against boot-time stamps:
#             selftest records and yield's switches, interleaved rounds
#
# usage: guest.sh overhead|flood|ceiling|scx|groups|probes|ablation OUTDIR
#        (environment: ROUNDS, HANDOFFS, FLOOD_LOOPS, SELFTEST_N, LTTNG_KO,
#        CEILING_START, CEILING_SECS, CEILING_STEPS, PROBE_OPS, ABLATE_DIR;
#        BENCH_TRACERS, PROBE_TRACERS: some of the overhead rounds' or
#        the probes rounds' tracers)
. "$(dirname "$0")/../vm/lib.sh"
. "$(dirname "$0")/lib.sh"
mode=$1
out=$2
ROUNDS=${ROUNDS:-5}
HANDOFFS=${HANDOFFS:-50000}
FLOOD_LOOPS=${FLOOD_LOOPS:-50000}
SELFTEST_N=${SELFTEST_N:-400000}
PROBE_OPS=${PROBE_OPS:-100000}
tmp=${TMPDIR:-/tmp}	# perf cannot mmap its output on 9p
TP=/sys/kernel/tracing
# ktprof's "sched" group, tracepoint for tracepoint.
TPS="sched_switch sched_waking sched_wakeup_new sched_migrate_task
     sched_process_fork sched_process_exec sched_process_exit sched_process_free"
KTP_TYPES="sched_switch sched_waking sched_migrate fork exec exit free"
WL=()	# the workload of the current rounds

# ns per handoff, from the workload's own clock (guest time).
run_workload() {
	"${WL[@]}" 2>/dev/null | awk '/ns\/handoff/ { print $1 }'
}

# Each tracer prints "NS_PER_HANDOFF EVENTS BYTES".
run_none() {
	echo "$(run_workload) 0 0"
}

run_ftrace() {
	local e t
	echo 0 >"$TP/tracing_on"
	: >"$TP/trace"
	for e in $TPS; do echo 1 >"$TP/events/sched/$e/enable"; done
	echo 1 >"$TP/tracing_on"
	t=$(run_workload)
	echo 0 >"$TP/tracing_on"
	for e in $TPS; do echo 0 >"$TP/events/sched/$e/enable"; done
	echo "$t $(cat "$TP"/per_cpu/cpu*/stats |
		awk '/^(entries|overrun):/ { n += $2 } /^bytes:/ { b += $2 }
		     END { print n + 0, b + 0 }')"
}

run_perf() {
	local args=() e t n
	for e in $TPS; do args+=(-e "sched:$e"); done
	perf record -a -m 64M -o "$tmp/perf.data" "${args[@]}" -- "${WL[@]}" \
		>"$out/perf.out" 2>"$out/perf.err" || fail "perf record: $(cat "$out/perf.err")"
	t=$(awk '/ns\/handoff/ { print $1 }' "$out/perf.out")
	n=$(sed -n 's/.*perf.data (\([0-9]*\) samples).*/\1/p' "$out/perf.err")
	echo "$t ${n:-0} $(stat -c %s "$tmp/perf.data")"
}

# perf with a kernel callchain at each event, as `perf sched record -g` and
# offcputime-style tools take one: the cost of a stack per switch.
run_perf_g() {
	local args=() e t n
	for e in $TPS; do args+=(-e "sched:$e"); done
	perf record -a -g -m 64M -o "$tmp/perf.data" "${args[@]}" -- "${WL[@]}" \
		>"$out/perf.out" 2>"$out/perf.err" || fail "perf record -g: $(cat "$out/perf.err")"
	t=$(awk '/ns\/handoff/ { print $1 }' "$out/perf.out")
	n=$(sed -n 's/.*perf.data (\([0-9]*\) samples).*/\1/p' "$out/perf.err")
	echo "$t ${n:-0} $(stat -c %s "$tmp/perf.data")"
}

# perf sched record -g as users run it: its own event list (the switch,
# wakeup_new, migrations, forks and sched_stat_*), a callchain each. Its
# events per op are not ktprof's: compare ns/op, and perf -g's ns/event.
run_perf_sched_g() {
	local t n
	perf sched record -g -m 64M -o "$tmp/perf.data" -- "${WL[@]}" \
		>"$out/perf.out" 2>"$out/perf.err" || fail "perf sched record -g: $(cat "$out/perf.err")"
	t=$(awk '/ns\/handoff/ { print $1 }' "$out/perf.out")
	n=$(sed -n 's/.*perf.data (\([0-9]*\) samples).*/\1/p' "$out/perf.err")
	echo "$t ${n:-0} $(stat -c %s "$tmp/perf.data")"
}

# ktprof with the stacks at the switch and the waking (-S offcpu,waker):
# the module again with stacks=, outside the clock. Its STACK records are
# bytes, not events: B/event is what a stack adds on average.
run_ktprof_stacks() {
	local line
	unload_module
	load_module events=sched samples=none n_subbufs=64 stacks=offcpu,waker
	line=$(run_ktprof)
	unload_module
	load_module events=sched samples=none n_subbufs=64
	echo "$line"
}

# Buffer only, like ftrace: the session runs, nothing reads until the end.
run_ktprof() {
	local t
	ctl start
	t=$(run_workload)
	ctl stop
	echo "$t $(ktprof_events) $(sed -n 's/^total records=[0-9]* bytes=\([0-9]*\).*/\1/p' "$KTPROF_DBG/stats")"
}

# The same with records stamped by CLOCK_BOOTTIME read at each record, not
# by the TSC (load_module's clock=tsc; the parameter is read at each start).
run_ktprof_boot() {
	local line
	echo boot >"$CLOCK_PARAM"
	line=$(run_ktprof)
	echo tsc >"$CLOCK_PARAM"
	echo "$line"
}
CLOCK_PARAM=/sys/module/ktprof/parameters/clock

# Sched records of the session that just ended, as the module counted them.
ktprof_events() {
	local types=" $KTP_TYPES "
	sed -n 's/^total written //p' "$KTPROF_DBG/stats" | tr ' ' '\n' |
		awk -F= -v types="$types" 'index(types, " " $1 " ") { n += $2 } END { print n + 0 }'
}

# The recorder as users run it: reader threads, compression, capture file.
run_record() {
	local t n
	"$KTPROF" record -q -e sched -S none -b 16M --no-snapshots -o "$tmp/rec.ktp" -- \
		"${WL[@]}" >"$out/rec.out" 2>"$out/rec.err" ||
		fail "ktprof record: $(cat "$out/rec.err")"
	t=$(awk '/ns\/handoff/ { print $1 }' "$out/rec.out")
	n=$("$KTPROF" dump --json "$tmp/rec.ktp" 2>/dev/null |
		grep -cE '"type":"(sched_switch|sched_waking|sched_migrate|fork|exec|exit|free)"')
	echo "$t $n $(stat -c %s "$tmp/rec.ktp")"
}

# LTTng's session daemon, with lttng-modules from LTTNG_KO: the host's
# /lib/modules is read-only here, so the daemon gets a module directory of
# its own (the kernel's builtin lists and the LTTng modules, indexed by
# depmod) bind-mounted over /lib/modules/RELEASE in a mount namespace of
# its own; its kmod then finds them as if DKMS had installed them.
lttng_start() {
	local rel d
	rel=$(uname -r)
	d=$tmp/lttng-modroot/lib/modules/$rel
	mkdir -p "$d/extra" "$tmp/lttng-home"
	if ! cp "$LTTNG_KO"/*.ko "$d/extra/" ||
	   ! cp /lib/modules/"$rel"/modules.builtin* /lib/modules/"$rel"/modules.order "$d/"; then
		fail "cannot copy lttng-modules from $LTTNG_KO"
	fi
	depmod -b "$tmp/lttng-modroot" "$rel" 2>/dev/null || fail "depmod of lttng-modules failed"
	export LTTNG_HOME=$tmp/lttng-home	# the client's ~/.lttngrc; $HOME is read-only
	unshare -m --propagation private sh -c "mount --bind '$d' '/lib/modules/$rel' &&
		exec lttng-sessiond -b --kmod-probes=sched" >"$out/lttng-sessiond.log" 2>&1 ||
		fail "lttng-sessiond: $(cat "$out/lttng-sessiond.log")"
	grep -q '^lttng_tracer ' /proc/modules ||
		fail "lttng-sessiond did not load lttng-tracer: $(tail -5 "$out/lttng-sessiond.log")"
}

# One LTTng round: "buffer" stops the consumer daemon for the workload,
# "disk" lets it write. Prints NS_PER_HANDOFF @DIR BYTES: the host counts
# the events in OUTDIR/DIR up to the workload's exit (the daemon's catching
# up after it is not the workload's); BYTES are the CTF data streams' (not
# the metadata's). lttng stop needs the daemon running.
lttng_round() {	# buffer|disk NAME
	local t n events dir=$tmp/lttng-trace
	rm -rf "$dir"
	# shellcheck disable=SC2086 # TPS split into its names, joined by commas
	events=$(echo $TPS | tr ' ' ,)
	{ lttng create kb --output="$dir" &&
	  lttng enable-channel -k --discard --subbuf-size=1M --num-subbuf=16 ch &&
	  lttng enable-event -k -c ch "$events" &&
	  lttng start; } >"$out/lttng.out" 2>&1 || fail "lttng session: $(cat "$out/lttng.out")"
	[ "$1" = disk ] || pkill -STOP -x lttng-consumerd
	t=$(run_workload)
	[ "$1" = disk ] || pkill -CONT -x lttng-consumerd
	lttng stop >>"$out/lttng.out" 2>&1 || fail "lttng stop: $(cat "$out/lttng.out")"
	n=$(lttng list kb | sed -n 's/^ *Discarded events: *//p')
	[ "$n" = 0 ] || fail "LTTng discarded ${n:-?} events (16 MiB too small?)"
	lttng destroy >>"$out/lttng.out" 2>&1 || fail "lttng destroy: $(cat "$out/lttng.out")"
	mkdir -p "$out/lttng/$2/kernel"
	cp "$dir"/kernel/ch_* "$dir"/kernel/metadata "$out/lttng/$2/kernel/" ||
		fail "cannot copy the LTTng trace"
	echo "$t @lttng/$2 $(cat "$dir"/kernel/ch_* | wc -c)"
}

# ns for writing N selftest records from this shell (no fork or exec on
# the clock: those wait on 9p, and idle time jumps under -icount).
selftest_ns() {
	local t0 t1
	ctl start
	t0=$EPOCHREALTIME
	echo "$1" >"$KTPROF_DBG/selftest"
	t1=$EPOCHREALTIME
	ctl stop
	grep -q "written=$1 " "$KTPROF_DBG/selftest" || fail "selftest: $(cat "$KTPROF_DBG/selftest")"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f\n", (b - a) * 1e9 }'
}

overhead() {
	local mode round tracer tracers line
	[ -d "$TP/events/sched" ] || fail "no tracefs at $TP"
	echo 16384 >"$TP/buffer_size_kb"
	echo boot >"$TP/trace_clock"
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us	# no RT throttling mid-run
	"$WORKLOADS/handoff" -n 10 >/dev/null || fail "handoff does not run"
	perf record -o "$tmp/perf.data" -e sched:sched_switch -- true 2>/dev/null ||
		fail "perf record does not run in the guest"
	# 16 MiB per CPU, as the others have.
	load_module events=sched samples=none n_subbufs=64
	# BENCH_TRACERS picks some (a quick A/B of one module change).
	tracers=${BENCH_TRACERS:-none ftrace perf perf_g perf_sched_g ktprof ktprof_boot ktprof_stacks record}
	if [ -n "${LTTNG_KO:-}" ] && [ -z "${BENCH_TRACERS:-}" ]; then
		lttng_start
		tracers+=" lttng lttng-disk"
	fi
	for mode in yield futex; do
		WL=("$WORKLOADS/handoff" -m "$mode" -n "$HANDOFFS")
		run_workload >/dev/null	# warm the page cache once
		# Interleaved rounds: drift in the guest hits every tracer alike.
		for round in $(seq "$ROUNDS"); do
			for tracer in $tracers; do
				case "$tracer" in
				lttng) line=$(lttng_round buffer "$mode-$round-buffer") ;;
				lttng-disk) line=$(lttng_round disk "$mode-$round-disk") ;;
				*) line=$(run_${tracer}) ;;
				esac
				[ "$(echo "$line" | wc -w)" = 3 ] ||
					fail "$mode $tracer round $round: '$line'"
				echo "$mode $tracer $line"
			done
		done
	done
	for round in $(seq "$ROUNDS"); do
		echo "selftest $SELFTEST_N $(selftest_ns "$SELFTEST_N") $(selftest_ns 0)"
		# A module before ABI 1.8 (KTPROF_CLOCK=): boot time only.
		[ -e "$CLOCK_PARAM" ] || continue
		echo boot >"$CLOCK_PARAM"
		echo "selftest_boot $SELFTEST_N $(selftest_ns "$SELFTEST_N") $(selftest_ns 0)"
		echo tsc >"$CLOCK_PARAM"
	done
	unload_module
}

# ktprof record at its defaults under P concurrent pipe floods.
flood() {
	local p i secs rss_kb records lost
	load_module
	for p in 1 2 4; do
		/usr/bin/time -f '%e %M' -o "$out/time" "$KTPROF" record -q -e sched -S none \
			-o "$tmp/flood.ktp" -- sh -c "
			for i in \$(seq $p); do
				perf bench sched pipe -l $FLOOD_LOOPS >'$out/flood.\$i.out' &
			done
			wait" 2>"$out/flood.err" || fail "flood record: $(cat "$out/flood.err")"
		read -r _ rss_kb <"$out/time"
		# The floods ran side by side: the longest one is their span.
		secs=$(cat "$out"/flood.*.out | awk '/Total time:/ && $3 > s { s = $3 } END { print s }')
		rm -f "$out"/flood.*.out
		records=$(capture_records "$tmp/flood.ktp")
		lost=$("$KTPROF" info "$tmp/flood.ktp" | sed -n 's/^lost records *\([0-9]*\).*/\1/p')
		echo "flood $p $secs $records ${lost:-0} $(stat -c %s "$tmp/flood.ktp") $rss_kb"
	done
	top_live
	unload_module
}

# ktprof top live under 2 pipe floods: "top SECONDS USER_S SYS_S RSS_KB
# EVENTS LOST", SECONDS the intervals' span (guest time), EVENTS and LOST
# what they held; USER_S and SYS_S top's own, every thread (its readers
# too: they are part of its cost).
top_live() {
	local i pids=() wall user sys rss
	for i in 1 2; do
		perf bench sched pipe -l 100000000 >/dev/null 2>&1 &
		pids+=($!)
	done
	/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$KTPROF" top --json -d 1 -n "${TOP_SECS:-10}" \
		>"$out/top.json" 2>"$out/top.err" || { kill "${pids[@]}"; fail "top: $(cat "$out/top.err")"; }
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	read -r wall user sys rss <"$out/time"
	/usr/bin/python3 -c 'import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
print("top %.3f %s %s %s %d %d" % ((d[-1]["to_ns"] - d[0]["from_ns"]) / 1e9, sys.argv[2], sys.argv[3],
      sys.argv[4], sum(x["events"] for x in d), sum(x["lost"] for x in d)))' "$out/top.json" "$user" "$sys" "$rss"
}

# One rate of the ceiling sweep: prints "ceiling RATE CPUS SECONDS WRITTEN
# DROPPED MISSED LOST RECORDS BYTES REC_S USER_S SYS_S RSS_KB"; SECONDS is
# how long the load ran (the shell's clock around it, guest time), REC_S
# how long ktprof record ran (its start and its flush at the end too).
ceiling_rate() {	# RATE
	local load st t0 t1 lost
	load=$KTPROF_DBG/load
	rm -f "$tmp/ceiling.ktp" "$out/ceiling.load"
	/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$KTPROF" record -q -o "$tmp/ceiling.ktp" -- \
		bash -c "t0=\$EPOCHREALTIME; echo $1 >$load || exit 1; sleep $CEILING_SECS
			echo 0 >$load; t1=\$EPOCHREALTIME; echo \$t0 \$t1 >'$out/ceiling.t'
			cat $load >'$out/ceiling.load'" 2>"$out/ceiling.err"
	# Its exit status is 1 when it lost records, which is what is sought.
	[ -s "$tmp/ceiling.ktp" ] && [ -s "$out/ceiling.load" ] ||
		fail "ceiling record at $1/s: $(cat "$out/ceiling.err")"
	read -r t0 t1 <"$out/ceiling.t"
	st=$out/ceiling.load
	lost=$("$KTPROF" info "$tmp/ceiling.ktp" | sed -n 's/^lost records *\([0-9]*\).*/\1/p')
	echo "ceiling $1 $(kv "$st" ^rate= cpus) $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" \
		"$(kv "$st" ^rate= written) $(kv "$st" ^rate= dropped) $(kv "$st" ^rate= missed) ${lost:-0}" \
		"$(capture_records "$tmp/ceiling.ktp") $(stat -c %s "$tmp/ceiling.ktp")" \
		"$(tail -n 1 "$out/time")"	# after time's "exited with non-zero status"
}


# The rate doubles until records are lost, then CEILING_STEPS bisections
# between the last lossless rate and the first lossy one.
ceiling() {
	local rate=$CEILING_START good=0 bad=0 steps=0
	load_module
	while :; do
		ceiling_step "$rate" || { bad=$rate; break; }
		good=$rate
		[ $((rate * 2)) -le 2000000 ] || break
		rate=$((rate * 2))
	done
	while [ "$bad" -gt 0 ] && [ "$steps" -lt "$CEILING_STEPS" ]; do
		rate=$(((good + bad) / 2))
		if ceiling_step "$rate"; then good=$rate; else bad=$rate; fi
		steps=$((steps + 1))
	done
	unload_module
}

# One rate; false when records were dropped or lost.
ceiling_step() {	# RATE
	local line
	line=$(ceiling_rate "$1")
	[ "$(echo "$line" | wc -w)" = 14 ] || fail "ceiling at $1/s: '$line'"
	echo "$line"
	echo "$line" | awk '{ exit ($6 + $8 > 0) }'
}

# sched_ext (the scx kernel, SCX_BIN its schedulers): the handoff workload
# under scx_simple, without a tracer, with ktprof's sched events, and with
# its scx group too (task state at every switch and waking, DSQ inserts
# and removals): "scx MODE TRACER NS_PER_HANDOFF SCHED_EVENTS BYTES".
run_ktprof_scx() {
	local line
	unload_module
	load_module events=sched,scx samples=none n_subbufs=64
	line=$(run_ktprof)
	unload_module
	load_module events=sched samples=none n_subbufs=64
	echo "$line"
}

scx() {
	local mode round tracer p s
	[ -x "${SCX_BIN:-}/scx_simple" ] || fail "SCX_BIN=${SCX_BIN:-} has no scx_simple"
	"$SCX_BIN/scx_simple" >"$out/scx_simple.out" 2>&1 &
	p=$!
	for round in $(seq 100); do
		read -r s </sys/kernel/sched_ext/state
		[ "$s" = enabled ] && break
		sleep 0.1
	done
	[ "$s" = enabled ] || fail "scx_simple did not enable: $(cat "$out/scx_simple.out")"
	load_module events=sched samples=none n_subbufs=64
	for mode in yield futex; do
		# SCHED_OTHER: on the ext class, which scx_simple takes whole.
		WL=("$WORKLOADS/handoff" -m "$mode" -n "$HANDOFFS" -o)
		run_workload >/dev/null
		for round in $(seq "$ROUNDS"); do
			for tracer in none ktprof ktprof_scx; do
				echo "scx $mode $tracer $(run_${tracer})"
			done
		done
	done
	unload_module
	kill -INT "$p"
	wait "$p"
}

# The event groups off by default (wakeup, power): on 1 vCPU, the futex
# handoff (a sched_wakeup each handoff) and the sleep loop (the CPU idles
# each op: cpu_idle entry and exit), without a tracer, with ktprof's sched
# events, and with each group too: "groups MODE TRACER NS_PER_OP
# GROUP_RECORDS BYTES", GROUP_RECORDS the records of the group the tracer
# adds (0 for none and sched). Affinity and cgroup records come with sched:
# a record only when a task's mask or cgroup is new, its check at every
# switch, waking and migration in the sched rows.
run_ktprof_group() {	# GROUP RECORD_TYPES...
	local group=$1 line n sched_types=$KTP_TYPES
	shift
	unload_module
	load_module events=sched,$group samples=none n_subbufs=64
	line=$(run_ktprof)
	KTP_TYPES="$*"
	n=$(ktprof_events)
	KTP_TYPES=$sched_types
	unload_module
	load_module events=sched samples=none n_subbufs=64
	echo "$line" | awk -v n="$n" '{ print $1, n, $3 }'
}

run_ktprof_sched() {
	run_ktprof | awk '{ print $1, 0, $3 }'
}

groups() {
	local mode round tracer line
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us
	load_module events=sched samples=none n_subbufs=64
	for mode in futex sleep; do
		WL=("$WORKLOADS/handoff" -m "$mode" -n "$HANDOFFS")
		run_workload >/dev/null
		for round in $(seq "$ROUNDS"); do
			for tracer in none sched wakeup power; do
				case "$tracer" in
				none) line=$(run_none) ;;
				sched) line=$(run_ktprof_sched) ;;
				wakeup) line=$(run_ktprof_group wakeup sched_wakeup) ;;
				power) line=$(run_ktprof_group power cpu_idle cpu_frequency) ;;
				esac
				echo "groups $mode $tracer $line"
			done
		done
	done
	unload_module
}

# Dynamic probes: the cost of a probe hit with one u64 argument (the
# function's first, %di on x86-64), the same function probed by each
# tracer: a kprobe on __x64_sys_getppid (probe-hits -m getppid: a getppid
# system call per op) and a uprobe on ktp_probe_hit (probe-hits -m call: a
# call per op) of tests/workloads/probe-hits, SCHED_FIFO on 1 vCPU so that
# no reader runs during the loop and every tracer buffers the whole run (as
# in the overhead rounds). Tracers: none; ftrace (a kprobe_events or
# uprobe_events event into tracefs, 16 MiB per CPU); perf (the same kind
# of event made by perf probe, perf record -a of it, 64 MiB); ktprof
# (ktprof record --probe at -e sched -S none, 16 MiB per CPU). Each
# tracer's probe exists only for its round: kprobes at one address share
# an aggregate whose handler walks them all, disabled ones too (a
# disabled kprobe_events event keeps its kprobe registered). Prints
# "probes KIND TRACER OPS NS_PER_OP HITS BYTES", HITS what the tracer
# recorded (ftrace: entries + overrun; perf: its samples; ktprof: its
# records of the probe), BYTES ftrace's buffer bytes, perf.data's size,
# ktprof's buffer bytes (before compression); and "probes-site TRACER
# LINE": where each tracer's kprobe sat, and how
# (/sys/kernel/debug/kprobes/list).
PROBE_BIN=
PROBE_OFF=	# ktp_probe_hit's file offset, for uprobe_events
probe_wl() {	# KIND
	case "$1" in
	kprobe) WL=("$PROBE_BIN" -m getppid -n "$PROBE_OPS") ;;
	uprobe) WL=("$PROBE_BIN" -m call -n "$PROBE_OPS") ;;
	esac
}

run_probe_wl() {
	"${WL[@]}" 2>/dev/null | awk '/ns\/op/ { print $1 }'
}

run_probe_none() {	# KIND
	echo "$(run_probe_wl) 0 0"
}

# The probes by kind: the function (kprobe) or FILE:OFFSET (uprobe), as
# kprobe_events, uprobe_events and perf probe take them.
ftrace_probe() {	# KIND add|del
	local f=$TP/$1_events
	if [ "$2" = del ]; then
		echo "-:ktpbench/ftrace_$1" >>"$f" || fail "$f: cannot remove ftrace_$1"
	elif [ "$1" = kprobe ]; then
		echo "p:ktpbench/ftrace_kprobe __x64_sys_getppid a=%di:u64" >>"$f" ||
			fail "kprobe_events refused the probe"
	else
		echo "p:ktpbench/ftrace_uprobe $PROBE_BIN:$PROBE_OFF a=%di:u64" >>"$f" ||
			fail "uprobe_events refused the probe"
	fi
}

perf_probe() {	# KIND add|del
	local args=(-a "ktpperf:perf_kprobe=__x64_sys_getppid a=%di:u64")
	[ "$1" = kprobe ] || args=(-x "$PROBE_BIN" -a "ktpperf:perf_uprobe=ktp_probe_hit a=%di:u64")
	[ "$2" = add ] || args=(-d "ktpperf:perf_$1")
	perf probe -q "${args[@]}" >"$out/perf-probe.out" 2>&1 ||
		fail "perf probe ${args[*]}: $(cat "$out/perf-probe.out")"
}

run_probe_ftrace() {	# KIND
	local t n ev=$TP/events/ktpbench/ftrace_$1/enable
	ftrace_probe "$1" add
	echo 0 >"$TP/tracing_on"
	: >"$TP/trace"
	echo 1 >"$ev"
	echo 1 >"$TP/tracing_on"
	t=$(run_probe_wl)
	echo 0 >"$TP/tracing_on"
	echo 0 >"$ev"
	# Before the event goes: removing it empties the buffer.
	n=$(cat "$TP"/per_cpu/cpu*/stats | awk '/^(entries|overrun):/ { n += $2 }
		/^bytes:/ { b += $2 } END { print n + 0, b + 0 }')
	ftrace_probe "$1" del
	echo "$t $n"
}

run_probe_perf() {	# KIND
	local t n
	perf_probe "$1" add
	perf record -a -m 64M -o "$tmp/perf.data" -e "ktpperf:perf_$1" -- "${WL[@]}" \
		>"$out/perf.out" 2>"$out/perf.err" || fail "perf record -e ktpperf:perf_$1: $(cat "$out/perf.err")"
	perf_probe "$1" del
	t=$(awk '/ns\/op/ { print $1 }' "$out/perf.out")
	n=$(sed -n 's/.*perf.data (\([0-9]*\) samples).*/\1/p' "$out/perf.err")
	echo "$t ${n:-0} $(stat -c %s "$tmp/perf.data")"
}

probe_spec() {	# KIND
	case "$1" in
	kprobe) echo "$1=k:__x64_sys_getppid a=arg1:u64" ;;
	uprobe) echo "$1=u:$PROBE_BIN:ktp_probe_hit a=arg1:u64" ;;
	esac
}

# The capture's probe records ("probes" of ktprof info: name, kind,
# records, hits, misses) and the module's bytes (its per-CPU table, all
# records: the command's few sched records are outside the loop).
run_probe_ktprof() {	# KIND
	local t
	"$KTPROF" record -q -e sched -S none -b 16M --no-snapshots -o "$tmp/probe.ktp" \
		--probe "$(probe_spec "$1")" -- "${WL[@]}" >"$out/rec.out" 2>"$out/rec.err" ||
		fail "ktprof record --probe: $(cat "$out/rec.err")"
	t=$(awk '/ns\/op/ { print $1 }' "$out/rec.out")
	echo "$t $("$KTPROF" info "$tmp/probe.ktp" | awk -v k="$1" '
		/^probes / { p = 1; next } /^per CPU/ { c = 1; next } /^[^ ]/ { p = c = 0 }
		p && $1 == "probe" && $2 == k { n = $4 }
		c && $1 ~ /^[0-9]+$/ { b += $3 }
		END { print n + 0, b + 0 }')"
}

# A uprobe's place for uprobe_events: SYMBOL's address made a file offset
# through the LOAD segment that holds it.
file_offset() {	# ELF SYMBOL
	local addr a off va fsz
	addr=$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }')
	[ -n "$addr" ] || return 1
	a=$((16#$addr))
	# LOAD OFFSET VIRTADDR PHYSADDR FILESIZ ...
	while read -r _ off va _ fsz _; do
		if [ "$a" -ge $((va)) ] && [ "$a" -lt $((va + fsz)) ]; then
			printf '0x%x\n' $((a - va + off))
			return 0
		fi
	done < <(readelf -lW "$1" | grep '^ *LOAD ')
	return 1
}

# The armed kprobes on getppid, as "probes-site TRACER LINE".
kprobe_sites() {	# TRACER
	grep getppid /sys/kernel/debug/kprobes/list | grep -v DISABLED | sed "s/^/probes-site $1 /"
}

probes() {
	local kind round tracer line tracers=${PROBE_TRACERS:-none ftrace perf ktprof}
	PROBE_BIN=$WORKLOADS/probe-hits
	[ -x "$PROBE_BIN" ] || fail "no $PROBE_BIN (make tests-bin)"
	if [ ! -w "$TP/kprobe_events" ] || [ ! -w "$TP/uprobe_events" ]; then
		fail "no kprobe_events or uprobe_events in $TP"
	fi
	echo 16384 >"$TP/buffer_size_kb"
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us	# no RT throttling mid-run
	PROBE_OFF=$(file_offset "$PROBE_BIN" ktp_probe_hit) || fail "no ktp_probe_hit in $PROBE_BIN"
	load_module
	# Where each tracer's kprobe sits, and how (ftrace-based or not).
	ftrace_probe kprobe add
	echo 1 >"$TP/events/ktpbench/ftrace_kprobe/enable"
	kprobe_sites ftrace
	echo 0 >"$TP/events/ktpbench/ftrace_kprobe/enable"
	ftrace_probe kprobe del
	perf_probe kprobe add
	perf record -a -o "$tmp/perf.data" -e ktpperf:perf_kprobe -- \
		bash -c "$(declare -f kprobe_sites); kprobe_sites perf" 2>/dev/null
	perf_probe kprobe del
	"$KTPROF" record -q -e sched -S none --no-snapshots -o "$tmp/probe.ktp" \
		--probe "$(probe_spec kprobe)" -- \
		bash -c "$(declare -f kprobe_sites); kprobe_sites ktprof" 2>/dev/null
	for kind in kprobe uprobe; do
		probe_wl "$kind"
		run_probe_wl >/dev/null	# warm the page cache once
		for round in $(seq "$ROUNDS"); do
			for tracer in $tracers; do
				line=$(run_probe_"$tracer" "$kind")
				[ "$(echo "$line" | wc -w)" = 3 ] ||
					fail "$kind $tracer round $round: '$line'"
				echo "probes $kind $tracer $PROBE_OPS $line"
			done
		done
	done
	unload_module
}

CEILING_START=${CEILING_START:-25000}
CEILING_SECS=${CEILING_SECS:-1}
CEILING_STEPS=${CEILING_STEPS:-2}
# Where the write path's instructions go: each copy of the module with one
# piece taken out (tests/bench/ablate.py, built in ABLATE_DIR) against the
# unchanged one, interleaved rounds in this boot: "ablation VARIANT yield
# NS EVENTS BYTES" (a switch per op) and "ablation VARIANT selftest N NS
# NS0"; VARIANT none is the workload untraced, boot-clock the unchanged
# module with clock=boot.
ablation() {
	local ko v round
	[ -d "${ABLATE_DIR:-}" ] || fail "ABLATE_DIR is not a directory: '${ABLATE_DIR:-}'"
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us
	WL=("$WORKLOADS/handoff" -m yield -n "$HANDOFFS")
	run_workload >/dev/null
	for round in $(seq "$ROUNDS"); do
		echo "ablation none yield $(run_none)"
		for ko in "$ABLATE_DIR"/*/kmod/ktprof.ko; do
			v=$(basename "$(dirname "$(dirname "$ko")")")
			KTPROF_KO=$ko load_module events=sched samples=none n_subbufs=64
			echo "ablation $v yield $(run_ktprof)"
			echo "ablation $v selftest $SELFTEST_N $(selftest_ns "$SELFTEST_N") $(selftest_ns 0)"
			if [ "$v" = unchanged ]; then
				echo boot >"$CLOCK_PARAM"
				echo "ablation boot-clock yield $(run_ktprof)"
				echo "ablation boot-clock selftest $SELFTEST_N $(selftest_ns "$SELFTEST_N") $(selftest_ns 0)"
			fi
			unload_module
		done
	done
}

case "$mode" in
overhead|flood|ceiling|scx|groups|probes|ablation) "$mode" ;;
*) fail "usage: guest.sh overhead|flood|ceiling|scx|groups|probes|ablation OUTDIR" ;;
esac
echo "done"
