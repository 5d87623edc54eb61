#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check a decoded capture (`ktprof dump --json` output) for consistency.

  - every record decodes: no garbage, no unknown types;
  - per CPU, a start (or online) mark precedes the first switch, and each
    switch's prev_pid is the previous next_pid on that CPU, except right
    after reported loss;
  - with --pids FILE (key=value lines from tests/workloads/sched-mix): the
    workload's tasks appear with the right comm and tgid, and the child's
    fork, exec and exit are present.

Prints what it checked; exits 1 on the first class of failure it finds.
"""
import argparse
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load(path):
    events = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            try:
                events.append(json.loads(line))
            except ValueError as e:
                fail("line %d is not JSON: %s" % (n, e))
    return events


def check_records(events):
    known = {"subbuf", "time", "cpu", "task", "sched_switch", "sched_waking",
             "sched_migrate", "fork", "exec", "exit", "free", "irq_entry",
             "irq_exit", "irq_name", "softirq_entry", "softirq_exit",
             "ipi_send", "wq_start", "wq_end", "selftest", "lost",
             "sample", "map", "file", "throttle", "affinity",
             "cgroup", "clock"}
    for e in events:
        if e["type"] == "garbage":
            fail("invalid bytes in the stream: %s" % e)
        if e["type"] not in known:
            fail("unknown record type: %s" % e)
    last = 0
    for e in events:
        if e["ts"] < last:
            fail("not in time order at %s" % e)
        last = e["ts"]
    print("records: %d, all valid and in time order" % len(events))


def check_switch_sequences(events, allow_loss):
    cur = {}
    switches = {}
    lost = 0
    for e in events:
        cpu = e["cpu"]
        t = e["type"]
        if t == "lost":
            lost += e["records"]
            cur[cpu] = None
        elif t == "cpu" and e["reason"] in ("start", "online"):
            cur[cpu] = e["pid"]
        elif t == "cpu" and e["reason"] in ("stop", "offline"):
            cur.pop(cpu, None)
        elif t == "sched_switch":
            if cpu not in cur:
                fail("cpu %d: switch before its start mark: %s" % (cpu, e))
            if cur[cpu] is not None and e["prev_pid"] != cur[cpu]:
                fail("cpu %d: prev_pid %d but %d was running: %s"
                     % (cpu, e["prev_pid"], cur[cpu], e))
            cur[cpu] = e["next_pid"]
            switches[cpu] = switches.get(cpu, 0) + 1
    if lost and not allow_loss:
        fail("%d records lost" % lost)
    if not switches:
        fail("no sched_switch at all")
    print("switch sequences continuous: %s (lost %d)"
          % (", ".join("cpu%d=%d" % kv for kv in sorted(switches.items())), lost))


def check_workload(events, pids_path):
    pids = {}
    with open(pids_path) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            if v.isdigit():
                pids.setdefault(k, []).append(int(v))
    main = pids["main"][0]
    identity = {}
    for e in events:
        if e["type"] == "task":
            identity[e["pid"]] = e
    expect = [(main, "ktp-main", main), (pids["pong"][0], "ktp-pong", pids["pong"][0]),
              (pids["child"][0], "ktp-child", pids["child"][0])]
    expect += [(p, "ktp-hog", main) for p in pids.get("hog", [])]
    expect += [(p, "ktp-sleep", main) for p in pids.get("sleeper", [])]
    for pid, comm, tgid in expect:
        t = identity.get(pid)
        if not t:
            fail("no identity record for pid %d (%s)" % (pid, comm))
        if t["comm"] != comm or t["tgid"] != tgid:
            fail("pid %d: comm %s tgid %d, expected %s tgid %d"
                 % (pid, t["comm"], t["tgid"], comm, tgid))
    child = pids["child"][0]
    forks = [e for e in events if e["type"] == "fork" and e["child_pid"] == child]
    execs = [e for e in events if e["type"] == "exec" and e["pid"] == child]
    exits = [e for e in events if e["type"] == "exit" and e["pid"] == child]
    if not forks or forks[0]["parent_pid"] != main:
        fail("fork of child %d by %d missing: %s" % (child, main, forks))
    if not execs or not execs[0]["filename"].endswith("sched-mix"):
        fail("exec of child %d missing: %s" % (child, execs))
    if not exits or exits[0]["exit_code"] != 7 << 8:
        fail("exit of child %d missing or wrong code: %s" % (child, exits))
    if not (forks[0]["ts"] <= execs[0]["ts"] <= exits[0]["ts"]):
        fail("child fork/exec/exit out of order")
    for pid, comm, _ in expect:
        if not any(e["type"] == "sched_switch" and e["next_pid"] == pid for e in events):
            fail("pid %d (%s) never switched in" % (pid, comm))
    print("workload: %d tasks with the right comm and tgid; child fork/exec/exit present"
          % len(expect))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("--pids")
    ap.add_argument("--allow-loss", action="store_true")
    a = ap.parse_args()
    events = load(a.dump)
    check_records(events)
    check_switch_sequences(events, a.allow_loss)
    if a.pids:
        check_workload(events, a.pids)


if __name__ == "__main__":
    main()
