#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sched_ext seen from outside BPF (-e scx). On the sched_ext kernel: the
# same workload (tests/workloads/sched-mix) under EEVDF, under scx_simple
# and under scx_central (the kernel's examples), and under scx_ktp_fail
# (tests/scx), which fails on purpose mid-capture. Each capture names its
# scheduler and the hooks attached; scx_simple's own DSQ (id 0) is there;
# every switch-in of an ext task follows its removal from a DSQ; each
# DSQ's count goes up and down by one from record to record and never
# below zero; a task's time in a DSQ is within its wakeup latency of the
# same interval; report --scx counts the records it read; the failing
# scheduler's exit (ERROR_BPF), its debug dump and the phases split at it
# are in the report of a capture that survived it; diff ranks EEVDF
# against scx_simple. ktprof top live under scx_simple names it and its
# DSQs' traffic each interval, and its intervals equal report's over the
# capture it wrote. On the other kernels: -e scx fails with a clear
# error, and the default record says the group is not on this kernel.
# kernels: scx 6.12 6.1 7.3
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
rounds=40

prepare() {
	[ "$KTPROF_VM_KERNEL" != scx ] || scx_note_bin
}

# The workload under what schedules it now, into NAME.ktp (and its dump).
capture() {
	local name=$1
	shift
	"$KTPROF" record -q -e sched,scx -S none --load "$KTPROF_KO" -o "$out/$name.ktp" -- \
		"$@" >"$out/$name.threads" 2>"$out/$name.err" ||
		fail "record ($name) failed: $(cat "$out/$name.err")"
}

guest_scx() {
	say "EEVDF"
	capture eevdf "$WORKLOADS/sched-mix" -r "$rounds"
	say "scx_simple"
	scx_start scx_simple
	capture simple "$WORKLOADS/sched-mix" -r "$rounds"
	say "ktprof top under scx_simple"
	"$WORKLOADS/sched-mix" -r "$rounds" >/dev/null 2>&1 &
	local wl=$!
	"$KTPROF" top --json -n 3 -d 1 -o "$out/top-simple.ktp" --load "$KTPROF_KO" \
		>"$out/top-simple.json" 2>"$out/top-simple.err" || fail "top failed: $(cat "$out/top-simple.err")"
	kill "$wl" 2>/dev/null
	wait "$wl" 2>/dev/null
	scx_stop
	say "scx_central"
	scx_start scx_central
	capture central "$WORKLOADS/sched-mix" -r "$rounds"
	scx_stop
	say "scx_ktp_fail, ejected mid-capture"
	# The scheduler starts inside the capture and fails after 300 runs
	# of its tasks, well inside the workload's.
	export SCX_BIN=$(scx_bin) WORKLOADS rounds out
	capture fail sh -c '
		"$SCX_BIN/scx_ktp_fail" -n 300 >"$out/fail.out" 2>&1 & p=$!
		for i in $(seq 100); do read -r s </sys/kernel/sched_ext/state; [ "$s" = enabled ] && break; sleep 0.1; done
		"$WORKLOADS/sched-mix" -r "$rounds"; kill -INT $p 2>/dev/null; wait $p'
	scx_wait disabled || fail "scx_ktp_fail left sched_ext enabled"
	grep -q "failing on purpose" "$out/fail.out" || fail "scx_ktp_fail did not fail: $(cat "$out/fail.out")"
}

guest_other() {
	say "no sched_ext: -e scx refused"
	! "$KTPROF" record -q -e sched,scx --load "$KTPROF_KO" -o "$out/none.ktp" -- true \
		2>"$out/none.err" || fail "record -e scx succeeded on a kernel without sched_ext"
	module_loaded && fail "--load left the module loaded"
	"$KTPROF" record -q --load "$KTPROF_KO" -o "$out/default.ktp" -- true ||
		fail "record with the default events failed"
}

guest() {
	if [ -d /sys/kernel/sched_ext ]; then guest_scx; else guest_other; fi
}

