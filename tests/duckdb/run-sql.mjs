// SPDX-License-Identifier: GPL-2.0
// Run SQL with DuckDB (tests/cli/t-sql-doc.sh): the statements of SETUP
// (views over ktprof export's files, made by docs/sql.md's script), then
// each query of QUERIES (a JSON array of strings); prints a JSON array of
// their results, {columns, rows} with every value as JSON (BIGINTs as
// numbers when they fit, else strings), or {error}.
//
// usage: node run-sql.mjs SETUP.sql QUERIES.json
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [setup, queries] = process.argv.slice(2);
if (!queries) {
	console.error('usage: node run-sql.mjs SETUP.sql QUERIES.json');
	process.exit(2);
}
const db = await (await DuckDBInstance.create(':memory:')).connect();
await db.run(readFileSync(setup, 'utf8'));
const value = (v) => typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v;
const out = [];
for (const q of JSON.parse(readFileSync(queries, 'utf8'))) {
	try {
		const r = await db.runAndReadAll(q);
		out.push({ columns: r.columnNames(), rows: r.getRowsJS().map((row) => row.map(value)) });
	} catch (e) {
		out.push({ error: String(e.message || e) });
	}
}
db.closeSync();
console.log(JSON.stringify(out));
