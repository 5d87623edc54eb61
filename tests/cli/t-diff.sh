#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof diff, known answers: each pair of capture scripts tests/diff/NAME.a.scn
# and NAME.b.scn differs in a known way (one thread's latency doubled, a CPU
# left idle, a process renamed); the diff's JSON must show the '#=' figures
# of NAME.a.scn. Captures of the same events show no significant change.
# Text and HTML render; bad arguments are usage errors.
. "$(dirname "$0")/lib.sh"
CHECK="/usr/bin/python3 $TOP/tests/lib/report_expect.py"

for a in "$TOP"/tests/diff/*.a.scn; do
	name=$(basename "$a" .a.scn)
	"$GEN" -t "$a" -o "$T/$name.a.ktp" || fail "gen-capture -t $a failed"
	"$GEN" -t "${a%.a.scn}.b.scn" -o "$T/$name.b.ktp" || fail "gen-capture -t $name.b failed"
	expect 0 '' diff --json "$T/$name.a.ktp" "$T/$name.b.ktp"
	printf '%s\n' "$out" >"$T/$name.json"
	$CHECK "$a" - "$T/$name.json" || fail "$name: expectations failed"
	expect 0 '' diff "$T/$name.a.ktp" "$T/$name.b.ktp"
	expect 0 'wrote' diff --html "$T/$name.html" "$T/$name.a.ktp" "$T/$name.b.ktp"
done

# No change: a capture with itself, and two captures of the same events.
no_change() {
	expect 0 '' diff --json "$1" "$2"
	printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
bad = [i["text"] for i in d["verdict"]] + \
      [i["text"] for i in d["items"] if i.get("test", {}).get("significant") or
       any(t["significant"] for t in i.get("tails", {}).values())]
sys.exit("unexpected changes: %s" % bad if bad else 0)' || fail "diff $1 $2 found a change"
}
"$GEN" -S -o "$T/s.ktp" || fail "gen-capture -S failed"
no_change "$T/s.ktp" "$T/s.ktp"
"$GEN" -n 200000 -c 4 -o "$T/r1.ktp" || fail "gen-capture failed"
"$GEN" -n 200000 -c 4 -d "$T/r2" || fail "gen-capture -d failed"
no_change "$T/r1.ktp" "$T/r2"
expect 0 '' diff "$T/r1.ktp" "$T/r2"
echo "$out" | grep -q 'no significant change' || fail "the verdict of no change: $out"

# A/A: two captures of one workload (the generator with two seeds) are
# alike; over 20 seed pairs, each diff runs some 460 tests, and with the
# false discovery rate held at 1% at most one pair may show a significant
# item (without the correction every pair had some). The threads each run
# walks the critical path of (the 16 off CPU longest) differ: a thread
# walked in one run only has no cause to compare, and the verdict names
# none (every pair named eight "gone" or "new" causes before).
aa_bad=0
for i in $(seq 1 20); do
	"$GEN" -n 200000 -c 4 -s $((2 * i - 1)) -o "$T/aa.a.ktp" || fail "gen-capture -s failed"
	"$GEN" -n 200000 -c 4 -s $((2 * i)) -o "$T/aa.b.ktp" || fail "gen-capture -s failed"
	expect 0 '' diff --json "$T/aa.a.ktp" "$T/aa.b.ktp"
	n=$(printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["compare"]["tests"] > 300, d["compare"]["tests"]
causes = [i["text"] for i in d["verdict"] if i["entity"] == "cause"]
assert not causes, causes
print(sum(1 for i in d["items"] if i.get("test", {}).get("significant") or
          any(t["significant"] for t in i.get("tails", {}).values())))') ||
		fail "A/A diff $i: bad document"
	[ "$n" = 0 ] || aa_bad=$((aa_bad + 1))
done
[ "$aa_bad" -le 1 ] || fail "$aa_bad of 20 A/A diffs found a significant change"

expect 2 'usage: ktprof diff' diff "$T/r1.ktp"
expect 2 'choose one output form' diff --json --html x "$T/r1.ktp" "$T/r2"
expect 2 '--alpha wants a probability' diff --alpha 2 "$T/r1.ktp" "$T/r2"
expect 1 'No such file' diff "$T/r1.ktp" "$T/none.ktp"
echo ok
