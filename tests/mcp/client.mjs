// SPDX-License-Identifier: GPL-2.0
// ktprof mcp driven by a client this project did not write: the official
// MCP TypeScript SDK (tests/mcp/package.json pins it; scripts/setup.sh
// installs it). It spawns `ktprof mcp` over stdio, lists the tools, loads
// two captures and calls every tool; each answer must pass the SDK's own
// checks (the result schema, structuredContent against the tool's output
// schema) and hold the same numbers as `ktprof report --json`, `ktprof
// diff --json` and `ktprof dump --json` on the same captures and settings.
// Then the errors: each a JSON-RPC error or an isError result, after which
// the server still serves; and the end of input ends it with status 0.
//
// usage: node client.mjs KTPROF CAPTURE_A CAPTURE_B [OFFCPU PROBES BASIC]
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ErrorCode, EmptyResultSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const [ktprof, capA, capB, capOff, capProbes, capBasic] = process.argv.slice(2);
if (!capB) {
	console.error('usage: node client.mjs KTPROF CAPTURE_A CAPTURE_B [OFFCPU PROBES BASIC]');
	process.exit(2);
}

let checks = 0;
function check(cond, what) {
	assert.ok(cond, what);
	checks++;
}

function ktprofJson(...args) {
	return JSON.parse(execFileSync(ktprof, args, { maxBuffer: 1 << 30, encoding: 'utf8' }));
}

function ndjson(...args) {
	return execFileSync(ktprof, args, { maxBuffer: 1 << 30, encoding: 'utf8' })
		.split('\n').filter((l) => l).map((l) => JSON.parse(l));
}

// --- Comparing an answer with the report's document ---

// The lists the server orders and cuts at `limit` (docs/mcp.md).
const REPORT_LISTS = ['threads', 'processes', 'migrations.cpu_pairs', 'preemption.pairs',
	'wakers.edges', 'critical_path.threads', 'irq.handlers', 'irq.ipis', 'findings', 'outliers.items',
	'profile.processes', 'offcpu.functions', 'offcpu.stacks', 'offcpu.woken', 'scx.transitions',
	'scx.phases', 'scx.dsqs', 'scx.threads', 'scx.events', 'balance.cpu_pairs',
	'cgroups.items'];

function getPath(o, path) {
	return path.split('.').reduce((x, k) => (x === undefined || x === null ? undefined : x[k]), o);
}

function setPath(o, path, v) {
	const keys = path.split('.');
	const last = keys.pop();
	const parent = keys.reduce((x, k) => (x === undefined ? undefined : x[k]), o);
	if (parent !== undefined && last in parent)
		parent[last] = v;
}

// @got (an answer's structuredContent) against @want (the CLI's document):
// every field equal, each list cut at @limit and holding only items of the
// CLI's list, its full length in list_totals, in the order @orders gives.
function sameDocument(got, want, limit, lists, orders, what) {
	const g = structuredClone(got), w = structuredClone(want);
	delete g.trace_id;
	delete g.a_trace_id;
	delete g.b_trace_id;
	const totals = g.list_totals;
	delete g.list_totals;
	check(totals !== undefined || !lists.length, `${what}: list_totals`);
	for (const path of lists) {
		const gl = getPath(g, path), wl = getPath(w, path);
		if (wl === undefined) {
			check(gl === undefined, `${what}: ${path} absent in both`);
			continue;
		}
		check(Array.isArray(gl), `${what}: ${path} is a list`);
		check(totals[path] === wl.length, `${what}: list_totals.${path} ${totals[path]} != ${wl.length}`);
		check(gl.length === Math.min(limit, wl.length),
			`${what}: ${path} has ${gl.length} items, want ${Math.min(limit, wl.length)}`);
		const wantItems = new Set(wl.map((x) => JSON.stringify(x)));
		for (const item of gl)
			check(wantItems.has(JSON.stringify(item)), `${what}: ${path} item not in the CLI's: ${JSON.stringify(item).slice(0, 200)}`);
		const order = orders[path];
		if (order) {
			const keys = gl.map((x) => getPath(x, order));
			for (let i = 1; i < keys.length; i++)
				check(keys[i - 1] >= keys[i], `${what}: ${path} not by ${order}, largest first`);
			// Cut at the largest: nothing left out beats what is in.
			if (gl.length < wl.length) {
				const least = keys[keys.length - 1];
				const above = wl.filter((x) => getPath(x, order) > least).length;
				check(above <= gl.length, `${what}: ${path} left out an item above ${least}`);
			}
		} else {
			// In the CLI's order: the first `limit` items.
			check(JSON.stringify(gl) === JSON.stringify(wl.slice(0, gl.length)),
				`${what}: ${path} is not the CLI's first ${gl.length}`);
		}
		setPath(g, path, null);
		setPath(w, path, null);
	}
	assert.deepStrictEqual(g, w, `${what}: the document differs from the CLI's`);
	checks++;
}

