#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Work conservation worked out again, apart from ktprof's model, from
`ktprof dump --json` (a capture without loss), and compared with
`ktprof report --json --balance` of the same capture.

docs/report.md, "Balance": a thread waits in a CPU's runqueue from its
waking (sched_waking's target; a waking while it ran counts from its
switch-out to sleep) or its preemption (switch-out in R) to its switch-in,
moved by sched_migrate_task. A CPU is idle while it runs pid 0, busy while
it runs another, unknown outside its start and stop marks. A waiting
thread is stranded while its CPU is busy and another CPU its last affinity
record allows (any, without one) is idle; an idle CPU i is "idle beside
work" while some thread allowed on i waits on another, busy, CPU; the pair
(i, j) while one waiting on j is. Time is summed between consecutive
records, where nothing changes.

usage: check_balance.py DUMP.json REPORT.json
Exits 1 if any thread's stranded time, CPU's idle-beside-work time or
pair's time differs.
"""
import json
import sys


def parse_list(text):
    cpus = set()
    for part in text.split(","):
        if not part or part == "...":
            continue
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


class Oracle:
    def __init__(self):
        self.cpu = {}           # cpu -> "idle" | "busy"
        self.running = {}       # pid -> cpu
        self.waiting = {}       # pid -> cpu
        self.woke_running = {}  # pid -> target cpu of a waking while it ran
        self.mask = {}          # pid -> set of CPUs (absent: all)
        self.stranded = {}
        self.idle_work = {}
        self.pairs = {}
        self.last = None

    def allowed(self, pid, cpu):
        m = self.mask.get(pid)
        return m is None or cpu in m

    def advance(self, ts):
        if self.last is None or ts <= self.last:
            self.last = ts if self.last is None else max(self.last, ts)
            return
        dt = ts - self.last
        self.last = ts
        idle = [c for c, s in self.cpu.items() if s == "idle"]
        active = set()
        for pid, j in self.waiting.items():
            if self.cpu.get(j) != "busy":
                continue
            ok = [i for i in idle if i != j and self.allowed(pid, i)]
            if ok:
                self.stranded[pid] = self.stranded.get(pid, 0) + dt
            for i in ok:
                active.add((i, j))
        for i, j in active:
            self.pairs[(i, j)] = self.pairs.get((i, j), 0) + dt
        for i in {i for i, _ in active}:
            self.idle_work[i] = self.idle_work.get(i, 0) + dt

    def stop_waiting(self, pid):
        self.waiting.pop(pid, None)

    def event(self, e):
        t = e["type"]
        if t == "lost":
            sys.exit("FAIL: the capture lost records: the oracle needs them all")
        self.advance(e["ts"])
        cpu = e["cpu"]
        if t == "cpu":
            if e["reason"] in ("start", "online"):
                self.cpu[cpu] = "busy" if e["pid"] else "idle"
                if e["pid"]:
                    self.running[e["pid"]] = cpu
                    self.stop_waiting(e["pid"])
            else:
                self.cpu.pop(cpu, None)
        elif t == "sched_switch":
            prev, nxt = e["prev_pid"], e["next_pid"]
            if prev:
                self.running.pop(prev, None)
                self.stop_waiting(prev)
                late = self.woke_running.pop(prev, None)
                if e["prev_state"] in ("R", "R+"):
                    self.waiting[prev] = cpu
                elif late is not None and e["prev_state"] in ("S", "D"):
                    self.waiting[prev] = late
            if nxt:
                self.running[nxt] = cpu
                self.stop_waiting(nxt)
                self.woke_running.pop(nxt, None)
            self.cpu[cpu] = "busy" if nxt else "idle"
        elif t == "sched_waking":
            pid = e["pid"]
            if pid in self.running:
                self.woke_running[pid] = e["target_cpu"]
            elif pid not in self.waiting:
                self.waiting[pid] = e["target_cpu"]
        elif t == "sched_migrate":
            if e["pid"] in self.waiting:
                self.waiting[e["pid"]] = e["dest_cpu"]
        elif t == "affinity":
            cpus = parse_list(e["cpus"])
            self.mask[e["pid"]] = cpus
        elif t == "free":
            self.stop_waiting(e["pid"])


def main():
    o = Oracle()
    with open(sys.argv[1]) as f:
        for line in f:
            o.event(json.loads(line))
    rep = json.load(open(sys.argv[2]))
    bad = 0
    threads = {th["pid"]: th for th in rep["threads"]}
    for pid in set(o.stranded) | {p for p, th in threads.items() if th.get("stranded_ns")}:
        got = threads.get(pid, {}).get("stranded_ns", 0)
        want = o.stranded.get(pid, 0)
        if got != want:
            print("pid %d: stranded %d ns, worked out %d" % (pid, got, want))
            bad += 1
    for c in rep["cpus"]:
        got = c.get("balance", {}).get("idle_while_work_waited_ns", 0)
        want = o.idle_work.get(c["cpu"], 0)
        if got != want:
            print("cpu %d: idle beside work %d ns, worked out %d" % (c["cpu"], got, want))
            bad += 1
    pairs = {(p["idle_cpu"], p["busy_cpu"]): p["ns"] for p in rep["balance"]["cpu_pairs"]}
    for k in set(pairs) | set(o.pairs):
        if pairs.get(k, 0) != o.pairs.get(k, 0):
            print("pair %d <- %d: %d ns, worked out %d" % (k[0], k[1], pairs.get(k, 0),
                                                          o.pairs.get(k, 0)))
            bad += 1
    print("balance: %d threads stranded %d ns in all, %d CPU pairs; %d differ" %
          (len(o.stranded), sum(o.stranded.values()), len(o.pairs), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
