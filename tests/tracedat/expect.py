#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Known answers for a trace.dat, worked out from `trace-cmd report -N`
(the kernel's own print formats) text alone, by docs/report.md's rules,
independently of ktprof's translation:

- a thread's runtime: its slices, from its switch-in to its switch-out on
  the same CPU; a CPU's time before its first sched_switch is unknown (no
  slice), and each CPU's last slice runs to the trace's last event;
- voluntary switches: switch-outs in a state other than R and R+;
  involuntary: in R or R+;
- wakeup latency: from a sched_waking (or sched_wakeup_new) of a thread
  that is not running, to its next switch-in; a second waking does not
  restart the clock. (The report's special case, a waking of a running
  thread that then sleeps, is counted as the report counts it: the clock
  starts at that switch-out.)

usage: expect.py REPORT.txt PID...    prints "PID runtime_ns vol invol
wakeups max_wakeup_ns" a line
"""
import re
import sys

LINE = re.compile(r'^\s*.*?-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?([\d.]+):\s+(\w+):\s+(.*)$')


def ns(text):
    if '.' not in text:
        return int(text)
    sec, frac = text.split('.')
    return int(sec) * 10**9 + int((frac + '000000000')[:9])


def fields(text):
    return dict(kv.split('=', 1) for kv in text.split() if '=' in kv)


def main():
    events = []
    for line in open(sys.argv[1]):
        m = LINE.match(line)
        if m:
            events.append((ns(m.group(3)), int(m.group(2)), m.group(4), fields(m.group(5))))
    end = max(e[0] for e in events)
    cur, since = {}, {}
    running = {}
    stats = {}
    pending = {}      # pid -> waking time
    woke_running = {}  # pid -> waking time while it ran

    def st(pid):
        return stats.setdefault(pid, [0, 0, 0, 0, 0])

    for ts, cpu, name, f in events:
        if name in ('sched_waking', 'sched_wakeup_new'):
            pid = int(f['pid'])
            if pid in running.values():
                woke_running[pid] = ts
            elif pid not in pending:
                pending[pid] = ts
        elif name == 'sched_switch':
            prev, nxt = int(f['prev_pid']), int(f['next_pid'])
            state = f['prev_state']
            if cpu in cur and cur[cpu] == prev and prev:
                st(prev)[0] += ts - since[cpu]
            if prev:
                s = st(prev)
                if state in ('R', 'R+'):
                    s[2] += 1
                    woke_running.pop(prev, None)
                else:
                    s[1] += 1
                    if prev in woke_running:
                        pending[prev] = ts
                        del woke_running[prev]
            running.pop(cpu, None)
            cur[cpu], since[cpu] = nxt, ts
            if nxt:
                running[cpu] = nxt
                if nxt in pending:
                    lat = ts - pending.pop(nxt)
                    s = st(nxt)
                    s[3] += 1
                    s[4] = max(s[4], lat)
    for cpu, pid in cur.items():
        if pid:
            st(pid)[0] += end - since[cpu]
    for pid in map(int, sys.argv[2:]):
        print(pid, *st(pid))


main()
