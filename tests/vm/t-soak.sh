#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A soak on the debug kernel: many cycles of load, start under load, CPU
# hotplug, readers attaching and going away at random, stop and unload.
# Pass: no kernel report (the console check), every cycle ends stopped and
# unloaded. KTPROF_SOAK_CYCLES sets the count (default 24, about 11 s a
# cycle on the debug kernel under TCG). A busy host stretches a cycle
# past 60 s, so after KTPROF_SOAK_SECONDS (150: the suite's share) no new
# cycle starts once 4 have run: the cycles run are the same ones (fixed
# seed), fewer of them. A longer soak by hand:
#   scripts/vm-run --kernel 7.3 --cpus 3 -- env KTPROF_SOAK_CYCLES=200 \
#       KTPROF_SOAK_SECONDS=100000 bash tests/vm/t-soak.sh
# kernels: 7.3 debug-6.12
# vm-args: --cpus 3
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cycles=${KTPROF_SOAK_CYCLES:-24}
sources=("cpu-clock@999hz" "page-faults@period=50" "context-switches@period=5" none)

"$WORKLOADS/sched-mix" -r 100000 -t 100000 >/dev/null 2>&1 &
load=$!
trap 'kill $load 2>/dev/null' EXIT
RANDOM=42	# the same cycles every run
deadline=$((SECONDS + ${KTPROF_SOAK_SECONDS:-150}))
done_cycles=0
for i in $(seq "$cycles"); do
	[ "$i" -le 4 ] || [ "$SECONDS" -lt "$deadline" ] || break
	src=${sources[$((RANDOM % ${#sources[@]}))]}
	cpu=$((1 + RANDOM % 2))
	load_module samples="$src" subbuf_size=16384 n_subbufs=8
	ctl start
	readers=()
	if [ $((RANDOM % 2)) = 0 ]; then
		for f in "$KTPROF_DBG"/cpu*; do
			timeout 2 cat "$f" >/dev/null 2>&1 &
			readers+=($!)
		done
	fi
	echo 0 >/sys/devices/system/cpu/cpu$cpu/online || fail "cycle $i: offline failed"
	[ $((RANDOM % 2)) = 0 ] && ctl flush
	echo 1 >/sys/devices/system/cpu/cpu$cpu/online || fail "cycle $i: online failed"
	ctl stop
	[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "cycle $i: not stopped"
	for r in "${readers[@]}"; do kill "$r" 2>/dev/null; wait "$r" 2>/dev/null; done
	unload_module
	module_loaded && fail "cycle $i: still loaded"
	done_cycles=$i
done
kill $load
echo "$done_cycles of $cycles cycles in $SECONDS s"
