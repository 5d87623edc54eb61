#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Hotplug storms while sampling, with every software sample source and a
# per-switch counter, on all CPUs and on the CPU that goes away only
# (cpus=1: its software event is the only one, so making and freeing it
# moves the event's static key between 0 and 1, which takes the hotplug
# lock). No hang, no lockdep report (the console check), and afterwards
# exact accounting: every record written is decoded, every loss reported.
# vm-args: --cpus 3
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu1=/sys/devices/system/cpu/cpu1/online

# cpu1 offline and online twice a run (once on a debug kernel, where a
# round takes some 20 s).
flips=$(scaled 2 1)

storm() {
	local i
	for i in $(seq "$flips"); do
		timeout 60 sh -c "echo 0 > $cpu1" || fail "cpu1 offline hung or failed ($*)"
		nap 0.1
		timeout 60 sh -c "echo 1 > $cpu1" || fail "cpu1 online hung or failed ($*)"
		nap 0.1
	done
}

# The hrtimer source on every CPU; the static-key sources on every CPU and
# on the leaving CPU alone; per-switch counters on the leaving CPU alone.
runs=("samples=cpu-clock@999hz cpus=0-2"
	"samples=context-switches@period=4,cpu-migrations@period=1 cpus=0-2"
	"samples=page-faults@period=20 cpus=1"
	"samples=none counters=context-switches,page-faults cpus=1")

guest() {
	local n=0 run spec cpus wl
	for run in "${runs[@]}"; do
		spec=${run% *}
		cpus=${run##* }
		n=$((n + 1))
		say "$spec $cpus"
		load_module events=sched $spec $cpus
		ctl start
		"$WORKLOADS/sched-mix" -r "$(scaled 1000 300)" -t 200 >/dev/null &
		wl=$!
		storm "$spec $cpus"
		wait $wl || fail "workload failed ($spec $cpus)"
		ctl stop
		[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "not stopped"
		dump_session "$out/$n"
		unload_module
	done
}

host() {
	local n=0 run
	for run in "${runs[@]}"; do
		n=$((n + 1))
		"$KTPROF" dump --json "$out/$n" >"$out/$n.json" 2>"$out/$n.err" ||
			fail "dump failed: $(cat "$out/$n.err")"
		/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/$n/stats" "$out/$n.json" ||
			fail "accounting differs ($run)"
	done
	echo ok
}

run_phases
