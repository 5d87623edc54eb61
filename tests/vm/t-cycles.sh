#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# 8 cycles of load, start, stop and unload while the machine is busy
# (every fourth unloads without stopping first; 4 cycles on a debug
# kernel, one of them so); the console check proves no WARN/BUG/lockdep
# report came from it.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cycles=${1:-$(scaled 8 4)}

( while [ ! -e "$out/.stop" ]; do "$WORKLOADS/sched-mix" -r 300 -t 20 >/dev/null; done ) &
load=$!
for i in $(seq "$cycles"); do
	load_module
	ctl start
	nap 0.1
	if [ $((i % 4)) -ne 0 ]; then
		ctl stop
		cat "$KTPROF_DBG"/cpu* >/dev/null || fail "cycle $i: read failed"
	fi
	rmmod ktprof || fail "cycle $i: rmmod failed"
done
touch "$out/.stop"
wait $load
echo "$cycles cycles ok"
