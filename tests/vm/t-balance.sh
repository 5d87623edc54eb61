#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Affinity and work conservation (report --balance). CPU 2 is isolated
# (isolcpus=2): no load balancing moves work to it, so it idles while
# work allowed there waits on CPU 0. Three spinners pinned to CPU 0 and a
# fourth allowed on CPUs 0 and 2, started on CPU 0, share CPU 0:
#   - each has its AFFINITY record ("0", and "0,2");
#   - the pinned ones waited in CPU 0's runqueue, never stranded (no idle
#     CPU may take them); the fourth was stranded for most of its waits,
#     and the pair "2 <- 0" has at least its time;
#   - CPU 0's run-queue depth is 4 or more most of the time;
#   - every thread's stranded time, every CPU's idle-beside-work time and
#     every pair's time equal what tests/vm/check_balance.py works out
#     from the dump, apart from ktprof's model.
# vm-args: --cpus 3 --append isolcpus=2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
spin='while :; do :; done'

guest() {
	local p
	[ "$(cat /sys/devices/system/cpu/isolated)" = 2 ] || fail "isolcpus=2 not in effect"
	for p in 1 2 3; do
		taskset -c 0 sh -c "$spin" &
		echo "pinned $!"
	done >"$out/pids"
	# Set on CPU 0 so that the new mask moves nothing: it stays on CPU 0.
	taskset -c 0 taskset -c 0,2 sh -c "$spin" &
	echo "both $!" >>"$out/pids"
	nap 0.5
	"$KTPROF" record -q -S none --load "$KTPROF_KO" -b 8M -o "$out/balance.ktp" -- \
		sleep "$(scaled 3 2)" 2>"$out/record.err" || fail "record failed: $(cat "$out/record.err")"
	for p in $(cut -d' ' -f2 "$out/pids"); do
		echo "$p $(grep Cpus_allowed_list /proc/$p/status)"
		kill "$p"
	done >"$out/masks"
	true
}

host() {
	"$KTPROF" dump --json "$out/balance.ktp" >"$out/dump.json" || fail "dump failed"
	"$KTPROF" report --json --balance "$out/balance.ktp" >"$out/report.json" ||
		fail "report --json --balance failed"
	"$KTPROF" report --balance "$out/balance.ktp" >"$out/report.txt" || fail "report --balance failed"
	/usr/bin/python3 - "$out/pids" "$out/dump.json" "$out/report.json" <<'PY' || fail "balance check failed"
import json, sys
pids = {}
for line in open(sys.argv[1]):
    kind, pid = line.split()
    pids[int(pid)] = kind
masks = {}
for line in open(sys.argv[2]):
    e = json.loads(line)
    if e["type"] == "affinity" and e["pid"] in pids:
        masks[e["pid"]] = e["cpus"]
rep = json.load(open(sys.argv[3]))
threads = {t["pid"]: t for t in rep["threads"]}
ok = True
for pid, kind in sorted(pids.items()):
    t = threads.get(pid, {})
    want = "0" if kind == "pinned" else "0,2"
    print("%s %d: mask %s, waited %d ns, stranded %d ns" %
          (kind, pid, masks.get(pid), t.get("runqueue_wait_ns", 0), t.get("stranded_ns", 0)))
    if masks.get(pid) != want:
        print("  its affinity record says %s, not %s" % (masks.get(pid), want))
        ok = False
    if not t.get("runqueue_wait_ns"):
        print("  it never waited")
        ok = False
    if kind == "pinned" and t.get("stranded_ns"):
        print("  stranded, but no idle CPU may take it")
        ok = False
    if kind == "both":
        both = t.get("stranded_ns", 0)
        if both < 0.5 * t.get("runqueue_wait_ns", 0):
            print("  stranded for less than half its waits, with CPU 2 idle")
            ok = False
pair = {(p["idle_cpu"], p["busy_cpu"]): p["ns"] for p in rep["balance"]["cpu_pairs"]}
if pair.get((2, 0), 0) < both:
    print("pair 2 <- 0: %d ns, less than the stranded time of the thread allowed there" %
          pair.get((2, 0), 0))
    ok = False
cpu0 = [c for c in rep["cpus"] if c["cpu"] == 0][0]["balance"]
deep = sum(cpu0["time_at_depth_ns"][4:])
print("cpu 0: depth mean %.2f, max %d, at 4 or more %.1f%% of %d ns" %
      (cpu0["depth_mean"], cpu0["depth_max"], 100.0 * deep / cpu0["depth_known_ns"],
       cpu0["depth_known_ns"]))
if deep < 0.5 * cpu0["depth_known_ns"]:
    print("cpu 0: four spinners, but a depth of 4 or more for less than half the time")
    ok = False
sys.exit(0 if ok else 1)
PY
	/usr/bin/python3 "$(dirname "$0")/check_balance.py" "$out/dump.json" "$out/report.json" ||
		fail "the report's figures are not the dump's"
	echo ok
}

run_phases
