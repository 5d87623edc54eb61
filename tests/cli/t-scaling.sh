#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Time linear in the input (issue 33, ../shared/bad-input/surface-01,
# surface-02), and JSON in the memory of the analysis (surface-03):
# captures with N and 4N processes that each take one sample, and with N
# and 4N differently named threads, through report (JSON, text profile,
# HTML), diff and an MCP session. The CPU time of the larger over the
# smaller must stay under 8: linear work gives about 4, the quadratic
# profile rows and flame graph and the linear name lookups of diff gave
# 16 (80k processes: report --json 132 s). A ratio in one run, not a time.
. "$(dirname "$0")/lib.sh"
N=5000

# "EXIT CPU_SECONDS" of one command.
cpu() {
	timeout 300 /usr/bin/python3 -c '
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, "%.3f" % (r.ru_utime + r.ru_stime))' "$@"
}

# One sample per process, each its own pid.
pids_scn() {
	/usr/bin/python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
print("cpus 1\n0 0 start pid=0")
for i in range(n):
    print("%d 0 sample pid=%d tid=%d k=0xffffffff81003010" % (10 + 10 * i, 1000 + i, 1000 + i))
print("%d 0 stop pid=0" % (20 + 10 * n))
PY
}

# N threads of N names, each running once.
tasks_scn() {
	/usr/bin/python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
print("cpus 1\n0 0 start pid=0")
for i in range(n):
    print("10 0 task pid=%d tgid=%d comm=t%x state=S snapshot" % (1000 + i, 1000 + i, i))
t, prev = 10, 0
for i in range(n):
    print("%d 0 switch prev=%d state=S next=%d" % (t, prev, 1000 + i))
    t, prev = t + 10, 1000 + i
print("%d 0 switch prev=%d state=S next=0\n%d 0 stop pid=0" % (t, prev, t + 20))
PY
}

for n in $N $((4 * N)); do
	pids_scn $n >"$T/p$n.scn"
	tasks_scn $n >"$T/t$n.scn"
	"$GEN" -t "$T/p$n.scn" -o "$T/p$n.ktp" || fail "gen-capture -t p$n failed"
	"$GEN" -t "$T/t$n.scn" -o "$T/t$n.ktp" || fail "gen-capture -t t$n failed"
done

# ratio NAME CMD...: CMD with ARG N, then 4N (ARG is @ in CMD).
ratio() {
	local name=$1 small big rc1 rc2 s1 s2
	shift
	read -r rc1 s1 < <(cpu "${@//@/$N}") || fail "$name: over 300 s"
	read -r rc2 s2 < <(cpu "${@//@/$((4 * N))}") || fail "$name: over 300 s"
	[ "$rc1" = 0 ] && [ "$rc2" = 0 ] || fail "$name: exit $rc1, $rc2"
	awk -v a="$s1" -v b="$s2" 'BEGIN { exit !(b <= 8 * (a > 0.05 ? a : 0.05)) }' ||
		fail "$name: $s1 s of CPU for $N, $s2 s for $((4 * N)): not linear"
	echo "$name: $s1 s -> $s2 s"
}

ratio "report --json, one sample per process" "$KTPROF" report --json "$T/p@.ktp"
ratio "report --profile" "$KTPROF" report --profile "$T/p@.ktp"
ratio "report --html" "$KTPROF" report --html "$T/p@.html" "$T/p@.ktp"
ratio "diff, one name per thread" "$KTPROF" diff --json "$T/t@.ktp" "$T/t@.ktp"
ratio "report --json, one name per thread" "$KTPROF" report --json "$T/t@.ktp"

# An MCP session on one capture: every analysis, the profile, and with
# "compare" a comparison, each cut at limit 10 (python3 mcp-session.py
# KTPROF CAPTURE [compare]).
cat >"$T/mcp-session.py" <<'PY'
import json, subprocess, sys
calls = [("load_capture", {"path": sys.argv[2], "trace_id": "t"}),
         ("run_all_analyzers", {"trace_id": "t", "limit": 10}),
         ("analyze_process_runtime", {"trace_id": "t", "limit": 10}),
         ("get_profile", {"trace_id": "t", "top": 10})]
if sys.argv[3:] == ["compare"]:
    calls.append(("compare_traces", {"a": "t", "b": "t", "limit": 10}))
lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                     "clientInfo": {"name": "t-scaling", "version": "1"}}},
         {"jsonrpc": "2.0", "method": "notifications/initialized"}]
lines += [{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
           "params": {"name": n, "arguments": a}} for i, (n, a) in enumerate(calls)]
p = subprocess.run([sys.argv[1], "mcp"], input="".join(json.dumps(l) + "\n" for l in lines),
                   capture_output=True, text=True)
replies = [json.loads(l) for l in p.stdout.splitlines()]
bad = [r for r in replies if "error" in r or r.get("result", {}).get("isError")]
sys.exit(1 if p.returncode or len(replies) != len(calls) + 1 or bad else 0)
PY
ratio "mcp, one name per thread" /usr/bin/python3 "$T/mcp-session.py" "$KTPROF" "$T/t@.ktp" compare
# Memory (surface-03): the JSON document is written as it is made, so
# report --json peaks near what the analysis itself holds (the text
# report's peak), not at some 20 KB of json-c objects per thread (20k
# threads: 440 MB against 30 MB).
rss() {
	/usr/bin/python3 -c '
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
read -r rc1 text_kb < <(rss "$KTPROF" report "$T/t$((4 * N)).ktp")
read -r rc2 json_kb < <(rss "$KTPROF" report --json "$T/t$((4 * N)).ktp")
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] || fail "report of t$((4 * N)): exit $rc1, $rc2"
[ "$json_kb" -le $((2 * text_kb)) ] ||
	fail "report --json peaks at $json_kb KB, the text report at $text_kb KB"
echo "peak memory: text $text_kb KB, JSON $json_kb KB"
# MCP cuts each list at its limit as it is made: a session of calls at
# limit 10 holds the analysis and ten rows, not every thread's json-c
# objects (20k threads: 366 MB, when the cut came after the document).
read -r rc3 mcp_kb < <(rss /usr/bin/python3 "$T/mcp-session.py" "$KTPROF" "$T/t$((4 * N)).ktp")
[ "$rc3" = 0 ] || fail "mcp session on t$((4 * N)): exit $rc3"
[ "$mcp_kb" -le $((2 * text_kb)) ] ||
	fail "an MCP session at limit 10 peaks at $mcp_kb KB, the text report at $text_kb KB"
# A diff holds both reports and an item for each figure of each entity
# (some 600 bytes: a process and a thread group per name here): under 10
# times one report, in the CLI and in MCP (1 GB in MCP before the cut).
read -r rc4 diff_kb < <(rss "$KTPROF" diff --json "$T/t$((4 * N)).ktp" "$T/t$((4 * N)).ktp")
read -r rc5 cmp_kb < <(rss /usr/bin/python3 "$T/mcp-session.py" "$KTPROF" "$T/t$((4 * N)).ktp" compare)
[ "$rc4" = 0 ] && [ "$rc5" = 0 ] || fail "diff, compare_traces of t$((4 * N)): exit $rc4, $rc5"
[ "$diff_kb" -le $((10 * text_kb)) ] && [ "$cmp_kb" -le $((10 * text_kb)) ] ||
	fail "diff peaks at $diff_kb KB, compare_traces at $cmp_kb KB, the text report at $text_kb KB"
echo "peak memory: diff $diff_kb KB, MCP with compare_traces $cmp_kb KB"
echo "peak memory: MCP session at limit 10 $mcp_kb KB"
echo ok
