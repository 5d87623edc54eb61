#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: how fast ktprof's analysis runs against perf sched's, on the
# same events. One Debian 6.12 guest (2 vCPUs) records
# tests/workloads/sched-mix under `perf sched record` and `ktprof record -e
# sched` at once (tests/bench/analysis-guest.sh); then, on the host, each of
#   perf sched latency, perf sched timehist          (on perf.data)
#   ktprof report --latency, ktprof report, ktprof report --json  (cap.ktp)
# runs once untimed (its output kept in OUTDIR/NAME.out), then RUNS times,
# the tools interleaved round by round so that the host's drift hits them
# alike, and as many times on a near-empty recording of each (the workload
# `true`): its fixed cost. Printed, medians: events read, wall seconds,
# events per second, CPU seconds, CPU seconds on the empty recording, CPU
# ns per event net of that, peak RSS. OUTDIR/analysis.json holds the same
# and every run's figures.
#
# Events: each tool's own input. For perf, the samples in perf.data (`perf
# report --stats`): the sched tracepoints `perf sched record` enables,
# sched_stat_runtime among them, which ktprof does not record. For ktprof,
# the records in the capture (`ktprof info`, as capture_records counts
# them). events/s is that count over the median wall seconds.
#
# Times come from wait4()'s rusage, as /usr/bin/time's do, but to the
# microsecond: the runs take tens of milliseconds. On a busy host the wall
# time of such short runs is mostly waiting for a CPU; the CPU time is not.
# Nothing is asserted: a measurement, not a test.
#
# usage: tests/bench/analysis.sh [OUTDIR]   (default build/bench-analysis)
#        (environment: RUNS (5), PINGS (30000) and HOG_MS (500): sched-mix's
#        ping-pong rounds and hog time after them; REUSE=1: no VM, time the
#        tools again on what OUTDIR already holds)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "${1:-$top/build/bench-analysis}"
out=$(cd "${1:-$top/build/bench-analysis}" && pwd)	# the guest mounts it at this path
KTPROF=$top/user/ktprof
RUNS=${RUNS:-5}
PINGS=${PINGS:-30000}
HOG_MS=${HOG_MS:-500}
# shellcheck source=tests/bench/lib.sh
. "$top/tests/bench/lib.sh"
# shellcheck source=scripts/lib.sh
. "$top/scripts/lib.sh"	# die
command -v perf >/dev/null || die "perf is not installed (scripts/setup.sh: linux-perf)"
g=$out/guest
rm -f "$out/runs.txt" "$out/analysis.json"

echo "== analysis speed against perf sched (host, $(nproc) CPUs; events recorded by both in one Debian 6.12 guest, 2 vCPUs)"
if [ "${REUSE:-0}" != 1 ]; then
	rm -rf "$g"
	mkdir -p "$g"
	"$top/scripts/vm-run" --kernel 6.12 --cpus 2 --timeout 900 --out "$g" -- \
		env KTPROF_TEST_OUT="$g" PINGS="$PINGS" HOG_MS="$HOG_MS" \
		"$top/tests/bench/analysis-guest.sh" "$g" >"$out/guest.txt" ||
		{ tail -5 "$out/guest.txt" >&2; die "the VM failed; see $g/console.log"; }
fi
grep -q '^done$' "$out/guest.txt" || die "the guest did not finish; see $out/guest.txt"
kernel=$(sed -n 's/^kernel //p' "$out/guest.txt")
recorded=$(sed -n 's/^recorded in \([0-9.]*\) s.*/\1/p' "$out/guest.txt")
workload=$(sed -n 's/^workload //p' "$out/guest.txt")

