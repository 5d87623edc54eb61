#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The generic netlink family: start with a configuration, meta, stats,
# flush, stop; bad configurations fail with a message and change nothing.
#
# A request that waits does not wait in its handler, under genetlink's
# lock: a stop waits behind a selftest that holds the session lock, a
# module whose load registers a generic netlink family (nbd) loads (that
# takes genetlink's lock for writing), and a CTRL_CMD_GETFAMILY round trip
# of another program must complete while the stop still waits. A stop
# that waited under the lock would hold up the load, and the load every
# genetlink request of the system, until the selftest ended.
. "$(dirname "$0")/lib.sh"
call() { "$TOOLS/genl-call" "$@"; }
# A deadline for what must not hang; not a time assertion: far beyond what
# the step takes on a busy host under TCG.
limit=120
holder='' stopper='' loader='' resolver='' prober=''

# nbd as a module, if this kernel has it: its init registers a generic
# netlink family (Debian's kernels; the debug kernel builds no modules).
nbd_ko() {
	local kdir
	modprobe -n nbd 2>/dev/null && { echo modprobe; return 0; }
	kdir=$("$KTPROF_TOP/scripts/kernels.sh" --no-build "$KTPROF_VM_KERNEL" 2>/dev/null | cut -d' ' -f3)
	[ -n "$kdir" ] && [ -f "$kdir/drivers/block/nbd.ko" ] && { echo "$kdir/drivers/block/nbd.ko"; return 0; }
	return 1
}

# Load nbd, whose init registers a generic netlink family.
load_genl_module() {
	local ko
	# Already there, its load would register nothing: the test would pass
	# without the fix.
	grep -q '^nbd ' /proc/modules && fail "nbd is loaded already: its load cannot be the writer"
	ko=$(nbd_ko) || fail "no nbd module"
	if [ "$ko" = modprobe ]; then
		modprobe nbd nbds_max=0
	else
		insmod "$ko" nbds_max=0
	fi
}

# Tasks sleeping in FUNCTION, by their kernel stacks.
sleeping_in() { grep -l "^\[<.*>\] $1+" /proc/[0-9]*/stack 2>/dev/null; }

# Wait until the selftest holds the session lock: a reader of the stats,
# which take that lock, sleeps in them (it reads once the lock is let go).
selftest_holds_lock() {
	local end=$((SECONDS + limit))
	cat "$KTPROF_DBG/stats" >/dev/null &
	prober=$!
	until sleeping_in ktp_stats_show | grep -q "^/proc/$prober/"; do
		if ! kill -0 "$holder" 2>/dev/null || [ "$SECONDS" -ge "$end" ]; then
			return 1
		fi
		# Read already: the lock was free; try again.
		if ! kill -0 "$prober" 2>/dev/null; then
			cat "$KTPROF_DBG/stats" >/dev/null &
			prober=$!
		fi
		nap 0.1
	done
}

# Let the held-up steps go: kill the selftest that holds the session lock.
release() {
	[ -n "$holder" ] && kill -9 "$holder" 2>/dev/null
	for p in $stopper $loader $resolver $prober; do wait "$p" 2>/dev/null; done
	grep -q '^nbd ' /proc/modules && rmmod nbd
	holder='' stopper='' loader='' resolver='' prober=''
}

