#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The NMI path without a PMU (qemu TCG has none): selftest records written
# with in_nmi() true ("nmi N", the NMI bits of preempt_count, IRQs off) must
# not touch relay there. They go through the staging ring to the drain
# irq_work, whose queueing fires ipi_send_cpu in "NMI" too: that record is
# staged as well (6.3 and later). written + dropped == N, every record
# written is decoded, in order, and the loss counts agree. Without sampling
# (no ring) the NMI selftest is refused.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
n=20000

guest() {
	load_module events=sched samples=none
	ctl start
	echo "nmi 10" >"$KTPROF_DBG/selftest" 2>/dev/null && fail "NMI selftest ran without a staging ring"
	ctl stop
	unload_module

	load_module events=sched,ipi samples=cpu-clock@99hz
	ctl start
	taskset -c 1 sh -c "echo 'nmi $n' > $KTPROF_DBG/selftest" || fail "NMI selftest failed"
	res=$(cat "$KTPROF_DBG/selftest")
	echo "selftest: $res"
	written=$(echo "$res" | tr ' ' '\n' | sed -n 's/^written=//p')
	dropped=$(echo "$res" | tr ' ' '\n' | sed -n 's/^dropped=//p')
	[ $((written + dropped)) = $n ] || fail "written $written + dropped $dropped != $n"
	ctl stop
	dump_session "$out/raw"
	unload_module
	note written "$written"
}

host() {
	written=$(noted written)
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw/stats" "$out/dump.json" ||
		fail "accounting differs"
	/usr/bin/python3 - "$out/dump.json" "$written" "$(kernel_version)" <<'PY' || fail "staged records wrong"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
seqs = [e["seq"] for e in ev if e["type"] == "selftest" and e["cpu"] == 1]
print("selftest records decoded on cpu 1: %d" % len(seqs))
assert len(seqs) == int(sys.argv[2]), len(seqs)
assert seqs == sorted(seqs), "out of order"
ipis = [e for e in ev if e["type"] == "ipi_send" and e["cpu"] == 1]
print("ipi_send records on cpu 1: %d" % len(ipis))
# The IPI tracepoints came in 6.3.
assert ipis or int(sys.argv[3]) < 603, "no IPI record: the tracepoint in NMI was lost"
PY
	echo ok
}

run_phases
