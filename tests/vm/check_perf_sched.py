#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `ktprof report --json` with perf on the same events (both
recorded in one run), per thread of the workload (comm ktp-*) whose whole
life both tools saw: those perf saw born (sched_wakeup_new). ktprof
records from before perf enables its events to after it disables them, so
the thread perf forks and execs (the workload's main thread) has switches
and wakeups that only ktprof saw: it is left out, and says so.

Each tool's probe reads the clock itself, one after the other in the same
tracepoint call. Under -icount guest time counts instructions of all
vCPUs, and TCG runs them in turn: when it hands over to the other vCPU
between the two probes, the second reading is hundreds of microseconds
later (817 us was seen, for one event in 500). So the two tools' figures
are not compared within a tolerance but event by event:

- events: every sched_switch and sched_waking perf recorded has its twin
  in ktprof's capture, on the same CPU, in the same order, with the same
  pids (ktprof records more: from before perf starts to after it stops).
  The gap of an event is perf's time less ktprof's.
- perf's figures: switch-outs, runtime and maximum wakeup latency from
  perf's own events by timehist's rule (a slice runs from the CPU's
  previous switch) agree with `perf sched timehist`, which truncates each
  line to the microsecond; its maximum scheduling delay restarts at a
  second waking, so it is at most the rule's. timehist gives the
  switch-outs of an exiting thread whose pid is already gone to no thread
  (pid -1): its last (prev_state X), and a preemption on its way out (R+,
  seen on 7.3); those are added back, as `perf script` shows them.
- ktprof's figures, to the nanosecond: switch-outs, and runtime, equal
  to the same slices measured with the twins' times, and ktprof's own
  slices after perf's last event on their CPU (perf stops reading when
  its workload is reaped, which can precede the last switch-out of a
  thread preempted on its way out); the maximum wakeup
  latency (the first sched_waking or sched_wakeup_new of a thread that
  is not running nor waiting since a preemption, to its switch-in) equal
  to the same rule on the twins' times. The sum of the gaps' effect on a thread's runtime is printed.

usage: check_perf_sched.py REPORT.json TIMEHIST.txt PERF-SCRIPT.txt KTPROF-DUMP.txt
  PERF-SCRIPT.txt: `perf script --ns`; KTPROF-DUMP.txt: `ktprof dump`
"""
import collections
import json
import re
import statistics
import sys

TIMEHIST = re.compile(r'\s*([\d.]+)\s+\[\d+\]\s+(\S.*?)\[(\d+)(?:/\d+)?\]\s+'
                      r'([\d.]+)\s+([\d.]+)\s+([\d.]+)')
PERF_SWITCH = re.compile(r'^\s*\S+\s+(-?\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:sched_switch:.*'
                         r'prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)')
PERF_WAKING = re.compile(r'^.*\[(\d+)\]\s+([\d.]+):\s+sched:sched_waking:.* pid=(\d+) ')
PERF_NEW = re.compile(r'^.*\[(\d+)\]\s+([\d.]+):\s+sched:sched_wakeup_new:.* pid=(\d+) ')
KT_SWITCH = re.compile(r'^\s*([\d.]+) \[(\d+)\] sched_switch\s+prev_pid=(\d+) .*next_pid=(\d+)')
KT_WAKING = re.compile(r'^\s*([\d.]+) \[(\d+)\] sched_waking\s+pid=(\d+) .*?( new=1)?$')


def ns(text):
    """A time printed as seconds with 9 decimals, in integer nanoseconds."""
    sec, _, frac = text.partition('.')
    return int(sec) * 10**9 + int((frac + '000000000')[:9])


class Event:
    """One perf event: kind 'switch', 'waking' or 'new' (sched_wakeup_new,
    which ktprof records as a sched_waking with new=1); t is perf's time,
    kt its ktprof twin's (None until matched)."""

    def __init__(self, kind, cpu, t, key, sample_pid=None, state=None):
        self.kind, self.cpu, self.t, self.key = kind, cpu, t, key
        self.sample_pid, self.state, self.kt = sample_pid, state, None


def perf_events(path):
    events = []
    for line in open(path):
        m = PERF_SWITCH.match(line)
        if m:
            spid, cpu, t, prev, state, nxt = m.groups()
            events.append(Event('switch', int(cpu), ns(t), (int(prev), int(nxt)),
                                spid, state))
            continue
        m = PERF_WAKING.match(line)
        if m:
            events.append(Event('waking', int(m.group(1)), ns(m.group(2)), int(m.group(3))))
            continue
        m = PERF_NEW.match(line)
        if m:
            events.append(Event('new', int(m.group(1)), ns(m.group(2)), int(m.group(3))))
    return events