const DEFAULT_ORDERS = { processes: 'runtime_ns', 'irq.handlers': 'self_ns', 'irq.ipis': 'sent',
	'critical_path.threads': 'offcpu_ns', 'offcpu.functions': 'ns', 'offcpu.stacks': 'ns',
	'offcpu.woken': 'ns', 'scx.dsqs': 'inserts', 'scx.threads': 'runtime_ns',
	'balance.cpu_pairs': 'ns', 'cgroups.items': 'tree.runtime_ns' };

// --- The session ---

const transport = new StdioClientTransport({ command: ktprof, args: ['mcp'], stderr: 'pipe' });
let stderr = '';
transport.stderr.on('data', (d) => { stderr += d; });
const client = new Client({ name: 'ktprof-test', version: '1.0.0' });
await client.connect(transport);
const server = transport._process;	// to see it exit at the end of its input
const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));

check(client.getServerVersion().name === 'ktprof', 'serverInfo.name');
check(client.getServerCapabilities().tools !== undefined, 'the tools capability');
check(typeof client.getInstructions() === 'string', 'instructions');
await client.ping();

// tools/list: every tool, its schemas; the SDK compiles every output schema here.
const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
const expected = ['load_capture', 'unload_capture', 'get_trace_summary', 'list_analyzers',
	'run_all_analyzers', 'analyze_cpu_utilization', 'analyze_process_runtime',
	'analyze_wakeup_latency', 'analyze_task_states', 'analyze_migrations',
	'analyze_preemptions', 'analyze_irqs', 'analyze_wakers', 'analyze_critical_path',
	'analyze_offcpu', 'analyze_dsq', 'analyze_power', 'analyze_balance', 'analyze_cgroups',
	'analyze_schedstat', 'analyze_probes', 'find_scheduling_bottlenecks',
	'detect_outliers', 'get_profile', 'query_events', 'query_trace', 'compare_traces'];
assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...expected].sort());
for (const t of tools) {
	check(t.inputSchema.type === 'object' && t.outputSchema.type === 'object', `${t.name}: schemas`);
	check(t.description.length > 20, `${t.name}: a description`);
}

// The CLI's own documents conform to the output schemas too (whole, uncut).
const ajv = new AjvJsonSchemaValidator();
function conforms(tool, doc, extra) {
	const v = ajv.getValidator(byName[tool].outputSchema)({ ...doc, ...extra });
	check(v.valid, `${tool}: the CLI's document does not fit the output schema: ${v.errorMessage}`);
}

async function call(name, args) {
	const r = await client.callTool({ name, arguments: args });
	check(Array.isArray(r.content) && r.content.length >= 1 && r.content[0].type === 'text',
		`${name}: a text content`);
	return r;
}

async function ok(name, args) {
	const r = await call(name, args);
	check(!r.isError, `${name} ${JSON.stringify(args)} failed: ${r.content[0].text}`);
	check(r.structuredContent && typeof r.structuredContent === 'object', `${name}: structuredContent`);
	// The second text block is the document itself, for clients that read only text.
	assert.deepStrictEqual(JSON.parse(r.content[1].text), r.structuredContent);
	return r;
}

