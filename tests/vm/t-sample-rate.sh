#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The sample count matches the rate: cpu-clock at 999 Hz gives 999 samples
# per second of each CPU's session, busy or idle. Under -icount guest time
# counts instructions, so a vCPU the host starves loses no time and no
# timer interrupt: the count does not depend on how busy the host is.
# (In normal TCG a starved vCPU misses hrtimer periods: 3765 samples in
# 5.15 s were seen where 5146 were due.)
#
# perf throttles an event that overflows more than max_samples_per_tick
# times between two ticks, and lets it go again at a tick. An idle NOHZ CPU
# has no tick: on 6.1 the idle second below ran 400 samples without one,
# was throttled, and lost 109 and 472 ms of samples on its two CPUs until
# the next tick (a THROTTLE record, then a gap). That is perf's policy, not
# the module's rate: the test boots with nohz=off (a tick every jiffy, idle
# too; vm-run boots every kernel so now, so this test shares vm/report's
# boot), and keeps perf from lowering its own sample-rate ceiling when
# handlers take long (perf_cpu_time_max_percent=0), restored after.
# vm-args: --icount --append nohz=off
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

sysctl=/proc/sys/kernel

guest() {
	local pct rate
	pct=$(cat $sysctl/perf_cpu_time_max_percent)
	rate=$(cat $sysctl/perf_event_max_sample_rate)
	echo 100000 >$sysctl/perf_event_max_sample_rate || fail "cannot raise the sample rate ceiling"
	echo 0 >$sysctl/perf_cpu_time_max_percent || fail "cannot stop the ceiling's lowering"
	load_module events=sched samples=cpu-clock@999hz
	ctl start
	for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
		taskset -c "$cpu" "$WORKLOADS/hotfuncs" -t 1000 >/dev/null &
	done
	wait
	nap 1	# idle time samples too
	ctl stop
	dump_session "$out/raw"
	unload_module
	echo "$pct" >$sysctl/perf_cpu_time_max_percent
	echo "$rate" >$sysctl/perf_event_max_sample_rate 2>/dev/null
	grep -E '^cpu=' "$out/raw/stats"
}

host() {
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
}

run_phases
