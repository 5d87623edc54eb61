// SPDX-License-Identifier: GPL-2.0
/*
 * The MCP server's handling of requests, under the sanitizers: the
 * lifecycle, malformed and unknown messages (each a JSON-RPC error), tool
 * calls that fail (isError results, with what to correct), and after each
 * of them the server still serving; tool results on a capture script of
 * known answers (tests/report/basic.scn); and the stdio loop: lines,
 * blank lines, CRLF, a message too long, the end of input.
 */
#include <unistd.h>

#include "decode/event.h"
#include "mcp/jsonrpc.h"
#include "mcp/mcp-events.h"
#include "mcp/mcp-server.h"
#include "report/findings.h"
#include "script-capture.h"
#include "unit.h"

#define INIT "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":" \
	"{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"         \
	"\"clientInfo\":{\"name\":\"unit\",\"version\":\"1\"}}}"
#define PING "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}"

static char capture[64];

/* A capture of tests/report/basic.scn, once per run. */
static const char *basic_capture(void)
{
	if (!capture[0]) {
		snprintf(capture, sizeof(capture), "/tmp/ktprof-unit-mcp.%d.ktp", (int)getpid());
		if (script_capture_write("tests/report/basic.scn", capture))
			UNIT_FAIL("no capture of basic.scn");
	}
	return capture;
}

/* The server's answer to @msg, parsed; NULL when it answers nothing. */
static json_object *rpc(struct mcp_server *s, const char *msg)
{
	size_t len;
	char *reply;
	json_object *o;

	if (mcp_server_handle(s, msg, strlen(msg), &reply, &len)) {
		UNIT_FAIL("%s: no memory", msg);
		return NULL;
	}
	if (!reply)
		return NULL;
	if (memchr(reply, '\n', len))
		UNIT_FAIL("a newline inside the answer to %s", msg);
	o = json_tokener_parse(reply);
	if (!o)
		UNIT_FAIL("the answer to %s is not JSON: %s", msg, reply);
	free(reply);
	return o;
}

/* The value at "a.b.0.c" in @o, or NULL. */
static json_object *at(json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, atoi(key));
		else if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

static int64_t int_at(json_object *o, const char *path)
{
	json_object *v = at(o, path);

	return v ? json_object_get_int64(v) : -1;
}

static const char *str_at(json_object *o, const char *path)
{
	json_object *v = at(o, path);

	return v ? json_object_get_string(v) : "(absent)";
}

/* The error code of the answer to @msg; 0 for a result. */
static int error_code(struct mcp_server *s, const char *msg)
{
	json_object *o = rpc(s, msg);
	int code = o && at(o, "error") ? (int)int_at(o, "error.code") : 0;

	if (o && !at(o, "error") && !at(o, "result"))
		UNIT_FAIL("%s: neither result nor error", msg);
	json_object_put(o);
	return code;
}

/* Still serving: a ping gets its empty result. */
static void alive(struct mcp_server *s)
{
	json_object *o = rpc(s, PING);

	if (!o || int_at(o, "id") != 99 || !json_object_is_type(at(o, "result"), json_type_object))
		UNIT_FAIL("no answer to ping");
	json_object_put(o);
}

static struct mcp_server *started(void)
{
	struct mcp_server *s = mcp_server_new();