async function toolError(name, args, pattern) {
	const r = await call(name, args);
	check(r.isError === true, `${name} ${JSON.stringify(args)}: want isError, got ${r.content[0].text.slice(0, 200)}`);
	check(pattern.test(r.content[0].text), `${name}: "${r.content[0].text}" lacks ${pattern}`);
}

async function protocolError(fn, code, what) {
	try {
		await fn();
	} catch (e) {
		check(e instanceof McpError && e.code === code, `${what}: want JSON-RPC error ${code}, got ${e}`);
		return;
	}
	assert.fail(`${what}: no error`);
}

// load_capture
let r = await ok('load_capture', { path: capA, trace_id: 'a' });
check(r.structuredContent.trace_id === 'a', 'load_capture: trace_id');
const reportA = ktprofJson('report', '--json', capA);
assert.deepStrictEqual(r.structuredContent.capture, reportA.capture);
assert.deepStrictEqual(r.structuredContent.window, reportA.window);
r = await ok('load_capture', { path: capB });
const idB = r.structuredContent.trace_id;
check(idB === capB.split('/').pop(), `load_capture: the default id is the file's name, not ${idB}`);
assert.deepStrictEqual(r.structuredContent.loaded, ['a', idB]);

// Two traces loaded: a trace_id must be named.
await toolError('analyze_cpu_utilization', {}, /2 traces are loaded; name one with trace_id/);

// get_trace_summary and list_analyzers
r = await ok('get_trace_summary', { trace_id: 'a' });
const cpuA = ktprofJson('report', '--cpu', '--json', capA);
const { analyzers, ...summary } = r.structuredContent;
sameDocument(summary, cpuA, Infinity, [], {}, 'get_trace_summary');
const types = cpuA.capture.events_by_type;
check(types.sched_switch > 0, 'events_by_type counts switches');
check(Object.values(types).reduce((a, b) => a + b, 0) === cpuA.capture.events,
	'events_by_type adds up to capture.events');
const applies = Object.fromEntries(analyzers.map((x) => [x.name, x]));
check(applies.analyze_migrations.applies === (types.sched_migrate > 0), 'analyze_migrations applies');
check(applies.get_profile.applies === (types.sample > 0), 'get_profile applies');
check(applies.analyze_migrations.events === (types.sched_migrate || 0), 'analyzer events');
r = await ok('list_analyzers', {});
assert.deepStrictEqual(r.structuredContent.analyzers.map((x) => x.name).sort(),
	Object.keys(applies).sort());

// Every analysis against `ktprof report --json` with the same section.
const analyses = [
	['run_all_analyzers', [], {}],
	['analyze_cpu_utilization', ['--cpu'], {}],
	['analyze_process_runtime', ['--runtime'], {}],
	['analyze_wakeup_latency', ['--latency'],
		{ threads: 'latency.wakeup.p99_ns', processes: 'latency.wakeup.p99_ns' }],
	['analyze_task_states', ['--states'], {}],
	['analyze_migrations', ['--migrations'], {}],
	['analyze_preemptions', ['--preemption'], {}],
	['analyze_irqs', ['--irq'], {}],
	['analyze_wakers', ['--wakers'], {}],
	['analyze_critical_path', ['--critical-path'], {}],
	['analyze_offcpu', ['--offcpu'], {}],
	['analyze_dsq', ['--scx'], {}],
	['analyze_power', ['--power'], {}],
	['analyze_cgroups', ['--cgroups'], {}],
	['analyze_schedstat', ['--schedstat'], {}],
	['analyze_probes', ['--probes'], {}],
	['analyze_balance', ['--balance'],
		{ threads: 'stranded_ns', processes: 'stranded_ns' }],
	['find_scheduling_bottlenecks', ['--findings'], {}],
	['detect_outliers', ['--outliers'], {}],
	['get_profile', ['--profile'], {}],
];
for (const [tool, flags, orders] of analyses) {
	const limit = 7;
	const args = { trace_id: 'a', [tool === 'get_profile' ? 'top' : 'limit']: limit };
	if (tool === 'analyze_cpu_utilization')
		delete args.limit;
	r = await ok(tool, args);
	const want = ktprofJson('report', ...flags, '--json', '--top', String(limit), capA);
	conforms(tool, want, { trace_id: 'a', list_totals: {} });
	sameDocument(r.structuredContent, want, tool === 'analyze_cpu_utilization' ? Infinity : limit,
		REPORT_LISTS, { ...DEFAULT_ORDERS, ...orders }, tool);
	// The text is the report's own: `ktprof report FLAGS --top N`.
	const text = execFileSync(ktprof, ['report', ...flags, '--top', String(limit), capA],
		{ maxBuffer: 1 << 30, encoding: 'utf8' });
	check(r.content[0].text === text,
		`${tool}: not the report's text`);
}

