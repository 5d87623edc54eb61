#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Facts about a Perfetto trace or a ktprof dump, one per line, sorted, so
that tests compare what a trace says with what the records said.

usage: trace_facts.py trace TRACE.pftrace [--proto proto/perfetto.proto]
       trace_facts.py dump DUMP.json [FROM_NS TO_NS]
                                      (ktprof dump --json; records with
                                      FROM_NS <= ts <= TO_NS only)

Facts (the same keys from both sources where both know them):
  switches cpu=N COUNT      sched_switch events (compact or plain)
  wakings cpu=N COUNT       sched_waking events (compact or plain)
  wakeup_new cpu=N COUNT
  cpu_idle cpu=N COUNT      power:cpu_idle entries and exits (-e power)
  cpu_frequency cpu=N COUNT power:cpu_frequency, by the CPU that wrote it
  samples pid=P COUNT       CPU samples per process
  counters track=NAME COUNT counter values on a track (a DSQ's depth,
                            "DSQ local:1 depth": one per scx_dsq record)
Trace only:
  thread tid=T pid=P NAME   process-tree threads (last name wins)
  process pid=P NAME
  slices tid=T COUNT        TrackEvent slices begun on thread T's track
  slices track=NAME COUNT   ... on the other tracks, by name
  frames_with FUNCTION      callstacks holding a frame of FUNCTION: COUNT
  slice_args_with NAME      slice begins or ends with an argument NAME: COUNT
  slice_frames_with FUNCTION
                            slices (off-CPU sleeps, wakings) whose inline
                            callstack holds a frame of FUNCTION: COUNT
"""
import collections, gzip, importlib, json, os, subprocess, sys, tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_pb2(proto):
    out = tempfile.mkdtemp(prefix="ktprof-facts-")
    d, f = os.path.split(os.path.abspath(proto))
    subprocess.check_call(["protoc", "--proto_path=" + d, "--python_out=" + out, f])
    sys.path.insert(0, out)
    return importlib.import_module(os.path.splitext(f)[0] + "_pb2")


def load_trace(path, proto):
    """The Trace message of a .pftrace (gzip'ed or not)."""
    pb = load_pb2(proto)
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    trace = pb.Trace()
    trace.ParseFromString(data)
    return trace


def trace_facts(path, proto):
    trace = load_trace(path, proto)
    facts = collections.Counter()
    names = {}
    track_names = {}
    strings = collections.defaultdict(dict)   # seq -> interned tables
    frames_of_stack = {}
    for pkt in trace.packet:
        seq = pkt.trusted_packet_sequence_id
        if pkt.HasField("process_tree"):
            for p in pkt.process_tree.processes:
                names[("process", p.pid)] = "process pid=%d %s" % (
                    p.pid, p.cmdline[0] if p.cmdline else "")
            for t in pkt.process_tree.threads:
                names[("thread", t.tid)] = "thread tid=%d pid=%d %s" % (t.tid, t.tgid, t.name)
        if pkt.HasField("track_descriptor"):
            td = pkt.track_descriptor
            if td.HasField("thread"):
                track_names[td.uuid] = "tid=%d" % td.thread.tid
            else:
                track_names[td.uuid] = "track=" + td.name
        if pkt.HasField("interned_data"):
            idata = pkt.interned_data
            for fn in idata.function_names:
                strings[seq][("fn", fn.iid)] = fn.str.decode(errors="replace")
            for fr in idata.frames:
                strings[seq][("frame", fr.iid)] = fr.function_name_id
            for cs in idata.callstacks:
                frames_of_stack[(seq, cs.iid)] = list(cs.frame_ids)
        if pkt.HasField("ftrace_events"):
            b = pkt.ftrace_events
            for ev in b.event:
                kind = ev.WhichOneof("event")
                if kind == "sched_switch":
                    facts["switches cpu=%d" % b.cpu] += 1
                elif kind == "sched_waking":
                    facts["wakings cpu=%d" % b.cpu] += 1
                elif kind == "sched_wakeup_new":
                    facts["wakeup_new cpu=%d" % b.cpu] += 1
                elif kind in ("cpu_idle", "cpu_frequency"):
                    facts["%s cpu=%d" % (kind, b.cpu)] += 1
            if b.HasField("compact_sched"):
                c = b.compact_sched
                if len(c.switch_timestamp):
                    facts["switches cpu=%d" % b.cpu] += len(c.switch_timestamp)
                if len(c.waking_timestamp):
                    facts["wakings cpu=%d" % b.cpu] += len(c.waking_timestamp)
        if pkt.HasField("track_event"):
            te = pkt.track_event
            if te.type == te.TYPE_SLICE_BEGIN:
                facts["slices %s" % track_names.get(te.track_uuid, "track=?")] += 1
            if te.type == te.TYPE_COUNTER:
                facts["counters %s" % track_names.get(te.track_uuid, "track=?")] += 1
            if te.type in (te.TYPE_SLICE_BEGIN, te.TYPE_SLICE_END):
                for a in set(a.name for a in te.debug_annotations if a.name):
                    facts["slice_args_with %s" % a] += 1
            if te.HasField("callstack"):
                for f in set(fr.function_name for fr in te.callstack.frames):
                    facts["slice_frames_with %s" % f] += 1
        if pkt.HasField("perf_sample"):
            s = pkt.perf_sample
            facts["samples pid=%d" % s.pid] += 1
            funcs = set()
            for fid in frames_of_stack.get((seq, s.callstack_iid), []):
                fname_iid = strings[seq].get(("frame", fid))
                funcs.add(strings[seq].get(("fn", fname_iid), "?"))
            for f in funcs:
                facts["frames_with %s" % f] += 1
    lines = ["%s %d" % (k, v) for k, v in facts.items()]
    return lines + list(names.values())


def dump_facts(path, lo, hi):
    facts = collections.Counter()
    dsq_label = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if not lo <= r["ts"] <= hi:
                continue
            t = r.get("type")
            if t == "sched_switch":
                facts["switches cpu=%d" % r["cpu"]] += 1
            elif t == "sched_waking":
                key = "wakeup_new" if r.get("new") else "wakings"
                facts["%s cpu=%d" % (key, r["cpu"])] += 1
            elif t == "sample":
                facts["samples pid=%d" % r["pid"]] += 1
            elif t in ("cpu_idle", "cpu_frequency"):
                facts["%s cpu=%d" % (t, r["cpu"])] += 1
            elif t == "scx_dsq":
                # As convert labels it: a per-CPU built-in DSQ with its
                # first task's CPU.
                uid = r["dsq_uid"]
                if uid not in dsq_label:
                    per_cpu = r["dsq_id"].startswith("0x8") and r["dsq"] != "global" and \
                        not r["dsq"].startswith("local_on")
                    dsq_label[uid] = "%s:%d" % (r["dsq"], r["task_cpu"]) if per_cpu \
                        else r["dsq"]
                facts["counters track=DSQ %s depth" % dsq_label[uid]] += 1
    return ["%s %d" % (k, v) for k, v in facts.items()]


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("trace", "dump"):
        sys.exit(__doc__)
    if sys.argv[1] == "dump":
        window = [int(x) for x in sys.argv[3:5]] if len(sys.argv) == 5 else [0, 2**64]
        lines = dump_facts(sys.argv[2], *window)
    else:
        proto = os.path.join(TOP, "proto", "perfetto.proto")
        if len(sys.argv) == 5 and sys.argv[3] == "--proto":
            proto = sys.argv[4]
        lines = trace_facts(sys.argv[2], proto)
    print("\n".join(sorted(lines)))


if __name__ == "__main__":
    main()
