#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof report, known answers: each capture script of tests/report/ is
# turned into a capture, reported as JSON with and without the arguments
# of its '#! NAME ARGS' lines, and every '#=' expectation (worked out by
# hand from the script) is checked. The text report of each must render
# too; a raw dump directory must give the same JSON as the capture file.
. "$(dirname "$0")/lib.sh"
CHECK="/usr/bin/python3 $TOP/tests/lib/report_expect.py"

for scn in "$TOP"/tests/report/*.scn; do
	name=$(basename "$scn" .scn)
	"$GEN" -t "$scn" -o "$T/$name.ktp" || fail "gen-capture -t $scn failed"
	expect 0 '' report --json "$T/$name.ktp"
	printf '%s\n' "$out" >"$T/$name.json"
	$CHECK "$scn" - "$T/$name.json" || fail "$name: expectations failed"
	while read -r run args; do
		# shellcheck disable=SC2086
		run report --json $args "$T/$name.ktp"
		[ "$rc" = 0 ] || fail "$name/$run: report $args: exit $rc: $err"
		printf '%s\n' "$out" >"$T/$name.$run.json"
		$CHECK "$scn" "$run" "$T/$name.$run.json" || fail "$name/$run: expectations failed"
	done < <(sed -n 's/^#! *//p' "$scn")
	expect 0 '' report "$T/$name.ktp"
	expect 0 '' report --cpu --runtime --latency --states --migrations --preemption \
		--wakers --irq --findings --outliers "$T/$name.ktp"
done

# The same records from a raw dump directory: the same analysis.
"$GEN" -t "$TOP/tests/report/basic.scn" -d "$T/raw" || fail "gen-capture -d failed"
expect 0 '' report --json "$T/raw"
printf '%s\n' "$out" >"$T/raw.json"
/usr/bin/python3 - "$T/basic.json" "$T/raw.json" <<'PY' || fail "raw directory and capture differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop('capture')
    d['window'].pop('to_ns'); d['window'].pop('duration_ns'); d['window'].pop('to_rel_ns')
if a['cpus'] != b['cpus'] or a['threads'] != b['threads']:
    sys.exit(1)
PY
echo ok
