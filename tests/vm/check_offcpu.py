#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check `ktprof report --offcpu` on a capture of tests/workloads/blockers.

usage: check_offcpu.py KERNEL_VERSION THREADS REPORT_JSON FOLDED [TIMEHIST KALLSYMS]

KERNEL_VERSION is lib.sh's kernel_version (601, 612, 703); THREADS the
workload's "NAME TID" lines; REPORT_JSON `report --json --offcpu --states`;
FOLDED `report --offcpu --folded`, both of the workload's process;
TIMEHIST `perf sched timehist -g --state --max-stack 127` of `perf record
-e sched:sched_switch -g` (perf sched record -g's switch event) on the
same run, KALLSYMS the guest's /proc/kallsyms.
"""
import collections
import re
import sys


class Kallsyms:
    """Text symbols of a kallsyms snapshot, and the scheduler's text."""

    def __init__(self, path):
        syms = []
        for line in open(path):
            w = line.split()
            # Modules' too (9p's p9_client_rpc is one on Debian's kernels).
            if len(w) >= 3 and w[1] in ("t", "T", "w", "W"):
                syms.append((int(w[0], 16), w[2]))
        syms.sort()
        by = dict((n, a) for a, n in syms)
        self.ranges = [(by["__sched_text_start"], by["__sched_text_end"]),
                       (by["__lock_text_start"], by["__lock_text_end"])]

        self.sched = set(n for a, n in syms
                         if any(lo <= a < hi for lo, hi in self.ranges))

    def skipped(self, name):
        """Whether the rule passes over the function @name (perf prints names)."""
        return name in self.sched or \
            name.startswith(("__traceiter_", "__probestub_", "perf_trace_"))

    def blocking(self, names):
        """The kernel's wchan rule, as docs/report.md states it for ktprof."""
        for name in names:
            if name != "[unknown]" and not self.skipped(name):
                return name
        return "[scheduler]"


# time, [cpu], comm[tid/pid], wait, sch delay, run time, state, callchain
TIMEHIST = re.compile(r"^\s*[\d.]+\s+\[\d+\]\s+.*\[(\d+)(?:/\d+)?\]"
                      r"\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\S+)\s+(.*)$")


def perf_blocking(timehist, ksyms, tids):
    """Per thread of @tids: its sleeps' blocking functions by count, by the
    rule over perf's callchains, and by perf's own first frame."""
    rule = collections.defaultdict(collections.Counter)
    own = collections.defaultdict(collections.Counter)
    for line in open(timehist):
        m = TIMEHIST.match(line)
        if not m or int(m.group(1)) not in tids or m.group(2) not in ("S", "D"):
            continue
        # perf skips schedule and __schedule itself, not the tracepoint's.
        names = [n for n in m.group(3).split(" <- ")
                 if not n.startswith("__traceiter_")]
        rule[int(m.group(1))][ksyms.blocking(names)] += 1
        own[int(m.group(1))][names[0] if names else "[none]"] += 1
    return rule, own


def expected(version):
    """Each thread's blocking function, state and its waker's write path."""
    # As the test kernels spell them: 6.1 and 6.12 the old names, 7.3 the
    # pipe's anon_pipe_read/anon_pipe_write and futex_do_wait.
    new = version >= 700
    pipe_read, pipe_write = ("anon_pipe_read", "anon_pipe_write") if new \
        else ("pipe_read", "pipe_write")
    return {
        "ktp-piperd": ("S", {pipe_read}),
        "ktp-sleeper": ("S", {"hrtimer_nanosleep"}),
        "ktp-futex": ("S", {"futex_do_wait" if new else "futex_wait_queue"}),
        # A contended pthread mutex: the same wait, by FUTEX_WAIT.
        "ktp-mutex": ("S", {"futex_do_wait" if new else "futex_wait_queue"}),
        # fsync over 9p waits for the host's reply, uninterruptible.
        "ktp-fsync": ("D", {"p9_client_rpc"}),
    }, pipe_write


def main():
    version = int(sys.argv[1])
    tids = {}
    for line in open(sys.argv[2]):
        name, tid = line.split()
        tids[name] = int(tid)
    report = __import__("json").load(open(sys.argv[3]))
    off = report["offcpu"]
    want, pipe_write = expected(version)
    ok = True

    def fail(msg):
        nonlocal ok
        print("FAIL: " + msg)
        ok = False

    print("%d switch-outs with a stack, %d wakings with the waker's, %d missing" %
          (off["switches_with_stack"], off["wakings_with_stack"], off["stacks_missing"]))
    if off["stacks_missing"]:
        fail("%d switch-outs name a stack the capture lacks" % off["stacks_missing"])

    # Each thread's sleeps by state and function, and its time by state,
    # from the rows by function. Its most frequent blocking function is
    # the loop's: one long wait (its start, behind the others' output on
    # a slow guest) may take longer.
    by = collections.defaultdict(lambda: collections.Counter())
    state_ns = collections.defaultdict(lambda: collections.Counter())
    for f in off["functions"]:
        tid = f["thread"]["pid"]
        by[(tid, f["state"])][f["function"]] += f["sleeps"]
        state_ns[tid][f["state"]] += f["ns"]

    for name, (state, functions) in sorted(want.items()):
        tid = tids.get(name)
        if tid is None:
            fail("the workload did not name %s" % name)
            continue
        top = by[(tid, state)].most_common(1)
        print("%-12s %s: %s" % (name, state, by[(tid, state)].most_common(3)))
        if not top or top[0][0] not in functions:
            fail("%s blocked most often in %s, not in %s" % (name, top, sorted(functions)))

    # The same records: --offcpu's S and D of each thread are --states' own.
    states = {t["pid"]: t["states"] for t in report["threads"]}
    for name, tid in sorted(tids.items()):
        s = states.get(tid)
        if s is None:
            fail("%s (%d) is not in the report" % (name, tid))
            continue
        got = (state_ns[tid]["S"], state_ns[tid]["D"])
        if got != (s["sleeping_ns"], s["blocked_ns"]):
            fail("%s: off-CPU S/D %s, states %s" % (name, got, (s["sleeping_ns"], s["blocked_ns"])))

    # The pipe reader's sleeps, joined to its writer's stack.
    reader, writer = tids.get("ktp-piperd"), tids.get("ktp-pipewr")
    joined = [w for w in off["woken"] if w["thread"]["pid"] == reader]
    by_writer = [w for w in joined if w["waker"] == "ktp-pipewr (%d)" % writer]
    print("ktp-piperd woken: %s" % [(w["waker"], w["sleeps"]) for w in joined[:4]])
    if not by_writer:
        fail("no sleep of the pipe reader joined to its writer's stack")
    elif not any(pipe_write in w["waker_kframes"] for w in by_writer):
        fail("the writer's stacks lack %s: %s" % (pipe_write, by_writer[0]["waker_kframes"]))

    # Its user stack (-S user): the syscall's caller in libc, named through
    # the MAP records the stacks' own path wrote.
    top = [s for s in off["stacks"] if s["thread"]["pid"] == reader and s["function"] in
           want["ktp-piperd"][1]]
    if not top or not top[0]["uframes"] or "read" not in top[0]["uframes"][0]:
        fail("the pipe reader's user stack does not begin in read(): %s" %
             (top[0]["uframes"] if top else None))
    else:
        print("ktp-piperd user stack: %s" % top[0]["uframes"][:3])

    # perf sched timehist -g on the same run: each thread's most frequent
    # blocking function, by the same rule over perf's callchains; perf's
    # own first frame (it passes over schedule and __schedule only) is
    # that function or one the rule passes over.
    if len(sys.argv) > 6:
        ksyms = Kallsyms(sys.argv[6])
        perf, perf_own = perf_blocking(sys.argv[5], ksyms, set(tids.values()))
        for name, (state, _) in sorted(want.items()):
            tid = tids.get(name)
            ours = by[(tid, state)].most_common(1)
            theirs = perf[tid].most_common(1)
            first = perf_own[tid].most_common(1)
            print("%-12s ktprof %s, perf %s (timehist's first frame %s)" %
                  (name, ours, theirs, first))
            if not ours or not theirs or ours[0][0] != theirs[0][0]:
                fail("%s: ktprof blocks most often in %s, perf in %s" % (name, ours, theirs))
            elif not first or (first[0][0] != ours[0][0] and not ksyms.skipped(first[0][0])):
                fail("%s: timehist names %s first, neither %s nor a scheduler function" %
                     (name, first, ours[0][0]))

    # Folded: the reader's lines are its stacks, weighing its off-CPU time.
    weight = 0
    for line in open(sys.argv[4]):
        stack, ns = line.rsplit(" ", 1)
        if stack.startswith("ktp-piperd;"):
            weight += int(ns)
    if weight != sum(state_ns[reader].values()):
        fail("folded ktp-piperd weighs %d ns, the report %d" % (weight, sum(state_ns[reader].values())))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
