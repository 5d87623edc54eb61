// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-capture.h"
#include "report/json-build.h"
#include "report/json-doc.h"
#include "report/render.h"

static json_object *ids_array(const struct mcp_traces *t)
{
	struct json_build b = { 0 };
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < t->n; i++)
		json_build_push(&b, a, json_object_new_string(t->v[i]->id));
	if (b.nomem) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

int mcp_capture_load(struct mcp_call *c)
{
	const char *path = mcp_args_str(c->args, "path"), *id = mcp_args_str(c->args, "trace_id");
	struct report_view v = { .sections = 0, .top = MCP_LIMIT_DEFAULT };
	char window[32], ids[MCP_TRACES_MAX * (MCP_TRACE_ID_MAX + 2) + 1];
	struct mcp_trace *tr;
	const struct report *r;

	if (id && !*id)
		return error_set(&c->err, -EINVAL, "trace_id: give a name, or leave it out");
	if (mcp_traces_load(c->traces, path, id, &tr, &c->err))
		return c->err.code;
	r = tr->base;
	c->doc = render_json_object(r, &v, NULL);
	if (!c->doc || mcp_call_put(c, "trace_id", json_object_new_string(tr->id)) ||
	    mcp_call_put(c, "loaded", ids_array(c->traces)))
		return error_set(&c->err, -ENOMEM, NULL);
	return mcp_call_text(c,
			     "Loaded %s as trace '%s': %" PRIu64 " events on %u CPUs over %s, %" PRIu64
			     " records lost%s%s%s.\nLoaded traces: %s. Next: run_all_analyzers, get_trace_summary or an analyze_* tool with trace_id '%s'.",
			     path, tr->id, r->model->events, r->nr_cpus,
			     render_ns(r->model->window_ns, window, sizeof(window)), r->model->lost,
			     r->model->truncated || r->model->damaged ? "; " : "",
			     r->model->damaged ? "damaged: " : r->model->truncated ? "cut short: " : "",
			     r->model->truncated || r->model->damaged ? r->model->problem : "",
			     mcp_traces_ids(c->traces, ids, sizeof(ids)), tr->id);
}

static const struct json_field load_fields[] = {
	{ .name = "trace_id", .type = JSON_STR, .description = "the id that names the trace in other tools" },
	{ .name = "loaded", .type = JSON_STRS, .description = "the ids of every trace loaded" },
	{ NULL },
};

json_object *mcp_capture_load_schema(const struct mcp_tool *t)
{
	(void)t;
	return mcp_call_schema_extend(render_json_schema(0), load_fields);
}

int mcp_capture_unload(struct mcp_call *c)
{
	const char *id = mcp_args_str(c->args, "trace_id");
	char ids[MCP_TRACES_MAX * (MCP_TRACE_ID_MAX + 2) + 1];

	if (!mcp_call_trace(c, "trace_id"))
		return c->err.code;
	mcp_traces_unload(c->traces, id);
	c->doc = json_object_new_object();
	if (!c->doc || mcp_call_put(c, "trace_id", json_object_new_string(id)) ||
	    mcp_call_put(c, "loaded", ids_array(c->traces)))
		return error_set(&c->err, -ENOMEM, NULL);
	return mcp_call_text(c, "Unloaded '%s'. Loaded traces: %s.", id,
			     c->traces->n ? mcp_traces_ids(c->traces, ids, sizeof(ids)) : "none");
}

static const struct json_field unload_fields[] = {
	{ .name = "trace_id", .type = JSON_STR, .description = "the trace unloaded" },
	{ .name = "loaded", .type = JSON_STRS, .description = "the ids of the traces still loaded" },
	{ NULL },
};

json_object *mcp_capture_unload_schema(const struct mcp_tool *t)
{
	(void)t;
	return json_doc_schema(unload_fields, 0);
}

/* The events of the types an analyzer needs. */
static uint64_t needed_events(const struct report *r, const struct mcp_tool *t)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < KTP_REC_NR_TYPES; i++)
		if (t->needs & (1u << i))
			n += r->by_type[i];
	return n;
}

/* Whether the analyzer finds anything in @r. */
static int applies(const struct report *r, const struct mcp_tool *t)
{
	return t->applies ? t->applies(r) : needed_events(r, t) > 0;
}

