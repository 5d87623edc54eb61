#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof mcp with the official MCP TypeScript SDK as its client
# (tests/mcp/client.mjs: every tool, against ktprof report/diff/dump on the
# same captures, and the errors); the usage; and the end of input.
. "$(dirname "$0")/lib.sh"

sdk=$TOP/tests/mcp/node_modules/@modelcontextprotocol/sdk
command -v node >/dev/null || fail "node is missing: run scripts/setup.sh"
[ -d "$sdk" ] || fail "the MCP SDK is missing from tests/mcp: run scripts/setup.sh"

expect 0 '' mcp --help
echo "$out" | grep -q 'usage: ktprof mcp' || fail "mcp --help: $out"
expect 0 '' help mcp
echo "$out" | grep -q 'Model Context Protocol' || fail "help mcp: $out"
expect 2 'usage: ktprof mcp' mcp extra
expect 2 'usage: ktprof mcp' mcp --bogus

# The end of input at once: nothing written, status 0.
run mcp </dev/null
[ "$rc" = 0 ] && [ -z "$out" ] && [ -z "$err" ] || fail "mcp </dev/null: exit $rc, out '$out', err '$err'"

"$GEN" -n 100000 -c 4 -s 1 -o "$T/a.ktp" || fail "gen-capture a failed"
"$GEN" -n 100000 -c 4 -s 2 -o "$T/b.ktp" || fail "gen-capture b failed"
# Off-CPU stacks: the known-answer capture of report's tests.
"$GEN" -t "$TOP/tests/report/offcpu.scn" -o "$T/offcpu.ktp" || fail "gen-capture offcpu failed"
# Probes and their spans: query_events by probe, analyze_probes.
"$GEN" -t "$TOP/tests/report/probe-spans.scn" -o "$T/probes.ktp" || fail "gen-capture probe-spans failed"
# query_trace's known answers (tests/cli/t-sql.sh works them out).
"$GEN" -t "$TOP/tests/report/basic.scn" -o "$T/basic.ktp" || fail "gen-capture basic failed"
timeout 300 node "$TOP/tests/mcp/client.mjs" "$KTPROF" "$T/a.ktp" "$T/b.ktp" "$T/offcpu.ktp" "$T/probes.ktp" \
	"$T/basic.ktp" ||
	fail "the MCP client's session failed"
echo ok
