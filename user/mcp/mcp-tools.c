// SPDX-License-Identifier: GPL-2.0
/*
 * The tool table of `ktprof mcp`. Names follow scxtop's MCP server where
 * the meaning is the same (run_all_analyzers, analyze_cpu_utilization,
 * find_scheduling_bottlenecks, detect_outliers, ...), so that prompts and
 * agents written for it carry over.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-capture.h"
#include "mcp/mcp-events.h"
#include "mcp/mcp-report.h"
#include "mcp/mcp-sql.h"
#include "report/json-build.h"
#include "report/findings.h"
#include "report/render.h"

/* --- Arguments --- */

static const struct mcp_arg arg_trace = {
	.name = "trace_id", .type = MCP_ARG_STRING,
	.description = "the trace, as load_capture named it; may be left out while one trace is loaded",
	.max_len = MCP_TRACE_ID_MAX,
};
static const struct mcp_arg arg_trace_required = {
	.name = "trace_id", .type = MCP_ARG_STRING,
	.description = "the trace, as load_capture named it",
	.max_len = MCP_TRACE_ID_MAX, .required = 1,
};
static const struct mcp_arg arg_trace_name = {
	.name = "trace_id", .type = MCP_ARG_STRING,
	.description = "a name for the trace (default: the file's name); loading again under a name replaces that trace",
	.max_len = MCP_TRACE_ID_MAX,
};
static const struct mcp_arg arg_path = {
	.name = "path", .type = MCP_ARG_STRING,
	.description = "a capture file (ktprof record -o FILE) or a raw dump directory; best absolute: "
	"a relative path starts from the server's working directory",
	.max_len = PATH_MAX - 1, .required = 1,
};
static const struct mcp_arg arg_from = {
	.name = "from", .type = MCP_ARG_STRING,
	.description = "start of the window analysed, as a time from the capture's start with a unit: "
	"500ms, 2s, 1500us (default: the start)",
	.max_len = 32,
};
static const struct mcp_arg arg_to = {
	.name = "to", .type = MCP_ARG_STRING,
	.description = "end of the window, as a time from the capture's start (default: the end)",
	.max_len = 32,
};
static const struct mcp_arg arg_pid = {
	.name = "pid", .type = MCP_ARG_INT,
	.description = "only this process (thread group id) and its threads; per-CPU figures stay whole",
	.min = 1, .max = INT32_MAX,
};
static const struct mcp_arg arg_tid = {
	.name = "tid", .type = MCP_ARG_INT,
	.description = "only this thread (with pid or comm: either); per-CPU figures stay whole",
	.min = 1, .max = INT32_MAX,
};
static const struct mcp_arg arg_comm = {
	.name = "comm", .type = MCP_ARG_STRING,
	.description = "only processes whose main thread had this name (up to 15 characters)",
	.max_len = KTP_COMM_LEN - 1,
};
static const struct mcp_arg arg_cgroup = {
	.name = "cgroup", .type = MCP_ARG_STRING,
	.description = "only threads whose last cgroup v2 is this path or below it, e.g. "
	"\"/system.slice\" (with pid, tid or comm: either)",
	.max_len = FILTER_CGROUP_LEN - 1,
};
static const struct mcp_arg arg_cpus = {
	.name = "cpus", .type = MCP_ARG_STRING,
	.description = "only these CPUs, e.g. \"0-3,6\"",
	.max_len = MCP_TRACE_CPUS_MAX - 1,
};
static const struct mcp_arg arg_limit = {
	.name = "limit", .type = MCP_ARG_INT,
	.description = "rows of each list (threads, processes, pairs, edges, handlers, findings), the "
	"largest first (default 20); list_totals says how many there were",
	.min = 1, .max = MCP_LIMIT_MAX,
};
static const struct mcp_arg arg_top = {
	.name = "top", .type = MCP_ARG_INT,
	.description = "symbols per list, and processes (default 20)",
	.min = 1, .max = MCP_LIMIT_MAX,
};
static const char *const methods[] = { "IQR", "MAD", NULL };
static const struct mcp_arg arg_method = {
	.name = "method", .type = MCP_ARG_STRING,
	.description = "IQR: above Q3 + 1.5 IQR (default); MAD: modified z-score above 3.5",
	.choices = methods,
};
static const struct mcp_arg arg_category = {
	.name = "category", .type = MCP_ARG_STRING,
	.description = "which metric's outliers: latency (threads' p99 wakeup latency), runtime, switches "
	"(switch rate), cpu (CPU utilization) or all (default)",
	.choices = mcp_report_categories,
};
/* The rules' names and min-samples (made from the analyses' rules on first use). */
static const char *rules[FINDINGS_MAX_RULES + 2];
static char thresholds_help[1200];
static struct mcp_arg arg_thresholds = {
	.name = "thresholds", .type = MCP_ARG_NUMBERS,
	.description = thresholds_help,
	.choices = rules,
};

