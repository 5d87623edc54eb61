#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ktprof's times against ftrace's with each clock (vm/clock).

usage: check_clock.py CAP-BOOT TRACE-BOOT CAP-TSC TRACE-TSC   (ktprof dump outputs)

Each trace's sched_switch and sched_waking events are paired with their
twins in ktprof's capture of the same run (check_tracedat.pair) and a
gap is the trace's time less ktprof's. With boot time, on one vCPU under
-icount, gaps are the instructions between the two tracers' readings:
nearly constant, but for the events where either tracer did more between
them (a sub-buffer switch; on a debug kernel, lockdep) that reach
microseconds, and differ in number from one run to the next (on the
debug kernel, 1 to 3.5 us). So the TSC's gaps are held to boot time's
distribution: each of its quantiles (1% to 99%) within LIMIT ns of boot
time's, or within boot time's own spread (its 99% less its 1%) where that
is wider, none more than 10 us from boot time's median. The TSC capture must have CLOCK
records, none more than a span apart while the CPU's records are.
"""
import re
import sys

import check_tracedat

LIMIT = 1000
CLOCK = re.compile(r'^\s*([\d.]+) \[(\d+)\] clock\s')
RECORD = re.compile(r'^\s*([\d.]+) \[(\d+)\] ')


def gaps(cap, trace):
    paired = check_tracedat.pair(check_tracedat.events(cap)[0],
                                 check_tracedat.events(trace)[0])
    if paired is None:
        sys.exit(1)
    return sorted(e[2] - e[3] for evs in paired.values() for e in evs)


def clocks(path):
    """CLOCK records, and the largest time between a record and the last CLOCK."""
    n, worst, last = 0, 0, {}
    for line in open(path):
        m = CLOCK.match(line)
        if m:
            n += 1
            last[m.group(2)] = check_tracedat.ns(m.group(1))
            continue
        m = RECORD.match(line)
        if m and m.group(2) in last:
            worst = max(worst, check_tracedat.ns(m.group(1)) - last[m.group(2)])
    return n, worst


def quantile(g, p):
    return g[min(len(g) - 1, len(g) * p // 100)]


def main():
    boot, tsc = gaps(sys.argv[1], sys.argv[2]), gaps(sys.argv[3], sys.argv[4])
    ref = boot[len(boot) // 2]
    ok = True
    for name, g in (('boot', boot), ('tsc', tsc)):
        print('%s: %d events paired; gap (ns) min %d, 1%% %d, 10%% %d, median %d, '
              '90%% %d, 99%% %d, max %d' %
              ((name, len(g), g[0]) + tuple(quantile(g, p) for p in (1, 10, 50, 90, 99)) +
               (g[-1],)))
        if len(g) < 1000:
            print('%s: too few events paired (%d)' % (name, len(g)))
            ok = False
    worst = max(abs(quantile(tsc, p) - quantile(boot, p)) for p in range(1, 100))
    far = max(abs(x - ref) for x in tsc)
    limit = max(LIMIT, quantile(boot, 99) - quantile(boot, 1))
    print('tsc against boot: quantiles 1%%-99%% at most %d ns apart (limit %d); '
          'a gap at most %d ns from boot\'s median' % (worst, limit, far))
    if worst > limit or far > 10 * LIMIT:
        print('tsc: beyond %d ns of boot time' % limit)
        ok = False
    n, worst = clocks(sys.argv[1])
    if n:
        print('boot: %d CLOCK records' % n)
        ok = False
    n, worst = clocks(sys.argv[3])
    print('tsc: %d CLOCK records; a record at most %d ns after its CPU\'s last' % (n, worst))
    # A writer takes a pair once its counter is a span (1 ms) past the last.
    if not n or worst > 1001000:
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
