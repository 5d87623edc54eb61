#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The sample count matches the rate: cpu-clock at 999 Hz gives 999 samples
# per second of each CPU's session, busy or idle. Under -icount guest time
# counts instructions, so a vCPU the host starves loses no time and no
# timer interrupt: the count does not depend on how busy the host is.
# (In normal TCG a starved vCPU misses hrtimer periods: 3765 samples in
# 5.15 s were seen where 5146 were due.)
# vm-args: --icount
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

load_module events=sched samples=cpu-clock@999hz
ctl start
for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
	taskset -c "$cpu" "$WORKLOADS/hotfuncs" -t 1000 >/dev/null &
done
wait
sleep 1	# idle time samples too
ctl stop
dump_session "$out/raw"
unload_module
"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
/usr/bin/python3 - "$out/dump.json" <<'PY' || fail "sample rate wrong"
import json, sys
marks, count = {}, {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] == "cpu":
        marks.setdefault(e["cpu"], {})[e["reason"]] = e["ts"]
    elif e["type"] == "sample":
        count[e["cpu"]] = count.get(e["cpu"], 0) + 1
assert marks, "no CPU marks"
for cpu, m in sorted(marks.items()):
    dur = (m["stop"] - m["start"]) / 1e9
    n, want = count.get(cpu, 0), 999 * dur
    print("cpu %d: %d samples in %.3f s, expected %.0f" % (cpu, n, dur, want))
    assert abs(n - want) <= 0.15 * want, "cpu %d off by more than 15%%" % cpu
PY
echo ok