def ktprof_events(path):
    """Per CPU, in recording order: (kind, key, time)."""
    per = collections.defaultdict(list)
    for line in open(path):
        m = KT_SWITCH.match(line)
        if m:
            per[int(m.group(2))].append(('switch', (int(m.group(3)), int(m.group(4))),
                                         ns(m.group(1))))
            continue
        m = KT_WAKING.match(line)
        if m:
            kind = 'new' if m.group(4) else 'waking'
            per[int(m.group(2))].append((kind, int(m.group(3)), ns(m.group(1))))
    return per


def match(events, kt, tails):
    """Give each perf switch and waking its ktprof twin; None or an error.
    @tails gets, per CPU, ktprof's events after perf's last there."""
    per = collections.defaultdict(list)
    for e in events:
        per[e.cpu].append(e)
    for cpu, pe in per.items():
        want = [(e.kind, e.key) for e in pe]
        have = [(k, key) for k, key, _ in kt.get(cpu, [])]
        head = want[:20]
        start = next((i for i in range(len(have) - len(want) + 1)
                      if have[i:i + len(head)] == head), None)
        if start is None:
            return 'CPU %d: perf\'s first events are not in ktprof\'s capture' % cpu
        for j, e in enumerate(pe):
            kind, key, t = kt[cpu][start + j]
            if (kind, key) != (e.kind, e.key):
                return ('CPU %d: perf\'s event %d (%s %s) is %s %s in ktprof\'s capture'
                        % (cpu, j, e.kind, e.key, kind, key))
            e.kt = t
        tails[cpu] = kt[cpu][start + len(pe):]
    return None


def tail_slices(events, tails):
    """Per thread, the switch-outs and runtime of ktprof's events after
    perf's last on each CPU: perf stops reading when its workload is
    reaped, which can come before the last context switch of a thread
    preempted on its way out (its X switch-out, seen on 7.3). The report
    counts them; the twins cannot."""
    last = {}
    for e in events:
        if e.kind == 'switch':
            last[e.cpu] = e.kt
    count, run = collections.Counter(), collections.Counter()
    for cpu, evs in tails.items():
        for kind, key, t in evs:
            if kind != 'switch':
                continue
            if cpu in last:
                count[key[0]] += 1
                run[key[0]] += t - last[cpu]
            last[cpu] = t
    return count, run


def slices(events, when):
    """timehist's rule: per thread, switch-outs and the sum of slices, a
    slice running from the CPU's previous switch; `when` picks the clock."""
    last = {}
    count, run = collections.Counter(), collections.Counter()
    orphans, orphan = collections.Counter(), collections.Counter()
    for e in events:
        if e.kind != 'switch':
            continue
        prev = e.key[0]
        if e.cpu in last:
            count[prev] += 1
            run[prev] += when(e) - last[e.cpu]
            # perf sampled no pid: timehist gives the slice to pid -1
            if e.sample_pid == '-1':
                orphans[prev] += 1
                orphan[prev] += when(e) - last[e.cpu]
        last[e.cpu] = when(e)
    return count, run, orphans, orphan


def wakeup_max(events, when, report_rule):
    """Per thread, the longest wakeup latency: from the first waking of a
    thread not running to its switch-in; and a waking while it ran, if it
    then leaves in S or D and runs again with no other waking, from that
    switch-out (docs/report.md: the waking raced it). By the report's rule
    (@report_rule) a thread preempted (switched out in R) waits in a
    runqueue until its switch-in: a waking meanwhile (it had set a sleep
    state when it was preempted) starts no wakeup, as the report counts
    that wait as runqueue latency; timehist's delay counts from it."""
    pending, late, woke, running, queued = {}, set(), set(), set(), set()
    worst = collections.Counter()
    for e in events:
        if e.kind == 'switch':
            prev, nxt = e.key
            running.discard(prev)
            pending.pop(prev, None)
            late.discard(prev)
            if prev in woke and e.state and e.state[0] in 'SD':
                pending[prev] = when(e)
                late.add(prev)
            if report_rule and e.state and e.state[0] == 'R':
                queued.add(prev)
            woke.discard(prev)
            running.add(nxt)
            queued.discard(nxt)
            if nxt in pending:
                worst[nxt] = max(worst[nxt], when(e) - pending.pop(nxt))
                late.discard(nxt)
        elif e.key in running:
            woke.add(e.key)
        elif e.key in queued:
            continue
        elif e.key in late or e.key not in pending:
            pending[e.key] = when(e)
            late.discard(e.key)
    return worst


def timehist(path):
    per = {}
    for line in open(path):
        m = TIMEHIST.match(line)
        if m:
            s = per.setdefault(int(m.group(3)), {'n': 0, 'run': 0.0, 'delay': 0.0})
            s['n'] += 1
            s['run'] += float(m.group(6))
            s['delay'] = max(s['delay'], float(m.group(5)))
    return per


