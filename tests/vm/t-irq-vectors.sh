#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# x86 system vectors as hardirqs: a thread looping in nanosleep (ticker,
# pinned to CPU 1) is woken by its hrtimer from the local APIC timer's
# vector, so `ktprof report --wakers` names "irq timer" as the waker of
# most of its wakeups, and the timer vector is a hardirq handler of the
# capture (irq KTP_IRQ_VECTOR_BASE + 236, named once by an IRQ_NAME
# record), its entries and exits paired. Counts and ratios only.
# vm-args: --cpus 2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	load_module
	# Once before, so that its pages are in the guest's cache: read over
	# 9p while recorded, they would be wakeups by the virtio irq.
	taskset -c 1 "$WORKLOADS/ticker" -n 1 -s 1 -w 1 >/dev/null || fail "ticker failed"
	"$KTPROF" record -q -S none $(debug_buffer) -o "$out/cap.ktp" -- taskset -c 1 "$WORKLOADS/ticker" \
		-n 300 -s 1500 -w 50 >"$out/ticker.pid" 2>"$out/record.err" ||
		fail "record failed: $(cat "$out/record.err")"
	unload_module
}

host() {
	local pid
	pid=$(sed -n 's/^ticker=//p' "$out/ticker.pid")
	[ -n "$pid" ] || fail "the ticker did not say its pid"
	grep -q '^lost records      0$' <("$KTPROF" info "$out/cap.ktp") || fail "ktprof lost records"
	"$KTPROF" report --json --wakers --irq "$out/cap.ktp" >"$out/report.json" ||
		fail "report --json failed"
	"$KTPROF" dump --json "$out/cap.ktp" >"$out/dump.json" || fail "dump --json failed"
	/usr/bin/python3 - "$out/report.json" "$out/dump.json" "$pid" <<'PY' || fail "the timer vector is not the ticker's waker"
import collections, json, sys
report = json.load(open(sys.argv[1]))
pid = int(sys.argv[3])
TIMER = 0x10000 + 236
ok = True

# Who woke the ticker, by waker name.
by = collections.Counter()
for e in report["wakers"]["edges"]:
    if e["wakee"]["pid"] == pid:
        by[e["waker"]["name"]] += e["count"]
total = sum(by.values())
print("ticker %d wakings: %s" % (total, dict(by.most_common(6))))
if total < 300:
    print("FAIL: %d wakings of a ticker that slept 300 times" % total); ok = False
elif by["irq timer"] * 2 < total:
    print("FAIL: 'irq timer' woke %d of %d" % (by["irq timer"], total)); ok = False
timer_edges = [e for e in report["wakers"]["edges"] if e["waker"]["name"] == "irq timer"]
if not all(e["waker"]["kind"] == "hardirq" and e["waker"]["irq"] == TIMER for e in timer_edges):
    print("FAIL: an 'irq timer' waker is not hardirq %d" % TIMER); ok = False

# The timer vector among the hardirq handlers.
h = [x for x in report["irq"]["handlers"] if x["kind"] == "hardirq" and x.get("irq") == TIMER]
if not h or h[0]["name"] != "timer" or h[0]["duration"]["count"] < by["irq timer"]:
    print("FAIL: hardirq handlers: %s" % [(x.get("irq"), x["name"]) for x in report["irq"]["handlers"]])
    ok = False
else:
    print("timer vector: %d runs, %d ns" % (h[0]["duration"]["count"], h[0]["self_ns"]))

# The records: one name per vector, entries and exits paired per CPU (an
# interrupt cut by the session's start or stop aside).
names = collections.Counter()
entries = collections.Counter()
exits = collections.Counter()
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r["type"] == "irq_name" and r["irq"] >= 0x10000:
        names[(r["irq"], r["name"])] += 1
    elif r["type"] in ("irq_entry", "irq_exit") and r["irq"] == TIMER:
        (entries if r["type"] == "irq_entry" else exits)[r["cpu"]] += 1
        if r.get("vector") != 236 or (r["type"] == "irq_exit" and r["ret"] != 0):
            print("FAIL: record %s" % line.strip()); ok = False
print("vector names: %s" % sorted(names))
if names[(TIMER, "timer")] != 1 or any(n != 1 for n in names.values()):
    print("FAIL: each vector named once, the timer 'timer'"); ok = False
for cpu in set(entries) | set(exits):
    if abs(entries[cpu] - exits[cpu]) > 1:
        print("FAIL: CPU %d: %d timer entries, %d exits" % (cpu, entries[cpu], exits[cpu])); ok = False
sys.exit(0 if ok else 1)
PY
	"$KTPROF" report --wakers "$out/cap.ktp" >"$out/wakers.txt" || fail "report --wakers failed"
	grep -Eq ' irq timer +ktp-ticker \('"$pid"'\)' "$out/wakers.txt" ||
		fail "the text report does not name 'irq timer' waking the ticker"
}

run_phases