static void make_thresholds(void)
{
	const struct findings_rule *x;
	unsigned int i;

	for (i = 0; i < FINDINGS_MAX_RULES && (x = findings_rule_at(i)); i++)
		rules[i] = x->name;
	rules[i] = "min-samples";
	snprintf(thresholds_help, sizeof(thresholds_help),
		 "rule thresholds: %s, e.g. {\"runqueue\": 2}", findings_rules_help());
}

static const struct mcp_arg arg_a = {
	.name = "a", .type = MCP_ARG_STRING,
	.description = "trace A (before, the baseline), as load_capture named it",
	.max_len = MCP_TRACE_ID_MAX, .required = 1,
};
static const struct mcp_arg arg_b = {
	.name = "b", .type = MCP_ARG_STRING,
	.description = "trace B (after), as load_capture named it",
	.max_len = MCP_TRACE_ID_MAX, .required = 1,
};
static const struct mcp_arg arg_absolute = {
	.name = "absolute", .type = MCP_ARG_BOOL,
	.description = "compare totals, not rates per second of window",
};
static const struct mcp_arg arg_per_cpu = {
	.name = "per_cpu", .type = MCP_ARG_BOOL,
	.description = "machine totals divided by the number of CPUs",
};
static const struct mcp_arg arg_event_cpu = {
	.name = "cpu", .type = MCP_ARG_INT,
	.description = "only events of this CPU", .min = 0, .max = 8191,
};
static const struct mcp_arg arg_event_pid = {
	.name = "pid", .type = MCP_ARG_INT,
	.description = "only events naming this thread or process (pid, tid, tgid, prev_pid, next_pid, parent_pid, child_pid...)",
	.min = 0, .max = INT32_MAX,
};
static const struct mcp_arg arg_event_types = {
	.name = "types", .type = MCP_ARG_STRINGS,
	.description = "only events of these types (default: all)",
	.choices = mcp_events_types,
};
static const struct mcp_arg arg_event_probe = {
	.name = "probe", .type = MCP_ARG_STRING,
	.description = "only hits of this record --probe probe: its name (as analyze_probes "
		       "lists it) or its id (digits)", .max_len = 64,
};
static const struct mcp_arg arg_event_limit = {
	.name = "limit", .type = MCP_ARG_INT,
	.description = "events per page (default 100)", .min = 1, .max = MCP_EVENTS_MAX,
};
static const struct mcp_arg arg_cursor = {
	.name = "cursor", .type = MCP_ARG_STRING,
	.description = "the next_cursor of the previous page", .max_len = 80,
};

static const struct mcp_arg arg_query = {
	.name = "query", .type = MCP_ARG_STRING,
	.description = "one SQL statement (SQLite) that only reads: SELECT or WITH, over the "
	"tables of docs/sql.md; a second statement is refused",
	.max_len = 65536, .required = 1,
};
static const struct mcp_arg arg_max_rows = {
	.name = "max_rows", .type = MCP_ARG_INT,
	.description = "rows answered at most (default 1000); truncated says when more matched",
	.min = 1, .max = MCP_SQL_ROWS_MAX,
};
static const struct mcp_arg arg_timeout_ms = {
	.name = "timeout_ms", .type = MCP_ARG_INT,
	.description = "the query is stopped, and fails, after this many milliseconds (default "
	"10000)",
	.min = 1, .max = MCP_SQL_TIMEOUT_MAX,
};

