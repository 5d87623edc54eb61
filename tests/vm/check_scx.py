#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the sched_ext captures of tests/vm/t-scx.sh: report --scx --json
of each (eevdf, simple, central, fail) against its own `dump --json`
stream, and the stream against what sched_ext guarantees."""
import json
import os
import sys

out = sys.argv[1]
ok = True


def fail(msg):
    global ok
    print("FAIL: " + msg)
    ok = False


def load(name):
    rep = json.load(open(os.path.join(out, name + ".json")))["scx"]
    recs = [json.loads(l) for l in open(os.path.join(out, name + ".dump"))]
    return rep, recs


LABEL = {}   # DSQ uid -> its label: a per-CPU one's with its first task's CPU


def dsq_key(r):
    uid = r["dsq_uid"]
    if uid not in LABEL:
        per_cpu = r["dsq"] not in ("global",) and r["dsq_id"].startswith("0x8") \
            and not r["dsq"].startswith("local_on")
        LABEL[uid] = "%s:%d" % (r["dsq"], r["task_cpu"]) if per_cpu else r["dsq"]
    return LABEL[uid]


def check_stream(name, recs, upto=None):
    """Counts step by one and stay >= 0; every ext switch-in follows a
    removal from a DSQ; a DSQ stay lies within the wakeup latency."""
    LABEL.clear()
    depth, inserts, bad = {}, {}, 0
    need_remove, seen_out = {}, set()
    pending = {}             # pid -> [waking ts, insert ts, remove ts]
    chains = late = unremoved = switch_ins = 0
    for r in recs:
        if upto is not None and r["ts"] >= upto:
            break
        t = r["type"]
        if t == "scx_dsq":
            k, ins = dsq_key(r), r["op"] == "insert"
            if k in depth and r["nr"] != depth[k] + (1 if ins else -1):
                bad += 1
            if r["nr"] > 1 << 20:
                fail("%s: DSQ %s count %d: below zero" % (name, k, r["nr"]))
            depth[k] = r["nr"]
            p = pending.get(r["pid"])
            if ins:
                inserts[k] = inserts.get(k, 0) + 1
                if p and len(p) == 1:
                    p.append(r["ts"])
            else:
                need_remove[r["pid"]] = False
                if p and len(p) == 2:
                    p.append(r["ts"])
        elif t == "sched_waking":
            pending[r["pid"]] = [r["ts"]]
        elif t == "scx_task" and r["at"] == "switch_out":
            seen_out.add(r["pid"])
            need_remove[r["pid"]] = True
            pending.pop(r["pid"], None)
        elif t == "scx_task" and r["at"] == "switch_in":
            switch_ins += 1
            if r["pid"] in seen_out and need_remove.get(r["pid"]):
                unremoved += 1
            p = pending.pop(r["pid"], None)
            if p and len(p) == 3:
                chains += 1
                if not (p[0] <= p[1] <= p[2] <= r["ts"]):
                    late += 1
    print("%s: %d DSQs, %d ext switch-ins (%d not after a removal), %d count steps "
          "not +-1, %d waking-insert-remove-run chains (%d outside their latency)" %
          (name, len(depth), switch_ins, unremoved, bad, chains, late))
    if not switch_ins:
        fail("%s: no ext task switched in" % name)
    if unremoved:
        fail("%s: %d switch-ins of ext tasks without a removal from a DSQ" % (name, unremoved))
    if bad:
        fail("%s: %d DSQ count changes not by one" % (name, bad))
    if not chains or late:
        fail("%s: time in DSQ vs wakeup latency: %d chains, %d outside" % (name, chains, late))
    return inserts


def check_report(name, rep, recs, inserts):
    """The report's figures are the stream's: records and inserts by DSQ."""
    n = sum(1 for r in recs if r["type"].startswith("scx_"))
    if rep["records"] != n:
        fail("%s: report read %d scx records, the stream has %d" % (name, rep["records"], n))
    got = {d["dsq"]: d["inserts"] for d in rep["dsqs"]}
    if got != inserts:
        fail("%s: inserts by DSQ %s, the stream's %s" % (name, got, inserts))
    for d in rep["dsqs"]:
        if d["depth_mismatches"]:
            fail("%s: DSQ %s: %d count mismatches" % (name, d["dsq"], d["depth_mismatches"]))
    if "dsq_inc_nr" not in rep["hooks"]:
        fail("%s: hooks %r" % (name, rep["hooks"]))


eevdf, _ = load("eevdf")
if eevdf["records"] or eevdf["dsqs"]:
    fail("EEVDF: %d sched_ext records" % eevdf["records"])

for name, sched in (("simple", "simple"), ("central", "central")):
    rep, recs = load(name)
    if rep["scheduler_start"] != "enabled (%s)" % sched:
        fail("%s: scheduler at start %r" % (name, rep["scheduler_start"]))
    inserts = check_stream(name, recs)
    check_report(name, rep, recs, inserts)
    # The counters in sysfs, read before the session's start and after its
    # stop, changed at least as much as the tracepoint saw in between.
    ev = [(e["name"], e["delta"], e.get("sysfs_delta")) for e in rep["events"]]
    print("%s: events (tracepoint, sysfs) %s" % (name, ev))
    if (name == "simple" and not ev) or any(s is None or d > s for _, d, s in ev):
        fail("%s: event counters %s" % (name, ev))
    print("%s: DSQs %s" % (name, [(d["dsq"], d["inserts"], d["max_depth"]) for d in rep["dsqs"][:6]]))

simple, _ = load("simple")
if not any(d["dsq"] == "0" and d["kind"] == "custom" and d["inserts"] for d in simple["dsqs"]):
    fail("scx_simple's DSQ 0 is not in the report")
central, _ = load("central")
if not central["inserts_local"]:
    fail("scx_central: no inserts into local DSQs")

# The scheduler that failed: its exit, its dump, the window split at it.
rep, recs = load("fail")
exits = [t for t in rep["transitions"] if t["what"] == "exit"]
print("fail: transitions %s" % [(t["what"], t.get("exit_kind")) for t in rep["transitions"]])
if [t.get("exit_kind") for t in exits] != ["ERROR_BPF"]:
    fail("fail: exits %s" % exits)
else:
    at = exits[0]["ts_ns"]
    if at not in [p["from_ns"] for p in rep["phases"]]:
        fail("fail: no phase begins at the exit (%d): %s" % (at, rep["phases"]))
    before = [p for p in rep["phases"] if p["from_ns"] < at]
    if not sum(p["switch_ins"] for p in before):
        fail("fail: no ext switch-in before the exit")
    # Up to the exit in the stream: disabling moves every task off the
    # ext class, through the bypass DSQ, by paths of their own.
    upto = [r["ts"] for r in recs if r["type"] == "scx_op" and r["op"] == "exit"]
    check_stream("fail", recs, upto=upto[0] if upto else None)
if not any("failing on purpose after 300 runs" in l for l in rep["dump"]):
    fail("fail: the debug dump is not in the report (%d lines)" % len(rep["dump"]))
if rep.get("scheduler_stop") != "disabled":
    fail("fail: scheduler at stop %r" % rep.get("scheduler_stop"))
print("fail: %d dump lines, %d phases" % (len(rep["dump"]), len(rep["phases"])))
sys.exit(0 if ok else 1)