static json_object *analyzer(struct json_build *b, const struct report *r,
			     const struct mcp_tool *t)
{
	json_object *o = json_object_new_object(), *needs = json_object_new_array();
	uint64_t n = needed_events(r, t);
	unsigned int i;

	json_build_put(b, o, "name", json_object_new_string(t->name));
	json_build_put(b, o, "applies", json_object_new_boolean(applies(r, t)));
	json_build_put(b, o, "events", json_object_new_uint64(n));
	for (i = 0; i < KTP_REC_NR_TYPES; i++)
		if (t->needs & (1u << i))
			json_build_push(b, needs, json_object_new_string(event_type_name(i)));
	json_build_put(b, o, "needs", needs);
	return o;
}

/* The analyzers that have (@with) or lack data, after @title. */
static void analyzers_line(FILE *out, const struct report *r, const char *title, int with)
{
	const char *sep = " ";
	unsigned int i;

	fprintf(out, "\n%s:", title);
	for (i = 0; i < mcp_tools_count(); i++) {
		if (mcp_tools_at(i)->analyzer && !applies(r, mcp_tools_at(i)) == !with) {
			fprintf(out, "%s%s", sep, mcp_tools_at(i)->name);
			sep = ", ";
		}
	}
	if (*sep == ' ')
		fprintf(out, " none");
}

/* The events by type and which analyzers have data, after the report's text. */
static int write_summary_text(const void *ctx, FILE *out)
{
	const struct report *r = ctx;
	struct report_view v = { .sections = analyzer_section("cpu"), .top = MCP_LIMIT_DEFAULT };
	const char *sep = " ";
	unsigned int i;
	int ret = render_text(r, &v, out);

	fprintf(out, "\nevents by type:");
	for (i = 0; i < REPORT_EVENT_TYPES; i++) {
		const char *name = event_type_name(report_event_type(i));

		if (r->by_type[i] && name) {
			fprintf(out, "%s%s %" PRIu64, sep, name, r->by_type[i]);
			sep = ", ";
		}
	}
	analyzers_line(out, r, "analyzers with data", 1);
	analyzers_line(out, r, "analyzers without (the capture lacks their events)", 0);
	fputc('\n', out);
	return ret ? ret : ferror(out) ? -EIO : 0;
}

int mcp_capture_summary(struct mcp_call *c)
{
	struct report_view v = { .sections = analyzer_section("cpu"), .top = MCP_LIMIT_DEFAULT };
	struct mcp_trace *tr = mcp_call_trace(c, "trace_id");
	struct json_build b = { 0 };
	json_object *a;
	unsigned int i;

	if (!tr || mcp_traces_check(tr, &c->err))
		return c->err.code;
	c->doc = render_json_object(tr->base, &v, NULL);
	a = json_object_new_array();
	for (i = 0; i < mcp_tools_count(); i++)
		if (mcp_tools_at(i)->analyzer)
			json_build_push(&b, a, analyzer(&b, tr->base, mcp_tools_at(i)));
	if (!c->doc || b.nomem || mcp_call_put(c, "analyzers", a) ||
	    mcp_call_put(c, "trace_id", json_object_new_string(tr->id))) {
		if (!c->doc || b.nomem)
			json_object_put(a);
		return error_set(&c->err, -ENOMEM, NULL);
	}
	return mcp_call_text_from(c, write_summary_text, tr->base);
}

static const struct json_field analyzer_fields[] = {
	{ .name = "name", .type = JSON_STR, .description = "the tool" },
	{ .name = "applies", .type = JSON_BOOL, .description = "whether the capture has the events it needs" },
	{ .name = "events", .type = JSON_INT, .description = "how many of those events the capture has" },
	{ .name = "needs", .type = JSON_STRS, .description = "the event types it analyses" },
	{ NULL },
};

static const struct json_field summary_fields[] = {
	{ .name = "trace_id", .type = JSON_STR, .description = "the trace" },
	{ .name = "analyzers", .type = JSON_ARR, .sub = analyzer_fields, .description = "which analyzers have data to work on" },
	{ NULL },
};

json_object *mcp_capture_summary_schema(const struct mcp_tool *t)
{
	(void)t;
	return mcp_call_schema_extend(render_json_schema(analyzer_section("cpu")), summary_fields);
}