# perf_stat FILE WHAT: from `perf report --stats`, the samples (WHAT
# samples), those of sched_stat_runtime (runtime) or the lost events (lost).
perf_stat() {
	perf report --stats -i "$1" 2>/dev/null | awk -v what="$2" '
		/^ *SAMPLE events:/ && !s { s = $3 }
		/^ *LOST events:/ && !l { l = $3 }
		/^sched:sched_stat_runtime stats:/ { on = 1; next }
		on && /SAMPLE events:/ { r = $3; on = 0 }
		END { print (what == "samples" ? s : what == "runtime" ? r : l) + 0 }'
}
perf report --stats -i "$g/perf.data" >/dev/null 2>&1 || die "perf report --stats cannot read $g/perf.data"
perf_events=$(perf_stat "$g/perf.data" samples)
perf_runtime=$(perf_stat "$g/perf.data" runtime)
perf_lost=$(perf_stat "$g/perf.data" lost)
perf_empty=$(perf_stat "$g/empty.data" samples)
ktp_records=$(capture_records "$g/cap.ktp")
ktp_empty=$(capture_records "$g/empty.ktp")
ktp_lost=$("$KTPROF" info "$g/cap.ktp" | sed -n 's/^lost records *\([0-9]*\).*/\1/p')
if [ "$perf_events" -eq 0 ] || [ "$ktp_records" -eq 0 ]; then
	die "an empty recording"
fi

tools=("perf sched latency" "perf sched timehist"
	"ktprof report --latency" "ktprof report" "ktprof report --json")
# tool_cmd NAME [empty]: NAME's command line on the recording (or on the
# empty one) into cmd, its input file's name into input.
tool_cmd() {
	case "$1" in
	"perf sched latency") cmd=(perf sched latency) ;;
	"perf sched timehist") cmd=(perf sched timehist) ;;
	"ktprof report --latency") cmd=("$KTPROF" report --latency) ;;
	"ktprof report") cmd=("$KTPROF" report) ;;
	"ktprof report --json") cmd=("$KTPROF" report --json) ;;
	*) die "no tool '$1'" ;;
	esac
	case "$1/${2:-}" in
	perf*/empty) input=empty.data; cmd+=(-i "$g/$input") ;;
	perf*) input=perf.data; cmd+=(-i "$g/$input") ;;
	*/empty) input=empty.ktp; cmd+=("$g/$input") ;;
	*) input=cap.ktp; cmd+=("$g/$input") ;;
	esac
}
# The untimed run: it must work, and its output stays for a look.
for t in "${tools[@]}"; do
	tool_cmd "$t"
	f=$out/${t// /-}
	"${cmd[@]}" >"$f.out" 2>"$f.err" || die "$t failed: $(tail -3 "$f.err")"
done

# The timed runs, all in one process (a Python start per run costs more
# than some of the runs on a busy host): RUNS rounds, each runs every tool
# on the recording and on the empty one. runs.txt gets a line a run:
# "ROUND<TAB>NAME<TAB>INPUT<TAB>WALL_S<TAB>CPU_S<TAB>RSS_KB".
: >"$out/cmds.txt"
for set in full empty; do
	for t in "${tools[@]}"; do
		tool_cmd "$t" "$set"
		(IFS=$'\t'; printf '%s\t%s\t%s\n' "$t" "$input" "${cmd[*]}") >>"$out/cmds.txt"
	done
done
args=()
for t in "${tools[@]}"; do
	tool_cmd "$t"
	args+=("$t" "${cmd[*]}")
done
python3 - "$out" "$RUNS" "$kernel" "$recorded" "$workload" \
	"$(perf version | awk '{ print $3 }')" \
	"$perf_events" "$perf_runtime" "$perf_lost" "$perf_empty" "$(stat -c %s "$g/perf.data")" \
	"$ktp_records" "${ktp_lost:-0}" "$ktp_empty" "$(stat -c %s "$g/cap.ktp")" \
	"${args[@]}" <<'EOF'
import datetime, json, os, statistics, sys, time

(out, runs, kernel, recorded, workload, perf_version) = sys.argv[1:7]
(perf_events, perf_runtime, perf_lost, perf_empty, perf_bytes,
 ktp_records, ktp_lost, ktp_empty, ktp_bytes) = map(int, sys.argv[7:16])
rest = sys.argv[16:]

# One run of argv, its output thrown away: wall and CPU seconds (wait4's
# rusage, as /usr/bin/time reports, but to the microsecond) and peak RSS.
null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
def measure(argv):
    t0 = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=null)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("analysis: %s exited with %d" % (" ".join(argv),
                                                  os.waitstatus_to_exitcode(status)))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss

with open(os.path.join(out, "cmds.txt")) as f:
    cmds = [line.rstrip("\n").split("\t") for line in f]
