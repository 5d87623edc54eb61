#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Checks for t-sampling.sh on a symbolized dump and a folded profile.

usage: check_samples.py DUMP.json FOLDED HOT.pids SYSCALL.pids HOGS.pids
"""
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def pid_of(path):
    return [int(l.split("=")[1]) for l in open(path) if l.startswith("pid=")]


def main():
    dump, folded, hot, sysc, hogs = sys.argv[1:6]
    hot_pid, sys_pid, hog_pids = pid_of(hot)[0], pid_of(sysc)[0], pid_of(hogs)
    samples, marks = [], {}
    for line in open(dump):
        e = json.loads(line)
        if e["type"] == "sample":
            samples.append(e)
        elif e["type"] == "cpu":
            marks.setdefault(e["cpu"], {})[e["reason"]] = e["ts"]
    if not samples:
        fail("no samples")

    # 1. hot_a / hot_b, resolved, 70/30, under main.
    user = [s for s in samples if s["pid"] == hot_pid and s["mode"] == "user"]
    leafs = [s["uframes"][0].split("+")[0] if s["uframes"] else "" for s in user]
    a, b = leafs.count("hot_a"), leafs.count("hot_b")
    # Enough for the split below to mean something (at 200 samples its
    # +-10% is three standard deviations), not a rate: a vCPU the host
    # starves gets fewer timer periods in the same guest seconds (484 were
    # seen on a busy host, and 880 in the next capture of the same run).
    if len(user) < 200:
        fail("only %d user samples of hotfuncs" % len(user))
    resolved = (a + b) / len(user)
    share_a = a / (a + b) if a + b else 0
    print("hotfuncs: %d user samples, %.1f%% in hot_a/hot_b, split %.1f/%.1f"
          % (len(user), 100 * resolved, 100 * share_a, 100 - 100 * share_a))
    if resolved < 0.90:
        fail("only %.1f%% of hotfuncs' user samples resolve to hot_a/hot_b" % (100 * resolved))
    if abs(share_a - 0.70) > 0.10:
        fail("hot_a share %.1f%%, want 70 +- 10" % (100 * share_a))
    under_main = [s for s in user if any(f.startswith("main+") for f in s["uframes"])]
    if len(under_main) < 0.9 * len(user):
        fail("main is an ancestor in only %d of %d samples" % (len(under_main), len(user)))
    stacks = [l for l in open(folded) if l.startswith("hotfuncs;") and ";main;hot_a" in l]
    if not stacks:
        fail("no folded stack hotfuncs;...;main;hot_a")

    # 2. The syscall loop's kernel stacks each unwind to where the kernel
    # was entered (outermost frame last): the system call entry, or an
    # exception or interrupt taken in user mode. The program's start
    # faults its pages in, and on a debug kernel under a busy host that
    # was a fifth of its kernel samples (170 of 903, 37 more timer
    # interrupts): the system call entry is most of them, not nearly all.
    kern = [s for s in samples if s["pid"] == sys_pid and s["mode"] == "kernel"]
    whole = [s for s in kern if s["kframes"] and
             s["kframes"][-1].startswith(("entry_SYSCALL_64", "asm_", "ret_from_fork"))]
    entry = [s for s in kern if any(f.startswith("__x64_sys_") or
                                    f.startswith("entry_SYSCALL_64")
                                    for f in s["kframes"])]
    print("syscall loop: %d kernel samples, %d unwound to a kernel entry, %d to the syscall entry"
          % (len(kern), len(whole), len(entry)))
    if len(kern) < 50 or len(whole) < 0.95 * len(kern):
        fail("kernel stacks do not reach the kernel's entry")
    if len(entry) < 0.5 * len(kern):
        fail("syscall entry missing from kernel stacks")

    busy = sum(1 for s in samples if s["pid"] in hog_pids)
    print("hogs: %d samples" % busy)


main()
