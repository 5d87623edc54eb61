#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Exact accounting, per CPU: every record the module counts as written
(stats `records`, less those `overwritten` later in overwrite mode) is in
the decoded stream (`ktprof dump --json`), and the loss the stream reports
(`lost` events) is the loss the module counted (stats `lost`). No bytes of
the stream are invalid.

usage: check_counts.py STATS DUMP.json
"""
import json
import sys

PSEUDO = {"lost", "garbage", "subbuf"}


def stats(path):
    per = {}
    for line in open(path):
        f = line.split()
        if not f or not f[0].startswith("cpu=") or len(f) < 2 or "=" not in f[1]:
            continue
        kv = dict(x.split("=", 1) for x in f if "=" in x)
        per[int(kv["cpu"])] = (int(kv["records"]) - int(kv.get("overwritten", 0)),
                               int(kv["lost"]))
    return per


def decoded(path):
    records, lost, garbage = {}, {}, 0
    for line in open(path):
        e = json.loads(line)
        cpu, t = e["cpu"], e["type"]
        if t == "garbage":
            garbage += e.get("bytes", 1)
        elif t == "lost":
            lost[cpu] = lost.get(cpu, 0) + e["records"]
        elif t not in PSEUDO:
            records[cpu] = records.get(cpu, 0) + 1
    return records, lost, garbage


def main():
    want = stats(sys.argv[1])
    records, lost, garbage = decoded(sys.argv[2])
    bad = 0
    if garbage:
        print("FAIL: %d bytes of the stream are invalid" % garbage)
        bad = 1
    for cpu in sorted(want):
        w_rec, w_lost = want[cpu]
        d_rec, d_lost = records.get(cpu, 0), lost.get(cpu, 0)
        ok = w_rec == d_rec and w_lost == d_lost
        print("cpu %d: written %d decoded %d, lost %d reported %d%s"
              % (cpu, w_rec, d_rec, w_lost, d_lost, "" if ok else "  <-- differ"))
        bad |= not ok
    sys.exit(1 if bad else 0)


main()