host_other() {
	grep -q "this kernel has no sched_ext" "$out/none.err" ||
		fail "-e scx's error does not say why: $(cat "$out/none.err")"
	grep -q "not on this kernel: .*scx" <("$KTPROF" info "$out/default.ktp") ||
		fail "info does not say scx is not on this kernel"
	grep -q "this kernel has no sched_ext" <("$KTPROF" report --scx "$out/default.ktp") ||
		fail "report --scx does not say this kernel has no sched_ext"
}

host_scx() {
	local c
	for c in eevdf simple central fail; do
		"$KTPROF" info "$out/$c.ktp" >"$out/$c.info" || fail "info $c failed"
		grep -q '^lost records      0$' "$out/$c.info" || fail "$c: records lost"
		grep -q '^  scx hooks       dsq_inc_nr,scx_task_unlink_from_dsq' "$out/$c.info" ||
			fail "$c: info does not name the DSQ hooks: $(grep hooks "$out/$c.info")"
		"$KTPROF" report --json --scx "$out/$c.ktp" >"$out/$c.json" || fail "report --json --scx $c failed"
		"$KTPROF" report --scx "$out/$c.ktp" >"$out/$c.txt" || fail "report --scx $c failed"
		"$KTPROF" dump --json "$out/$c.ktp" >"$out/$c.dump" || fail "dump --json $c failed"
	done
	/usr/bin/python3 "$(dirname "$0")/check_scx.py" "$out" || fail "sched_ext check failed"
	"$KTPROF" report --scx --html "$out/simple.html" "$out/simple.ktp" ||
		fail "report --scx --html failed"
	grep -q "<h2 id=scx>" "$out/simple.html" || fail "the HTML report has no sched_ext section"
	# convert: a counter track per DSQ, a value per change; the DSQ and
	# the slice on the ext tasks' ONCPU slices.
	"$KTPROF" convert --view threads -o "$out/simple.pftrace" "$out/simple.ktp" 2>/dev/null ||
		fail "convert failed"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/trace_facts.py" trace "$out/simple.pftrace" |
		grep '^counters track=DSQ ' | sort >"$out/trace.counters" || fail "trace_facts failed"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/trace_facts.py" dump "$out/simple.dump" |
		grep '^counters track=DSQ ' | sort >"$out/dump.counters"
	[ -s "$out/dump.counters" ] && cmp -s "$out/trace.counters" "$out/dump.counters" ||
		fail "DSQ counter tracks differ from the records: $(diff "$out/dump.counters" "$out/trace.counters" | head)"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/trace_facts.py" trace "$out/simple.pftrace" |
		grep -q '^slice_args_with scx_dsq [1-9]' || fail "no ONCPU slice has its DSQ"
	"$KTPROF" diff "$out/eevdf.ktp" "$out/simple.ktp" >"$out/diff.txt" || fail "diff failed"
	grep -q "time in DSQ" "$out/diff.txt" || fail "diff does not compare the time in DSQ"
	grep -q "^  1\. " "$out/diff.txt" || fail "diff ranks nothing: $(head -20 "$out/diff.txt")"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/top_check.py" "$KTPROF" "$out/top-simple.ktp" \
		"$out/top-simple.json" || fail "top's intervals under scx_simple differ from report's"
	/usr/bin/python3 -c 'import json, sys
d = [json.loads(l)["sched_ext"] for l in open(sys.argv[1])]
names = {x["scheduler"] for x in d}
ins = sum(q["inserts"] for x in d for q in x["dsqs"])
print("top: schedulers", names, "DSQ inserts", ins)
sys.exit(0 if names == {"simple"} and all(x["state"] == "enabled" for x in d) and ins > 0 else 1)' \
		"$out/top-simple.json" || fail "top does not show scx_simple and its DSQs"
}

host() {
	if [ -f "$out/none.err" ]; then host_other; else host_scx; fi
	echo ok
}

run_phases
