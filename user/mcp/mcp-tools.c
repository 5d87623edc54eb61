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
#include "report/json-build.h"
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
static const struct mcp_arg arg_comm = {
	.name = "comm", .type = MCP_ARG_STRING,
	.description = "only processes whose main thread had this name (up to 15 characters)",
	.max_len = KTP_COMM_LEN - 1,
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
/* findings_rules[]' names and min-samples (tests/unit/test-mcp.c checks they match). */
static const char *const rules[] = {
	"loss", "runqueue", "wakeup", "cpu-busy", "imbalance", "irq", "migrations",
	"preempted", "min-samples", NULL
};
static const struct mcp_arg arg_thresholds = {
	.name = "thresholds", .type = MCP_ARG_NUMBERS,
	.description = "rule thresholds: runqueue (ms, 10), wakeup (ms, 5), cpu-busy (%, 95), imbalance "
	"(points, 40), irq (%, 10), migrations (/s, 100), preempted (/s, 200), loss "
	"(records, 0), min-samples (10), e.g. {\"runqueue\": 2}",
	.choices = rules,
};
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
static const struct mcp_arg arg_event_limit = {
	.name = "limit", .type = MCP_ARG_INT,
	.description = "events per page (default 100)", .min = 1, .max = MCP_EVENTS_MAX,
};
static const struct mcp_arg arg_cursor = {
	.name = "cursor", .type = MCP_ARG_STRING,
	.description = "the next_cursor of the previous page", .max_len = 80,
};

#define FILTERS &arg_from, &arg_to, &arg_pid, &arg_comm, &arg_cpus

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
	&arg_trace, &arg_top, &arg_from, &arg_to, &arg_pid, &arg_comm, NULL
};
static const struct mcp_arg *const args_events[] = {
	&arg_trace, &arg_from, &arg_to, &arg_event_cpu, &arg_event_pid, &arg_event_types,
	&arg_event_limit, &arg_cursor, NULL
};
static const struct mcp_arg *const args_compare[] = {
	&arg_a, &arg_b, &arg_limit, FILTERS, &arg_absolute, &arg_per_cpu, NULL
};

/* --- The table --- */

#define NEED(t) (1u << KTP_REC_##t)

