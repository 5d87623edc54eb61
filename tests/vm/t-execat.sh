#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# An exec through a directory fd (execveat(dirfd, "true")): the kernel
# renames the task to the tail of "/dev/fd/N/true", a string allocated to
# fit, so a fixed 16-byte copy of the new name reads past its end (KASAN
# and KFENCE report it on the debug kernel). The TASK record of each
# rename must hold exactly "true".
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
n=$(scaled 40 10)

guest() {
	load_module events=sched samples=none
	ctl start
	for i in $(seq $n); do
		"$WORKLOADS/execat" /bin true || fail "execat /bin true failed"
	done
	ctl stop
	dump_session "$out/raw"
	unload_module
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 - "$out/dump.json" "$n" <<'PY' || fail "rename records wrong"
import json, sys
RENAME = 0x04	# struct ktp_task flags (docs/record-format.md)
renames = [e for e in map(json.loads, open(sys.argv[1]))
           if e["type"] == "task" and int(e["flags"], 16) & RENAME]
names = sorted(set(e["comm"] for e in renames))
print("rename records: %d, names %s" % (len(renames), names))
assert len([e for e in renames if e["comm"] == "true"]) >= int(sys.argv[2]), names
PY
	echo ok
}

run_phases