	CHECK(s != NULL);
	CHECK_EQ(error_code(s, INIT), 0);
	CHECK(rpc(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}") == NULL);
	return s;
}

/* tools/call of @tool with @args (JSON text); the result object (put it). */
static json_object *call(struct mcp_server *s, const char *tool, const char *args)
{
	char msg[2048];
	json_object *o, *res;

	snprintf(msg, sizeof(msg),
		 "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}",
		 tool, args);
	o = rpc(s, msg);
	res = json_object_get(at(o, "result"));
	if (!res)
		UNIT_FAIL("%s %s: no result: %s", tool, args, json_object_to_json_string(o));
	json_object_put(o);
	return res;
}

/* The call fails as a tool (isError) and says @why. */
static void tool_error(struct mcp_server *s, const char *tool, const char *args, const char *why)
{
	json_object *r = call(s, tool, args);
	const char *text = str_at(r, "content.0.text");

	if (!json_object_get_boolean(at(r, "isError")))
		UNIT_FAIL("%s %s: not isError: %.200s", tool, args, text);
	if (!strstr(text, why))
		UNIT_FAIL("%s %s: \"%s\" does not say \"%s\"", tool, args, text, why);
	if (at(r, "structuredContent"))
		UNIT_FAIL("%s %s: structuredContent with an error", tool, args);
	json_object_put(r);
	alive(s);
}

/* The call succeeds; its structuredContent (put it). */
static json_object *tool_ok(struct mcp_server *s, const char *tool, const char *args)
{
	json_object *r = call(s, tool, args), *doc;

	if (json_object_get_boolean(at(r, "isError")))
		UNIT_FAIL("%s %s failed: %s", tool, args, str_at(r, "content.0.text"));
	doc = json_object_get(at(r, "structuredContent"));
	if (!doc || strcmp(str_at(r, "content.0.type"), "text") ||
	    strcmp(str_at(r, "content.1.text"), json_object_to_json_string_ext(
			doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)))
		UNIT_FAIL("%s %s: the content is not the summary and the document", tool, args);
	json_object_put(r);
	return doc;
}

UNIT_TEST(lifecycle)
{
	struct mcp_server *s = mcp_server_new();
	json_object *o;

	/* Before initialize: ping only. */
	CHECK_EQ(error_code(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"),
		 JSONRPC_INVALID_REQUEST);
	alive(s);
	CHECK_EQ(error_code(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"),
		 JSONRPC_INVALID_PARAMS);
	/* An older version asked for: the newest is offered instead. */
	o = rpc(s, "{\"jsonrpc\":\"2.0\",\"id\":\"i\",\"method\":\"initialize\",\"params\":"
		   "{\"protocolVersion\":\"2024-11-05\",\"capabilities\":{}}}");
	CHECK_STR(str_at(o, "id"), "i");
	CHECK_STR(str_at(o, "result.protocolVersion"), "2025-11-25");
	CHECK_STR(str_at(o, "result.serverInfo.name"), "ktprof");
	CHECK(json_object_is_type(at(o, "result.capabilities.tools"), json_type_object));
	CHECK(at(o, "result.capabilities.resources") == NULL);
	json_object_put(o);
	CHECK_EQ(error_code(s, INIT), JSONRPC_INVALID_REQUEST);	/* once per session */
	mcp_server_free(s);

	/* A version spoken is the one agreed. */
	s = mcp_server_new();
	o = rpc(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
		   "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{}}}");
	CHECK_STR(str_at(o, "result.protocolVersion"), "2025-06-18");
	json_object_put(o);
	mcp_server_free(s);
}

UNIT_TEST(malformed)
{
	static const struct {
		const char *msg;
		int code;	/* 0: no answer */
	} cases[] = {
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":", JSONRPC_PARSE_ERROR },
		{ "\x01\x02", JSONRPC_PARSE_ERROR },
		{ "[1,2]", JSONRPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", JSONRPC_INVALID_REQUEST },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}",
		  JSONRPC_METHOD_NOT_FOUND },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}",
		  JSONRPC_INVALID_PARAMS },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}", JSONRPC_INVALID_PARAMS },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":3}}",
		  JSONRPC_INVALID_PARAMS },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}",
		  JSONRPC_INVALID_PARAMS },
		{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
		  "{\"name\":\"list_analyzers\",\"arguments\":[]}}", JSONRPC_INVALID_PARAMS },
		/* Notifications and responses are never answered, well formed or not. */
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}", 0 },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/notification\"}", 0 },
		{ "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":7}", 0 },
		{ "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}", 0 },
	};
	struct mcp_server *s = started();
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_object *o = rpc(s, cases[i].msg);

		if (!cases[i].code && o)
			UNIT_FAIL("%s: answered %s", cases[i].msg, json_object_to_json_string(o));
		if (cases[i].code && int_at(o, "error.code") != cases[i].code)
			UNIT_FAIL("%s: answered %s, expected error %d", cases[i].msg,
				  o ? json_object_to_json_string(o) : "nothing", cases[i].code);
		/* An id that could not be read is null in the answer. */
		if (cases[i].code == JSONRPC_PARSE_ERROR && !json_object_is_type(at(o, "id"), json_type_null))
			UNIT_FAIL("%s: the id of a parse error is not null", cases[i].msg);
		json_object_put(o);
		alive(s);
	}
	mcp_server_free(s);
}

