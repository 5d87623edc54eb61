#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof diff on real runs with a known effect: a periodic sleeper pinned
# to CPU 1 is recorded alone (A), then with a CPU hog pinned beside it
# (B). The verdict must name that effect first (the hog that came, or CPU
# 1's utilization); the same diff as JSON and HTML.
# vm-args: --cpus 2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	load_module
	"$KTPROF" record -q -S none -o "$out/a.ktp" -- taskset -c 1 "$WORKLOADS/ticker" -n 300 \
		>/dev/null 2>"$out/a.err" || fail "record A failed: $(cat "$out/a.err")"
	taskset -c 1 "$WORKLOADS/hotfuncs" -t 60000 >/dev/null &
	hog=$!
	sleep 0.5
	"$KTPROF" record -q -S none -o "$out/b.ktp" -- taskset -c 1 "$WORKLOADS/ticker" -n 300 \
		>/dev/null 2>"$out/b.err" || fail "record B failed: $(cat "$out/b.err")"
	kill "$hog"
	wait "$hog" 2>/dev/null
	unload_module
}

host() {
	"$KTPROF" diff "$out/a.ktp" "$out/b.ktp" >"$out/diff.txt" || fail "diff failed"
	sed -n '/^verdict/,/^$/p' "$out/diff.txt"
	"$KTPROF" diff --json "$out/a.ktp" "$out/b.ktp" >"$out/diff.json" || fail "diff --json failed"
	/usr/bin/python3 - "$out/diff.json" <<'PY' || fail "the verdict does not name the hog first"
import json, sys
d = json.load(open(sys.argv[1]))
first = d["verdict"][0]
print("first:", first["text"])
hog = first["name"] in ("hotfuncs", "hotfuncs/hotfuncs") and not first["in_a"] and first["in_b"]
cpu1 = first["name"] == "CPU 1" and first["metric"] == "utilization" and first["delta"] > 50
sys.exit(0 if hog or cpu1 else 1)
PY
	"$KTPROF" diff --html "$out/diff.html" "$out/a.ktp" "$out/b.ktp" || fail "diff --html failed"
	grep -q 'data-plot="cpu-utilization"' "$out/diff.html" || fail "no utilization plot"
}

run_phases
