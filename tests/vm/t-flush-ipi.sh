#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Flushes, stops and a CPU going offline, with IPI events on and readers
# polling (so each sub-buffer switch wakes them through an irq_work, whose
# ipi_send_cpu tracepoint fires inside the module's own write path): for
# many sessions in a row, every record counted as written is read back and
# no byte of the stream is invalid.
# vm-args: --cpus 3
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu2=/sys/devices/system/cpu/cpu2/online

# Two on a debug kernel: one with the hotplug, one without.
sessions=$(scaled 4 2)

guest() {
	local i j reader wl
	for i in $(seq $sessions); do
		# Small sub-buffers: many switches, and flushes land near their ends.
		load_module events=all samples=none subbuf_size=8192 n_subbufs=64
		ctl start
		/usr/bin/python3 "$(dirname "$0")/poll_reader.py" "$KTPROF_DBG" "$out/$i" &
		reader=$!
		"$WORKLOADS/sched-mix" -r 300 -t 80 >/dev/null &
		wl=$!
		for j in 1 2 3 4 5; do
			ctl flush
			nap 0.05
		done
		if [ $((i % 2)) = 0 ]; then
			echo 0 >"$cpu2" || fail "cpu2 offline failed"
			nap 0.1
			echo 1 >"$cpu2" || fail "cpu2 online failed"
		fi
		wait $wl || fail "workload failed"
		ctl stop
		timeout 60 tail --pid=$reader -f /dev/null || fail "reader did not finish after stop"
		wait $reader || fail "reader failed"
		cat "$KTPROF_DBG/meta" >"$out/$i/meta"
		cat "$KTPROF_DBG/stats" >"$out/$i/stats"
		unload_module
	done
}

host() {
	local i
	for i in $(seq $sessions); do
		"$KTPROF" dump --json "$out/$i" >"$out/$i.json" 2>"$out/$i.err" ||
			fail "session $i: dump failed: $(cat "$out/$i.err")"
		/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/$i/stats" "$out/$i.json" ||
			fail "session $i: written and decoded differ"
		# The IPI tracepoints came in 6.3 (t-ipi checks the older kernels).
		if [ "$(kernel_version)" -ge 603 ]; then
			grep -q '"type":"ipi_send"' "$out/$i.json" || fail "session $i: no IPI records"
		fi
	done
	echo ok
}

run_phases