#define FILTERS &arg_from, &arg_to, &arg_pid, &arg_tid, &arg_comm, &arg_cgroup, &arg_cpus

static const struct mcp_arg *const args_none[] = { NULL };
static const struct mcp_arg *const args_load[] = { &arg_path, &arg_trace_name, NULL };
static const struct mcp_arg *const args_unload[] = { &arg_trace_required, NULL };
static const struct mcp_arg *const args_trace[] = { &arg_trace, NULL };
static const struct mcp_arg *const args_analysis[] = { &arg_trace, &arg_limit, FILTERS, NULL };
/* Per-CPU figures describe whole CPUs: no process filter. */
static const struct mcp_arg *const args_cpus[] = {
	&arg_trace, &arg_from, &arg_to, &arg_cpus, NULL
};
static const struct mcp_arg *const args_irqs[] = {
	&arg_trace, &arg_limit, &arg_from, &arg_to, &arg_cpus, NULL
};
static const struct mcp_arg *const args_findings[] = {
	&arg_trace, &arg_limit, &arg_thresholds, FILTERS, NULL
};
static const struct mcp_arg *const args_outliers[] = {
	&arg_trace, &arg_method, &arg_category, &arg_limit, FILTERS, NULL
};
static const struct mcp_arg *const args_profile[] = {
	&arg_trace, &arg_top, &arg_from, &arg_to, &arg_pid, &arg_tid, &arg_comm, NULL
};
static const struct mcp_arg *const args_events[] = {
	&arg_trace, &arg_from, &arg_to, &arg_event_cpu, &arg_event_pid, &arg_event_types,
	&arg_event_probe, &arg_event_limit, &arg_cursor, NULL
};
static const struct mcp_arg *const args_sql[] = {
	&arg_trace, &arg_query, &arg_max_rows, &arg_timeout_ms, NULL
};
static const struct mcp_arg *const args_compare[] = {
	&arg_a, &arg_b, &arg_limit, FILTERS, &arg_absolute, &arg_per_cpu, NULL
};

/* --- The table --- */

static const struct mcp_arg *const *const analysis_args[] = {
	[ARGS_ANALYSIS] = args_analysis, [ARGS_CPUS] = args_cpus, [ARGS_IRQS] = args_irqs,
	[ARGS_FINDINGS] = args_findings, [ARGS_OUTLIERS] = args_outliers,
	[ARGS_PROFILE] = args_profile,
};

static const struct mcp_tool head[] = {
	{ "load_capture", "Load a capture",
	  "Load a ktprof capture file or raw dump directory for analysis, under a trace id; "
	  "several traces may be loaded at once (up to 8). Analyses the whole capture once; "
	  "answers with its kernel, CPUs, window and event counts.",
	  args_load, 0, 0, 0, NULL, mcp_capture_load, mcp_capture_load_schema, NULL },
	{ "unload_capture", "Unload a capture", "Forget a loaded trace and free its memory.",
	  args_unload, 0, 0, 0, NULL, mcp_capture_unload, mcp_capture_unload_schema, NULL },
	{ "get_trace_summary", "Trace summary",
	  "Session, kernel, CPUs, window, event counts by type, records lost and the time "
	  "they made unknown per CPU, and which analyzers have the events they need.",
	  args_trace, 0, 0, 0, NULL, mcp_capture_summary, mcp_capture_summary_schema, NULL },
	{ "list_analyzers", "List analyzers",
	  "The analysis tools, what each answers and the event types it needs.",
	  args_none, 0, 0, 0, NULL, mcp_tools_list_analyzers, mcp_tools_analyzers_schema, NULL },
	{ "run_all_analyzers", "Run every analysis",
	  "Every analysis of ktprof report at once, as `ktprof report --json`; lists cut at "
	  "limit.",
	  args_analysis, 0, 0, 0, NULL, mcp_report_analysis, mcp_report_analysis_schema, NULL },
};