const struct mcp_tool mcp_tools[] = {
	{ "load_capture", "Load a capture",
	  "Load a ktprof capture file or raw dump directory for analysis, under a trace id; "
	  "several traces may be loaded at once (up to 8). Analyses the whole capture once; "
	  "answers with its kernel, CPUs, window and event counts.",
	  args_load, 0, 0, 0, NULL, mcp_capture_load, mcp_capture_load_schema },
	{ "unload_capture", "Unload a capture", "Forget a loaded trace and free its memory.",
	  args_unload, 0, 0, 0, NULL, mcp_capture_unload, mcp_capture_unload_schema },
	{ "get_trace_summary", "Trace summary",
	  "Session, kernel, CPUs, window, event counts by type, records lost and the time "
	  "they made unknown per CPU, and which analyzers have the events they need.",
	  args_trace, 0, 0, 0, NULL, mcp_capture_summary, mcp_capture_summary_schema },
	{ "list_analyzers", "List analyzers",
	  "The analysis tools, what each answers and the event types it needs.",
	  args_none, 0, 0, 0, NULL, mcp_tools_list_analyzers, mcp_tools_analyzers_schema },
	{ "run_all_analyzers", "Run every analysis",
	  "Every analysis of ktprof report at once (CPU utilization, runtime, wakeup and "
	  "runqueue latency, task states, migrations, preemption, wakers, interrupts, findings, "
	  "outliers, CPU profile), as `ktprof report --json`; lists cut at limit.",
	  args_analysis, SECTION_ALL, 0, 0, NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "analyze_cpu_utilization", "CPU utilization",
	  "Per CPU: busy and idle time, utilization, hardirq/softirq/work-item time, context "
	  "switches per second, migrations in and out, IPIs, time unknown (lost records, "
	  "offline); and the machine's total.",
	  args_cpus, SECTION_CPU, 1, NEED(SWITCH), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "analyze_process_runtime", "Runtime per thread and process",
	  "Per thread and per process, by runtime: runtime, % of one CPU and of the machine, "
	  "voluntary and involuntary switches, slice lengths.",
	  args_analysis, SECTION_RUNTIME, 1, NEED(SWITCH), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "analyze_wakeup_latency", "Wakeup and runqueue latency",
	  "Wakeup latency (waking to running) and runqueue latency (preempted to running): "
	  "count, min, mean, p50, p90, p99, p99.9, max, overall, per CPU, and per thread and "
	  "process, worst p99 wakeup latency first.",
	  args_analysis, SECTION_LATENCY, 1, NEED(WAKING), "latency.wakeup.p99_ns",
	  mcp_report_analysis, mcp_report_analysis_schema },
	{ "analyze_task_states", "Task states",
	  "Per thread: time running, runnable, sleeping (S), blocked (D), other and unknown.",
	  args_analysis, SECTION_STATES, 1, NEED(SWITCH), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "analyze_migrations", "Migrations",
	  "Migrations by same-LLC, cross-LLC and cross-NUMA (from the recorded topology): in "
	  "total, per CPU pair and per thread.",
	  args_analysis, SECTION_MIGRATIONS, 1, NEED(MIGRATE), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "analyze_preemptions", "Preemptions",
	  "Who preempts whom: (preemptor, preempted) thread pairs by count.",
	  args_analysis, SECTION_PREEMPTION, 1, NEED(SWITCH), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "analyze_irqs", "Interrupts",
	  "Hardirq, softirq and work-item time per CPU and per handler, with the distribution "
	  "of their durations; IPIs per function.",
	  args_irqs, SECTION_IRQ, 1,
	  NEED(IRQ_ENTRY) | NEED(SOFTIRQ_ENTRY) | NEED(WQ_START) | NEED(IPI_SEND), NULL,
	  mcp_report_analysis, mcp_report_analysis_schema },
	{ "analyze_wakers", "Wakers",
	  "Who wakes whom: waker -> wakee edges (threads, idle CPUs, hardirqs, softirqs) by "
	  "count, with the wakee's wakeup latency.",
	  args_analysis, SECTION_WAKERS, 1, NEED(WAKING), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "find_scheduling_bottlenecks", "Scheduling bottlenecks",
	  "Rule-based findings, ranked: losses, CPUs with high p99 runqueue latency, threads "
	  "with high p99 wakeup latency, busy CPUs, load imbalance, IRQ-heavy CPUs, threads "
	  "that migrate or are preempted too often; each names its rule, threshold and value.",
	  args_findings, SECTION_FINDINGS, 1, NEED(SWITCH), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "detect_outliers", "Outliers",
	  "Outlying threads (p99 wakeup latency, runtime, switch rate) and CPUs (utilization) "
	  "by IQR or MAD, with their limit and score.",
	  args_outliers, SECTION_OUTLIERS, 1, NEED(SWITCH), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "get_profile", "CPU profile",
	  "The CPU profile of the samples: top symbols by self and total samples, overall and "
	  "per process.",
	  args_profile, SECTION_PROFILE, 1, NEED(SAMPLE), NULL, mcp_report_analysis,
	  mcp_report_analysis_schema },
	{ "query_events", "Query raw events",
	  "The capture's decoded events in time order (as ktprof dump --json), filtered by "
	  "window, CPU, pid and type, a page at a time: pass next_cursor back for the next.",
	  args_events, 0, 0, 0, NULL, mcp_events_query, mcp_events_schema },
	{ "compare_traces", "Compare two traces",
	  "ktprof diff of two loaded traces: every figure per CPU, process and thread (matched "
	  "by name), distributions tested for a real change (Mann-Whitney U), and a verdict "
	  "ranking the changes that matter most.",
	  args_compare, 0, 0, 0, NULL, mcp_report_compare, mcp_report_compare_schema },
};

const unsigned int mcp_tools_len = sizeof(mcp_tools) / sizeof(mcp_tools[0]);

const struct mcp_tool *mcp_tools_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < mcp_tools_len; i++)
		if (!strcmp(mcp_tools[i].name, name))
			return &mcp_tools[i];
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
	for (i = 0; i < mcp_tools_len; i++) {
		const struct mcp_tool *t = &mcp_tools[i];
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

static const struct render_schema_field analyzer_fields[] = {
	{ "name", SCHEMA_STR, NULL, 0, "the tool", 0 },
	{ "title", SCHEMA_STR, NULL, 0, NULL, 0 },
	{ "description", SCHEMA_STR, NULL, 0, NULL, 0 },
	{ "needs", SCHEMA_STRS, NULL, 0, "the event types it analyses", 0 },
	{ NULL },
};

static const struct render_schema_field analyzers_fields[] = {
	{ "analyzers", SCHEMA_ARR, analyzer_fields, 0, NULL, 0 },
	{ NULL },
};

json_object *mcp_tools_analyzers_schema(const struct mcp_tool *t)
{
	(void)t;
	return render_schema_object(analyzers_fields, 0, 0);
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

	for (i = 0; i < mcp_tools_len; i++) {
		const struct mcp_tool *t = &mcp_tools[i];
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
