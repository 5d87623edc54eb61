#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# IPI sends are recorded where the kernel has the tracepoints (6.3 and
# later); on older kernels the group is reported unavailable and the rest
# still works. Where they are, report --irq's IPI delivery (each send to
# its target's vector entry) is what an independent pairing of the dump's
# records gives: per vector the count, minimum and maximum delay, the
# coalesced sends and the entries without a send.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	load_module
	ctl start
	"$WORKLOADS/sched-mix" -r 1000 -t 100 >/dev/null
	ctl stop
	dump_session "$out/raw"
	unload_module
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	n=$(grep -c '"type":"ipi_send"' "$out/dump.json")
	if [ "$(kernel_version)" -ge 603 ]; then
		# (scx, sched_ext's group, is not on the kernels this runs on.)
		grep -Eq '^events_unavailable=(scx)?$' "$out/raw/meta" || fail "IPI reported unavailable on $(kernel_release)"
		grep -q '^events=.*ipi' "$out/raw/meta" || fail "ipi not among the events"
		[ "$n" -gt 0 ] || fail "no ipi_send records"
		echo "$n IPI records"
	else
		grep -Eq '^events_unavailable=ipi(,scx)?$' "$out/raw/meta" || fail "IPI not reported unavailable on $(kernel_release)"
		[ "$n" = 0 ] || fail "ipi records on a kernel without IPI tracepoints"
		echo "IPI unavailable on $(kernel_release), as expected"
	fi
	grep -q '"type":"sched_switch"' "$out/dump.json" || fail "no switches"
	"$KTPROF" report --json --irq "$out/raw" >"$out/report.json" || fail "report --irq failed"
	/usr/bin/python3 - "$out/dump.json" "$out/report.json" "$(kernel_version)" <<'PY' || fail "IPI delivery differs"
import json, sys
names, pending, got = {}, {}, {}
def kind(e, target):
    if e["callback"] == "0x0":
        return "reschedule"
    if "target_cpus" in e:
        return "call_function"
    return "irq_work" if target == e["cpu"] else "call_function_single"
def stats(k):
    return got.setdefault(k, {"n": 0, "min": None, "max": 0, "coalesced": 0, "unmatched": 0})
for line in open(sys.argv[1]):
    e = json.loads(line)
    t = e["type"]
    if t == "irq_name":
        names[e["irq"]] = e["name"]
    elif t == "lost":
        sys.exit("records lost: no pairing")
    elif t == "ipi_send":
        targets = [e["target_cpu"]] if "target_cpu" in e else \
            [int(c) for c in e["target_cpus"].split(",") if c]
        for cpu in targets:
            k = kind(e, cpu)
            if (cpu, k) in pending:
                stats(k)["coalesced"] += 1
            else:
                pending[(cpu, k)] = e["ts"]
    elif t == "irq_entry" and names.get(e["irq"]) in ("reschedule", "call_function",
                                                     "call_function_single", "irq_work"):
        k = names[e["irq"]]
        sent = pending.pop((e["cpu"], k), None)
        st = stats(k)
        if sent is None:
            st["unmatched"] += 1
            continue
        d = e["ts"] - sent
        st["n"] += 1
        st["min"] = d if st["min"] is None else min(st["min"], d)
        st["max"] = max(st["max"], d)
rep = {d["vector"]: d for d in json.load(open(sys.argv[2]))["irq"]["ipi_delivery"]}
bad = 0
for k in sorted(set(got) | set(rep)):
    w, r = got.get(k, stats(k)), rep.get(k)
    have = (r["delay"]["count"], r["delay"]["count"] and r["delay"]["min_ns"],
            r["delay"]["max_ns"] if r["delay"]["count"] else 0, r["coalesced"],
            r["entries_without_send"]) if r else (0, 0, 0, 0, 0)
    want = (w["n"], w["min"] or 0, w["max"], w["coalesced"], w["unmatched"])
    print("%-22s report %s, pairing %s" % (k, have, want))
    bad += have != want
paired = sum(g["n"] for g in got.values())
if int(sys.argv[3]) >= 603 and not paired:
    print("no IPI paired with its entry")
    bad += 1
sys.exit(1 if bad else 0)
PY
	echo ok
}

run_phases