UNIT_TEST(tools_list)
{
	struct mcp_server *s = started();
	json_object *o = rpc(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
	json_object *tools = at(o, "result.tools"), *names = NULL;
	unsigned int i, n = json_object_array_length(tools), offcpu = 0, dsq = 0, sql = 0;
	int r;

	CHECK_EQ(n, 27);
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(tools, i);

		if (strcmp(str_at(t, "inputSchema.type"), "object") ||
		    strcmp(str_at(t, "outputSchema.type"), "object") ||
		    strlen(str_at(t, "description")) < 20)
			UNIT_FAIL("%s: schemas or description missing", str_at(t, "name"));
		if (!strcmp(str_at(t, "name"), "find_scheduling_bottlenecks"))
			names = at(t, "inputSchema.properties.thresholds.propertyNames.enum");
		offcpu += !strcmp(str_at(t, "name"), "analyze_offcpu");
		dsq += !strcmp(str_at(t, "name"), "analyze_dsq");
		sql += !strcmp(str_at(t, "name"), "query_trace");
	}
	CHECK_EQ(offcpu, 1);
	CHECK_EQ(dsq, 1);
	CHECK_EQ(sql, 1);
	/* The threshold names are the report's rules, and min-samples. */
	CHECK_EQ(json_object_array_length(names), findings_nr_rules() + 1);
	for (r = 0; r < (int)findings_nr_rules(); r++)
		CHECK_STR(json_object_get_string(json_object_array_get_idx(names, r)),
			  findings_rule_at(r)->name);
	CHECK_STR(json_object_get_string(json_object_array_get_idx(names, findings_nr_rules())),
		  "min-samples");
	json_object_put(o);
	mcp_server_free(s);
}

UNIT_TEST(event_type_names)
{
	unsigned int t, i = 0;

	for (t = KTP_REC_INVALID + 1; t < KTP_REC_NR_TYPES; t++)
		CHECK_STR(mcp_events_types[i++], event_type_name(t));
	CHECK_STR(mcp_events_types[i++], event_type_name(EVENT_LOST));
	CHECK_STR(mcp_events_types[i++], event_type_name(EVENT_GARBAGE));
	CHECK(mcp_events_types[i] == NULL);
}

