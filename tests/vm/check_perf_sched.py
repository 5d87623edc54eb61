#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare `ktprof report --json` with `perf sched timehist` on the same
events (both recorded in one run), per thread of the workload (comm ktp-*)
whose whole life both tools saw: those perf saw born (sched_wakeup_new).
ktprof records from before perf enables its events to after it disables
them, so the thread perf forks and execs (the workload's main thread) has
switches and wakeups that only ktprof saw: it is left out, and says so.

- switch-outs: equal. perf attributes an exiting thread's last switch-out
  (prev_state X) to no thread (pid -1): that one is added back to perf's
  count, as `perf script` shows it.
- runtime: within 3% + 1 ms. Both tools sum the same slices through the
  same clock (perf records with -k mono: CLOCK_MONOTONIC, which is
  ktprof's CLOCK_BOOTTIME less the time suspended), but each probe
  reads it itself, one after the other in the same tracepoint call: when
  the host starves the vCPU between the two probes, a slice's two ends
  can move by that much. (With perf's default clock, local_clock, the
  runtimes of a busy host's run differed by up to 17%: the clocks, not
  the slices.)
- maximum wakeup latency: ktprof's (the first sched_waking of a thread
  that is not running, to its switch-in) against the same rule applied to
  perf's own events (`perf script`): within 2% + 200 us (the probes'
  own readings of the clock, as above). And against timehist's maximum scheduling delay, which restarts
  its clock at a second waking, so it can only be smaller: ktprof's is at
  least timehist's less 2% + 200 us.

usage: check_perf_sched.py REPORT.json TIMEHIST.txt PERF-SCRIPT.txt
"""
import json
import re
import sys

LINE = re.compile(r'\s*([\d.]+)\s+\[\d+\]\s+(\S.*?)\[(\d+)(?:/\d+)?\]\s+'
                  r'([\d.]+)\s+([\d.]+)\s+([\d.]+)')
SWITCH = re.compile(r'^\s*\S+\s+(-?\d+)\s+\[\d+\]\s+([\d.]+):\s+sched:sched_switch:.*'
                    r'prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)')
WAKING = re.compile(r'^.*\[\d+\]\s+([\d.]+):\s+sched:sched_waking(?:_new)?:.* pid=(\d+) ')
NEW = re.compile(r'^.*\[\d+\]\s+([\d.]+):\s+sched:sched_wakeup_new:.* pid=(\d+) ')


def timehist(path):
    per = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            s = per.setdefault(int(m.group(3)), {'n': 0, 'run': 0.0, 'delay': 0.0})
            s['n'] += 1
            s['run'] += float(m.group(6))
            s['delay'] = max(s['delay'], float(m.group(5)))
    return per


def orphan_exits(path):
    """Last switch-outs perf gave to no thread: tid -> its slice (ms)."""
    last_in, orphans = {}, {}
    for line in open(path):
        m = SWITCH.match(line)
        if not m:
            continue
        sample_pid, t, prev, state, nxt = m.groups()
        t, prev, nxt = float(t), int(prev), int(nxt)
        if sample_pid == '-1' and state.startswith('X') and prev in last_in:
            orphans[prev] = (t - last_in[prev]) * 1000
        last_in[nxt] = t
    return orphans


def wakeup_max(path):
    """Per tid, the longest first-waking-to-switch-in, from perf's events."""
    pending, running, worst = {}, set(), {}
    for line in open(path):
        m = SWITCH.match(line)
        if m:
            t, prev, nxt = float(m.group(2)), int(m.group(3)), int(m.group(5))
            running.discard(prev)
            running.add(nxt)
            if nxt in pending:
                worst[nxt] = max(worst.get(nxt, 0), (t - pending.pop(nxt)) * 1000)
            continue
        m = WAKING.match(line) or NEW.match(line)
        if m:
            t, pid = float(m.group(1)), int(m.group(2))
            if pid not in running and pid not in pending:
                pending[pid] = t
    return worst


def born(path):
    """Threads whose sched_wakeup_new perf recorded."""
    tids = set()
    for line in open(path):
        m = NEW.match(line)
        if m:
            tids.add(int(m.group(2)))
    return tids


def main():
    doc = json.load(open(sys.argv[1]))
    perf = timehist(sys.argv[2])
    orphans = orphan_exits(sys.argv[3])
    rule = wakeup_max(sys.argv[3])
    new = born(sys.argv[3])
    bad = checked = 0
    for t in doc['threads']:
        if not t['comm'].startswith('ktp-'):
            continue
        tid = t['pid']
        if tid not in new:
            print('%-12s %6d  left out: born before perf recorded' % (t['comm'], tid))
            continue
        p = perf.get(tid)
        if not p:
            print('thread %d (%s): not in perf sched timehist' % (tid, t['comm']))
            bad += 1
            continue
        checked += 1
        n = t['voluntary_switches'] + t['involuntary_switches']
        pn = p['n'] + (1 if tid in orphans else 0)
        run = t['runtime_ns'] / 1e6
        prun = p['run'] + orphans.get(tid, 0)
        lat = t['latency']['wakeup']['max_ns'] / 1e6
        plat = rule.get(tid, 0)
        print('%-12s %6d  switches %5d %5d  runtime %9.3f %9.3f ms  max wakeup %7.3f %7.3f'
              ' (timehist %7.3f) ms' % (t['comm'], tid, n, pn, run, prun, lat, plat, p['delay']))
        if n != pn:
            print('  switch-outs differ')
            bad += 1
        if abs(run - prun) > 0.03 * prun + 1:
            print('  runtime differs by more than 3% + 1 ms')
            bad += 1
        if abs(lat - plat) > 0.02 * plat + 0.2:
            print('  maximum wakeup latency differs from perf\'s events by more than 2% + 200 us')
            bad += 1
        if lat < p['delay'] - (0.02 * p['delay'] + 0.2):
            print('  maximum wakeup latency is below timehist\'s by more than 2% + 200 us')
            bad += 1
    if checked < 5:
        print('only %d workload threads compared' % checked)
        bad += 1
    sys.exit(1 if bad else 0)


main()