runs_of = {}
with open(os.path.join(out, "runs.txt"), "w") as log:
    for rnd in range(1, int(runs) + 1):
        for name, inp, *argv in cmds:
            wall, cpu, rss = measure(argv)
            log.write("%d\t%s\t%s\t%.6f\t%.6f\t%d\n" % (rnd, name, inp, wall, cpu, rss))
            r = runs_of.setdefault((name, inp), {"wall": [], "cpu": [], "rss": []})
            r["wall"].append(wall)
            r["cpu"].append(cpu)
            r["rss"].append(rss)

inputs = {
    "perf.data": {"bytes": perf_bytes, "events": perf_events, "lost": perf_lost,
                  "sched_stat_runtime": perf_runtime},
    "cap.ktp": {"bytes": ktp_bytes, "events": ktp_records, "lost": ktp_lost},
    "empty.data": {"events": perf_empty},
    "empty.ktp": {"events": ktp_empty},
}
empty_of = {"perf.data": "empty.data", "cap.ktp": "empty.ktp"}

def rate(n):
    return "%.2fM" % (n / 1e6) if n >= 1e6 else "%.0fK" % (n / 1e3)

def summary(r):
    return {"median": statistics.median(r), "min": min(r), "max": max(r), "runs": r}

print("%s runs of each, interleaved; medians. events: each tool's input, the samples in\n"
      "perf.data (%d of them sched_stat_runtime, which ktprof does not record: without\n"
      "them %d) or the records in cap.ktp. events/s = events / seconds (wall). empty:\n"
      "CPU s on a recording of `true` (%d events, %d records); ns/event = (cpu s -\n"
      "empty) / events more." % (runs, perf_runtime, perf_events - perf_runtime,
                                 perf_empty, ktp_empty))
print("%-23s %8s %7s %8s %8s %7s %7s %8s %9s" % ("tool", "input", "events", "seconds",
      "events/s", "cpu s", "empty", "ns/event", "peak RSS"))
tools = []
for i in range(0, len(rest), 2):
    name, command = rest[i], rest[i + 1]
    inp = "perf.data" if name.startswith("perf") else "cap.ktp"
    full, empty = runs_of[(name, inp)], runs_of[(name, empty_of[inp])]
    events = inputs[inp]["events"]
    more = events - inputs[empty_of[inp]]["events"]
    wall = statistics.median(full["wall"])
    cpu = statistics.median(full["cpu"])
    cpu0 = statistics.median(empty["cpu"])
    rss = statistics.median(full["rss"])
    eps = events / wall if wall > 0 else 0
    ns = (cpu - cpu0) / more * 1e9 if more > 0 else 0
    print("%-23s %5.1f MB %7d %8.3f %8s %7.3f %7.3f %8.0f %6.1f MB"
          % (name, inputs[inp]["bytes"] / 1e6, events, wall, rate(eps), cpu, cpu0, ns,
             rss / 1024))
    tools.append({"tool": name, "command": command, "input": inp, "events": events,
                  "wall_seconds": summary(full["wall"]), "events_per_second": eps,
                  "cpu_seconds": summary(full["cpu"]),
                  "events_per_cpu_second": events / cpu if cpu > 0 else 0,
                  "empty_cpu_seconds": summary(empty["cpu"]),
                  "cpu_ns_per_event_net": ns,
                  "peak_rss_kb": summary(full["rss"]),
                  "empty_peak_rss_kb": summary(empty["rss"])})
doc = {
    "benchmark": "analysis speed against perf sched",
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "host_cpus": os.cpu_count(),
    "guest": {"kernel": kernel, "cpus": 2, "workload": workload,
              "record_seconds": float(recorded or 0)},
    "perf_version": perf_version,
    "runs": int(runs),
    "events_counted_as": "perf: samples in perf.data (perf report --stats); "
                         "ktprof: records in the capture (ktprof info)",
    "inputs": inputs,
    "tools": tools,
}
with open(os.path.join(out, "analysis.json"), "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
print("lost: %d by perf, %d by ktprof; recorded in %s s of guest time (%s, %s)"
      % (perf_lost, ktp_lost, recorded, kernel, workload))
EOF
echo "figures: $out/analysis.json"
