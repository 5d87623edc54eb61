#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The power group (-e power): power:cpu_idle and power:cpu_frequency. A
# workload that idles and wakes CPUs (tests/workloads/sched-mix) is
# recorded; every CPU's idle entries and exits pair (at most one unpaired
# at the session's start), the time in idle states is within the idle
# task's time on that CPU (the scheduler model's, from the same capture)
# and most of it; the capture's topology has the CPU's cpuidle states as
# sysfs lists them. TCG has no cpufreq: the frequency path is the known
# answer of tests/report/power.scn. convert's sched view has one
# cpu_idle ftrace event a record; wakeup latency is classed by the idle
# state of the waking's target CPU. Not in the default groups: a default
# record has no power records.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	"$KTPROF" record -q -e sched,power -S none --load "$KTPROF_KO" -o "$out/power.ktp" -- \
		"$WORKLOADS/sched-mix" -r "$(scaled 40 15)" >/dev/null 2>"$out/record.err" ||
		fail "record -e sched,power failed: $(cat "$out/record.err")"
	"$KTPROF" record -q -S none --load "$KTPROF_KO" -o "$out/default.ktp" -- true ||
		fail "record failed"
	# What sysfs says of the idle states, for the host to compare.
	for d in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*; do
		[ -r "$d/name" ] && echo "${d#/sys/devices/system/cpu/cpu} $(cat "$d/name") $(cat "$d/latency")"
	done >"$out/cpuidle.txt"
	true
}

host() {
	"$KTPROF" info "$out/power.ktp" | grep -q '^  events          sched,power' ||
		fail "info does not say power: $("$KTPROF" info "$out/power.ktp" | grep events)"
	"$KTPROF" dump --json "$out/default.ktp" | grep -q '"type":"cpu_idle"' &&
		fail "a default record has cpu_idle records"
	"$KTPROF" report --json --cpu --power --latency "$out/power.ktp" >"$out/report.json" ||
		fail "report --json --power failed"
	"$KTPROF" report --power "$out/power.ktp" >"$out/report.txt" || fail "report --power failed"
	# convert's sched view: the ftrace events Perfetto reads natively, one a record.
	"$KTPROF" convert --view sched -o "$out/power.pftrace" "$out/power.ktp" 2>/dev/null ||
		fail "convert failed"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/trace_facts.py" trace "$out/power.pftrace" |
		grep '^cpu_' | sort >"$out/trace.facts"
	"$KTPROF" dump --json "$out/power.ktp" >"$out/dump.json"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/trace_facts.py" dump "$out/dump.json" |
		grep '^cpu_' | sort >"$out/dump.facts"
	[ -s "$out/dump.facts" ] && cmp -s "$out/trace.facts" "$out/dump.facts" ||
		fail "the trace's idle events are not the records': $(diff "$out/dump.facts" "$out/trace.facts" | head)"
	/usr/bin/python3 - "$out/report.json" "$out/cpuidle.txt" <<'PY' || fail "power check failed"
import json, sys
rep = json.load(open(sys.argv[1]))
ok = rep["power"]["records"] > 0
for c in rep["cpus"]:
    res, idle = c.get("idle_state_ns", 0), c["idle_ns"]
    print("cpu %d: idle task %d ns, in idle states %d ns (%.1f%%), unpaired %d, states %s" %
          (c["cpu"], idle, res, 100.0 * res / idle if idle else 0, c.get("idle_unpaired", 0),
           [(s["name"], s["entries"]) for s in c.get("idle_states", [])]))
    if res > idle or res < 0.5 * idle or c.get("idle_unpaired", 0) > 1:
        ok = False
# Wakeups by the idle state of their target CPU: some classed, no more than there were.
lat = rep["latency"]
slots = lat.get("by_target_idle_state", [])
classed = sum(x["latency"]["count"] for x in slots)
print("wakeups %d, classed by the target's idle state %d: %s" % (
    lat["wakeup"]["count"], classed, [(x["state"], x["latency"]["count"]) for x in slots]))
if not classed or classed > lat["wakeup"]["count"]:
    ok = False
names = {}
for line in open(sys.argv[2]):
    where, name, lat = line.split()
    cpu = int(where.split("/")[0])
    names.setdefault(cpu, []).append(name)
for c in rep["cpus"]:
    for s in c.get("idle_states", []):
        if c["cpu"] in names and s["state"] < len(names[c["cpu"]]) and \
                s["name"] != names[c["cpu"]][s["state"]]:
            print("cpu %d state %d: %s, sysfs %s" % (c["cpu"], s["state"], s["name"],
                                                    names[c["cpu"]][s["state"]]))
            ok = False
sys.exit(0 if ok else 1)
PY
	echo ok
}

run_phases
