#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""`ktprof top --json`'s intervals against `ktprof report --json --from A
--to B` of a capture of the same events (replayed on the host, written by
top -o live in vm/top): per interval, each thread's runtime and voluntary
and involuntary switch-outs by pid, and each CPU's busy, idle and unknown
time, switches and migrations in.

usage: top_check.py KTPROF CAPTURE TOP_JSON [--lost]
  --lost: records were lost: each interval's count is its CPUs' sum; per
          CPU, the intervals' counts add up to no more than the capture's
          (report's lost_records: the whole stream's, the loss after the
          last interval included), and to 90% of them at least
"""
import json
import subprocess
import sys


def report(ktprof, cap, a, b):
    p = subprocess.run([ktprof, 'report', '--json', '--from', f'{a}ns', '--to', f'{b}ns', cap],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit(f'report --from {a}ns --to {b}ns: {p.stderr}')
    return json.loads(p.stdout)


def threads(ts, key='pid'):
    """Runtime, voluntary and involuntary switch-outs summed by @key."""
    f = {}
    for t in ts:
        r = f.setdefault(t[key], [0, 0, 0])
        r[0] += t.get('runtime_ns', 0)
        r[1] += t.get('voluntary_switches', 0)
        r[2] += t.get('involuntary_switches', 0)
    return {k: tuple(v) for k, v in f.items() if any(v)}


def cpus(cs, from_report):
    """Each CPU's busy, idle, unknown, switches, migrations in, irq times."""
    f = {}
    for c in cs:
        unknown = sum(c['unknown'].values()) if from_report else c['unknown_ns']
        f[c['cpu']] = (c['busy_ns'], c['idle_ns'], unknown, c['switches'], c['migrations_in'],
                       c['hardirq_ns'], c['softirq_ns'], c['work_ns'])
    return {k: v for k, v in f.items() if any(v)}


def lost(cs, from_report):
    return {c['cpu']: c['lost_records' if from_report else 'lost'] for c in cs
            if c['lost_records' if from_report else 'lost']}


def diff(what, a, b):
    keys = sorted(set(a) | set(b))
    return [f'  {what} {k}: top {a.get(k)} report {b.get(k)}' for k in keys if a.get(k) != b.get(k)]


def main():
    ktprof, cap, top_json = sys.argv[1:4]
    want_lost = '--lost' in sys.argv[4:]
    lost_seen = 0
    lost_top, lost_cap = {}, {}
    docs = [json.loads(line) for line in open(top_json)]
    if len(docs) < 2:
        sys.exit(f'{top_json}: {len(docs)} intervals')
    bad = 0
    for i, d in enumerate(docs):
        if d['interval'] != i or (i and d['from_ns'] != docs[i - 1]['to_ns']):
            sys.exit(f'interval {i}: not the next one: {d["interval"]} from {d["from_ns"]}')
        rep = report(ktprof, cap, d['from_ns'], d['to_ns'])
        lines = diff('thread', threads(d['threads']), threads(rep['threads']))
        lines += diff('cpu', cpus(d['cpus'], False), cpus(rep['cpus'], True))
        if want_lost:
            for cpu, n in lost(d['cpus'], False).items():
                lost_top[cpu] = lost_top.get(cpu, 0) + n
            lost_cap = lost(rep['cpus'], True)
            lost_seen += d['lost']
            if d['lost'] != sum(lost(d['cpus'], False).values()):
                lines.append(f'  lost {d["lost"]}, per CPU {lost(d["cpus"], False)}')
        n = sum(1 for t in d['threads'] if t['runtime_ns'])
        print(f'interval {i} [{d["from_ns"]}, {d["to_ns"]}): {d["events"]} events, {n} threads ran, '
              f'{len(lines)} differences')
        for line in lines[:40]:
            print(line)
        bad += len(lines)
        if not n:
            print('  no thread ran'); bad += 1
    if want_lost:
        print(f'lost per CPU: top {lost_top}, the capture {lost_cap}')
        if not lost_seen:
            print('no record was lost'); bad += 1
        for cpu in set(lost_top) | set(lost_cap):
            if lost_top.get(cpu, 0) > lost_cap.get(cpu, 0):
                print(f'  cpu {cpu}: top counted more lost records than the capture has'); bad += 1
        if sum(lost_top.values()) < 0.9 * sum(lost_cap.values()):
            print('  top showed under 90% of the lost records'); bad += 1
    own = [t for d in docs for t in d['threads'] if t['recorder']]
    if not own:
        print('no thread is marked as the recorder\'s'); bad += 1
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