// Settings: a window and a process; CPUs; thresholds; MAD outliers of one category.
const pid = reportA.processes.slice().sort((x, y) => y.runtime_ns - x.runtime_ns)[0].tgid;
r = await ok('analyze_process_runtime', { trace_id: 'a', pid, from: '5ms', to: '20ms', limit: 1000 });
sameDocument(r.structuredContent,
	ktprofJson('report', '--runtime', '--json', '-p', String(pid), '--from', '5ms', '--to', '20ms', capA),
	1000, REPORT_LISTS, DEFAULT_ORDERS, 'analyze_process_runtime with pid and window');
check(r.structuredContent.processes.length === 1 && r.structuredContent.processes[0].tgid === pid,
	'pid selects one process');
// A thread: tid selects it alone, as --tid does.
const tid = reportA.threads.slice().sort((x, y) => y.runtime_ns - x.runtime_ns)[0].pid;
r = await ok('analyze_critical_path', { trace_id: 'a', tid, limit: 1000 });
sameDocument(r.structuredContent,
	ktprofJson('report', '--critical-path', '--json', '--tid', String(tid), capA),
	1000, REPORT_LISTS, DEFAULT_ORDERS, 'analyze_critical_path with tid');
check(r.structuredContent.critical_path.threads.length === 1 &&
	r.structuredContent.critical_path.threads[0].thread.pid === tid, 'tid selects one thread');
// Off-CPU stacks (tests/report/offcpu.scn): the report's document, cut at 2 and with -p.
if (capOff) {
	await ok('load_capture', { path: capOff, trace_id: 'off' });
	r = await ok('analyze_offcpu', { trace_id: 'off', limit: 2 });
	sameDocument(r.structuredContent, ktprofJson('report', '--offcpu', '--json', '--top', '2', capOff),
		2, REPORT_LISTS, DEFAULT_ORDERS, 'analyze_offcpu');
	check(r.structuredContent.offcpu.functions.length === 2 &&
		r.structuredContent.offcpu.functions[0].function === 'hrtimer_nanosleep', 'analyze_offcpu cut at 2');
	r = await ok('analyze_offcpu', { trace_id: 'off', pid: 100, limit: 1000 });
	sameDocument(r.structuredContent, ktprofJson('report', '--offcpu', '--json', '-p', '100', capOff),
		1000, REPORT_LISTS, DEFAULT_ORDERS, 'analyze_offcpu with pid');
	check(r.structuredContent.offcpu.sleeping_ns === 6000000, 'analyze_offcpu -p 100: 6 ms asleep');
	await ok('unload_capture', { trace_id: 'off' });
}
r = await ok('analyze_cpu_utilization', { trace_id: 'a', cpus: '0-1' });
sameDocument(r.structuredContent, ktprofJson('report', '--cpu', '--json', '-C', '0-1', capA),
	Infinity, REPORT_LISTS, DEFAULT_ORDERS, 'analyze_cpu_utilization on CPUs 0-1');
