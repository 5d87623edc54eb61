#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The generic netlink family: start with a configuration, meta, stats,
# flush, stop; bad configurations fail with a message and change nothing.
. "$(dirname "$0")/lib.sh"
call() { "$TOOLS/genl-call" "$@"; }

guest() {
	out=$(call meta) && fail "netlink works without the module: $out"
	load_module
	call meta | grep -q 'state=idle' || fail "meta: $(call meta)"
	out=$(call start events=1 subbuf=100) && fail "start with a 100-byte sub-buffer succeeded"
	echo "$out" | grep -q 'error 22.*geometry' || fail "bad geometry: $out"
	out=$(call start cpus=abc) && fail "start with cpus=abc succeeded"
	echo "$out" | grep -q 'error 22.*CPU list' || fail "bad cpus: $out"
	[ "$(cat "$KTPROF_DBG/control")" = idle ] || fail "a failed start changed the state"

	call start events=1 subbuf=65536 n=4 cpus=0 samples=none || fail "start failed"
	grep -q '^events=sched$' "$KTPROF_DBG/meta" || fail "events not applied: $(cat "$KTPROF_DBG/meta")"
	grep -q '^subbuf_size=65536$' "$KTPROF_DBG/meta" || fail "subbuf_size not applied"
	grep -q '^n_subbufs=4$' "$KTPROF_DBG/meta" || fail "n_subbufs not applied"
	grep -q '^cpus=0$' "$KTPROF_DBG/meta" || fail "cpus not applied"
	out=$(call start) && fail "second start succeeded"
	echo "$out" | grep -q 'error 16' || fail "second start: $out"
	call meta | grep -q 'state=running' || fail "meta while running: $(call meta)"
	"$WORKLOADS/sched-mix" -r 500 -t 50 >/dev/null
	call flush || fail "flush failed"
	call stats | tee "$KTPROF_TEST_OUT/stats" | grep -q '^cpu=0 records=[1-9]' || fail "no records on cpu0"
	grep -q '^cpu=1 records=0 ' "$KTPROF_TEST_OUT/stats" ||
		fail "cpu1 recorded though cpus=0: $(cat "$KTPROF_TEST_OUT/stats")"
	call stop || fail "stop failed"
	out=$(call stop) && fail "stop when stopped succeeded"
	dump_session "$KTPROF_TEST_OUT/raw"

	# A session whose starter asked for it stops when that socket closes; the
	# others (above) outlive their one-shot starter.
	call start events=1 owned=1 || fail "owned start failed"
	# However slow the machine: the loop ends as soon as it has stopped.
	for i in $(seq 600); do
		[ "$(cat "$KTPROF_DBG/control")" = running ] || break
		sleep 0.1
	done
	[ "$(cat "$KTPROF_DBG/control")" = stopped ] ||
		fail "owned session still $(cat "$KTPROF_DBG/control") after its socket closed"
	unload_module
}

# The session started with events=sched and cpus=0 holds just that.
host() {
	"$KTPROF" dump --json "$KTPROF_TEST_OUT/raw" >"$KTPROF_TEST_OUT/dump.json" || fail "dump failed"
	grep -q '"type":"irq_entry"' "$KTPROF_TEST_OUT/dump.json" && fail "irq events recorded with events=sched"
	grep -q '"cpu":1,' "$KTPROF_TEST_OUT/dump.json" &&
		grep '"cpu":1,' "$KTPROF_TEST_OUT/dump.json" | grep -vq '"type":"subbuf"' &&
		fail "records on cpu1 with cpus=0"
	/usr/bin/python3 "$(dirname "$0")/check_stream.py" "$KTPROF_TEST_OUT/dump.json" ||
		fail "stream check failed"
	echo ok
}

run_phases
