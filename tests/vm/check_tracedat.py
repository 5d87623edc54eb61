#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `ktprof report --json` of a trace-cmd trace.dat with that of
ktprof's own capture of the same run, per thread of the workload born in
the trace (a fork and a sched_wakeup_new in it): ktprof records from
before trace-cmd enables its events to after it disables them, and the
workload's main thread (trace-cmd's child, exec'd) was born before.

Counts must be equal: voluntary and involuntary switches, wakeup and
runqueue latencies (the test has a task switch on every CPU before the
workload begins: a CPU's time before its first switch in a trace is
unknown, and latencies that overlap it are left out). Times cannot be compared within a fixed tolerance:
both tracers read the clock in the same tracepoint call, one after the
other, and under TCG the vCPU can be handed over between the two readings
(hundreds of microseconds seen, as vm/report's check_perf_sched.py says).
So events are paired: every sched_switch and sched_waking of the trace
has its twin in ktprof's capture, on the same CPU, in the same order,
with the same pids (`ktprof dump` of both), and the gap of an event is
the trace's time less ktprof's. Then:

- runtime: the trace's figure less ktprof's equals the sum over the
  thread's slices of (gap at its switch-out - gap at its switch-in),
  within a microsecond;
- wakeup and runqueue latency maxima: differ by at most the largest gap
  of the thread's events, twice, plus a microsecond.

usage: check_tracedat.py CAP.json TRACE.json PIDS CAP-DUMP.txt TRACE-DUMP.txt
       check_tracedat.py --same A.json B.json      (every thread's figures equal)
"""
import collections
import json
import re
import sys

SWITCH = re.compile(r'^\s*([\d.]+) \[(\d+)\] sched_switch\s+prev_pid=(\d+) .*next_pid=(\d+)')
WAKING = re.compile(r'^\s*([\d.]+) \[(\d+)\] sched_waking\s+pid=(\d+) .*?( new=1)?$')
FORK = re.compile(r'^\s*[\d.]+ \[\d+\] fork\s+parent_pid=\d+ child_pid=(\d+)')


def ns(text):
    sec, _, frac = text.partition('.')
    return int(sec) * 10**9 + int((frac + '000000000')[:9])


def figures(t):
    lat = t.get('latency', {})
    return {
        'comm': t['comm'], 'runtime': t['runtime_ns'],
        'vol': t['voluntary_switches'], 'invol': t['involuntary_switches'],
        'wakeups': lat.get('wakeup', {}).get('count', 0),
        'wakeup_max': lat.get('wakeup', {}).get('max_ns', 0),
        'rq': lat.get('runqueue', {}).get('count', 0),
        'rq_max': lat.get('runqueue', {}).get('max_ns', 0),
    }


def threads(path):
    return {t['pid']: figures(t) for t in json.load(open(path))['threads']}


def same(a, b):
    ta, tb = threads(a), threads(b)
    ok = ta == tb
    for pid in sorted(set(ta) | set(tb)):
        if ta.get(pid) != tb.get(pid):
            print('thread %d: %s vs %s' % (pid, ta.get(pid), tb.get(pid)))
    print('%d threads, %s' % (len(ta), 'the same' if ok else 'DIFFERENT'))
    return ok


def events(path):
    """Per CPU: [(kind, key, time)], and the pids born (fork records)."""
    per_cpu, born = collections.defaultdict(list), set()
    for line in open(path):
        m = SWITCH.match(line)
        if m:
            per_cpu[int(m.group(2))].append(('s', (int(m.group(3)), int(m.group(4))),
                                             ns(m.group(1))))
            continue
        m = WAKING.match(line)
        if m:
            per_cpu[int(m.group(2))].append(('w', (int(m.group(3)), bool(m.group(4))),
                                             ns(m.group(1))))
            continue
        m = FORK.match(line)
        if m:
            born.add(int(m.group(1)))
    return per_cpu, born


def pair(cap, trace):
    """The trace's events with their twins' times: per CPU [(kind, key, t, kt)]."""
    paired = {}
    for cpu, tev in trace.items():
        kev, n = cap.get(cpu, []), min(8, len(tev))
        keys = [(e[0], e[1]) for e in kev]
        want = [(e[0], e[1]) for e in tev]
        start = next((i for i in range(len(kev) - len(tev) + 1)
                      if keys[i:i + n] == want[:n] and keys[i:i + len(tev)] == want), None)
        if start is None:
            print('cpu %d: the trace\'s %d events are not in ktprof\'s capture in order'
                  % (cpu, len(tev)))
            return None
        paired[cpu] = [(e[0], e[1], e[2], kev[start + i][2]) for i, e in enumerate(tev)]
    return paired


def main():
    if sys.argv[1] == '--same':
        sys.exit(0 if same(sys.argv[2], sys.argv[3]) else 1)
    cap, trace = threads(sys.argv[1]), threads(sys.argv[2])
    workload = {int(l.split('=')[1]) for l in open(sys.argv[3]) if '=' in l}
    cap_ev, _ = events(sys.argv[4])
    trace_ev, born = events(sys.argv[5])
    paired = pair(cap_ev, trace_ev)
    if paired is None:
        sys.exit(1)
    gaps = [e[2] - e[3] for evs in paired.values() for e in evs]
    print('%d events paired; gap (trace - ktprof) min %d, median %d, max %d ns' %
          (len(gaps), min(gaps), sorted(gaps)[len(gaps) // 2], max(gaps)))
    # Each thread's slices by the twins' times, and its events' largest gap.
    effect, maxgap = collections.Counter(), collections.Counter()
    for cpu, evs in paired.items():
        cur = None
        for kind, key, t, kt in evs:
            if kind == 'w':
                maxgap[key[0]] = max(maxgap[key[0]], abs(t - kt))
                continue
            prev, nxt = key
            for p in (prev, nxt):
                maxgap[p] = max(maxgap[p], abs(t - kt))
            if cur and cur[0] == prev:
                effect[prev] += (t - kt) - cur[1]
            cur = (nxt, t - kt)
    ok, compared = True, 0
    for pid in sorted(workload & born):
        if pid not in cap or pid not in trace:
            print('thread %d: not in both reports' % pid)
            ok = False
            continue
        a, b = cap[pid], trace[pid]
        compared += 1
        bad = [k for k in ('vol', 'invol', 'wakeups', 'rq') if a[k] != b[k]]
        diff = b['runtime'] - a['runtime']
        if abs(diff - effect[pid]) > 1000:
            bad.append('runtime')
        tol = 2 * maxgap[pid] + 1000
        bad += [k for k in ('wakeup_max', 'rq_max') if abs(a[k] - b[k]) > tol]
        print('thread %d %s: runtime %d vs %d ns (paired gaps %+d ns), switches %d/%d, '
              'wakeups %d max %d vs %d, runqueue %d max %d vs %d (tolerance %d ns)%s' %
              (pid, b['comm'], a['runtime'], b['runtime'], effect[pid], b['vol'], b['invol'],
               b['wakeups'], a['wakeup_max'], b['wakeup_max'], b['rq'], a['rq_max'],
               b['rq_max'], tol, ': DIFFER in ' + ','.join(bad) if bad else ''))
        ok = ok and not bad
    if compared < 3:
        print('only %d threads of the workload born in the trace' % compared)
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