static const struct mcp_tool tail[] = {
	{ "query_events", "Query raw events",
	  "The capture's decoded events in time order (as ktprof dump --json), filtered by "
	  "window, CPU, pid, type and probe, a page at a time: pass next_cursor back for the "
	  "next.",
	  args_events, 0, 0, 0, NULL, mcp_events_query, mcp_events_schema, NULL },
	{ "query_trace", "Query a trace with SQL",
	  "One read-only SQL statement (SQLite) over the capture's tables: captures, cpus, "
	  "processes, threads (utid, upid: model indices; a reused pid is two threads), "
	  "slices, thread_states, switches, wakeups (latency_ns), runqueue_waits, migrations, "
	  "irqs, gaps, samples, stack_frames, probe_hits, markers, scx_dsq; times in ns "
	  "(CLOCK_BOOTTIME; durations *_ns). percentile(x, p) is report's nearest-rank "
	  "percentile. PRAGMA table_info('threads') lists a table's columns (docs/sql.md "
	  "describes them all). Answers columns, rows (arrays), row_count and truncated "
	  "(cut at max_rows). The first query of a trace builds its database (about "
	  "2M records a second).",
	  args_sql, 0, 0, 0, NULL, mcp_sql_query, mcp_sql_schema, NULL },
	{ "compare_traces", "Compare two traces",
	  "ktprof diff of two loaded traces: every figure per CPU, process and thread (matched "
	  "by name) and each thread's critical path by cause, distributions tested for a real "
	  "change (Mann-Whitney U), and a verdict ranking the changes that matter most.",
	  args_compare, 0, 0, 0, NULL, mcp_report_compare, mcp_report_compare_schema, NULL },
};

#define NR_HEAD (sizeof(head) / sizeof(head[0]))
#define NR_TAIL (sizeof(tail) / sizeof(tail[0]))

static struct mcp_tool table[NR_HEAD + REPORT_MAX_ANALYZERS + NR_TAIL];
static unsigned int table_len;

/* The fixed tools around one per analysis, as the analyses' table says. */
static void make_table(void)
{
	unsigned int i;

	if (table_len)
		return;
	make_thresholds();
	for (i = 0; i < NR_HEAD; i++)
		table[table_len++] = head[i];
	table[NR_HEAD - 1].sections = analyzer_sections_all();
	for (i = 0; i < nr_analyzers; i++) {
		const struct analyzer_tool *t = &analyzers[i]->tool;

		if (!t->name)
			continue;
		table[table_len++] = (struct mcp_tool){
			t->name, t->title, t->description, analysis_args[t->args], 1u << i, 1,
			t->needs, t->order, mcp_report_analysis, mcp_report_analysis_schema,
			t->applies,
		};
	}
	for (i = 0; i < NR_TAIL; i++)
		table[table_len++] = tail[i];
}

unsigned int mcp_tools_count(void)
{
	make_table();
	return table_len;
}

const struct mcp_tool *mcp_tools_at(unsigned int i)
{
	make_table();
	return i < table_len ? &table[i] : NULL;
}

const struct mcp_tool *mcp_tools_find(const char *name)
{
	unsigned int i;

	make_table();
	for (i = 0; i < table_len; i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

/* --- list_analyzers --- */

static json_object *needs_array(struct json_build *b, unsigned int needs)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < KTP_REC_NR_TYPES; i++)
		if (needs & (1u << i))
			json_build_push(b, a, json_object_new_string(event_type_name(i)));
	return a;
}

int mcp_tools_list_analyzers(struct mcp_call *c)
{
	struct json_build b = { 0 };
	json_object *a = json_object_new_array();
	size_t len = 0;
	FILE *f;
	unsigned int i;

	c->doc = json_object_new_object();
	f = open_memstream(&c->text, &len);
	for (i = 0; i < mcp_tools_count(); i++) {
		const struct mcp_tool *t = mcp_tools_at(i);
		json_object *o;

		if (!t->analyzer)
			continue;
		o = json_object_new_object();
		json_build_put(&b, o, "name", json_object_new_string(t->name));
		json_build_put(&b, o, "title", json_object_new_string(t->title));
		json_build_put(&b, o, "description", json_object_new_string(t->description));
		json_build_put(&b, o, "needs", needs_array(&b, t->needs));
		json_build_push(&b, a, o);
		if (f)
			fprintf(f, "%s: %s\n", t->name, t->description);
	}
	if (f)
		fprintf(f, "run_all_analyzers runs them all at once.\n");
	json_build_put(&b, c->doc, "analyzers", a);
	if (!f || fclose(f) || b.nomem)
		return error_set(&c->err, -ENOMEM, NULL);
	return 0;
}

