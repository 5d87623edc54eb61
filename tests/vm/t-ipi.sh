#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# IPI sends are recorded where the kernel has the tracepoints (6.3 and
# later); on older kernels the group is reported unavailable and the rest
# still works.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	load_module
	ctl start
	"$WORKLOADS/sched-mix" -r 1000 -t 100 >/dev/null
	ctl stop
	dump_session "$out/raw"
	unload_module
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	n=$(grep -c '"type":"ipi_send"' "$out/dump.json")
	if [ "$(kernel_version)" -ge 603 ]; then
		# (scx, sched_ext's group, is not on the kernels this runs on.)
		grep -Eq '^events_unavailable=(scx)?$' "$out/raw/meta" || fail "IPI reported unavailable on $(kernel_release)"
		grep -q '^events=.*ipi' "$out/raw/meta" || fail "ipi not among the events"
		[ "$n" -gt 0 ] || fail "no ipi_send records"
		echo "$n IPI records"
	else
		grep -Eq '^events_unavailable=ipi(,scx)?$' "$out/raw/meta" || fail "IPI not reported unavailable on $(kernel_release)"
		[ "$n" = 0 ] || fail "ipi records on a kernel without IPI tracepoints"
		echo "IPI unavailable on $(kernel_release), as expected"
	fi
	grep -q '"type":"sched_switch"' "$out/dump.json" || fail "no switches"
	echo ok
}

run_phases
