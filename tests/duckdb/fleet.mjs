// SPDX-License-Identifier: GPL-2.0
// DuckDB, a fleet's engine, over the files of `ktprof export` (CSV or
// NDJSON) of several captures at once: per capture and process, the p50,
// p90 and p99 wakeup latency (nearest rank: the value of rank
// ceil(p/100 * n), made with window functions; DuckDB's quantile_disc
// ranks otherwise) and the total runtime (the sum of the slices), which
// must equal `ktprof report --json` of each capture where the report's
// percentiles are exact. The column types come from schema.json.
//
// usage: node fleet.mjs KTPROF DIR [WRONG]
//   WRONG (the test must then fail): "runtime" expects 1 ns more runtime
//   of every process; "floor" takes rank floor(p/100 * n) for the
//   percentiles, not the nearest rank
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';

const [ktprof, dir, wrong] = process.argv.slice(2);
if (!dir) {
	console.error('usage: node fleet.mjs KTPROF DIR [WRONG]');
	process.exit(2);
}

const schema = JSON.parse(readFileSync(`${dir}/schema.json`, 'utf8'));
const SQL_TYPES = { INTEGER: 'BIGINT', TEXT: 'VARCHAR', REAL: 'DOUBLE' };

// A table's files as DuckDB reads them, typed by schema.json.
function source(name) {
	const t = schema.tables.find((x) => x.name === name);
	assert.ok(t, `schema.json lacks table ${name}`);
	const cols = t.columns.map((c) => `'${c.name}': '${SQL_TYPES[c.type]}'`).join(', ');
	const file = `'${dir}/${t.file}'`;
	return schema.format === 'csv' ?
		`read_csv(${file}, header = true, auto_detect = false, columns = {${cols}})` :
		`read_json(${file}, format = 'newline_delimited', columns = {${cols}})`;
}

const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
for (const t of ['captures', 'threads', 'processes', 'wakeups', 'slices'])
	await db.run(`CREATE VIEW ${t} AS SELECT * FROM ${source(t)}`);

async function rows(sql) {
	return (await db.runAndReadAll(sql)).getRowObjectsJS();
}

// Nearest rank, as report's: rank ceil(p * n / 100), computed in integers.
const round = wrong === 'floor' ? '' : ' + 99';
const pick = (p) => `max(latency_ns) FILTER (WHERE rn = greatest(1, (${p} * n${round}) // 100))`;
const latency = await rows(`
	WITH ranked AS (
		SELECT w.capture, t.upid, w.latency_ns,
		       row_number() OVER (PARTITION BY w.capture, t.upid ORDER BY w.latency_ns) AS rn,
		       count(*) OVER (PARTITION BY w.capture, t.upid) AS n
		FROM wakeups w JOIN threads t ON t.capture = w.capture AND t.utid = w.utid)
	SELECT capture, upid, any_value(n) AS n,
	       ${pick(50)} AS p50, ${pick(90)} AS p90, ${pick(99)} AS p99
	FROM ranked GROUP BY capture, upid`);
const runtime = await rows(`
	SELECT s.capture, t.upid, sum(s.dur) AS runtime_ns
	FROM slices s JOIN threads t ON t.capture = s.capture AND t.utid = s.utid
	GROUP BY s.capture, t.upid`);
const processes = await rows('SELECT capture, upid, tgid, comm FROM processes');
const captures = await rows('SELECT capture, path FROM captures ORDER BY capture');

const key = (capture, upid) => `${capture}|${upid}`;
const byKey = (list) => new Map(list.map((x) => [key(x.capture, Number(x.upid)), x]));
const lat = byKey(latency), run = byKey(runtime);

let checks = 0, exact = 0, inexact = 0;
assert.ok(captures.length >= 3, `${captures.length} captures in the files`);
assert.equal(new Set(captures.map((c) => c.capture)).size, captures.length, 'capture names unique');
for (const { capture, path } of captures) {
	const report = JSON.parse(execFileSync(ktprof, ['report', '--json', path],
		{ maxBuffer: 1 << 30, encoding: 'utf8' }));
	// A process of the report by tgid and name (a reused tgid with the same
	// name is two processes the report cannot tell apart here: left out).
	const want = new Map();
	for (const p of report.processes) {
		const k = `${p.tgid}|${p.comm}`;
		want.set(k, want.has(k) ? null : p);
	}
	const mine = processes.filter((p) => p.capture === capture);
	assert.equal(mine.length, report.processes.length, `${capture}: processes`);
	for (const p of mine) {
		const w = want.get(`${p.tgid}|${p.comm}`);
		assert.ok(w !== undefined, `${capture}: process ${p.tgid} ${p.comm} not in the report`);
		if (w === null)
			continue;
		const k = key(capture, Number(p.upid));
		const got = Number(run.get(k)?.runtime_ns ?? 0);
		assert.equal(got, w.runtime_ns + (wrong === 'runtime' ? 1 : 0),
			`${capture}: runtime of ${p.tgid} ${p.comm}: DuckDB ${got}, report ${w.runtime_ns}`);
		checks++;
		const l = lat.get(k), d = w.latency?.wakeup;
		const count = d?.count ?? 0;
		assert.equal(Number(l?.n ?? 0), count, `${capture}: wakeups of ${p.tgid} ${p.comm}`);
		checks++;
		if (!count)
			continue;
		if (!d.exact) {
			inexact++;
			continue;
		}
		for (const pc of ['p50', 'p90', 'p99']) {
			assert.equal(Number(l[pc]), d[`${pc}_ns`],
				`${capture}: ${pc} wakeup latency of ${p.tgid} ${p.comm}: DuckDB ${l[pc]}, report ${d[`${pc}_ns`]}`);
			checks++;
		}
		exact++;
	}
}
assert.ok(exact >= 3, `only ${exact} processes with exact latency percentiles to compare`);
db.closeSync();
console.log(`ok: ${schema.format}: ${captures.length} captures, ${checks} checks, ` +
	`${exact} processes' percentiles compared (${inexact} not exact in the report)`);
