#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof sql and ktprof export (issue 31): known answers worked out by hand
# from tests/report/basic.scn; the tables agree with report --json on every
# scripted capture of tests/report/; queries may only read, and a runaway
# one is stopped; --db and export write files safely.
. "$(dirname "$0")/lib.sh"

"$GEN" -t "$TOP/tests/report/basic.scn" -o "$T/basic.ktp" || fail "gen-capture basic"

# The script's time 0 (gen-capture's session start): tables keep CLOCK_BOOTTIME.
B=1000000000

# One value: ktprof sql FILE QUERY, text without a header.
q() {
	expect 0 '' sql --no-header "$T/basic.ktp" "$1"
	[ "$out" = "$2" ] || fail "sql '$1': got '$out', want '$2'"
}

# basic.scn: a (100) ran 0-2000 and 2600-5000 on CPU 0, 6000-10000 on
# CPU 1; a-worker (101) 2000-2600; b (200) 1400-3000 and 4500-6000 on
# CPU 1, 6300-9000 on CPU 0.
q "SELECT tid, runtime_ns, switches, involuntary_switches FROM threads ORDER BY tid" \
	"100|8400|2|1
101|600|1|0
200|5800|3|1"
q "SELECT s.cpu, s.ts - $B, s.dur FROM slices s JOIN threads t USING (utid) WHERE t.tid = 100
   ORDER BY s.ts" "0|0|2000
0|2600|2400
1|6000|4000"
q "SELECT cpu, busy_ns, idle_ns, unknown_ns, package, core FROM cpus ORDER BY cpu" \
	"0|7700|2300|0|0|0
1|7100|2900|0|0|1"
q "SELECT tgid, comm, threads, runtime_ns FROM processes ORDER BY tgid" "100|a|2|9000
200|b|1|5800"
# Wakeups: b at 1000 (by a, in at 1400), a-worker at 1500 (in at 2000),
# b at 4100 (by irq 24, in at 4500), a at 5500 (in at 6000).
q "SELECT t.tid, w.waking_ts - $B, w.switch_in_ts - $B, w.latency_ns, w.waker, w.waker_id
   FROM wakeups w JOIN threads t USING (utid) ORDER BY w.waking_ts" \
	"200|1000|1400|400|thread|
101|1500|2000|500|thread|
200|4100|4500|400|hardirq|24
100|5500|6000|500|thread|"
q "SELECT (SELECT tid FROM threads WHERE utid = w.waker_utid) FROM wakeups w
   WHERE w.waking_ts = $B + 1000" "100"
# Nearest rank of 400, 400, 500, 500: p50 rank 2, p99 rank 4, p0 rank 1.
q "SELECT percentile(latency_ns, 50), percentile(latency_ns, 99), percentile(latency_ns, 0)
   FROM wakeups" "400|500|400"
q "SELECT t.tid, r.ts - $B, r.end_ts - $B, r.latency_ns, r.cpu FROM runqueue_waits r JOIN threads t
   USING (utid) ORDER BY r.ts" "100|2000|2600|600|0
200|6000|6300|300|0"
q "SELECT count(*), sum(involuntary) FROM switches WHERE prev_utid IS NOT NULL" "6|2"
q "SELECT count(*) FROM switches WHERE cpu = 0" "5"
q "SELECT t.tid, m.ts - $B, m.from_cpu, m.to_cpu FROM migrations m JOIN threads t USING (utid)
   ORDER BY m.ts" "100|5500|0|1
200|6100|1|0"
q "SELECT cpu, kind, id, name, ts - $B, dur, self_ns, complete FROM irqs" \
	"1|hardirq|24|virtio0|4000|200|200|1"
q "SELECT state, sum(dur) FROM thread_states JOIN threads USING (utid) WHERE tid = 100
   GROUP BY state ORDER BY state" "runnable|1100
running|8400
sleeping|500"
q "SELECT kernel, start_ns, stop_ns, nr_cpus, lost, truncated FROM captures" \
	"6.12.0-synthetic|1000000000|1000010000|2|0|0"

