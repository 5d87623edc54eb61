#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A wakeup in steps (-e wakeup): sched_wakeup beside sched_waking. A
# workload of wakeups (tests/workloads/sched-mix) is recorded; every
# sched_wakeup follows its task's sched_waking (no enqueue without its
# waking, and none before it); report --latency splits most wakeups into
# waking to enqueue and enqueue to switch-in, each part within the whole;
# a default record has no sched_wakeup records. Where the kernel has
# schedstats (Debian's 6.1 and 6.12), info shows /proc/schedstat's change
# over the session, and each CPU's timeslices (the kernel's count of tasks
# switched in) are at least the switch-ins the capture holds (the recorder
# reads the file before the session starts and after it stops). That
# capture is taken with --schedstats, which turns kernel.sched_schedstats
# on for the session (off before and after: checked): each CPU's wakeups
# (try_to_wake_up() on it) are at least the wakings the capture has there,
# and info shows load balancing per domain level, with balances; the
# default capture's info says the counters were off.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	[ -r /proc/sys/kernel/sched_schedstats ] && note schedstats_before "$(cat /proc/sys/kernel/sched_schedstats)"
	"$KTPROF" record -q -e sched,wakeup -S none --schedstats --load "$KTPROF_KO" -o "$out/w.ktp" -- \
		"$WORKLOADS/sched-mix" -r "$(scaled 40 15)" >/dev/null 2>"$out/record.err" ||
		fail "record -e sched,wakeup failed: $(cat "$out/record.err")"
	"$KTPROF" record -q -S none --load "$KTPROF_KO" -o "$out/default.ktp" -- true ||
		fail "record failed"
	if [ -r /proc/schedstat ]; then note schedstat yes; else note schedstat no; fi
	[ -r /proc/sys/kernel/sched_schedstats ] && note schedstats_after "$(cat /proc/sys/kernel/sched_schedstats)"
	true
}

host() {
	"$KTPROF" dump --json "$out/default.ktp" | grep -q '"type":"sched_wakeup"' &&
		fail "a default record has sched_wakeup records"
	"$KTPROF" dump --json "$out/w.ktp" >"$out/dump.json" || fail "dump failed"
	"$KTPROF" report --json --latency "$out/w.ktp" >"$out/report.json" || fail "report failed"
	"$KTPROF" info "$out/w.ktp" >"$out/info.txt" || fail "info failed"
	if [ "$(noted schedstat)" = yes ]; then
		[ "$(noted schedstats_before)" = 0 ] && [ "$(noted schedstats_after)" = 0 ] ||
			fail "kernel.sched_schedstats: $(noted schedstats_before) before, $(noted schedstats_after) after"
		"$KTPROF" info "$out/default.ktp" | grep -q "kernel.sched_schedstats was 0" ||
			fail "info of a capture without --schedstats does not say the counters were off"
		grep -q "kernel.sched_schedstats was 0" "$out/info.txt" &&
			fail "info of the --schedstats capture says the counters were off"
		/usr/bin/python3 - "$out/info.txt" "$out/dump.json" <<'PY' || fail "schedstat check failed"
import collections, json, sys
lines = open(sys.argv[1]).read().split("\n")
i = [n for n, l in enumerate(lines) if l.startswith("schedstat ")]
if not i:
    sys.exit("info shows no schedstat")
h = [n for n in range(i[0] + 1, len(lines)) if lines[n].split()[:1] == ["cpu"]][0]
head = lines[h].split()
rows = {}
for l in lines[h + 1:]:
    f = l.split()
    if not f or not f[0].isdigit():
        break
    rows[int(f[0])] = dict(zip(head[1:], f[1:]))
ins, wakings = collections.Counter(), collections.Counter()
for l in open(sys.argv[2]):
    r = json.loads(l)
    if r["type"] == "sched_switch" and r["next_pid"] != 0:
        ins[r["cpu"]] += 1
    elif r["type"] == "sched_waking":
        wakings[r["cpu"]] += 1
ok = bool(rows)
for cpu, n in sorted(ins.items()):
    ts = int(rows.get(cpu, {}).get("timeslices", -1))
    wk = int(rows.get(cpu, {}).get("wakeups", -1))
    print("cpu %d: %d switch-ins captured, schedstat timeslices %d; %d wakings captured, "
          "schedstat wakeups %d" % (cpu, n, ts, wakings[cpu], wk))
    ok = ok and n <= ts <= 2 * n + 500 and wakings[cpu] <= wk
d = [n for n, l in enumerate(lines) if l.strip().startswith("load balancing per domain level")]
if not d:
    sys.exit("info shows no domain levels")
lhead = lines[d[0] + 1].split()
balances = 0
for l in lines[d[0] + 2:]:
    f = l.split()
    if not f or not (f[0].isdigit() or f[0] in ("idle", "newidle")):
        break
    # "LEVEL NAME CPUS busy BALANCES ...", then "idle BALANCES ...", "newidle ..."
    balances += int(f[lhead.index("balances")] if f[0].isdigit() else f[1])
    print("domain line: %s" % l.strip())
print("balances, every level and idle type: %d" % balances)
ok = ok and balances > 0
sys.exit(0 if ok else 1)
PY
	else
		grep -q '^schedstat ' "$out/info.txt" && fail "info shows schedstat on a kernel without it"
	fi
	/usr/bin/python3 - "$out/dump.json" "$out/report.json" <<'PY' || fail "wakeup steps check failed"
import json, sys
waking, wakeups, orphans = {}, 0, 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "sched_waking":
        waking[r["pid"]] = r["ts"]
    elif r["type"] == "sched_wakeup":
        wakeups += 1
        if r["pid"] not in waking or waking[r["pid"]] > r["ts"]:
            orphans += 1
lat = json.load(open(sys.argv[2]))["latency"]
w, a, b = lat["wakeup"], lat.get("waking_to_enqueue", {}), lat.get("enqueue_to_run", {})
print("%d sched_wakeup records, %d without a waking before; wakeups %d, split %d "
      "(waking>enqueue p50 %s, enqueue>run p50 %s)" % (wakeups, orphans, w["count"],
      a.get("count", 0), a.get("p50_ns"), b.get("p50_ns")))
ok = wakeups > 0 and orphans == 0 and a.get("count", 0) >= w["count"] // 2 and \
    a["count"] <= w["count"] and a["count"] == b["count"] and \
    a["max_ns"] <= w["max_ns"] and b["max_ns"] <= w["max_ns"]
sys.exit(0 if ok else 1)
PY
	echo ok
}

run_phases