def check_thread(t, th, perf_clock, twin_clock):
    """Problems with one thread's figures, as lines."""
    tid, bad = t['pid'], []
    pn, prun = perf_clock['count'][tid], perf_clock['run'][tid]
    kn = twin_clock['count'][tid] + twin_clock['tail_count'][tid]
    krun = twin_clock['run'][tid] + twin_clock['tail_run'][tid]
    n = t['voluntary_switches'] + t['involuntary_switches']
    lat, plat, klat = (t['latency']['wakeup']['max_ns'], perf_clock['wakeup'][tid],
                       twin_clock['wakeup'][tid])
    print('%-12s %6d  switches %5d %5d  runtime %9.3f ms (perf %9.3f, gaps %+7.3f)'
          '  max wakeup %7.3f ms (perf %7.3f, twins %7.3f, timehist %7.3f)'
          % (t['comm'], tid, n, pn, t['runtime_ns'] / 1e6, prun / 1e6, (prun - krun) / 1e6,
             lat / 1e6, plat / 1e6, klat / 1e6, th['delay']))
    # timehist prints each slice truncated to the microsecond
    short = prun - perf_clock['orphan'][tid] - th['run'] * 1e6
    if th['n'] + perf_clock['orphans'][tid] != pn \
            or not -1 <= short <= 1000 * th['n'] or th['delay'] * 1e6 > plat + 1:
        bad.append('perf\'s events and perf sched timehist disagree (timehist %d switches,'
                   ' %.3f ms, %.3f ms)' % (th['n'], th['run'], th['delay']))
    if n != kn:
        bad.append('switch-outs differ')
    if t['runtime_ns'] != krun:
        bad.append('runtime differs from the same slices\' (%+d ns)' % (t['runtime_ns'] - krun))
    if lat != klat:
        bad.append('maximum wakeup latency differs from the same events\' (%+d ns)' % (lat - klat))
    return bad


def main():
    doc = json.load(open(sys.argv[1]))
    th = timehist(sys.argv[2])
    events = perf_events(sys.argv[3])
    tails = {}
    err = match(events, ktprof_events(sys.argv[4]), tails)
    if err:
        print('FAIL: ' + err)
        sys.exit(1)
    gaps = [e.t - e.kt for e in events]
    median = statistics.median(gaps)
    far = sum(1 for g in gaps if abs(g - median) > 50000)
    print('%d events matched; gap median %d ns, %d over 50 us from it'
          % (len(gaps), median, far))

    def twin(e):
        return e.kt

    def own(e):
        return e.t

    # Each clock's rule walks the events in that clock's order, as each
    # tool does: a waking on one CPU and a switch on another a vCPU
    # handover apart can be in one order by perf's times and in the other
    # by ktprof's (seen on 7.3: a hog's waking taken as the first of two
    # by one clock and as the second by the other, 24 us apart). Sorting
    # is stable and each CPU's times rise, so a CPU's order is kept.
    perf_clock, twin_clock = {}, {}
    by_kt = sorted(events, key=twin)
    for clock, when, order in ((perf_clock, own, events), (twin_clock, twin, by_kt)):
        clock['count'], clock['run'], clock['orphans'], clock['orphan'] = slices(order, when)
        # perf's by timehist's rule (timehist is checked against it), the
        # twins' by the report's.
        clock['wakeup'] = wakeup_max(order, when, clock is twin_clock)
    twin_clock['tail_count'], twin_clock['tail_run'] = tail_slices(events, tails)
    workload = {t['pid'] for t in doc['threads'] if t['comm'].startswith('ktp-')}
    for tid, n in sorted(twin_clock['tail_count'].items()):
        if tid in workload:
            print('thread %d: %d switch-outs after perf\'s last event, %d ns: ktprof\'s only'
                  % (tid, n, twin_clock['tail_run'][tid]))
    new = {e.key for e in events if e.kind == 'new'}
    bad = checked = 0
    for t in doc['threads']:
        if not t['comm'].startswith('ktp-'):
            continue
        if t['pid'] not in new:
            print('%-12s %6d  left out: born before perf recorded' % (t['comm'], t['pid']))
            continue
        if t['pid'] not in th:
            print('thread %d (%s): not in perf sched timehist' % (t['pid'], t['comm']))
            bad += 1
            continue
        checked += 1
        for problem in check_thread(t, th[t['pid']], perf_clock, twin_clock):
            print('  ' + problem)
            bad += 1
    if checked < 5:
        print('only %d workload threads compared' % checked)
        bad += 1
    sys.exit(1 if bad else 0)


main()
