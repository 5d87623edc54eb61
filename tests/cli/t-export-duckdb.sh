#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof export read by a fleet's engine: DuckDB (@duckdb/node-api, pinned
# by tests/duckdb/package-lock.json, installed by scripts/setup.sh) reads
# the CSV, then the NDJSON files of five captures exported together (three
# scripted, two generated; each its own session id, so each its own name)
# and computes per capture and process the p50/p90/p99 wakeup latency
# (nearest rank, by window functions) and the runtime, which must equal
# report --json of each capture (tests/duckdb/fleet.mjs). Twice it is
# given a wrong expectation, and must fail.
. "$(dirname "$0")/lib.sh"

duckdb=$TOP/tests/duckdb/node_modules/@duckdb/node-api
command -v node >/dev/null || fail "node is missing: run scripts/setup.sh"
[ -d "$duckdb" ] || fail "DuckDB's Node API is missing from tests/duckdb: run scripts/setup.sh"

caps=()
i=1
for s in basic rq-attrib wakeup-idle; do
	"$GEN" -t "$TOP/tests/report/$s.scn" -i $i -o "$T/$s.ktp" || fail "gen-capture $s"
	caps+=("$T/$s.ktp")
	i=$((i + 1))
done
# Up to 64 wakeups a process (report's percentiles exact), and more (not).
"$GEN" -n 30000 -c 4 -s 3 -i 100 -o "$T/small.ktp" || fail "gen-capture small"
"$GEN" -n 200000 -c 4 -s 5 -i 101 -o "$T/large.ktp" || fail "gen-capture large"
caps+=("$T/small.ktp" "$T/large.ktp")

expect 0 'wrote .*: 5 captures' export -o "$T/csv" "${caps[@]}"
expect 0 'wrote .*: 5 captures' export --format ndjson -o "$T/ndjson" "${caps[@]}"
# The names: HOST/SESSION_ID, the host this machine's.
names=$(cut -d, -f1 "$T/csv/captures.csv" | tail -n +2 | sed 's|^.*/||' | tr '\n' ' ')
[ "$names" = "1 2 3 100 101 " ] || fail "capture names: $(cat "$T/csv/captures.csv")"

for fmt in csv ndjson; do
	out=$(timeout 300 node "$TOP/tests/duckdb/fleet.mjs" "$KTPROF" "$T/$fmt" 2>&1) ||
		fail "DuckDB over the $fmt files: $out"
	echo "$out" | grep -q "^ok: $fmt: 5 captures" || fail "DuckDB over the $fmt files: $out"
	echo "$out"
done
# The comparisons can fail: a wrong runtime, and a rank that is not the nearest.
out=$(timeout 300 node "$TOP/tests/duckdb/fleet.mjs" "$KTPROF" "$T/csv" runtime 2>&1) &&
	fail "a wrong runtime passed: $out"
echo "$out" | grep -q 'runtime of .*DuckDB' || fail "a wrong runtime: $out"
out=$(timeout 300 node "$TOP/tests/duckdb/fleet.mjs" "$KTPROF" "$T/csv" floor 2>&1) &&
	fail "rank floor(p n) passed: $out"
echo "$out" | grep -q 'p[59]0 wakeup latency of' || fail "rank floor(p n): $out"

# Two captures of one session: the second is NAME#2, not the same name.
"$GEN" -t "$TOP/tests/report/basic.scn" -i 1 -o "$T/again.ktp" || fail "gen-capture again"
expect 0 '' export -o "$T/twice" "$T/basic.ktp" "$T/again.ktp"
names=$(cut -d, -f1 "$T/twice/captures.csv" | tail -n +2 | sed 's|^.*/||' | tr '\n' ' ')
[ "$names" = "1 1#2 " ] || fail "one session twice: $(cat "$T/twice/captures.csv")"
echo ok