cb_lock_free() {
	local try end
	for try in 1 2 3 4 5; do
		call start events=1 subbuf=4096 n=2 cpus=1 samples=none >/dev/null || fail "start failed"
		# As many records as it takes: it holds the session lock until killed.
		taskset -c 1 sh -c "echo 1000000000000 >$KTPROF_DBG/selftest" 2>/dev/null &
		holder=$!
		selftest_holds_lock || fail "the selftest did not take the session lock"
		call stop >"$KTPROF_TEST_OUT/stop.out" &
		stopper=$!
		# Waiting for the session lock, which the selftest holds.
		end=$((SECONDS + limit))
		until sleeping_in ktp_session_stop_id >/dev/null; do
			kill -0 "$stopper" 2>/dev/null || break
			[ "$SECONDS" -lt "$end" ] || fail "the stop neither waits nor ends"
			nap 0.1
		done
		kill -0 "$stopper" 2>/dev/null && break
		say "the stop came before the selftest held the lock (try $try)"
		release
	done
	[ -n "$stopper" ] || fail "no stop waited behind the selftest in 5 tries"
	load_genl_module &
	loader=$!
	# Loaded, or waiting in its family's registration.
	until ! kill -0 "$loader" 2>/dev/null || sleeping_in genl_register_family >/dev/null; do
		nap 0.1
	done
	call resolve nlctrl >"$KTPROF_TEST_OUT/resolve.out" &
	resolver=$!
	end=$((SECONDS + limit))
	while kill -0 "$resolver" 2>/dev/null; do
		if [ "$SECONDS" -ge "$end" ]; then
			for p in $(sleeping_in genl_rcv); do sed "s|^|$p: |" "$p"; done
			fail "CTRL_CMD_GETFAMILY held up while a stop waits (for $limit s)"
		fi
		nap 0.1
	done
	wait "$resolver" || fail "CTRL_CMD_GETFAMILY failed: $(cat "$KTPROF_TEST_OUT/resolve.out")"
	resolver=''
	# Answered while the stop still waits, the selftest still runs.
	kill -0 "$stopper" 2>/dev/null || fail "the stop ended before the selftest: nothing waited"
	kill -0 "$holder" 2>/dev/null || fail "the selftest ended early"
	say "CTRL_CMD_GETFAMILY answered while a stop waited: $(cat "$KTPROF_TEST_OUT/resolve.out")"
	kill -9 "$holder"
	wait "$stopper" || fail "the stop failed: $(cat "$KTPROF_TEST_OUT/stop.out")"
	wait "$loader" || fail "loading nbd failed"
	stopper='' loader=''
	[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "not stopped after the stop"
	release
}

guest() {
	out=$(call meta) && fail "netlink works without the module: $out"
	load_module
	call meta | grep -q 'state=idle' || fail "meta: $(call meta)"
	out=$(call start events=1 subbuf=100) && fail "start with a 100-byte sub-buffer succeeded"
	echo "$out" | grep -q 'error 22.*geometry' || fail "bad geometry: $out"
	out=$(call start cpus=abc) && fail "start with cpus=abc succeeded"
	echo "$out" | grep -q 'error 22.*CPU list' || fail "bad cpus: $out"
	# A period perf_event_open() refuses (bit 63 set).
	out=$(call start samples=cpu-clock@period=9223372036854775808) &&
		fail "start with a period of 2^63 succeeded"
	echo "$out" | grep -q 'error 22.*bad spec' || fail "period 2^63: $out"
	[ "$(cat "$KTPROF_DBG/control")" = idle ] || fail "a failed start changed the state"

	# 2 MiB: no reader runs, and the debug kernel is slow (at 256 KiB it lost).
	call start events=1 subbuf=65536 n=32 cpus=0 samples=none || fail "start failed"
	grep -q '^events=sched$' "$KTPROF_DBG/meta" || fail "events not applied: $(cat "$KTPROF_DBG/meta")"
	grep -q '^subbuf_size=65536$' "$KTPROF_DBG/meta" || fail "subbuf_size not applied"
	grep -q '^n_subbufs=32$' "$KTPROF_DBG/meta" || fail "n_subbufs not applied"
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
	# However slow the machine: the wait ends as soon as it has stopped.
	until_true 60 eval '! ctl_is running'
	ctl_is stopped ||
		fail "owned session still $(cat "$KTPROF_DBG/control") after its socket closed"

	trap release EXIT
	if nbd_ko >/dev/null; then
		cb_lock_free
	else
		say "no module with a generic netlink family to load here: genetlink's lock part left out"
	fi
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
