#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The bench report from the guests' raw lines, as text tables, JSON and
SVG plots.

Raw lines (tests/bench/guest.sh):
  MODE TRACER NS_PER_OP EVENTS BYTES          one round of one tracer
  selftest N NS_FOR_N NS_FOR_0                the write path alone
  flood P SECONDS RECORDS LOST BYTES RSS_KB   ktprof record, P pipe floods
  top SECONDS USER_S SYS_S RSS_KB EVENTS LOST  ktprof top live, 2 pipe floods
  ceiling RATE CPUS SECONDS WRITTEN DROPPED MISSED LOST RECORDS BYTES
          REC_S USER_S SYS_S RSS_KB           one rate of the ceiling sweep
  probes KIND TRACER OPS NS_PER_OP HITS BYTES one round of a dynamic probe
  probes-site TRACER LINE                     where its kprobe sat (kprobes/list)
  ablation VARIANT yield NS_PER_OP EVENTS BYTES  the module without a piece
  ablation VARIANT selftest N NS_FOR_N NS_FOR_0  (tests/bench/ablate.py)

Medians over rounds; cost per event = (median - baseline median) / events
per op (MEASURING.md); ratios against ftrace's cost in the same file. The
same for probe hits: cost per hit = (median - baseline median) / hits per
op.

