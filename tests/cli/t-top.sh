#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof top over captures replayed (no module: the same model, stepped
# interval by interval, as live): for every scripted capture of
# tests/report/ and a generated one, cut into intervals of several
# lengths, each interval's figures equal `ktprof report --json --from A
# --to B` over it: each thread's runtime and voluntary and involuntary
# switch-outs, each CPU's busy, idle and unknown time, switches and
# migrations in; the intervals add up to the whole capture's report. The
# worst waits and latencies are those that ended in the interval (checked
# against report's latency list of the whole capture). Then --batch's
# text, --json's documents, and the refusals.
. "$(dirname "$0")/lib.sh"

i=1
for s in "$TOP"/tests/report/*.scn; do
	n=$(basename "$s" .scn)
	"$GEN" -t "$s" -i $i -o "$T/$n.ktp" 2>/dev/null || fail "gen-capture $n"
	i=$((i + 1))
done
"$GEN" -n 20000 -c 4 -s 1 -i $i -o "$T/gen.ktp" || fail "gen-capture -n"

/usr/bin/python3 - "$KTPROF" "$T" "$TOP/tests/lib" <<'PY' || fail "top's intervals differ from report's"
import glob, json, os, subprocess, sys
ktprof, tmp = sys.argv[1:3]
sys.path.insert(0, sys.argv[3])
from top_check import cpus as cpu_figs, threads as thread_figs, report as report_of

def run(*args):
    return subprocess.run([ktprof, *args], capture_output=True, text=True, timeout=120)

def report(cap, a, b):
    return report_of(ktprof, cap, a, b)

bad = 0
checked = 0
for cap in sorted(glob.glob(f'{tmp}/*.ktp')):
    whole = json.loads(run('report', '--json', cap).stdout)
    length = whole['window']['duration_ns'] if 'duration_ns' in whole['window'] else None
    if length is None:
        length = whole['window']['to_ns'] - whole['window']['from_ns']
    for parts in (1, 3, 7):
        d = max(1, -(-length // parts))
        p = run('top', '--replay', cap, '--json', '-d', f'{d}ns')
        if p.returncode != 0:
            print(f'{cap}: top -d {d}ns: exit {p.returncode}: {p.stderr}'); bad += 1; continue
        docs = [json.loads(l) for l in p.stdout.splitlines()]
        if not docs:
            print(f'{cap}: no interval'); bad += 1; continue
        tot_run = {}
        for i, doc in enumerate(docs):
            if doc['interval'] != i:
                print(f'{cap}: interval {doc["interval"]} at {i}'); bad += 1
            if i and doc['from_ns'] != docs[i - 1]['to_ns']:
                print(f'{cap}: intervals not contiguous at {i}'); bad += 1
            if doc['from_ns'] >= doc['to_ns']:
                continue
            rep = report(cap, doc['from_ns'], doc['to_ns'])
            checked += 1
            # A thread is named by its pid at the interval's end: one that
            # exec'd from outside its group's leader (exec-nonleader.scn)
            # took the leader's pid later, which report, at the end, names.
            for key in ('tgid',) if 'exec-nonleader' in cap else ('pid', 'tgid'):
                a, b = thread_figs(doc['threads'], key), thread_figs(rep['threads'], key)
                if a != b:
                    print(f'{cap} -d {d}ns [{doc["from_ns"]}, {doc["to_ns"]}): threads by {key}: top {a} report {b}'); bad += 1
            a, b = cpu_figs(doc['cpus'], False), cpu_figs(rep['cpus'], True)
            # A CPU offline at the start has no data until it comes online;
            # report, which knows it comes, says so for the time before;
            # live, top cannot know yet (nodata.scn, online-late.scn).
            for c in rep['cpus']:
                u = c['unknown']
                if c['cpu'] not in a and c['cpu'] in b and b[c['cpu']][:2] == (0, 0) and \
                   not u['loss_ns'] and not u['offline_ns'] and not c['switches']:
                    del b[c['cpu']]
            if a != b:
                print(f'{cap} -d {d}ns [{doc["from_ns"]}, {doc["to_ns"]}): cpus top {a} report {b}'); bad += 1
            for tgid, v in thread_figs(doc['threads'], 'tgid').items():
                tot_run[tgid] = tot_run.get(tgid, 0) + v[0]
        want = {k: v[0] for k, v in thread_figs(whole['threads'], 'tgid').items() if v[0]}
        got = {k: v for k, v in tot_run.items() if v}
        if want != got:
            print(f'{cap} -d {d}ns: the intervals add up to {got}, report {want}'); bad += 1
print(f'{checked} intervals checked')
if checked < 150:
    print('too few intervals checked'); bad += 1
sys.exit(1 if bad else 0)
PY

# Waits by their end, basic.scn's worked out by hand, in intervals of
# 3 us: b woken at 1000, in at 1400 (400 ns), a-worker woken at 1500, in
# at 2000 (500), a preempted at 2000, in at 2600 (600): [0, 3). b woken
# at 4100, in at 4500 (400): [3, 6). a woken at 5500, in at 6000 on CPU 1
# (500, after b), and b preempted at 6000, in at 6300 on CPU 0 (300,
# after idle): [6, 9). Nothing in [9, 10).
/usr/bin/python3 - "$KTPROF" "$T/basic.ktp" <<'PY' || fail "basic.scn's waits"
import json, subprocess, sys
ktprof, cap = sys.argv[1:]
out = subprocess.run([ktprof, 'top', '--replay', cap, '--json', '-d', '3us'],
                     capture_output=True, text=True, check=True).stdout
docs = [json.loads(l) for l in out.splitlines()]
waits = [sorted((w['pid'], w['kind'], w['latency_ns'], w['ran_pid']) for w in d['waits'])
         for d in docs]
want = [[(100, 'runqueue', 600, 101), (101, 'wakeup', 500, 100), (200, 'wakeup', 400, 0)],
        [(200, 'wakeup', 400, 0)],
        [(100, 'wakeup', 500, 200), (200, 'runqueue', 300, 0)],
        []]
if waits != want:
    sys.exit(f'waits {waits}, want {want}')
# Each thread's p99 and max of those: b's two wakeups of [0, 3) and [3, 6).
t = {(d['interval'], th['pid']): th for d in docs for th in d['threads']}
for (i, pid), (n, p99, mx) in {(0, 200): (1, 400, 400), (0, 101): (1, 500, 500),
                               (1, 200): (1, 400, 400), (2, 100): (1, 500, 500)}.items():
    th = t[(i, pid)]
    got = (th['wakeups'], th['wakeup_p99_ns'], th['wakeup_max_ns'])
    if got != (n, p99, mx):
        sys.exit(f'interval {i} pid {pid}: wakeups {got}, want {(n, p99, mx)}')
if (t[(0, 100)]['runqueue_waits'], t[(0, 100)]['runqueue_max_ns']) != (1, 600):
    sys.exit(f'a\'s runqueue wait: {t[(0, 100)]}')
PY

# A replay's stretch without events is one interval, up to the last
# boundary before the next event: a 999 us idle gap at -d 1us is one
# interval, not 999 (what it prints grows with the events, not the span).
cat >"$T/gap.scn" <<'SCN'
cpus 1
stop 1000500
0 0 start pid=100
0 0 task pid=100 tgid=100 comm=a snapshot
500 0 switch prev=100 state=S next=0
1000000 0 waking pid=100 target=0
1000100 0 switch prev=0 state=R next=100
1000500 0 stop pid=100
SCN
"$GEN" -t "$T/gap.scn" -o "$T/gap.ktp" || fail "gen-capture gap.scn"
expect 0 '' top --replay "$T/gap.ktp" --json -d 1us
got=$(echo "$out" | /usr/bin/python3 -c 'import json, sys
print(" ".join("%d:%d:%d" % (d["to_ns"], d["cpus"][0]["busy_ns"], d["cpus"][0]["idle_ns"])
               for d in map(json.loads, sys.stdin)))')
[ "$got" = "1000:500:500 1000000:0:999000 1000500:400:100" ] ||
	fail "the idle gap: intervals (end:busy:idle) $got"

# One interval over a whole capture: each thread's waits are report's (all
# of them end in it, and all begin in report's window): counts and maxima
# equal, the nearest-rank p99 equal where report's histogram is exact and
# within its bucket's error (1/128) where it is not (threads of 200 and
# more waits here).
"$GEN" -n 300000 -c 2 -s 3 -o "$T/many.ktp" || fail "gen-capture -n 300000"
/usr/bin/python3 - "$KTPROF" "$T/many.ktp" <<'PY' || fail "top's p99 and max against report's"
import json, subprocess, sys
ktprof, cap = sys.argv[1:]
rep = json.loads(subprocess.run([ktprof, 'report', '--json', cap], capture_output=True,
                                 text=True, check=True).stdout)
out = subprocess.run([ktprof, 'top', '--replay', cap, '--json', '-d', '1h'], capture_output=True,
                     text=True, check=True).stdout.splitlines()
if len(out) != 1:
    sys.exit(f'{len(out)} intervals, want 1')
top = {t['pid']: t for t in json.loads(out[0])['threads']}
bad = big = 0
for t in rep['threads']:
    for kind, n_key in (('wakeup', 'wakeups'), ('runqueue', 'runqueue_waits')):
        r = t.get('latency', {}).get(kind)
        if not r or not r['count']:
            continue
        o = top[t['pid']]
        got = (o[n_key], o[f'{kind}_max_ns'])
        if got != (r['count'], r['max_ns']):
            print(f'pid {t["pid"]} {kind}: count, max {got}, report {(r["count"], r["max_ns"])}'); bad += 1
        p, want = o[f'{kind}_p99_ns'], r['p99_ns']
        if (r['exact'] and p != want) or abs(p - want) > want / 128 + 1:
            print(f'pid {t["pid"]} {kind}: p99 {p}, report {want} (exact: {r["exact"]})'); bad += 1
        big += r['count'] >= 200
print(f'{big} distributions of 200 waits or more')
sys.exit(1 if bad or big < 5 else 0)
PY

# A damaged timestamp near the clock's end (2^64 - 2 ns): three intervals,
# the last ending there, printed unsigned; it printed empty intervals at
# the clock's end without end before.
cat >"$T/end.scn" <<'SCN'
cpus 1
0 0 start pid=100
0 0 task pid=100 tgid=100 comm=a snapshot
1000 0 switch prev=100 state=S next=0
18446744072709551614 0 switch prev=0 state=R next=100
SCN
"$GEN" -t "$T/end.scn" -o "$T/end.ktp" || fail "gen-capture end.scn"
expect 0 '' top --replay "$T/end.ktp" --json -d 1s
got=$(echo "$out" | /usr/bin/python3 -c 'import json, sys
print(" ".join(str(json.loads(l)["to_ns"]) for l in sys.stdin))')
[ "$got" = "1000000000 18446744072000000000 18446744072709551614" ] ||
	fail "a timestamp at the clock's end: intervals end at $got"

# SIGTERM ends a replay to a pipe at once (it went on to the capture's end).
"$KTPROF" top --replay "$T/many.ktp" --json -d 1ns >/dev/null 2>"$T/sig.err" &
pid=$!
sleep 0.5
kill -TERM $pid
for i in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { kill -9 $pid; fail "top --replay went on after SIGTERM"; }
wait $pid || fail "top --replay: exit $? after SIGTERM: $(cat "$T/sig.err")"

# sched_ext per interval, scx.scn's worked out by hand at -d 2us: DSQ 5
# takes tasks at 1100 and 1300 and gives one at 1500 (2 in, 1 out, depth 1
# at the end, 2 at most), the other at 2000; CPU 0's local DSQ one in and
# out at 1600/1700 and 5000/5100, CPU 1's at 2050/2100; DSQ 5 again at
# 4800/5000 (a DSQ's CPU is its first task's). The scheduler enabled at 500, exited (kind 1025) at 7000;
# SCX_EV_X grew 3 + 2 in [6, 8) us.
expect 0 '' top --replay "$T/scx.ktp" --json -d 2us
/usr/bin/python3 - "$T/out" <<'PY' || fail "scx.scn's DSQs"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
LOCAL = 0x8000000000000002
got = [sorted((d['id'], d['cpu'], d['inserts'], d['removes'], d['depth'], d['max_depth'])
              for d in x['sched_ext']['dsqs']) for x in docs]
want = [sorted([(5, 0, 2, 1, 1, 2), (LOCAL, 0, 1, 1, 0, 1)]),
        sorted([(5, 0, 0, 1, 0, 0), (LOCAL, 1, 1, 1, 0, 1)]),
        sorted([(5, 0, 1, 1, 0, 1), (LOCAL, 0, 1, 1, 0, 1)]),
        [], []]
if got != want:
    sys.exit(f'DSQs by interval {got}, want {want}')
x = [(d['sched_ext']['enables'], d['sched_ext']['exits'], d['sched_ext']['exit_kind'],
      d['sched_ext']['events']) for d in docs]
if x != [(1, 0, 0, {}), (0, 0, 0, {}), (0, 0, 0, {}), (0, 1, 1025, {'SCX_EV_X': 5}), (0, 0, 0, {})]:
    sys.exit(f'transitions and counters by interval {x}')
PY

# --batch: a block an interval, the header first; --threads cuts rows.
expect 0 '' top --replay "$T/basic.ktp" --batch -d 5us
[ "$(grep -c '^ktprof top: replay of' "$T/out")" = 2 ] || fail "--batch: want 2 blocks: $out"
grep -Eq '^ +100 +100 a ' "$T/out" || fail "--batch: no row of thread a: $out"
expect 0 '' top --replay "$T/basic.ktp" --batch -d 10us --threads 1
grep -Eq '^ +100 +100 a ' "$T/out" || fail "--threads 1: not a: $out"
grep -Eq '^ +200 +200 b ' "$T/out" && fail "--threads 1 shows b as well: $out"
expect 0 '' top --replay "$T/basic.ktp" --batch -d 10us --filter a-worker
grep -Eq '^ +101 +100 a-worker' "$T/out" || fail "--filter: $out"
grep -Eq '^ +200 +200 b ' "$T/out" && fail "--filter a-worker shows b: $out"
expect 0 '' top --replay "$T/basic.ktp" --json -d 10us --filter 200
[ "$(echo "$out" | /usr/bin/python3 -c 'import json,sys; print([t["pid"] for t in json.loads(sys.stdin.readline())["threads"]])')" = "[200]" ] ||
	fail "--filter 200: $out"
expect 0 '' top --replay "$T/basic.ktp" --json -d 1us -n 2
[ "$(echo "$out" | wc -l)" = 2 ] || fail "-n 2: $out"
# Loss at once, per CPU.
expect 0 '' top --replay "$T/loss.ktp" --batch -d 1s
grep -q '^LOST cpu' "$T/out" || fail "loss.scn: no LOST line: $out"

# Refusals.
expect 2 'one of them' top --replay "$T/basic.ktp" --batch --json
expect 2 'duration' top --replay "$T/basic.ktp" --batch -d 0
expect 2 '10ms' top -d 5ms --batch
expect 2 'live session' top --replay "$T/basic.ktp" -o "$T/x.ktp" --batch
expect 2 'want runtime' top --replay "$T/basic.ktp" --batch --sort nope
expect 1 'no-such' top --replay "$T/no-such.ktp" --batch
expect 1 'terminal' top --replay "$T/basic.ktp"
# A capture cut short: the intervals up to the cut, said, exit status 1.
size=$(stat -c %s "$T/gen.ktp")
head -c $((size / 2)) "$T/gen.ktp" >"$T/cut.ktp"
expect 1 'intervals end there' top --replay "$T/cut.ktp" --batch -d 100ms
grep -q '^ktprof top: replay of' "$T/out" || fail "a cut capture: no interval: $out"
echo ok