check(r.structuredContent.cpus.map((c) => c.cpu).join() === '0,1', 'cpus 0-1');
r = await ok('find_scheduling_bottlenecks',
	{ trace_id: 'a', limit: 1000, thresholds: { preempted: 1000, 'min-samples': 5 } });
const findings = ktprofJson('report', '--findings', '--json', '--threshold', 'preempted=1000',
	'--threshold', 'min-samples=5', capA);
sameDocument(r.structuredContent, findings, 1000, REPORT_LISTS, DEFAULT_ORDERS,
	'find_scheduling_bottlenecks with thresholds');
check(r.structuredContent.findings.every((f) => f.rule !== 'preempted' || f.threshold === 1000),
	'the preempted threshold applies');
r = await ok('detect_outliers', { trace_id: 'a', method: 'MAD', category: 'runtime', limit: 1000 });
const mad = ktprofJson('report', '--outliers', '--json', '--method', 'mad', capA);
check(r.structuredContent.outliers.method === 'mad', 'method MAD');
mad.outliers.items = mad.outliers.items.filter((x) => x.metric === 'runtime');
sameDocument(r.structuredContent, mad, 1000, REPORT_LISTS, DEFAULT_ORDERS, 'detect_outliers MAD runtime');

// query_events against `ktprof dump --json`, page by page.
const dump = ndjson('dump', '--json', '-q', capA);
function asDump(e) {
	const { ts_ns, rel_ns, ...rest } = e;
	check(rel_ns === ts_ns - reportA.capture.session_start_ns, 'rel_ns');
	return { ts: ts_ns, ...rest };
}
const wantSwitches = dump.filter((e) => e.type === 'sched_switch' && e.cpu === 1);
let got = [], cursor;
for (let page = 0; page < 3; page++) {
	r = await ok('query_events', { trace_id: 'a', types: ['sched_switch'], cpu: 1, limit: 40, ...(cursor ? { cursor } : {}) });
	check(r.structuredContent.returned === r.structuredContent.events.length, 'returned');
	got = got.concat(r.structuredContent.events.map(asDump));
	cursor = r.structuredContent.next_cursor;
	check(typeof cursor === 'string', 'a next page');
}
assert.deepStrictEqual(got, wantSwitches.slice(0, 120));
checks++;
r = await ok('query_events', { trace_id: 'a', pid, limit: 25 });
const pidKeys = ['pid', 'tid', 'tgid', 'prev_pid', 'next_pid', 'parent_pid', 'child_pid', 'child_tgid', 'old_pid'];
assert.deepStrictEqual(r.structuredContent.events.map(asDump),
	dump.filter((e) => pidKeys.some((k) => e[k] === pid)).slice(0, 25));
checks++;
r = await ok('query_events', { trace_id: 'a', from: '10ms', to: '11ms', limit: 10000 });
const start = reportA.capture.session_start_ns;
assert.deepStrictEqual(r.structuredContent.events.map(asDump),
	dump.filter((e) => e.ts >= start + 10e6 && e.ts < start + 11e6));
check(r.structuredContent.next_cursor === undefined, 'the window holds fewer events than the limit');
await toolError('query_events', { trace_id: 'a', cursor: 'nonsense' }, /cursor/);
await toolError('query_events', { trace_id: 'a', types: ['sched_nothing'] }, /types: item 'sched_nothing' is not one of/);

