#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof diff on real runs with a known effect: a periodic sleeper pinned
# to CPU 1 is recorded alone (A), then with a CPU hog pinned beside it
# (B). The verdict must name that effect: the hog that came, and CPU 1's
# utilization up by more than 50 points; the same diff as JSON and HTML.
# Not that it comes first: under TCG the guest's clock is the host's, and
# a vCPU the host preempts stretches whatever it ran then (an irq handler
# "took" 10 ms in CI), a real change in the guest's figures that may
# rightly rank above the hog.
# What this tests is user space on a real capture; the recording itself
# is tested on every kernel, the debug kernel included, by vm/record,
# vm/capture and vm/sampling.
# kernels: 6.12 6.1
# vm-args: --cpus 2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	load_module
	"$KTPROF" record -q -S none $(debug_buffer) -o "$out/a.ktp" -- taskset -c 1 "$WORKLOADS/ticker" -n 300 \
		>/dev/null 2>"$out/a.err" || fail "record A failed: $(cat "$out/a.err")"
	taskset -c 1 "$WORKLOADS/hotfuncs" -t 60000 >/dev/null &
	hog=$!
	nap 0.5
	"$KTPROF" record -q -S none $(debug_buffer) -o "$out/b.ktp" -- taskset -c 1 "$WORKLOADS/ticker" -n 300 \
		>/dev/null 2>"$out/b.err" || fail "record B failed: $(cat "$out/b.err")"
	kill "$hog"
	wait "$hog" 2>/dev/null
	unload_module
}

host() {
	"$KTPROF" diff "$out/a.ktp" "$out/b.ktp" >"$out/diff.txt" || fail "diff failed"
	sed -n '/^verdict/,/^$/p' "$out/diff.txt"
	"$KTPROF" diff --json "$out/a.ktp" "$out/b.ktp" >"$out/diff.json" || fail "diff --json failed"
	/usr/bin/python3 - "$out/diff.json" <<'PY' || fail "the verdict does not name the hog and CPU 1's utilization"
import json, sys
d = json.load(open(sys.argv[1]))
for v in d["verdict"]:
    print("verdict:", v["text"])
hog = any(v["name"] in ("hotfuncs", "hotfuncs/hotfuncs") and not v["in_a"] and v["in_b"]
          for v in d["verdict"])
cpu1 = any(i["name"] == "CPU 1" and i["metric"] == "utilization" and i["delta"] > 50
           for i in d["items"])
print("hog named:", hog, "CPU 1 utilization +50:", cpu1)
sys.exit(0 if hog and cpu1 else 1)
PY
	"$KTPROF" diff --html "$out/diff.html" "$out/a.ktp" "$out/b.ktp" || fail "diff --html failed"
	grep -q 'data-plot="cpu-utilization"' "$out/diff.html" || fail "no utilization plot"
}

run_phases