usage: summarize.py --handoffs N [--json FILE] [--svg-dir DIR] LABEL=FILE...
"""
import argparse
import datetime
import json
import math
import os
import statistics
import sys

TRACERS = [
    ("ftrace", "ftrace (tracefs)"),
    ("perf", "perf record -a"),
    ("perf_g", "perf record -a -g"),
    ("perf_sched_g", "perf sched -g (3)"),
    ("ktprof", "ktprof (buffer only)"),
    ("ktprof_boot", "ktprof --clock boot (4)"),
    ("ktprof_stacks", "ktprof -S offcpu,waker"),
    ("record", "ktprof record (1)"),
    ("lttng", "lttng (buffer only)"),
    ("lttng-disk", "lttng (consumerd) (2)"),
]
PROBE_TRACERS = ["ftrace", "perf", "ktprof"]
PROBE_KINDS = [
    ("kprobe", "kprobe on __x64_sys_getppid (probe-hits -m getppid: a getppid call per op)"),
    ("uprobe", "uprobe on ktp_probe_hit (probe-hits -m call: a call of it per op)"),
]


def probe_label(kind, key):
    return {"ftrace": f"ftrace ({kind}_events)", "perf": "perf probe, record -a",
            "ktprof": "ktprof record --probe"}[key]


WORKLOADS = [
    ("yield", "handoff -m yield (a sched_switch per op)"),
    ("futex", "handoff -m futex (a sched_waking and a sched_switch per op)"),
]


def parse(path):
    rounds, selftest, flood, ceiling = {}, {"tsc": [], "boot": []}, [], []
    top = []
    ablation = {}
    probes = {"rounds": {}, "sites": {}}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "ablation" and len(w) in (6, 7):
                a = ablation.setdefault(w[1], {"yield": [], "selftest": []})
                if w[2] == "yield" and len(w) == 6:
                    a["yield"].append((float(w[3]), int(w[4])))
                elif w[2] == "selftest" and len(w) == 6:
                    a["selftest"].append((float(w[4]) - float(w[5])) / int(w[3]))
            elif w[0] in ("selftest", "selftest_boot") and len(w) == 4:
                n = int(w[1])
                clock = "boot" if w[0] == "selftest_boot" else "tsc"
                selftest[clock].append((float(w[2]) - float(w[3])) / n)
            elif w[0] == "flood" and len(w) == 7:
                p, secs, rec, lost, by, rss = w[1:]
                flood.append(dict(floods=int(p), seconds=float(secs), records=int(rec),
                                  lost=int(lost), bytes=int(by), rss_kb=int(rss)))
            elif w[0] == "top" and len(w) == 7:
                secs, user, sys_s, rss, ev, lost = w[1:]
                top.append(dict(seconds=float(secs), user_s=float(user), sys_s=float(sys_s),
                                rss_kb=int(rss), events=int(ev), lost=int(lost)))
            elif w[0] == "ceiling" and len(w) == 14:
                k = ["rate", "cpus", "seconds", "written", "dropped", "missed", "lost",
                     "records", "bytes", "record_s", "user_s", "sys_s", "rss_kb"]
                v = dict(zip(k, w[1:]))
                ceiling.append({key: (float(x) if key.endswith("_s") or key == "seconds"
                                      else int(x)) for key, x in v.items()})
            elif w[0] == "probes" and len(w) == 7:
                r = probes["rounds"].setdefault(w[1], {}).setdefault(w[2], [])
                r.append((int(w[3]), float(w[4]), int(w[5]), int(w[6])))
            elif w[0] == "probes-site" and len(w) > 2:
                probes["sites"].setdefault(w[1], []).append(" ".join(w[2:]))
            elif len(w) == 5 and w[0] in dict(WORKLOADS):
                r = rounds.setdefault(w[0], {}).setdefault(w[1], [])
                r.append((float(w[2]), int(w[3]), int(w[4])))
    return rounds, selftest, flood, ceiling, probes, top, ablation


ABLATION = [
    ("unchanged", "the module as it is (TSC stamps)"),
    ("boot-clock", "boot-time stamps (clock=boot)"),
    ("no-clock", "no time read"),
    ("no-irq-off", "IRQs left on from reserve to commit"),
    ("no-guard", "no NMI and nesting checks"),
    ("no-counts", "no per-record counts at commit"),
]


def print_ablation(label, ablation, ops):
    """Instructions per selftest record and per switch of each variant,
    and the difference to the unchanged module: what the piece costs."""
    if "unchanged" not in ablation or not ablation.get("none", {}).get("yield"):
        return None
    base = statistics.median(r[0] for r in ablation["none"]["yield"])
    # The same workload's switches: the unchanged module's count (a copy
    # without the counts counts none).
    e = statistics.median(r[1] for r in ablation["unchanged"]["yield"]) / ops
    out = {}
    for key, _ in ABLATION:
        a = ablation.get(key)
        if not a or not a["yield"] or not a["selftest"] or not e:
            continue
        out[key] = {"selftest": statistics.median(a["selftest"]),
                    "sched_switch": (statistics.median(r[0] for r in a["yield"]) - base) / e,
                    "rounds": len(a["selftest"])}
    u = out["unchanged"]
    print(f"\n[{label}] where the write path's instructions go: the module with one piece "
          f"taken out (tests/bench/ablate.py), medians of {u['rounds']} interleaved rounds "
          "in one boot (ns = instructions)")
    print(f"{'':<40} {'selftest':>9} {'switch':>8}   the piece")
    for key, title in ABLATION:
        if key not in out:
            continue
        o = out[key]
        piece = "" if key == "unchanged" else \
            f"{u['selftest'] - o['selftest']:+.0f} / {u['sched_switch'] - o['sched_switch']:+.0f}"
        print(f"{title:<40} {o['selftest']:>9.0f} {o['sched_switch']:>8.0f}   {piece}")
    return out


def overhead(rounds, ops):
    """Per tracer: medians and the cost per event against the baseline."""
    if "none" not in rounds:
        return None
    base = statistics.median(r[0] for r in rounds["none"])
    out = {"ops": ops, "rounds": len(rounds["none"]), "baseline_ns_per_op": base,
           "baseline_spread_ns": max(r[0] for r in rounds["none"]) -
           min(r[0] for r in rounds["none"]), "tracers": {}}
    ftrace = None
    for key, _ in TRACERS:
        if key not in rounds:
            continue
        t = statistics.median(r[0] for r in rounds[key])
        ev = statistics.median(r[1] for r in rounds[key])
        by = statistics.median(r[2] for r in rounds[key])
        e = ev / ops
        cost = (t - base) / e if e > 0 else 0.0
        if key == "ftrace":
            ftrace = cost
        out["tracers"][key] = {
            "ns_per_op": t, "events_per_op": e, "ns_per_event": cost,
            "vs_ftrace": cost / ftrace if ftrace else None,
            "bytes_per_event": by / ev if ev else 0.0,
            "rounds": [{"ns_per_op": r[0], "events": r[1], "bytes": r[2]}
                       for r in rounds[key]]}
    return out


def print_overhead(title, o):
    print(f"\n{title}: {o['ops']} ops, medians of {o['rounds']} rounds; "
          f"baseline {o['baseline_ns_per_op']:.0f} ns/op")
    print(f"{'tracer':<22} {'ns/op':>9} {'events/op':>10} {'ns/event':>10} "
          f"{'vs ftrace':>10} {'B/event':>9}")
    for key, label in TRACERS:
        t = o["tracers"].get(key)
        if not t:
            continue
        vs = f"{t['vs_ftrace']:.2f}x" if t["vs_ftrace"] else "-"
        print(f"{label:<22} {t['ns_per_op']:9.0f} {t['events_per_op']:10.2f} "
              f"{t['ns_per_event']:10.0f} {vs:>10} {t['bytes_per_event']:9.1f}")
    t = o["tracers"]
    if all(k in t for k in ("perf", "perf_g", "ktprof", "ktprof_stacks")):
        # What a stack adds to an event, each tracer against itself.
        k = t["ktprof_stacks"]["ns_per_event"] - t["ktprof"]["ns_per_event"]
        p = t["perf_g"]["ns_per_event"] - t["perf"]["ns_per_event"]
        print(f"stacks: ktprof -S offcpu,waker {t['ktprof_stacks']['ns_per_event']:.0f} ns/event "
              f"({k:+.0f} for the stack), {t['ktprof_stacks']['bytes_per_event']:.1f} B/event; "
              f"perf -g {t['perf_g']['ns_per_event']:.0f} ns/event ({p:+.0f}); ktprof/perf with "
              f"stacks {t['ktprof_stacks']['ns_per_event'] / (t['perf_g']['ns_per_event'] or 1):.2f}x")
    e = o["tracers"].get("ktprof", {}).get("events_per_op", 1) or 1
    print(f"noise: the baseline's rounds spread over {o['baseline_spread_ns']:.0f} ns/op "
          f"({o['baseline_spread_ns'] / e:.0f} ns/event at {e:.2f} events/op)")


def probe_costs(rounds):
    """One kind of probe: medians, and the cost per hit against the
    baseline (the workload without a probe)."""
    if "none" not in rounds:
        return None
    base = statistics.median(r[1] for r in rounds["none"])
    ops = rounds["none"][0][0]
    out = {"ops": ops, "rounds": len(rounds["none"]), "baseline_ns_per_op": base,
           "baseline_spread_ns": max(r[1] for r in rounds["none"]) -
           min(r[1] for r in rounds["none"]), "tracers": {}}
    ftrace = None
    for key in PROBE_TRACERS:
        if key not in rounds:
            continue
        t = statistics.median(r[1] for r in rounds[key])
        hits = statistics.median(r[2] for r in rounds[key])
        by = statistics.median(r[3] for r in rounds[key])
        h = hits / ops
        cost = (t - base) / h if h > 0 else 0.0
        if key == "ftrace":
            ftrace = cost
        out["tracers"][key] = {
            "ns_per_op": t, "hits_per_op": h, "ns_per_hit": cost,
            "vs_ftrace": cost / ftrace if ftrace else None,
            "bytes_per_hit": by / hits if hits else 0.0,
            "spread_ns": max(r[1] for r in rounds[key]) - min(r[1] for r in rounds[key]),
            "rounds": [{"ops": r[0], "ns_per_op": r[1], "hits": r[2], "bytes": r[3]}
                       for r in rounds[key]]}
    return out


def print_probes(label, probes):
    out = {}
    for kind, title in PROBE_KINDS:
        o = probe_costs(probes["rounds"].get(kind, {}))
        if not o:
            continue
        out[kind] = o
        print(f"\n[{label}] {title}: {o['ops']} ops, medians of {o['rounds']} rounds; "
              f"baseline {o['baseline_ns_per_op']:.0f} ns/op")
        print(f"{'tracer':<24} {'ns/op':>9} {'hits/op':>9} {'ns/hit':>9} "
              f"{'vs ftrace':>10} {'B/hit':>8}")
        for key in PROBE_TRACERS:
            t = o["tracers"].get(key)
            if not t:
                continue
            vs = f"{t['vs_ftrace']:.2f}x" if t["vs_ftrace"] else "-"
            print(f"{probe_label(kind, key):<24} {t['ns_per_op']:9.0f} {t['hits_per_op']:9.2f} "
                  f"{t['ns_per_hit']:9.0f} {vs:>10} {t['bytes_per_hit']:8.1f}")
        spread = max([o["baseline_spread_ns"]] + [t["spread_ns"] for t in o["tracers"].values()])
        print(f"noise: the rounds of a row spread over at most {spread:.1f} ns/op")
    if out:
        print("(each hit records one u64 argument, the function's first (%di); ns = "
              "instructions under -icount; B/hit: ftrace's and ktprof's buffer bytes, "
              "perf.data's size)")
    if probes["sites"]:
        out["kprobe_sites"] = probes["sites"]
        print("kprobe sites (/sys/kernel/debug/kprobes/list, each tracer's alone): " +
              "; ".join(f"{k}: {' | '.join(v)}" for k, v in probes["sites"].items()))
    return out


def record_costs(run, clock):
    """What each record type costs ktprof with @clock's stamps (tsc: the
    module's default, "ktprof"; boot: "ktprof_boot"): yield's events are
    switches; futex's are a waking and a switch each, so a waking costs
    twice their mean less a switch."""
    o = run.get("overhead", {})
    key = "ktprof" if clock == "tsc" else "ktprof_boot"
    try:
        switch = o["yield"]["tracers"][key]["ns_per_event"]
        futex = o["futex"]["tracers"][key]["ns_per_event"]
    except KeyError:
        return None
    out = {}
    if clock in run.get("selftest_ns_per_record", {}):
        out["selftest"] = run["selftest_ns_per_record"][clock]
    out["sched_switch"] = switch
    out["sched_waking"] = 2 * futex - switch
    return out


def ceiling_rows(ceiling):
    rows = []
    for c in sorted(ceiling, key=lambda c: c["rate"]):
        offered = c["written"] + c["dropped"]
        secs = c["seconds"] or 1
        rows.append(dict(c, per_cpu=offered / secs / max(c["cpus"], 1),
                         total=offered / secs,
                         lossless=c["dropped"] + c["lost"] == 0,
                         recorder_cpu=(c["user_s"] + c["sys_s"]) / (c["record_s"] or 1)))
    return rows


def print_ceiling(rows):
    print("\nktprof record at its defaults, the module's load file writing selftest "
          "records on every CPU, 2 vCPUs:")
    print(f"{'rate/CPU':>9} {'offered/s':>11} {'written':>9} {'dropped':>8} {'missed':>7} "
          f"{'lost':>7} {'recorder':>9} {'user':>6} {'sys':>6} {'RSS MB':>7}")
    for r in rows:
        print(f"{r['rate']:9d} {r['total']:11.0f} {r['written']:9d} {r['dropped']:8d} "
              f"{r['missed']:7d} {r['lost']:7d} {100 * r['recorder_cpu']:8.0f}% "
              f"{r['user_s']:6.2f} {r['sys_s']:6.2f} {r['rss_kb'] / 1024:7.1f}")
    best = max((r for r in rows if r["lossless"]), key=lambda r: r["total"], default=None)
    if best:
        print(f"highest lossless rate: {best['per_cpu']:.0f} records/s per CPU, "
              f"{best['total']:.0f} in total (guest time); recorder "
              f"{100 * best['recorder_cpu']:.0f}% of a CPU, {best['rss_kb'] / 1024:.1f} MB")
    print("(offered/s: written and dropped, all CPUs, over the load's time; missed: "
          "records the load's late ticks gave up on, under TCG; recorder: "
          "its user + system CPU time over its run, start and final flush included)")
    return best


def print_flood(flood):
    print("\nktprof record at its defaults (-e sched -S none), P concurrent "
          "perf bench sched pipe, 2 vCPUs:")
    print(f"{'P':>3} {'records':>10} {'seconds':>8} {'records/s':>12} {'lost':>8} "
          f"{'B/record':>9} {'RSS MB':>10}")
    for f in flood:
        rate = f["records"] / f["seconds"] if f["seconds"] else 0
        f["records_per_s"] = rate
        print(f"{f['floods']:3d} {f['records']:10d} {f['seconds']:8.2f} {rate:12.0f} "
              f"{f['lost']:8d} {f['bytes'] / max(f['records'], 1):9.1f} {f['rss_kb'] / 1024:10.1f}")


def print_top(tops):
    print("\nktprof top --json live, intervals of 1 s, under 2 perf bench sched pipe floods, "
          "2 vCPUs (top's guest CPU time, its readers included, in instruction-counted time: "
          "not a host CPU share, see docs/benchmarks.md):")
    print(f"{'seconds':>8} {'events':>9} {'events/s':>10} {'lost':>8} {'CPU s':>7} "
          f"{'CPU ns/event':>13} {'RSS MB':>7}")
    for t in tops:
        rate = t["events"] / t["seconds"] if t["seconds"] else 0
        cpu = t["user_s"] + t["sys_s"]
        t["events_per_s"] = rate
        t["cpu_ns_per_event"] = cpu * 1e9 / t["events"] if t["events"] else 0
        print(f"{t['seconds']:8.2f} {t['events']:9d} {rate:10.0f} {t['lost']:8d} {cpu:7.2f} "
              f"{t['cpu_ns_per_event']:13.0f} {t['rss_kb'] / 1024:7.1f}")
    return tops


# --- SVG: plain elements, no library -----------------------------------
def svg_doc(w, h, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">\n'
            f'<rect width="{w}" height="{h}" fill="white"/>\n{body}</svg>\n')


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


COLORS = {"ftrace": "#4c72b0", "perf": "#dd8452", "perf_g": "#b0643a",
          "perf_sched_g": "#8c4a2a", "ktprof": "#55a868",
          "ktprof_stacks": "#2f7a45",
          "record": "#8fd19e", "lttng": "#c44e52", "lttng-disk": "#e8a0a2"}


def svg_cost(groups):
    """Bars of ns per event, one group per (kernel, workload)."""
    bar, gap, left, top = 16, 14, 190, 40
    n = sum(len(g[1]) for g in groups)
    h = top + n * bar + len(groups) * gap + 40
    w = 720
    vmax = max((c for _, bars in groups for _, c in bars), default=1) or 1
    scale = (w - left - 80) / vmax
    out, y = [f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
              'Tracing cost per event (ns of guest time = instructions, -icount)</text>'], top
    for title, bars in groups:
        out.append(f'<text x="10" y="{y + 12}" font-weight="bold">{esc(title)}</text>')
        y += 16
        for key, cost in bars:
            label = dict(TRACERS)[key].replace(" (1)", "").replace(" (2)", "")
            out.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{esc(label)}</text>')
            out.append(f'<rect x="{left}" y="{y + 2}" width="{max(cost, 0) * scale:.1f}" '
                       f'height="{bar - 4}" fill="{COLORS[key]}"/>')
            out.append(f'<text x="{left + max(cost, 0) * scale + 4:.1f}" y="{y + 12}">'
                       f'{cost:.0f}</text>')
            y += bar
        y += gap - 16
    return svg_doc(w, y + 20, "\n".join(out) + "\n")


def svg_ceiling(rows):
    """Offered rate per CPU (log scale) against records/s kept, loss marked."""
    w, h, l, r, t, b = 720, 380, 80, 30, 40, 60
    xs = [math.log2(x["rate"]) for x in rows]
    # Lost counts every record type the buffers dropped (the load's above all).
    kept = [max(x["written"] + x["dropped"] - x["lost"], 0) / (x["seconds"] or 1) for x in rows]
    offered = [x["total"] for x in rows]
    ymax = max(offered + kept + [1]) * 1.1
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    px = lambda v: l + (v - x0) / (x1 - x0) * (w - l - r)
    py = lambda v: h - b - v / ymax * (h - t - b)
    out = [f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
           'ktprof record under the load file: records/s offered and kept (2 vCPUs)</text>',
           f'<line x1="{l}" y1="{h - b}" x2="{w - r}" y2="{h - b}" stroke="black"/>',
           f'<line x1="{l}" y1="{t}" x2="{l}" y2="{h - b}" stroke="black"/>',
           f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">'
           'load rate per CPU (records/s, log scale)</text>',
           f'<text x="15" y="{h / 2}" transform="rotate(-90 15 {h / 2})" '
           'text-anchor="middle">records/s, all CPUs</text>']
    for x, row in zip(xs, rows):
        out.append(f'<text x="{px(x):.1f}" y="{h - b + 16}" text-anchor="middle">'
                   f'{row["rate"] // 1000}k</text>')
    for i in range(5):
        v = ymax * i / 4
        out.append(f'<text x="{l - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v / 1000:.0f}k</text>')
    for series, color, name, dy in ((offered, "#888888", "offered", 0), (kept, "#55a868", "kept", 16)):
        pts = " ".join(f"{px(x):.1f},{py(v):.1f}" for x, v in zip(xs, series))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{l + 12}" y="{t + 10 + dy}" fill="{color}">{name}</text>')
    for x, v, row in zip(xs, kept, rows):
        c = "#55a868" if row["lossless"] else "#c44e52"
        out.append(f'<circle cx="{px(x):.1f}" cy="{py(v):.1f}" r="4" fill="{c}"/>')
    out.append(f'<text x="{l + 12}" y="{t + 42}" fill="#c44e52">red: records lost</text>')
    return svg_doc(w, h, "\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--handoffs", type=int, required=True)
    ap.add_argument("--json")
    ap.add_argument("--svg-dir")
    ap.add_argument("inputs", nargs="+", metavar="LABEL=FILE")
    a = ap.parse_args()
    doc = {"date": datetime.date.today().isoformat(), "handoffs": a.handoffs, "runs": {}}
    groups = []
    rows = []
    for spec in a.inputs:
        label, _, path = spec.partition("=")
        if not path or not os.path.exists(path):
            sys.exit(f"summarize: no file for '{spec}'")
        rounds, selftest, flood, ceiling, probes, top, ablation = parse(path)
        run = doc["runs"].setdefault(label, {})
        for wl, title in WORKLOADS:
            o = overhead(rounds.get(wl, {}), 2 * a.handoffs)
            if not o:
                continue
            print_overhead(f"[{label}] {title}", o)
            run.setdefault("overhead", {})[wl] = o
            groups.append((f"{label}, handoff -m {wl}",
                           [(k, o["tracers"][k]["ns_per_event"]) for k, _ in TRACERS
                            if k in o["tracers"]]))
        if rounds and "overhead" in run:
            print("(1) B/event of ktprof record: its zlib-compressed capture file")
            if any("lttng" in o["tracers"] for o in run["overhead"].values()):
                print("(2) LTTng's consumer daemon writing to tmpfs; "
                      "B/event of LTTng: its CTF data streams")
            if any("ktprof_boot" in o["tracers"] for o in run["overhead"].values()):
                print("(4) ktprof's records stamped with CLOCK_BOOTTIME read at each record; "
                      "the others above with the TSC, converted when read")
            if any("perf_sched_g" in o["tracers"] for o in run["overhead"].values()):
                print("(3) perf sched record -g: its own events (the switch, sched_stat_runtime, "
                      "forks, migrations; no sched_waking), so compare ns/op")
        for clock, st in selftest.items():
            if not st:
                continue
            run.setdefault("selftest_ns_per_record", {})[clock] = statistics.median(st)
            print(f"\n[{label}] ktprof write path alone, clock {clock} (selftest records "
                  f"in a loop): {statistics.median(st):.1f} ns/record, median of {len(st)}")
        for clock in ("tsc", "boot"):
            per_type = record_costs(run, clock)
            if per_type:
                run.setdefault("ktprof_ns_per_record_type", {})[clock] = per_type
                print(f"[{label}] ktprof per record type, clock {clock} (buffer only; "
                      "ns = instructions): "
                      + ", ".join(f"{k} {v:.0f}" for k, v in per_type.items())
                      + " (sched_waking: twice futex's cost per event less yield's)")
        if ablation:
            ab = print_ablation(label, ablation, 2 * a.handoffs)
            if ab:
                run["ablation"] = ab
        if probes["rounds"]:
            run["probes"] = print_probes(label, probes)
        if flood:
            print_flood(flood)
            run["flood"] = flood
        if top:
            run["top"] = print_top(top)
        if ceiling:
            rows = ceiling_rows(ceiling)
            best = print_ceiling(rows)
            run["ceiling"] = {"rates": rows, "highest_lossless": best}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
    if a.svg_dir:
        os.makedirs(a.svg_dir, exist_ok=True)
        if groups:
            with open(os.path.join(a.svg_dir, "cost-per-event.svg"), "w") as f:
                f.write(svg_cost(groups))
        if rows:
            with open(os.path.join(a.svg_dir, "ceiling.svg"), "w") as f:
                f.write(svg_ceiling(rows))


if __name__ == "__main__":
    main()