// Probe hits (tests/report/probe-spans.scn): query_events by a probe's
// name or id, as dump --json has them; analyze_probes with the spans of
// probe pairs, as report --probes.
if (capProbes) {
	await ok('load_capture', { path: capProbes, trace_id: 'pr' });
	const prDump = ndjson('dump', '--json', '-q', capProbes);
	const plain = (e) => { const { ts_ns, rel_ns, ...rest } = e; return { ts: ts_ns, ...rest }; };
	const hitsOf = async (args) =>
		(await ok('query_events', { trace_id: 'pr', limit: 10000, ...args })).structuredContent.events.map(plain);
	let hits = await hitsOf({ probe: 'req_end' });
	assert.deepStrictEqual(hits, prDump.filter((e) => e.type === 'probe' && e.probe === 'req_end'));
	check(hits.length === 5 && hits.every((e) => typeof e.ret === 'number'), 'req_end: 5 hits, ret by name');
	hits = await hitsOf({ probe: '2' });
	assert.deepStrictEqual(hits, prDump.filter((e) => e.type === 'probe' && e.probe_id === 2));
	check(hits.length === 1 && hits[0].probe === 'db_begin', 'probe id 2 is db_begin');
	hits = await hitsOf({ probe: 'req_begin', pid: 102 });
	check(hits.length === 2 && hits.map((e) => e.id).join() === '2,4', `req_begin of 102: ${JSON.stringify(hits)}`);
	check((await hitsOf({ probe: 'req_begin', types: ['mark'] })).length === 0, 'a probe and types: both');
	check((await hitsOf({ probe: '9' })).length === 0, 'an id the capture has no hit of');
	await toolError('query_events', { trace_id: 'pr', probe: 'nope' },
		/no probe named 'nope' \(its probes: req_begin, req_end, db_begin, db_end\)/);
	await toolError('query_events', { trace_id: 'pr', probe: '70000' }, /an id from 0 to 65535/);
	r = await ok('analyze_probes', { trace_id: 'pr', limit: 1000 });
	const probesDoc = ktprofJson('report', '--probes', '--json', capProbes);
	conforms('analyze_probes', probesDoc, { trace_id: 'pr', list_totals: {} });
	sameDocument(r.structuredContent, probesDoc, 1000, REPORT_LISTS, DEFAULT_ORDERS, 'analyze_probes');
	check(r.structuredContent.probes.probe_spans[0].duration.count === 4, 'req: 4 spans');
	await ok('unload_capture', { trace_id: 'pr' });
}