UNIT_TEST(tool_errors)
{
	struct mcp_server *s = started();
	char args[512];

	tool_error(s, "get_trace_summary", "{}", "no trace is loaded");
	tool_error(s, "load_capture", "{\"path\":\"/nonexistent/x.ktp\"}", "No such file or directory");
	tool_error(s, "load_capture", "{\"path\":\"/dev/null\"}", "/dev/null");
	tool_error(s, "load_capture", "{}", "path is missing");
	tool_error(s, "load_capture", "{\"path\":7}", "path wants a string");
	/* An escaped NUL is refused before any tool sees it (jsonrpc.c). */
	{
		json_object *o = rpc(s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
				     "\"params\":{\"name\":\"load_capture\",\"arguments\":"
				     "{\"path\":\"a\\u0000b\"}}}");

		CHECK_EQ(json_object_get_int(at(o, "error.code")), -32700);
		json_object_put(o);
	}
	snprintf(args, sizeof(args), "{\"path\":\"%s\",\"trace_id\":\"\"}", basic_capture());
	tool_error(s, "load_capture", args, "trace_id");
	snprintf(args, sizeof(args), "{\"path\":\"%s\",\"trace_id\":\"t\"}", basic_capture());
	json_object_put(tool_ok(s, "load_capture", args));
	tool_error(s, "analyze_process_runtime", "{\"limit\":1000000}", "limit: from 1 to 1000, not 1000000");
	tool_error(s, "analyze_process_runtime", "{\"limit\":18446744073709551615}", "limit: from 1 to 1000");
	tool_error(s, "analyze_process_runtime", "{\"limit\":2.5}", "limit wants an integer");
	tool_error(s, "analyze_process_runtime", "{\"limit\":\"5\"}", "limit wants an integer");
	tool_error(s, "analyze_process_runtime", "{\"pid\":-4}", "pid: from 1");
	tool_error(s, "analyze_process_runtime", "{\"comm\":\"a-name-far-too-long\"}", "at most 15");
	tool_error(s, "analyze_process_runtime", "{\"from\":\"2s\",\"to\":\"1s\"}", "from must come before to");
	tool_error(s, "analyze_process_runtime", "{\"to\":\"later\"}", "to wants a time");
	/* A time says its unit (surface-09): "5" is not taken as seconds. */
	tool_error(s, "analyze_process_runtime", "{\"from\":\"5\"}", "with a unit");
	tool_error(s, "query_events", "{\"to\":\"5\"}", "with a unit");
	tool_error(s, "analyze_process_runtime", "{\"extra\":1}", "unknown argument 'extra'");
	tool_error(s, "analyze_cpu_utilization", "{\"pid\":1}", "unknown argument 'pid'");
	tool_error(s, "analyze_cpu_utilization", "{\"cpus\":\"0-x\"}", "0-x");
	tool_error(s, "analyze_cpu_utilization", "{\"trace_id\":\"u\"}", "no trace 'u' is loaded (loaded: t)");
	tool_error(s, "detect_outliers", "{\"method\":\"zscore\"}", "method: value 'zscore' is not one of IQR or MAD");
	tool_error(s, "find_scheduling_bottlenecks", "{\"thresholds\":{\"speed\":1}}", "thresholds: name 'speed'");
	tool_error(s, "find_scheduling_bottlenecks", "{\"thresholds\":{\"wakeup\":\"1\"}}", "thresholds.wakeup wants a number");
	tool_error(s, "find_scheduling_bottlenecks", "{\"thresholds\":{\"min-samples\":0.5}}", "thresholds.min-samples");
	tool_error(s, "query_events", "{\"limit\":10001}", "limit: from 1 to 10000");
	tool_error(s, "query_events", "{\"types\":\"sched_switch\"}", "types wants an array");
	tool_error(s, "query_events", "{\"cursor\":\"1.2\"}", "cursor");
	tool_error(s, "compare_traces", "{\"a\":\"t\"}", "b is missing");
	tool_error(s, "unload_capture", "{}", "trace_id is missing");
	/* A capture changed since it was loaded is not analysed as if it were the same. */
	CHECK_EQ(truncate(basic_capture(), 100), 0);
	tool_error(s, "analyze_process_runtime", "{\"from\":\"1us\"}", "changed since it was loaded");
	tool_error(s, "query_events", "{}", "changed since it was loaded");
	unlink(basic_capture());
	capture[0] = '\0';
	mcp_server_free(s);
}

/*
 * A raw dump directory whose cpuN file is rewritten in place after loading
 * (surface-06): the directory's own stat does not change, its entries do.
 */
UNIT_TEST(rawdir_changed)
{
	struct mcp_server *s = started();
	char dir[64], cmd[256], args[256], cpu0[96];

	snprintf(dir, sizeof(dir), "/tmp/ktprof-unit-mcp-dir.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf %s && build/tools/gen-capture -t tests/report/basic.scn -d %s",
		 dir, dir);
	CHECK_EQ(system(cmd), 0);
	snprintf(args, sizeof(args), "{\"path\":\"%s\",\"trace_id\":\"d\"}", dir);
	json_object_put(tool_ok(s, "load_capture", args));
	json_object_put(tool_ok(s, "query_events", "{\"limit\":10}"));
	snprintf(cpu0, sizeof(cpu0), "%s/cpu0", dir);
	CHECK_EQ(truncate(cpu0, 0), 0);
	tool_error(s, "query_events", "{}", "changed since it was loaded");
	tool_error(s, "analyze_process_runtime", "{\"from\":\"1ns\"}", "changed since it was loaded");
	tool_error(s, "run_all_analyzers", "{}", "changed since it was loaded");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ(system(cmd), 0);
	mcp_server_free(s);
}

