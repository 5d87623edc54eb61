#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The NMI path without a PMU (qemu TCG has none): selftest records written
# with in_nmi() true ("nmi N", the NMI bits of preempt_count, IRQs off) must
# not touch relay there. They go through the staging ring to the drain
# irq_work, whose queueing fires ipi_send_cpu in "NMI" too: that record is
# staged as well (6.3 and later). written + dropped == N, every record
# written is decoded, in order, and the loss counts agree. Without sampling
# (no ring) the NMI selftest is refused. The same with every other record
# pushed from inside the next one's push ("nmi-nested N"), as an NMI that
# interrupts a producer before it claims the ring: none is written over.
# Then the overflow handler's NMI path ("nmi-sample N"): N samples of the
# writing shell taken as an NMI takes them, half of its user mode, half in
# the kernel. Every one is decoded or counted lost; user frames resolve to
# staged MAP records whose files have FILE records; the kernel ones start
# in the module's selftest.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
n=20000
ns=400

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
	written=$(echo "$res" | field written)
	dropped=$(echo "$res" | field dropped)
	[ $((written + dropped)) = $n ] || fail "written $written + dropped $dropped != $n"
	ctl stop
	dump_session "$out/raw"
	note written "$written"

	# An NMI that interrupts a push before it claims the ring: every
	# other record is pushed from there (nmi-nested). Both get through,
	# or are counted: none is written over.
	ctl start
	taskset -c 1 sh -c "echo 'nmi-nested $n' > $KTPROF_DBG/selftest" || fail "nested NMI selftest failed"
	res=$(cat "$KTPROF_DBG/selftest")
	echo "nmi-nested: $res"
	written=$(echo "$res" | field written)
	dropped=$(echo "$res" | field dropped)
	[ $((written + dropped)) = $n ] || fail "nested: written $written + dropped $dropped != $n"
	ctl stop
	dump_session "$out/raw-nested"
	unload_module
	note nested_written "$written"

	# A source that never fires (a page fault in 10^12): only ours count.
	load_module events=sched samples=page-faults@period=1000000000000
	ctl start
	taskset -c 1 sh -c "echo \$\$ >$out/sampler.pid; echo 'nmi-sample $ns' >$KTPROF_DBG/selftest" ||
		fail "NMI sample selftest failed"
	res=$(cat "$KTPROF_DBG/selftest")
	echo "nmi-sample: $res"
	ctl stop
	dump_session "$out/raw-samples" symbols
	unload_module
	note sampled "$(echo "$res" | field written)"
	note sample_drops "$(echo "$res" | field dropped)"
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
	"$KTPROF" dump --json "$out/raw-nested" >"$out/nested.json" || fail "dump of the nested part failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw-nested/stats" "$out/nested.json" ||
		fail "nested: accounting differs"
	/usr/bin/python3 - "$out/nested.json" "$(noted nested_written)" <<'PY' || fail "nested staged records wrong"
import json, sys
seqs = [e["seq"] for e in map(json.loads, open(sys.argv[1]))
        if e["type"] == "selftest" and e["cpu"] == 1]
print("nested selftest records decoded on cpu 1: %d of %s written" % (len(seqs), sys.argv[2]))
# One written over by the push it interrupted would be missing here,
# though counted as written.
assert len(seqs) == int(sys.argv[2]), len(seqs)
# The inner one of each pair lands first: seq order holds.
assert seqs == sorted(seqs), "out of order"
PY
	sampled=$(noted sampled)
	[ $((sampled + $(noted sample_drops))) = $ns ] || fail "NMI samples: written + dropped != $ns"
	"$KTPROF" dump --json --symbolize "$out/raw-samples" >"$out/samples.json" ||
		fail "dump of the NMI samples failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw-samples/stats" "$out/samples.json" ||
		fail "NMI samples: accounting differs"
	/usr/bin/python3 - "$out/samples.json" "$sampled" "$(cat "$out/sampler.pid")" <<'PY' || fail "NMI samples wrong"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
pid = int(sys.argv[3])
s = [e for e in ev if e["type"] == "sample" and e["cpu"] == 1 and e["pid"] == pid]
print("NMI samples decoded on cpu 1: %d" % len(s))
assert len(s) == int(sys.argv[2]), "%d decoded, %s written" % (len(s), sys.argv[2])
user = [e for e in s if e["mode"] == "user"]
kern = [e for e in s if e["mode"] == "kernel"]
print("user mode: %d, kernel: %d" % (len(user), len(kern)))
# Half and half, unless the ring dropped some of either.
assert user and kern, "a mode is missing"
for e in kern:
    assert e["kframes"][0].startswith("ktp_sample_selftest_nmi+"), e["kframes"][:3]
# The user frames' mappings: staged MAP records, and their files described.
maps = [e for e in ev if e["type"] == "map" and e["pid"] == pid]
files = {(e["dev"], e["ino"]): e["path"] for e in ev if e["type"] == "file"}
leaf = int(user[0]["ustack"].split(",")[0], 16)
m = [e for e in maps if int(e["start"], 16) <= leaf < int(e["end"], 16)]
assert m, "no MAP record holds the user leaf %#x" % leaf
path = files.get((m[0]["dev"], m[0]["ino"]))
print("user leaf %#x in %s" % (leaf, path))
assert path and "libc" in path, "no FILE record for the leaf's mapping (%s)" % path
PY
	echo ok
}

run_phases