static const struct json_field analyzer_fields[] = {
	{ .name = "name", .type = JSON_STR, .description = "the tool" },
	{ .name = "title", .type = JSON_STR },
	{ .name = "description", .type = JSON_STR },
	{ .name = "needs", .type = JSON_STRS, .description = "the event types it analyses" },
	{ NULL },
};

static const struct json_field analyzers_fields[] = {
	{ .name = "analyzers", .type = JSON_ARR, .sub = analyzer_fields },
	{ NULL },
};

json_object *mcp_tools_analyzers_schema(const struct mcp_tool *t)
{
	(void)t;
	return json_doc_schema(analyzers_fields, 0);
}

/* --- tools/list and tools/call --- */

static json_object *annotations(struct json_build *b)
{
	json_object *o = json_object_new_object();

	/* Tools read captures and write nothing; their world is the files named. */
	json_build_put(b, o, "readOnlyHint", json_object_new_boolean(1));
	json_build_put(b, o, "openWorldHint", json_object_new_boolean(0));
	return o;
}

json_object *mcp_tools_list(void)
{
	struct json_build b = { 0 };
	json_object *res = json_object_new_object(), *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < mcp_tools_count(); i++) {
		const struct mcp_tool *t = mcp_tools_at(i);
		json_object *o = json_object_new_object();

		json_build_put(&b, o, "name", json_object_new_string(t->name));
		json_build_put(&b, o, "title", json_object_new_string(t->title));
		json_build_put(&b, o, "description", json_object_new_string(t->description));
		json_build_put(&b, o, "inputSchema", mcp_args_schema(t->args));
		json_build_put(&b, o, "outputSchema", t->output_schema(t));
		json_build_put(&b, o, "annotations", annotations(&b));
		json_build_push(&b, a, o);
	}
	json_build_put(&b, res, "tools", a);
	if (b.nomem) {
		json_object_put(res);
		return NULL;
	}
	return res;
}

static json_object *text_block(struct json_build *b, const char *text)
{
	json_object *o = json_object_new_object();

	json_build_put(b, o, "type", json_object_new_string("text"));
	json_build_put(b, o, "text", json_object_new_string(text));
	return o;
}

/*
 * The summary, then the document as JSON text too: clients that pass only
 * `content` to the model lose nothing (the spec asks for the serialized
 * JSON in a text block, for them).
 */
static json_object *success(struct json_build *b, json_object *doc, const char *text)
{
	json_object *res = json_object_new_object(), *content = json_object_new_array();
	const char *json = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
							  JSON_C_TO_STRING_NOSLASHESCAPE);

	json_build_push(b, content, text_block(b, text));
	json_build_push(b, content, json ? text_block(b, json) : NULL);
	json_build_put(b, res, "content", content);
	json_build_put(b, res, "structuredContent", doc);
	json_build_put(b, res, "isError", json_object_new_boolean(0));
	return res;
}

static json_object *failure(struct json_build *b, const char *why)
{
	json_object *res = json_object_new_object(), *content = json_object_new_array();

	json_build_push(b, content, text_block(b, why));
	json_build_put(b, res, "content", content);
	json_build_put(b, res, "isError", json_object_new_boolean(1));
	return res;
}

json_object *mcp_tools_call(const struct mcp_tool *t, struct mcp_traces *traces,
			    json_object *args)
{
	struct mcp_call c = { .tool = t, .traces = traces, .args = args };
	struct json_build b = { 0 };
	json_object *res;
	int ret;

	ret = mcp_args_check(t->args, args, &c.err);
	if (!ret)
		ret = t->run(&c);
	if (!ret && (!c.doc || !c.text))
		ret = error_set(&c.err, -ENOMEM, NULL);
	if (ret) {
		json_object_put(c.doc);
		res = failure(&b, error_msg(&c.err));
	} else {
		res = success(&b, c.doc, c.text);
	}
	free(c.text);
	if (b.nomem) {
		json_object_put(res);
		return NULL;
	}
	return res;
}
