#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# docs/sql.md kept true: its tables and columns are those of ktprof
# export's schema.json (both ways, in order, with their types); every
# example query runs on scripted captures, and each answers rows on one
# of them at least; the DuckDB script and queries run with DuckDB
# (tests/duckdb) over each capture's export, CSV or NDJSON, and answer
# what the SQLite query does, and over all the captures at once, exported
# together or side by side (a glob).
. "$(dirname "$0")/lib.sh"

duckdb=$TOP/tests/duckdb/node_modules/@duckdb/node-api
command -v node >/dev/null || fail "node is missing: run scripts/setup.sh"
[ -d "$duckdb" ] || fail "DuckDB's Node API is missing from tests/duckdb: run scripts/setup.sh"

i=1
for s in basic offcpu probe-spans cgroups irq loss balance; do
	"$GEN" -t "$TOP/tests/report/$s.scn" -i $i -o "$T/$s.ktp" || fail "gen-capture $s"
	i=$((i + 1))
done
"$GEN" -S -i $i -o "$T/scenario.ktp" || fail "gen-capture -S"
"$GEN" -n 20000 -c 4 -s 1 -i $((i + 1)) -o "$T/gen.ktp" || fail "gen-capture -n"
expect 0 'wrote' export -o "$T/all" "$T"/*.ktp

/usr/bin/python3 - "$TOP" "$KTPROF" "$T" <<'PY' || fail "docs/sql.md"
import json, os, subprocess, sys, glob
top, ktprof, tmp = sys.argv[1:]
sys.path.insert(0, f'{top}/tests/lib')
import sql_doc

doc = open(f'{top}/docs/sql.md').read()
bad = []

# The tables, both ways: the doc's are the schema's, without export's capture column.
schema = json.load(open(f'{tmp}/all/schema.json'))
want = [(t['name'], [(c['name'], c['type']) for c in t['columns']][0 if t['name'] == 'captures' else 1:])
        for t in schema['tables']]
got = sql_doc.tables(doc)
for name, cols in want:
    mine = dict(got).get(name)
    if mine is None:
        bad.append(f'table {name} is not in docs/sql.md')
    elif mine != cols:
        bad.append(f'table {name}: docs/sql.md has {mine}, export {cols}')
for name, _ in got:
    if name not in dict(want):
        bad.append(f'docs/sql.md has table {name}, which export does not')
if [n for n, _ in got] != [n for n, _ in want]:
    bad.append(f'the tables are not in export\'s order: {[n for n, _ in got]}')
for t in schema['tables']:
    if t['name'] != 'captures' and t['columns'][0]['name'] != 'capture':
        bad.append(f'{t["name"]}: the first column is not capture')

caps = sorted(glob.glob(f'{tmp}/*.ktp'))


def sqlite(cap, q):
    r = subprocess.run([ktprof, 'sql', '--format', 'json', cap, q], capture_output=True, text=True)
    if r.returncode:
        bad.append(f'{os.path.basename(cap)}: {q.splitlines()[0]}...: {r.stderr.strip()}')
        return None
    return [list(json.loads(line).values()) for line in r.stdout.splitlines()]


def duck(setup, queries):
    qf = f'{tmp}/queries.json'
    json.dump(queries, open(qf, 'w'))
    r = subprocess.run(['node', f'{top}/tests/duckdb/run-sql.mjs', setup, qf],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f'DuckDB: {r.stderr}')
    return json.loads(r.stdout)


def norm(rows):
    # NULL and CSV's empty field alike; numbers as numbers (77.0 == 77)
    def v(x):
        if x is None or x == '':
            return None
        return float(x) if isinstance(x, (int, float)) else x
    return [[v(x) for x in row] for row in rows]


# Every SQLite example on every capture; each answers rows somewhere.
examples = sql_doc.blocks(doc, 'Example queries', 'sql')
if len(examples) < 12:
    bad.append(f'{len(examples)} example queries, fewer than a dozen')
answers = {cap: [sqlite(cap, q) for q in examples] for cap in caps}
for i, q in enumerate(examples):
    if not any(answers[c][i] for c in caps):
        bad.append(f'example {i + 1} answers no rows on any capture: {q.splitlines()[0]}')

# DuckDB: the doc's script makes the views; its queries, one per SQLite
# example, answer the same on each capture's export (less the capture
# column), CSV for some and NDJSON for the others.
views = sql_doc.blocks(doc, 'DuckDB', 'python')
ducks = sql_doc.blocks(doc, 'DuckDB', 'sql')
if len(views) != 1 or len(ducks) != len(examples):
    bad.append(f'DuckDB: {len(views)} scripts and {len(ducks)} queries, want 1 and {len(examples)}')
else:
    open(f'{tmp}/views.py', 'w').write(views[0])
    for n, cap in enumerate(caps):
        fmt = ['csv', 'ndjson'][n % 2]
        d = f'{tmp}/one-{n}'
        subprocess.run([ktprof, 'export', '--format', fmt, '-o', d, cap], check=True,
                       capture_output=True)
        setup = subprocess.run(['/usr/bin/python3', f'{tmp}/views.py', d], check=True,
                               capture_output=True, text=True).stdout
        open(f'{d}/views.sql', 'w').write(setup)
        for i, r in enumerate(duck(f'{d}/views.sql', ducks)):
            what = f'DuckDB example {i + 1} on {os.path.basename(cap)} ({fmt})'
            if 'error' in r:
                bad.append(f'{what}: {r["error"]}')
            elif r['columns'][0] != 'capture':
                bad.append(f'{what}: the first column is {r["columns"][0]}, not capture')
            elif answers[cap][i] is not None and \
                    norm([row[1:] for row in r['rows']]) != norm(answers[cap][i]):
                bad.append(f'{what}: {r["rows"][:3]}, SQLite {answers[cap][i][:3]}')
    # All the captures at once.
    setup = subprocess.run(['/usr/bin/python3', f'{tmp}/views.py', f'{tmp}/all'], check=True,
                           capture_output=True, text=True).stdout
    open(f'{tmp}/all/views.sql', 'w').write(setup)
    for i, r in enumerate(duck(f'{tmp}/all/views.sql', ducks)):
        if 'error' in r or not r['rows']:
            bad.append(f'DuckDB example {i + 1} over every capture: {r.get("error", "no rows")}')
    # Exports side by side, read by a glob (the doc's second form).
    os.makedirs(f'{tmp}/fleet')
    for n, cap in enumerate(caps):
        subprocess.run([ktprof, 'export', '-o', f'{tmp}/fleet/{n}', cap], check=True,
                       capture_output=True)
    setup = subprocess.run(['/usr/bin/python3', f'{tmp}/views.py', f'{tmp}/fleet/*',
                            f'{tmp}/fleet/0/schema.json'], check=True,
                           capture_output=True, text=True).stdout
    open(f'{tmp}/fleet/views.sql', 'w').write(setup)
    glob_answers = duck(f'{tmp}/fleet/views.sql', ducks)
    for i, r in enumerate(glob_answers):
        if 'error' in r or not r['rows']:
            bad.append(f'DuckDB example {i + 1} over a glob of exports: {r.get("error", "no rows")}')
    if 'rows' in glob_answers[1] and len({row[0] for row in glob_answers[1]['rows']}) != len(caps):
        bad.append(f'DuckDB over a glob of exports: not every capture: {glob_answers[1]["rows"]}')
for b in bad:
    print(b)
print(f'{len(examples)} examples on {len(caps)} captures, {len(got)} tables')
sys.exit(1 if bad else 0)
PY
echo ok
