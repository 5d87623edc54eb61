#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof report, known answers: each capture script of tests/report/ is
# turned into a capture, reported as JSON with and without the arguments
# of its '#! NAME ARGS' lines, and every '#=' expectation (worked out by
# hand from the script) is checked. The text report of each must render
# too; a raw dump directory must give the same JSON as the capture file.
# Each capture is also made with TSC stamps (gen-capture -k: a 2 GHz
# counter and CLOCK records, as the module writes them with --clock tsc)
# and must report the same figures, its CLOCK records aside.
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
	"$GEN" -k -t "$scn" -o "$T/$name.tsc.ktp" || fail "gen-capture -k -t $scn failed"
	expect 0 '' report --json "$T/$name.tsc.ktp"
	printf '%s\n' "$out" >"$T/$name.tsc.json"
	/usr/bin/python3 "$TOP/tests/lib/same_report.py" "$T/$name.json" "$T/$name.tsc.json" ||
		fail "$name: TSC stamps report otherwise"
done

# x86 system vectors by name in the text report too: the timer as the
# waker, and as a handler.
expect 0 '' report --wakers --irq "$T/vectors.ktp"
grep -Eq '^ +3  irq timer +sleeper \(400\) ' <<<"$out" ||
	fail "vectors: --wakers lacks 'irq timer' waking sleeper 3 times: $out"
grep -Eq '^ +1  irq vector 251 +sleeper \(400\) ' <<<"$out" ||
	fail "vectors: --wakers lacks 'irq vector 251': $out"
grep -Eq '^  irq timer +3 +700 ns ' <<<"$out" ||
	fail "vectors: --irq lacks the timer's 3 runs, 700 ns: $out"

# --cpu with -e power: each CPU's idle-state residency and mean frequency
# (tests/report/power.scn, worked out there); none without power records.
expect 0 '' report --cpu "$T/power.ktp"
grep -Fq '  0    in states 55.0% of idle: POLL 9.1%, C1 18.2%, C6 72.7%; 2400.0 MHz' <<<"$out" ||
	fail "power: --cpu lacks CPU 0's idle states and frequency: $out"
grep -Fq '  1    in states 15.0% of idle: C1 100.0%; 850.0 MHz' <<<"$out" ||
	fail "power: --cpu lacks CPU 1's idle states and frequency: $out"
expect 0 '' report --cpu "$T/basic.ktp"
grep -q 'idle states' <<<"$out" && fail "basic: --cpu shows idle states without power records"

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
# Options that would select nothing are errors, not empty reports
# (surface-09): a window past the end, a CPU the capture lacks, a time
# without its unit.
expect 1 'ends 0.00' report --from 1h "$T/basic.ktp"
expect 2 'has CPUs 0-' report -C 99 "$T/basic.ktp"
expect 2 'with its unit' report --from 5 "$T/basic.ktp"
expect 2 'with its unit' diff --to 5 "$T/basic.ktp" "$T/basic.ktp"

# Names that are not UTF-8 (surface-04): report, diff and dump write valid
# UTF-8 JSON, each stray byte as the character of its value (U+00XX), the
# same in all three, and --comm selects by that form as by the bytes.
{
	printf 'cpus 1\nstop 10000\n0 0 start pid=0\n'
	printf '0 0 task pid=104 tgid=104 comm=\377\376\375 state=S snapshot\n'
	printf '0 0 task pid=105 tgid=105 comm=\355\240\200\303\251 state=S snapshot\n'
	printf '1000 0 waking pid=104\n2000 0 switch prev=0 state=R next=104\n'
	printf '3000 0 switch prev=104 state=S next=105\n4000 0 switch prev=105 state=S next=0\n'
	printf '10000 0 stop pid=0\n'
} >"$T/names.scn"
"$GEN" -t "$T/names.scn" -o "$T/names.ktp" || fail "gen-capture -t names failed"
"$KTPROF" report --json "$T/names.ktp" >"$T/names.json" || fail "report --json names failed"
"$KTPROF" diff --json "$T/names.ktp" "$T/names.ktp" >"$T/names.diff.json" || fail "diff --json names failed"
"$KTPROF" dump --json "$T/names.ktp" >"$T/names.dump" || fail "dump --json names failed"
"$KTPROF" report --json --comm "$(printf '\303\277\303\276\303\275')" "$T/names.ktp" \
	>"$T/names.sel.json" || fail "report --comm in its JSON form failed"
/usr/bin/python3 - "$T" <<'PY' || fail "names outside UTF-8 are not written by one rule"
import json, sys
t = sys.argv[1]
def load(name):   # strict: bytes must be UTF-8
    return json.loads(open(t + "/" + name, "rb").read().decode("utf-8"))
want = {104: "\u00ff\u00fe\u00fd", 105: "\u00ed\u00a0\u0080\u00e9"}
report = {x["pid"]: x["comm"] for x in load("names.json")["threads"]}
assert report == want, report
dump = {}
for line in open(t + "/names.dump", "rb").read().decode("utf-8").splitlines():
    e = json.loads(line)
    if e["type"] == "task":
        dump[e["pid"]] = e["comm"]
assert dump == want, dump
names = {i["name"] for i in load("names.diff.json")["items"] if i["entity"] == "process"}
assert names == set(want.values()), names
assert [x["pid"] for x in load("names.sel.json")["threads"]] == [104]
PY

# An output that is an input is refused, the input left whole (surface-08),
# also through another name.
cp "$T/basic.ktp" "$T/victim.ktp"
ln -s victim.ktp "$T/victim-link.ktp"
expect 2 'would overwrite the capture' report --html "$T/victim.ktp" "$T/victim.ktp"
expect 2 'would overwrite a capture' diff --html "$T/victim-link.ktp" "$T/basic.ktp" "$T/victim.ktp"
cmp -s "$T/basic.ktp" "$T/victim.ktp" || fail "the capture was overwritten"
echo ok
