#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Overwrite (flight recorder) mode keeps the newest records: reading while
# running is refused, and after stop the selftest records found are the
# last ones written, with the overwritten ones counted and reported: the
# module's count (stats) and the stream's (lost events) agree exactly.
#
# The selftest runs on an isolated CPU, where nothing else is scheduled:
# whatever the host's speed, the few records written there between the
# selftest and the stop cannot overwrite all of its last ones.
# vm-args: --append isolcpus=1
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
n=50000

guest() {
	load_module overwrite=1 subbuf_size=8192 n_subbufs=4 events=sched samples=none
	ctl start
	cat "$KTPROF_DBG/cpu1" >/dev/null 2>&1 && fail "read while running succeeded in overwrite mode"
	taskset -c 1 sh -c "echo $n > $KTPROF_DBG/selftest" || fail "selftest failed"
	res=$(cat "$KTPROF_DBG/selftest")
	echo "selftest: $res"
	echo "$res" | grep -q "cpu=1 requested=$n written=$n dropped=0" ||
		fail "overwrite mode dropped new records: $res"
	ctl stop
	dump_session "$out/raw"
	unload_module
}

host() {
	cat "$out/raw/stats"
	ow=$(kv "$out/raw/stats" '^cpu=1 ' overwritten)
	[ "${ow:-0}" -gt 0 ] || fail "nothing counted as overwritten"
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" 2>"$out/dump.err" || fail "dump failed"
	cat "$out/dump.err"
	grep -q '"type":"lost"' "$out/dump.json" || fail "overwritten records not reported as lost"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw/stats" "$out/dump.json" ||
		fail "the stream's loss differs from the module's count"
	/usr/bin/python3 - "$out/dump.json" "$n" <<'PY' || fail "not the newest records"
import json, sys
n = int(sys.argv[2])
seqs = [e["seq"] for e in map(json.loads, open(sys.argv[1]))
        if e["type"] == "selftest" and e["cpu"] == 1]
assert seqs, "no selftest record kept"
print("kept selftest records: %d, seq %d..%d" % (len(seqs), seqs[0], seqs[-1]))
assert seqs == list(range(seqs[0], n)), "not a contiguous tail ending at n-1"
assert 0 < len(seqs) < n
PY
	echo ok
}

run_phases