/* Known answers of basic.scn (its '#=' lines), through the tools. */
UNIT_TEST(known_answers)
{
	struct mcp_server *s = started();
	static const int64_t first[] = { 2000, 5000, 9000 };
	json_object *doc;
	char args[512], cursor[96], id[96];
	int page;

	snprintf(args, sizeof(args), "{\"path\":\"%s\"}", basic_capture());
	doc = tool_ok(s, "load_capture", args);
	snprintf(id, sizeof(id), "%s", str_at(doc, "trace_id"));
	CHECK(!strncmp(id, "ktprof-unit-mcp.", 16));	/* the file's name */
	CHECK_EQ(int_at(doc, "window.duration_ns"), 10000);
	CHECK_EQ(int_at(doc, "capture.events_by_type.sched_switch"), 9);
	CHECK_EQ(int_at(doc, "capture.events_by_type.sched_waking"), 4);
	json_object_put(doc);

	doc = tool_ok(s, "analyze_cpu_utilization", "{}");
	CHECK_EQ(int_at(doc, "cpus.0.busy_ns"), 7700);
	CHECK_EQ(int_at(doc, "cpus.0.idle_ns"), 2300);
	CHECK_EQ(int_at(doc, "cpus.0.switches"), 5);
	CHECK(at(doc, "threads") == NULL);
	json_object_put(doc);

	/* Three threads, one shown: the busiest, and how many there were. */
	doc = tool_ok(s, "analyze_process_runtime", "{\"limit\":1}");
	CHECK_EQ(json_object_array_length(at(doc, "threads")), 1);
	CHECK_EQ(int_at(doc, "list_totals.threads"), 3);
	CHECK_EQ(int_at(doc, "list_totals.processes"), 2);
	CHECK_EQ(int_at(doc, "processes.0.tgid"), 100);		/* a: 2000 + 2400 + 4000 ns */
	CHECK_EQ(int_at(doc, "processes.0.runtime_ns"), 9000);
	json_object_put(doc);

	/* A window: from 6000 ns, CPU 0 runs b 6300-9000, idle the rest. */
	doc = tool_ok(s, "analyze_cpu_utilization", "{\"from\":\"6us\",\"cpus\":\"0\"}");
	CHECK_EQ(int_at(doc, "window.duration_ns"), 4000);
	CHECK_EQ(int_at(doc, "cpus.0.busy_ns"), 2700);
	CHECK_EQ(json_object_array_length(at(doc, "cpus")), 1);
	json_object_put(doc);

	/* CPU 0's five switches, two a page. */
	cursor[0] = '\0';
	for (page = 0; page < 3; page++) {
		snprintf(args, sizeof(args), "{\"types\":[\"sched_switch\"],\"cpu\":0,\"limit\":2%s%s%s}",
			 *cursor ? ",\"cursor\":\"" : "", cursor, *cursor ? "\"" : "");
		doc = tool_ok(s, "query_events", args);
		CHECK_EQ(int_at(doc, "returned"), page < 2 ? 2 : 1);
		CHECK_STR(str_at(doc, "events.0.type"), "sched_switch");
		CHECK_EQ(int_at(doc, "events.0.rel_ns"), first[page]);
		snprintf(cursor, sizeof(cursor), "%s", at(doc, "next_cursor") ?
			 str_at(doc, "next_cursor") : "");
		CHECK(!*cursor == (page == 2));
		json_object_put(doc);
	}
	/* Events naming pid 101: its snapshot, its waking, its switch in and out. */
	doc = tool_ok(s, "query_events", "{\"pid\":101}");
	CHECK_EQ(int_at(doc, "returned"), 4);
	json_object_put(doc);

	/* query_trace: a's runtime (t-sql.sh works it out), p99 wakeup latency per process. */
	doc = tool_ok(s, "query_trace", "{\"query\":\"SELECT tid, runtime_ns FROM threads ORDER BY tid\"}");
	CHECK_EQ(int_at(doc, "row_count"), 3);
	CHECK_STR(str_at(doc, "columns.1"), "runtime_ns");
	CHECK_EQ(int_at(doc, "rows.0.1"), 8400);
	CHECK_EQ(int_at(doc, "rows.2.0"), 200);
	CHECK(!json_object_get_boolean(at(doc, "truncated")));
	json_object_put(doc);
	doc = tool_ok(s, "query_trace", "{\"query\":\"SELECT p.comm, percentile(w.latency_ns, 99), "
		      "NULL, 0.5 FROM wakeups w JOIN threads USING (utid) JOIN processes p USING (upid) "
		      "GROUP BY upid ORDER BY p.tgid\", \"max_rows\": 1}");
	CHECK_EQ(int_at(doc, "row_count"), 1);
	CHECK_STR(str_at(doc, "rows.0.0"), "a");
	CHECK_EQ(int_at(doc, "rows.0.1"), 500);
	CHECK(at(doc, "rows.0.2") == NULL && json_object_array_length(at(doc, "rows.0")) == 4);
	CHECK(json_object_get_boolean(at(doc, "truncated")));
	json_object_put(doc);
	/* 1 MB strings: three fit in 3 MiB of JSON, the fourth is cut. */
	doc = tool_ok(s, "query_trace", "{\"query\":\"SELECT hex(zeroblob(500000)) FROM switches\"}");
	CHECK_EQ(int_at(doc, "row_count"), 3);
	CHECK_EQ(json_object_array_length(at(doc, "rows")), 3);
	CHECK_EQ(strlen(str_at(doc, "rows.2.0")), 1000000);
	CHECK(json_object_get_boolean(at(doc, "truncated")));
	json_object_put(doc);
	tool_error(s, "query_trace", "{\"query\":\"DELETE FROM threads\"}", "may only read");
	tool_error(s, "query_trace", "{\"query\":\"SELECT 1; SELECT 2\"}", "one statement");
	tool_error(s, "query_trace", "{\"query\":\"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL "
		   "SELECT x + 1 FROM r) SELECT count(*) FROM r\", \"timeout_ms\": 50}", "out of time");

	/* The capture against itself: the same figures, no change. */
	snprintf(args, sizeof(args), "{\"a\":\"%s\",\"b\":\"%s\"}", id, id);
	doc = tool_ok(s, "compare_traces", args);
	CHECK_EQ(json_object_array_length(at(doc, "verdict")), 0);
	CHECK_STR(str_at(doc, "a_trace_id"), id);
	json_object_put(doc);
	unlink(basic_capture());
	capture[0] = '\0';
	mcp_server_free(s);
}

