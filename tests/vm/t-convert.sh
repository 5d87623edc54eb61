#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof convert on a real capture: every switch, waking and sample of the
# standard workload reaches the Perfetto trace on its CPU; the workload's
# threads sit under their process with their names; the profiled program's
# hot functions are in the callstacks, hot_a more than hot_b; the upstream
# checker finds nothing trace_processor would drop.
# What this tests is user space on a real capture; the recording itself
# is tested on every kernel, the debug kernel included, by vm/record,
# vm/capture and vm/sampling.
# kernels: 6.12 6.1
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
FACTS="/usr/bin/python3 $KTPROF_TOP/tests/lib/trace_facts.py"

guest() {
	"$KTPROF" record -q $(debug_buffer) --load "$KTPROF_KO" -o "$out/rec.ktp" -- sh -c "
		'$WORKLOADS/sched-mix' -r 2000 -t 300 >'$out/mix.pids' &&
		'$WORKLOADS/hotfuncs' -t 1500 >'$out/hot.pid'" 2>"$out/rec.err" ||
		fail "record failed: $(cat "$out/rec.err")"
}

host() {
	"$KTPROF" convert -o "$out/rec.pftrace" "$out/rec.ktp" 2>"$out/convert.err" ||
		fail "convert failed: $(cat "$out/convert.err")"
	cat "$out/convert.err"
	"$KTPROF_TOP/tests/lib/validate-trace.sh" "$out/rec.pftrace" || fail "the trace is not valid"
	"$KTPROF" dump --json "$out/rec.ktp" >"$out/rec.json" || fail "dump failed"
	$FACTS dump "$out/rec.json" >"$out/want"
	$FACTS trace "$out/rec.pftrace" >"$out/facts"
	grep -E '^(switches|wakings|wakeup_new|samples) ' "$out/facts" >"$out/got"
	[ "$(grep -c '^switches' "$out/want")" = "$(guest_cpus)" ] || fail "no switches on some CPU"
	diff -u "$out/want" "$out/got" || fail "the trace's events differ from the records"
	echo "$(awk '/^switches/ { n += $3 } END { print n }' "$out/got") switches," \
		"$(awk '/^samples/ { n += $3 } END { print n }' "$out/got") samples in both"

	# The workload's identities.
	main=$(sed -n 's/^main=//p' "$out/mix.pids")
	for h in $(sed -n 's/^hog=//p' "$out/mix.pids"); do
		grep -q "^thread tid=$h pid=$main ktp-hog$" "$out/facts" ||
			fail "hog $h is not thread 'ktp-hog' of process $main"
		grep -q "^slices tid=$h [1-9]" "$out/facts" || fail "hog $h has no slices on its track"
	done
	pong=$(sed -n 's/^pong=//p' "$out/mix.pids")
	grep -q "^thread tid=$pong pid=$pong ktp-pong$" "$out/facts" || fail "pong $pong unnamed"
	child=$(sed -n 's/^child=//p' "$out/mix.pids")
	grep -q "^thread tid=$child pid=$child ktp-child$" "$out/facts" ||
		fail "the exec'ed child $child lacks its new name: $(grep "tid=$child " "$out/facts")"

	# The profile.
	hot=$(sed -n 's/^pid=//p' "$out/hot.pid")
	grep -q "^samples pid=$hot [1-9]" "$out/facts" || fail "no samples of hotfuncs ($hot)"
	a=$(sed -n 's/^frames_with hot_a //p' "$out/facts")
	b=$(sed -n 's/^frames_with hot_b //p' "$out/facts")
	echo "callstacks with hot_a: ${a:-0}, with hot_b: ${b:-0}"
	[ "${a:-0}" -gt "${b:-0}" ] && [ "${b:-0}" -gt 0 ] || fail "hot_a/hot_b not in the callstacks as run"
	grep -q '^frames_with main [1-9]' "$out/facts" || fail "main is not under the hot functions"
	echo ok
}

run_phases