# A window, 5 us to 8 us: a ran 6000-8000 on CPU 1; b 5000-6000 on CPU 1
# and 6300-8000 on CPU 0; a-worker slept; no time unknown. (With sql's
# client alone the pass ended at the window's end and took each CPU's last
# record before it for the end of its data: a had 100 ns, b 1000.)
expect 0 '' sql --no-header --from 5us --to 8us "$T/basic.ktp" \
	"SELECT tid, runtime_ns FROM threads ORDER BY tid; SELECT count(*) FROM gaps"
[ "$out" = "100|2000
101|0
200|2700
0" ] || fail "sql --from 5us --to 8us: $out"

# Several statements, CSV and JSON.
expect 0 '' sql --format csv "$T/basic.ktp" "SELECT 1 AS a, 'x,y' AS b; SELECT NULL AS c"
[ "$out" = 'a,b
1,"x,y"
c
' ] || [ "$out" = 'a,b
1,"x,y"
c' ] || fail "csv: $out"
expect 0 '' sql --format json "$T/basic.ktp" "SELECT 1.5 AS r, NULL AS n, 'q\"' AS s"
[ "$out" = '{"r":1.5,"n":null,"s":"q\""}' ] || fail "json: $out"

# The tables agree with report --json on every scripted capture: each
# thread's runtime and switches, its wakeup and runqueue latencies' count
# and max, and each CPU's busy and idle time.
for scn in "$TOP"/tests/report/*.scn; do
	name=$(basename "$scn" .scn)
	"$GEN" -t "$scn" -o "$T/$name.ktp" || fail "gen-capture -t $scn"
	expect 0 '' report --json "$T/$name.ktp"
	printf '%s\n' "$out" >"$T/$name.report.json"
	expect 0 '' sql --format json "$T/$name.ktp" "
		SELECT 'thread' AS k, t.tid, t.runtime_ns, t.switches,
		  (SELECT count(*) FROM wakeups w WHERE w.utid = t.utid) AS wakeups,
		  (SELECT max(latency_ns) FROM wakeups w WHERE w.utid = t.utid) AS wakeup_max,
		  (SELECT count(*) FROM runqueue_waits r WHERE r.utid = t.utid) AS rq,
		  (SELECT max(latency_ns) FROM runqueue_waits r WHERE r.utid = t.utid) AS rq_max
		FROM threads t;
		SELECT 'cpu' AS k, cpu, busy_ns, idle_ns FROM cpus"
	printf '%s\n' "$out" >"$T/$name.sql.json"
	/usr/bin/python3 - "$T/$name.report.json" "$T/$name.sql.json" <<'PY' ||
import json, sys
rep = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
bad = []
# A pid may be two threads (reused): report lists each; compare the sums.
sums = {}
for r in rows:
    if r['k'] == 'thread':
        s = sums.setdefault(r['tid'], [0, 0, 0, 0, 0, 0])
        s[0] += r['runtime_ns']; s[1] += r['switches']; s[2] += r['wakeups']
        s[3] = max(s[3], r['wakeup_max'] or 0); s[4] += r['rq']; s[5] = max(s[5], r['rq_max'] or 0)
rs = {}
for t in rep.get('threads', []):
    s = rs.setdefault(t['pid'], [0, 0, 0, 0, 0, 0])
    lat = t.get('latency', {})
    w, q = lat.get('wakeup', {}), lat.get('runqueue', {})
    s[0] += t['runtime_ns']
    s[1] += t.get('voluntary_switches', 0) + t.get('involuntary_switches', 0)
    s[2] += w.get('count', 0); s[3] = max(s[3], w.get('max_ns') or 0)
    s[4] += q.get('count', 0); s[5] = max(s[5], q.get('max_ns') or 0)
for pid, s in rs.items():
    if sums.get(pid) != s:
        bad.append('thread %s: sql %s, report %s' % (pid, sums.get(pid), s))
for c in rep.get('cpus', []):
    r = [x for x in rows if x['k'] == 'cpu' and x['cpu'] == c['cpu']]
    if not r or r[0]['busy_ns'] != c['busy_ns'] or r[0]['idle_ns'] != c['idle_ns']:
        bad.append('cpu %s: sql %s, report busy %s idle %s' % (c['cpu'], r, c['busy_ns'], c['idle_ns']))
if bad:
    print('\n'.join(bad[:10]))
    sys.exit(1)
PY
		fail "$name: sql and report differ"
done

# Queries may only read.
for bad in "INSERT INTO threads (utid) VALUES (99)" "DELETE FROM slices" \
	"DROP TABLE threads" "CREATE TABLE x (a)" "UPDATE threads SET comm = 'x'" \
	"ATTACH DATABASE '$T/x.db' AS x" "PRAGMA writable_schema = 1" \
	"PRAGMA journal_mode" "SELECT load_extension('/lib/x')" \
	"CREATE TEMP TABLE y AS SELECT 1"; do
	expect 1 'may only read|not authorized|no such function' sql "$T/basic.ktp" "$bad"
done
[ ! -e "$T/x.db" ] || fail "ATTACH created a file"
expect 0 '' sql --no-header "$T/basic.ktp" "PRAGMA table_info(threads)"
grep -q '|runtime_ns|INTEGER|' <<<"$out" || fail "PRAGMA table_info refused: $out"

# A runaway query is stopped at its deadline; a long result is cut.
run sql --timeout 1 "$T/basic.ktp" \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
[ "$rc" = 1 ] && grep -q 'ran out of time' <<<"$err" || fail "runaway query: $rc: $err"
expect 0 'cut at 3 rows' sql --no-header --max-rows 3 "$T/basic.ktp" \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
[ "$out" = "1
2
3" ] || fail "--max-rows 3: $out"
expect 1 'too big' sql "$T/basic.ktp" "SELECT length(zeroblob(100000000))"
expect 1 'no such table' sql "$T/basic.ktp" "SELECT * FROM nosuch"
expect 1 '' sql "$T/basic.ktp" "SELECT percentile(latency_ns, 101) FROM wakeups"

# The prompt: queries from standard input, ';'-ended over lines; a failed
# one is said and the next read; the status says one failed.
run sql --no-header "$T/basic.ktp" <<'SQL'
.tables
SELECT count(*)
  FROM threads;
SELECT * FROM nosuch;
.schema wakeups
SELECT 42;
.quit
SELECT 43;
SQL
[ "$rc" = 1 ] || fail "prompt: exit $rc"
grep -qx 'stack_frames' <<<"$out" || fail "prompt: .tables: $out"
grep -qx '3' <<<"$out" && grep -qx '42' <<<"$out" || fail "prompt: answers: $out"
grep -q 'latency_ns' <<<"$out" || fail "prompt: .schema: $out"
grep -qx '43' <<<"$out" && fail "prompt: ran a query after .quit"
grep -q 'no such table' <<<"$err" || fail "prompt: the error: $err"

# --db: an SQLite file any client reads; never through a symlink; not the
# capture itself.
expect 0 'wrote' sql --db "$T/cap.sqlite" "$T/basic.ktp"
[ "$(sqlite3 "$T/cap.sqlite" 'SELECT sum(runtime_ns) FROM threads')" = 14800 ] ||
	fail "--db: sqlite3 reads another total"
ln -s "$T/victim" "$T/link.sqlite"
expect 1 'not a regular file|symlink' sql --db "$T/link.sqlite" "$T/basic.ktp"
[ ! -e "$T/victim" ] || fail "--db wrote through a symlink"
cp "$T/basic.ktp" "$T/same.ktp"
expect 2 'capture itself' sql --db "$T/same.ktp" "$T/same.ktp"
cmp -s "$T/basic.ktp" "$T/same.ktp" || fail "--db overwrote its input"

# Bad input: clear errors.
expect 1 'No such file' sql "$T/none.ktp" "SELECT 1"
# A capture cut short: its readable part, said on stderr, exit status 1.
head -c $(($(stat -c %s "$T/loss.ktp") * 2 / 3)) "$T/loss.ktp" >"$T/cut.ktp"
run sql --no-header "$T/cut.ktp" "SELECT truncated FROM captures"
[ "$rc" = 1 ] && [ "$out" = 1 ] && grep -q 'what was readable' <<<"$err" ||
	fail "cut capture: exit $rc, '$out', $err"
run export -o "$T/cutx" "$T/cut.ktp"
[ "$rc" = 1 ] && [ -f "$T/cutx/threads.csv" ] || fail "export of a cut capture: $rc $err"
expect 2 'not one of its values' sql --format xml "$T/basic.ktp" "SELECT 1"

# export: CSV and NDJSON of two captures, rows tagged with their capture.
expect 0 'wrote' export -o "$T/csv" "$T/basic.ktp" "$T/loss.ktp"
for t in captures cpus processes threads slices thread_states switches wakeups \
	runqueue_waits migrations irqs gaps samples stack_frames probe_hits markers scx_dsq; do
	[ -f "$T/csv/$t.csv" ] || fail "export: no $t.csv"
	head -n 1 "$T/csv/$t.csv" | grep -q '^capture,' || fail "export: $t.csv header"
	[ "$t" = captures ] || [ "$(head -n 1 "$T/csv/$t.csv" | grep -o '\bcapture\b' | wc -l)" = 1 ] ||
		fail "export: $t.csv: two capture columns"
done
[ "$(grep -c . "$T/csv/captures.csv")" = 3 ] || fail "export: captures.csv rows"
# One capture given twice stays two: the second is NAME#2, in every table.
expect 0 '' export -o "$T/twice" "$T/basic.ktp" "$T/basic.ktp"
[ "$(cut -d, -f1 "$T/twice/captures.csv" | sort -u | wc -l)" = 3 ] ||
	fail "export: a capture given twice: $(cat "$T/twice/captures.csv")"
[ "$(grep -c '^vm/[0-9]*#2,' "$T/twice/threads.csv")" = 3 ] ||
	fail "export: the second copy's threads are not tagged #2"
n=$(grep -c '^vm/[0-9]*,' "$T/csv/slices.csv")
[ "$(sqlite3 "$T/cap.sqlite" 'SELECT count(*) FROM slices')" -le "$n" ] ||
	fail "export: fewer slices than sql's"
expect 0 '' export --format ndjson -o "$T/nd" "$T/basic.ktp"
/usr/bin/python3 - "$T/nd" <<'PY' || fail "export: ndjson or schema.json invalid"
import json, os, sys
d = sys.argv[1]
schema = json.load(open(os.path.join(d, 'schema.json')))
for t in schema['tables']:
    cols = [c['name'] for c in t['columns']]
    for line in open(os.path.join(d, t['file'])):
        row = json.loads(line)
        assert list(row) == cols, (t['name'], list(row), cols)
threads = [json.loads(l) for l in open(os.path.join(d, 'threads.ndjson'))]
assert sum(r['runtime_ns'] for r in threads) == 14800, threads
PY
ln -s "$T/elsewhere" "$T/linkdir"
expect 1 'symlink' export -o "$T/linkdir" "$T/basic.ktp"
expect 2 '' export "$T/basic.ktp"
expect 2 'not csv or ndjson' export --format text -o "$T/x" "$T/basic.ktp"

# Under ASan and UBSan: the database, the queries and their refusals, the
# prompt, --db, and export of every scripted capture at once.
KTPROF=$TOP/build/ktprof-san
expect 0 '' sql --format json --db "$T/san.sqlite" "$T/basic.ktp" \
	"SELECT * FROM threads; SELECT percentile(latency_ns, 99) FROM wakeups"
grep -q '"runtime_ns":8400' <<<"$out" || fail "ASan: sql: $out"
expect 1 'may only read' sql "$T/basic.ktp" "DELETE FROM slices"
expect 1 'ran out of time' sql --timeout 1 "$T/basic.ktp" \
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
run sql "$T/basic.ktp" <<<"SELECT 1; SELECT * FROM nosuch; .schema threads"
[ "$rc" = 1 ] || fail "ASan: the prompt: exit $rc: $err"
all=()
for scn in "$TOP"/tests/report/*.scn; do
	all+=("$T/$(basename "$scn" .scn).ktp")
done
expect 0 '' export --format ndjson -o "$T/san" "${all[@]}"
expect 1 'what was readable' sql "$T/cut.ktp" "SELECT count(*) FROM slices"
exit 0
