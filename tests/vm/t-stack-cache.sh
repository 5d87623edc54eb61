#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Kept stack walks (kmod/chain.c): a kernel stack that holds the words an
# earlier walk read is taken from that walk, not unwound. With the module's
# stack_check knob every stack so taken is unwound too and a difference
# counted (stack_mismatch): over workloads that block and wake in many
# places (tests/workloads/blockers: a pipe, nanosleep, a futex, a mutex,
# fsync over 9p in D; sched-mix; handoff), with kernel, waker and user
# stacks, none may differ, and most stacks of the steady futex handoff
# (two per handoff: the sleeper's and the waker's) must be taken so. This
# kernel's unwinder (ORC on Debian's kernels, whose syscalls move the stack
# by a random offset; frame pointers on the debug kernel) is the one
# checked. Under ftrace's graph tracer (on schedule(), which every sleep
# passes through: its return address becomes the tracer's trampoline) no
# stack may differ either. The counters reach a capture: `ktprof info`
# says them.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
handoffs=$(scaled 3000 1000)

# Counter KEY summed over the CPUs of a stats file.
stat_sum() { grep -o "$1=[0-9]*" "$2" | awk -F= '{ n += $2 } END { print n + 0 }'; }

# One workload under the check knob: "NAME CACHED MISMATCH" noted.
checked() {	# NAME WORKLOAD...
	local name=$1
	shift
	load_module stacks=offcpu,waker,user samples=none stack_check=1
	ctl start
	"$@" >/dev/null 2>"$out/$name.err" || fail "$name: $(cat "$out/$name.err")"
	ctl stop
	copy_text "$KTPROF_DBG/stats" "$out/$name.stats" || fail "cannot read the stats"
	unload_module
	say "$name: $(stat_sum stack_cached "$out/$name.stats") kept, $(stat_sum stack_mismatch "$out/$name.stats") differed"
	note "$name" "$(stat_sum stack_cached "$out/$name.stats") $(stat_sum stack_mismatch "$out/$name.stats")"
}

# The futex handoff again with function_graph tracing schedule() alone
# (set_ftrace_filter: its return address becomes the tracer's trampoline;
# graph-tracing all that schedule() calls, on the debug kernel under TCG,
# cost 40 s and traced the tick's interrupt path too).
graph_traced() {
	local t=/sys/kernel/tracing
	grep -qw function_graph "$t/available_tracers" || fail "no function_graph tracer"
	echo schedule >"$t/set_ftrace_filter" || fail "cannot trace schedule alone"
	echo function_graph >"$t/current_tracer" || fail "cannot start function_graph"
	checked graph "$WORKLOADS/handoff" -m futex -n "$(scaled 300 100)"
	# Read before the tracer changes: that empties the buffer.
	grep -c 'schedule()' "$t/trace" >"$out/graph.lines"
	echo nop >"$t/current_tracer"
	echo >"$t/set_ftrace_filter"
	say "graph tracer: $(cat "$out/graph.lines") calls of schedule() traced"
}

guest() {
	checked blockers "$WORKLOADS/blockers" -n "$(scaled 40 15)" -s 1000 -f "$out/fsync.dat"
	checked sched-mix "$WORKLOADS/sched-mix" -r "$(scaled 1000 300)" -t 200
	checked handoff "$WORKLOADS/handoff" -m futex -n "$handoffs"
	graph_traced
	# A capture: its counters as the recorder keeps them.
	"$KTPROF" record -q -S offcpu,waker --load "$KTPROF_KO" -o "$out/cap.ktp" -- \
		"$WORKLOADS/handoff" -m futex -n 200 >/dev/null 2>"$out/record.err" ||
		fail "record failed: $(cat "$out/record.err")"
}

host() {
	local name cached mismatch
	for name in blockers sched-mix handoff graph; do
		read -r cached mismatch <<<"$(noted "$name")"
		[ "$mismatch" = 0 ] || fail "$name: $mismatch stacks taken from a kept walk differed from the unwinder's"
		[ "$name" = graph ] || [ "$cached" -gt 0 ] || fail "$name: no stack was taken from a kept walk"
	done
	# A graph-traced task's return addresses change under it: none kept.
	read -r cached _ <<<"$(noted graph)"
	[ "$cached" = 0 ] || fail "graph: $cached stacks of graph-traced tasks taken from kept walks"
	[ "$(cat "$out/graph.lines")" -gt 100 ] || fail "the graph tracer traced $(cat "$out/graph.lines") calls of schedule()"
	# Two stacks a handoff and thread (two threads): the first few walked.
	read -r cached _ <<<"$(noted handoff)"
	[ "$cached" -ge $((handoffs * 4 * 9 / 10)) ] ||
		fail "handoff: $cached of $((handoffs * 4)) stacks taken from kept walks, not 90%"
	"$KTPROF" info "$out/cap.ktp" >"$out/info.txt" || fail "info failed"
	grep -Eq '^kept stack walks  [1-9][0-9]* kernel stacks taken from one, not unwound$' "$out/info.txt" ||
		fail "info does not say the kept walks: $(cat "$out/info.txt")"
	echo ok
}

run_phases