/* The stdio loop, on memory streams. */
UNIT_TEST(serve)
{
	static const char pong[] = "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}\n";
	size_t big = MCP_LINE_MAX + 10, len = 0, i;
	char *in = malloc(big + 512), *out = NULL;
	FILE *fin, *fout = open_memstream(&out, &len);
	struct mcp_server *s = mcp_server_new();
	int lines = 0;

	strcpy(in, INIT "\r\n\n   \n" PING "\n");
	i = strlen(in);
	memset(in + i, 'x', big);	/* longer than a message may be */
	i += big;
	strcpy(in + i, "\n" PING);	/* the last line without its newline */
	fin = fmemopen(in, strlen(in), "r");
	CHECK_EQ(mcp_server_serve(s, fin, fout), 0);
	fclose(fin);
	fclose(fout);
	for (i = 0; i < len; i++)
		lines += out[i] == '\n';
	CHECK_EQ(lines, 4);
	CHECK(strstr(out, "\"protocolVersion\":\"2025-11-25\"") != NULL);
	CHECK(strstr(out, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"message longer than 1 MiB\"}}\n") != NULL);
	CHECK(strstr(out, "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":null") != NULL);
	CHECK(len >= strlen(pong) && !strcmp(out + len - strlen(pong), pong));
	free(in);
	free(out);
	mcp_server_free(s);
}

UNIT_MAIN()
