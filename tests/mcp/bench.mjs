// SPDX-License-Identifier: GPL-2.0
// make bench: how long ktprof mcp takes to answer, as its client sees it
// (the official MCP SDK over stdio): load_capture of CAPTURE, then
// run_all_analyzers and analyze_wakeup_latency, ROUNDS times each; the
// minimum and median seconds, and the server's peak RSS. A measurement,
// not a test: nothing is asserted.
//
// usage: node bench.mjs KTPROF CAPTURE [ROUNDS]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [ktprof, capture, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg || 5);
const transport = new StdioClientTransport({ command: ktprof, args: ['mcp'] });
const client = new Client({ name: 'ktprof-bench', version: '1.0.0' });
await client.connect(transport);
await client.listTools();

async function timed(name, args) {
	const t0 = performance.now();
	const r = await client.callTool({ name, arguments: args });
	const s = (performance.now() - t0) / 1000;
	if (r.isError)
		throw new Error(`${name}: ${r.content[0].text}`);
	return [s, r];
}

function stats(v) {
	const s = [...v].sort((a, b) => a - b);
	return { min: s[0], median: s[Math.floor(s.length / 2)] };
}

const loads = [];
let events = 0;
for (let i = 0; i < rounds; i++) {
	const [s, r] = await timed('load_capture', { path: capture, trace_id: 'bench' });
	loads.push(s);
	events = r.structuredContent.capture.events;
}
const runs = { run_all_analyzers: [], analyze_wakeup_latency: [] };
for (let i = 0; i < rounds; i++)
	for (const name of Object.keys(runs))
		runs[name].push((await timed(name, { trace_id: 'bench' }))[0]);
const status = readFileSync(`/proc/${transport.pid}/status`, 'utf8');
const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)[1]);
await client.close();

const line = (what, v) => {
	const { min, median } = stats(v);
	console.log(`${what.padEnd(26)} ${min.toFixed(3).padStart(8)} ${median.toFixed(3).padStart(8)}`);
};
console.log(`capture: ${events} events; ${rounds} rounds; server peak RSS ${(hwm / 1024).toFixed(1)} MB`);
console.log(`${'call'.padEnd(26)} ${'min s'.padStart(8)} ${'median s'.padStart(8)}`);
line('load_capture', loads);
for (const [name, v] of Object.entries(runs))
	line(name, v);