// query_trace: SQL over the tables (docs/sql.md), as `ktprof sql` answers.
{
	const sqlRows = (cap, query) => ndjson('sql', '--format', 'json', cap, query);
	const query = async (args) => (await ok('query_trace', { trace_id: 'a', ...args })).structuredContent;
	// The rows and columns of `ktprof sql --format json`, in its order.
	const q1 = 'SELECT t.tid, t.comm, t.runtime_ns, percentile(w.latency_ns, 99) AS p99 FROM threads t ' +
		'LEFT JOIN wakeups w USING (utid) GROUP BY utid ORDER BY t.runtime_ns DESC, utid LIMIT 50';
	let s = await query({ query: q1 });
	const want = sqlRows(capA, q1);
	assert.deepStrictEqual(s.columns, ['tid', 'comm', 'runtime_ns', 'p99']);
	assert.deepStrictEqual(s.rows, want.map((o) => s.columns.map((k) => o[k])));
	check(s.row_count === want.length && s.truncated === false && s.trace_id === 'a', 'query_trace: counts');
	// The threads' runtimes are report's.
	const runtime = Object.fromEntries(reportA.threads.map((t) => [`${t.pid}/${t.comm}`, t.runtime_ns]));
	for (const [tid, comm, ns] of s.rows)
		check(runtime[`${tid}/${comm}`] === ns, `query_trace: runtime of ${tid} ${ns}, report ${runtime[`${tid}/${comm}`]}`);
	// Capped: max_rows rows, truncated.
	s = await query({ query: 'SELECT * FROM switches', max_rows: 7 });
	check(s.rows.length === 7 && s.row_count === 7 && s.truncated === true, 'query_trace: cut at max_rows 7');
	check(s.columns[0] === 'ts' || s.columns.length > 3, 'query_trace: switches columns');
	// Long strings: cut at 3 MiB of JSON (the answer under the SDK's 10 MiB
	// even with quotes to escape), the text shows each value's start.
	r = await ok('query_trace', { trace_id: 'a', query: 'SELECT hex(zeroblob(500000)) AS x FROM switches', max_rows: 100 });
	s = r.structuredContent;
	check(s.rows.length === 3 && s.row_count === 3 && s.truncated === true, `query_trace: cut at 3 MiB: ${s.rows.length} rows`);
	check(s.rows.every(([x]) => x.length === 1000000), 'query_trace: values whole in the JSON');
	check(r.content[0].text.length < 20000 && /cut at 3 MiB/.test(r.content[0].text), 'query_trace: the text shows the start of each');
	r = await ok('query_trace', { trace_id: 'a', query: `SELECT replace(hex(zeroblob(400000)), '00', '"\\') FROM switches`, max_rows: 100 });
	check(r.structuredContent.truncated === true && r.structuredContent.rows.length === 1,
		`query_trace: quotes and backslashes cut at 3 MiB of JSON: ${r.structuredContent.rows.length} rows`);
	s = await query({ query: 'SELECT count(*) AS n FROM switches' });
	check(s.rows[0][0] === sqlRows(capA, 'SELECT count(*) AS n FROM switches')[0].n, 'query_trace: count');
	// Read-only: writes, ATTACH and PRAGMA refused; one statement a call.
	for (const q of ['DELETE FROM threads', 'CREATE TABLE x (a)', "ATTACH DATABASE '/tmp/x.db' AS x",
		'PRAGMA writable_schema = 1', 'INSERT INTO threads SELECT * FROM threads'])
		await toolError('query_trace', { trace_id: 'a', query: q }, /refused: a query may only read/);
	await toolError('query_trace', { trace_id: 'a', query: 'SELECT 1; DROP TABLE threads' },
		/one statement a call; another follows the first at 'DROP TABLE threads'/);
	await toolError('query_trace', { trace_id: 'a', query: '-- nothing' }, /no statement/);
	await toolError('query_trace', { trace_id: 'a', query: 'SELECT nosuch FROM threads' },
		/SQL error: no such column: nosuch/);
	// A runaway recursive CTE is stopped at its deadline, and the server goes on.
	const t0 = Date.now();
	await toolError('query_trace', { trace_id: 'a', timeout_ms: 300,
		query: 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r' },
	/ran out of time \(timeout_ms 300\)/);
	check(Date.now() - t0 < 5000, `query_trace: the timeout took ${Date.now() - t0} ms`);
	await toolError('query_trace', { trace_id: 'a', query: 'SELECT 1', max_rows: 100001 },
		/max_rows: from 1 to 100000/);
	await toolError('query_trace', { trace_id: 'a', query: 'SELECT 1', timeout_ms: 60001 },
		/timeout_ms: from 1 to 60000/);
	await toolError('query_trace', { trace_id: 'a' }, /query is missing/);
	// basic.scn's known answers (tests/cli/t-sql.sh works them out), the
	// database built again for another trace, then for the first.
	if (capBasic) {
		await ok('load_capture', { path: capBasic, trace_id: 'basic' });
		const b = async (q) => (await ok('query_trace', { trace_id: 'basic', query: q })).structuredContent.rows;
		assert.deepStrictEqual(await b('SELECT tid, runtime_ns, switches, involuntary_switches FROM threads ORDER BY tid'),
			[[100, 8400, 2, 1], [101, 600, 1, 0], [200, 5800, 3, 1]]);
		assert.deepStrictEqual(await b('SELECT p.tgid, p.comm, percentile(w.latency_ns, 99) FROM wakeups w ' +
			'JOIN threads t USING (utid) JOIN processes p USING (upid) GROUP BY upid ORDER BY p.tgid'),
		[[100, 'a', 500], [200, 'b', 400]]);
		assert.deepStrictEqual(await b('SELECT cpu, kind, id, name, dur FROM irqs'), [[1, 'hardirq', 24, 'virtio0', 200]]);
		checks += 3;
		s = await query({ query: 'SELECT count(*) FROM threads' });
		check(s.rows[0][0] === sqlRows(capA, "SELECT count(*) AS n FROM threads")[0].n, "query_trace: a again");
		assert.deepStrictEqual(await b('SELECT count(*) FROM wakeups'), [[4]]);
		checks++;
		await ok('unload_capture', { trace_id: 'basic' });
	}
}

// compare_traces against `ktprof diff --json`.
r = await ok('compare_traces', { a: 'a', b: idB, limit: 30 });
const diff = ktprofJson('diff', '--json', capA, capB);
conforms('compare_traces', diff, { a_trace_id: 'a', b_trace_id: idB, list_totals: {} });
sameDocument(r.structuredContent, diff, 30, ['items'], {}, 'compare_traces');
check(r.structuredContent.a_trace_id === 'a' && r.structuredContent.b_trace_id === idB, 'trace ids');
r = await ok('compare_traces', { a: 'a', b: 'a', limit: 1 });
check(r.structuredContent.verdict.length === 0, 'a trace compared with itself: no change');

// Errors: protocol errors for what the request itself gets wrong...
await protocolError(() => client.callTool({ name: 'no_such_tool', arguments: {} }),
	ErrorCode.InvalidParams, 'an unknown tool');
await protocolError(() => client.request({ method: 'no/such/method', params: {} }, EmptyResultSchema),
	ErrorCode.MethodNotFound, 'an unknown method');
// ... tool errors (isError) for what the model can correct.
await toolError('get_trace_summary', { trace_id: 5 }, /trace_id wants a string/);
await toolError('analyze_process_runtime', { trace_id: 'a', limit: 100000 }, /limit: from 1 to 1000, not 100000/);
await toolError('analyze_process_runtime', { trace_id: 'a', limit: 'ten' }, /limit wants an integer/);
await toolError('analyze_process_runtime', { trace_id: 'a', from: 'soon' }, /from wants a time/);
await toolError('analyze_process_runtime', { trace_id: 'a', bogus: 1 }, /unknown argument 'bogus'/);
await toolError('load_capture', { path: '/nonexistent/capture.ktp' }, /No such file or directory/);
await toolError('load_capture', {}, /path is missing/);
await toolError('analyze_cpu_utilization', { trace_id: 'nope' }, /no trace 'nope' is loaded/);
await toolError('find_scheduling_bottlenecks', { trace_id: 'a', thresholds: { runqueue: -1 } }, /thresholds.runqueue/);
// Settings are checked before any cached result is looked for, and a
// cached result is found by the settings themselves, not a string made of
// them (surface-10: comm "a:0" and comm "a" with cpus "0:-" made one key,
// and the refused pair was answered from the cache).
await toolError('analyze_process_runtime', { trace_id: 'a', comm: 'a', cpus: '0:-' }, /CPU list/);
await ok('analyze_process_runtime', { trace_id: 'a', comm: 'a:0' });
await toolError('analyze_process_runtime', { trace_id: 'a', comm: 'a', cpus: '0:-' }, /CPU list/);
// ... and the server goes on.
await client.ping();
r = await ok('unload_capture', { trace_id: idB });
assert.deepStrictEqual(r.structuredContent.loaded, ['a']);
await toolError('compare_traces', { a: 'a', b: idB }, /no trace/);
r = await ok('analyze_cpu_utilization', {});	// one trace: no trace_id needed
check(r.structuredContent.trace_id === 'a', 'the only trace');

// The end of input ends the server, with status 0.
server.stdin.end();
const end = await exited;
check(end.code === 0 && end.signal === null, `exit at the end of input: ${JSON.stringify(end)}`);
await client.close();
check(stderr === '', `nothing on stderr: ${stderr}`);
console.log(`ok: ${checks} checks, ${tools.length} tools, protocol ${LATEST_PROTOCOL_VERSION}`);
