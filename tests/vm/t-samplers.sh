#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Two samplers on one CPU: page faults (task context) and cpu-clock
# (hardirq), which can interrupt the first on the same CPU when perf calls
# its handler with IRQs on, as kernels without c9bc1753b3cc do. Ours all
# have it, so sample_irqs_on=1 enters the handler that way: the handler
# must keep the two apart itself. Meanwhile programs start and exit (maps,
# files, FILE records). No kernel report; kmemleak (debug kernel) finds no
# leaked object; every record written is decoded; no sample has frames of
# another (check_stacks.py). With the handler's IRQs left on it fails: 30
# of some 1,500 page-fault samples mixed, and a broken stream.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
# A count, not a duration: the same work however fast the host is. On a
# debug kernel a third of it (page-fault samples unwind at every third
# fault: 20 s a round there): some 500 samples, of which about 10 mix
# with the handler's IRQs left on.
rounds=${KTPROF_SAMPLERS_ROUNDS:-$(scaled 12 4)}

guest() {
	kmemleak_clear
	load_module events=sched samples=page-faults@period=3,cpu-clock@4000hz sample_irqs_on=1
	ctl start
	for _ in $(seq "$rounds"); do
		taskset -c 1 sh -c 'for i in 1 2 3 4 5 6 7 8; do /bin/true; done'
	done
	echo "$((rounds * 8)) programs run"
	ctl stop
	dump_session "$out/raw" symbols
	unload_module
	kmemleak_check
}

host() {
	"$KTPROF" dump --json --symbolize "$out/raw" >"$out/dump.json" 2>"$out/dump.err" ||
		fail "dump failed: $(cat "$out/dump.err")"
	# Both, so that the log shows each: a sample interrupted by another
	# on its CPU can break the stream as well as mix the stacks.
	bad=
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw/stats" "$out/dump.json" ||
		bad+="accounting differs, "
	/usr/bin/python3 "$(dirname "$0")/check_stacks.py" "$out/raw/meta" "$out/dump.json" ||
		bad+="samples with frames of another, "
	[ -z "$bad" ] || fail "${bad%, }"
	grep -q '"type":"file"' "$out/dump.json" || fail "no FILE records"
	echo ok
}

run_phases
