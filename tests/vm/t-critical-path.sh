#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The critical path on a real chain of wakers (tests/workloads/chain): a
# client asks a server over a pipe, the server asks a worker, and the
# worker waits for its CPU behind a hog pinned there at a higher weight.
# `ktprof report --critical-path --tid CLIENT` names the hog in the
# client's time (runnable behind ktp-hog, two wakers up), with the
# worker's and the server's running on the path, and its causes add up
# to its time. Structure only, no timing: under TCG the shares vary.
# vm-args: --cpus 2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
rounds=$(scaled 200 50)

guest() {
	"$KTPROF" record -q -S none $(debug_buffer) --load "$KTPROF_KO" -o "$out/cap.ktp" -- \
		"$WORKLOADS/chain" -n "$rounds" -w 300 -c 0 -W 1 \
		>"$out/threads" 2>"$out/record.err" || fail "record failed: $(cat "$out/record.err")"
}

host() {
	local client
	client=$(awk '$1 == "ktp-client" { print $2 }' "$out/threads")
	[ -n "$client" ] || fail "the workload did not name its client: $(cat "$out/threads")"
	grep -q '^lost records      0$' <("$KTPROF" info "$out/cap.ktp") || fail "ktprof lost records"
	"$KTPROF" report --json --critical-path --tid "$client" "$out/cap.ktp" >"$out/report.json" ||
		fail "report --critical-path failed"
	"$KTPROF" report --critical-path --tid "$client" "$out/cap.ktp" >"$out/report.txt" ||
		fail "report --critical-path (text) failed"
	/usr/bin/python3 - "$out/report.json" "$client" <<'PY' || fail "the client's critical path does not name the hog"
import json, sys
cp = json.load(open(sys.argv[1]))["critical_path"]
client = int(sys.argv[2])
threads = [t for t in cp["threads"] if t["thread"]["pid"] == client]
assert len(threads) == 1, "--tid selects the client alone: %s" % [t["thread"] for t in cp["threads"]]
t = threads[0]
causes = {(c["kind"], c.get("thread", {}).get("comm", c["name"])): c["ns"] for c in t["causes"]}
for k, ns in sorted(causes.items(), key=lambda kv: -kv[1])[:8]:
    print("  %-40s %12d ns" % ("%s %s" % k, ns))
assert sum(c["ns"] for c in t["causes"]) == t["wall_ns"], "causes do not add up to the client's time"
for want in [("runnable", "ktp-hog"), ("running", "ktp-worker"), ("running", "ktp-server")]:
    assert causes.get(want, 0) > 0, "no %s %s on the client's path" % want
print("client %d: %d causes, %d ns behind ktp-hog" % (client, len(causes), causes[("runnable", "ktp-hog")]))
PY
	grep -q 'runnable behind.*ktp-hog' "$out/report.txt" || fail "the text does not name the hog: $(cat "$out/report.txt")"
	echo ok
}

run_phases
