// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-report.h"
#include "report/json-build.h"
#include "report/render-diff.h"
#include "report/render-schema.h"
#include "report/render.h"

/*
 * The lists of a report document that grow with the capture (threads,
 * pairs, handlers...), cut at `limit`; each ordered by @order, largest
 * first (NULL: as the report orders it: threads by runtime, pairs and edges
 * by count, findings by rank, profile processes by samples).
 */
static const struct list {
	const char *path, *order;
} report_lists[] = {
	{ "threads", NULL },
	{ "processes", "runtime_ns" },
	{ "migrations.cpu_pairs", NULL },
	{ "preemption.pairs", NULL },
	{ "wakers.edges", NULL },
	{ "irq.handlers", "self_ns" },
	{ "irq.ipis", "sent" },
	{ "findings", NULL },
	{ "outliers.items", NULL },
	{ "profile.processes", NULL },
};

static const struct list diff_lists[] = {
	{ "items", NULL },
};

/* detect_outliers' categories and the report's outlier metrics of each. */
const char *const mcp_report_categories[] = { "all", "latency", "runtime", "switches", "cpu", NULL };
static const char *const category_metrics[] = {
	NULL, "p99 wakeup latency", "runtime", "switch rate", "CPU utilization",
};

/* The value at @path ("wakers.edges") under @o, and its parent; NULL if absent. */
static json_object *at(json_object *o, const char *path, json_object **parent, char *last,
		       size_t last_len)
{
	size_t n;

	while (o && *path) {
		n = strcspn(path, ".");
		if (n >= last_len)
			return NULL;
		memcpy(last, path, n);
		last[n] = '\0';
		if (parent)
			*parent = o;
		if (!json_object_object_get_ex(o, last, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

static double number_at(json_object *o, const char *path)
{
	char last[64];
	json_object *v = at(o, path, NULL, last, sizeof(last));

	return v ? json_object_get_double(v) : 0;
}

struct keyed {
	double key;
	size_t index;
	json_object *o;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* @a ordered by the number at @order in each item, largest first (stable). */
static int sort_array(json_object *a, const char *order)
{
	size_t n = json_object_array_length(a), i;
	struct keyed *v = calloc(n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		v[i].o = json_object_get(json_object_array_get_idx(a, i));
		v[i].key = number_at(v[i].o, order);
		v[i].index = i;
	}
	qsort(v, n, sizeof(*v), by_key);
	/* Each put takes our reference and drops the array's one of the old item. */
	for (i = 0; i < n; i++)
		json_object_array_put_idx(a, i, v[i].o);
	free(v);
	return 0;
}

/* Keep only the outliers of @category in the document's outliers.items. */
static int filter_outliers(json_object *doc, int category)
{
	json_object *outl, *items, *keep;
	char last[64];
	size_t i;

	items = at(doc, "outliers.items", &outl, last, sizeof(last));
	if (!items || !category)
		return 0;
	keep = json_object_new_array();
	if (!keep)
		return -ENOMEM;
	for (i = 0; i < json_object_array_length(items); i++) {
		json_object *it = json_object_array_get_idx(items, i), *m;

		if (json_object_object_get_ex(it, "metric", &m) &&
		    !strcmp(json_object_get_string(m), category_metrics[category]) &&
		    json_object_array_add(keep, json_object_get(it))) {
			json_object_put(keep);
			return -ENOMEM;
		}
	}
	return json_object_object_add(outl, "items", keep) ? -ENOMEM : 0;
}

/*
 * Order and cut the lists of @doc at @limit; the lengths they had go
 * into list_totals. @order: the tool's order of threads and processes.
 */
static int cut_lists(struct mcp_call *c, const struct list *lists, size_t n, size_t limit,
		     const char *order)
{
	struct json_build b = { 0 };
	json_object *totals = json_object_new_object();
	size_t i, len;
	char last[64];

	for (i = 0; i < n; i++) {
		json_object *a = at(c->doc, lists[i].path, NULL, last, sizeof(last));
		const char *by = lists[i].order;

		if (!json_object_is_type(a, json_type_array))
			continue;
		if (order && (!strcmp(lists[i].path, "threads") || !strcmp(lists[i].path, "processes")))
			by = order;
		if (by && sort_array(a, by))
			b.nomem = 1;
		len = json_object_array_length(a);
		json_build_put(&b, totals, lists[i].path, json_object_new_uint64(len));
		if (len > limit && json_object_array_del_idx(a, limit, len - limit))
			b.nomem = 1;
	}
	json_build_put(&b, c->doc, "list_totals", totals);
	return b.nomem ? error_set(&c->err, -ENOMEM, NULL) : 0;
}

struct text_ctx {
	const struct report *r;
	const struct report_view *v;
	const struct diff *d;
};

static int write_report_text(const void *ctx, FILE *out)
{
	const struct text_ctx *t = ctx;

	return render_text(t->r, t->v, out);
}

static int write_diff_text(const void *ctx, FILE *out)
{
	const struct text_ctx *t = ctx;

	return render_diff_text(t->d, t->v, out);
}

/* How many rows each list keeps: `limit`, or get_profile's `top`. */
static int64_t limit_of(const struct mcp_call *c)
{
	return mcp_args_int(c->args, "limit", mcp_args_int(c->args, "top", MCP_LIMIT_DEFAULT));
}

int mcp_report_analysis(struct mcp_call *c)
{
	const char *category = mcp_args_str(c->args, "category");
	struct mcp_trace *tr = mcp_call_trace(c, "trace_id");
	struct report_view v = { .sections = c->tool->sections, .top = limit_of(c) };
	struct report_config cfg;
	const struct report *r;
	uint32_t pid;

	if (!tr || mcp_call_config(c, &cfg, &pid))
		return c->err.code;
	r = mcp_traces_report(tr, &cfg, &c->err);
	if (!r)
		return c->err.code;
	c->doc = render_json_object(r, &v);
	if (!c->doc || mcp_call_put(c, "trace_id", json_object_new_string(tr->id)) ||
	    filter_outliers(c->doc, category ? mcp_args_choice(mcp_report_categories, category) : 0))
		return error_set(&c->err, -ENOMEM, NULL);
	if (cut_lists(c, report_lists, sizeof(report_lists) / sizeof(report_lists[0]), v.top,
		      c->tool->order))
		return c->err.code;
	/* All sections: the report's one-screen summary; else the sections' tables. */
	v.summary = v.sections == SECTION_ALL;
	return mcp_call_text_from(c, write_report_text, &(struct text_ctx){ .r = r, .v = &v });
}

static const struct render_schema_field analysis_fields[] = {
	{ "trace_id", SCHEMA_STR, NULL, 0, "the trace analysed", 0 },
	{ "list_totals", SCHEMA_COUNTS, NULL, 0,
	  "the length of each list before it was cut at limit (by path: \"wakers.edges\")", 0 },
	{ NULL },
};

json_object *mcp_report_analysis_schema(const struct mcp_tool *t)
{
	return mcp_call_schema_extend(render_schema_report(t->sections), analysis_fields);
}

int mcp_report_compare(struct mcp_call *c)
{
	struct report_view v = { .sections = SECTION_ALL, .top = limit_of(c) };
	struct diff_config cfg = { 0 };
	struct mcp_trace *a, *b;
	uint32_t pid;
	struct diff *d;
	int ret;

	a = mcp_call_trace(c, "a");
	b = a ? mcp_call_trace(c, "b") : NULL;
	if (!b || mcp_call_config(c, &cfg.report, &pid) || mcp_traces_check(a, &c->err) ||
	    mcp_traces_check(b, &c->err))
		return c->err.code;
	cfg.report.profile = -1;	/* as ktprof diff: nothing of the profile is compared */
	cfg.absolute = mcp_args_bool(c->args, "absolute", 0);
	cfg.per_cpu = mcp_args_bool(c->args, "per_cpu", 0);
	d = diff_run(a->path, b->path, &cfg, &c->err);
	if (!d)
		return c->err.code;
	c->doc = render_diff_json_object(d, &v);
	if (!c->doc || mcp_call_put(c, "a_trace_id", json_object_new_string(a->id)) ||
	    mcp_call_put(c, "b_trace_id", json_object_new_string(b->id)) ||
	    cut_lists(c, diff_lists, 1, v.top, NULL)) {
		ret = error_set(&c->err, -ENOMEM, NULL);
	} else {
		v.summary = 1;
		ret = mcp_call_text_from(c, write_diff_text, &(struct text_ctx){ .d = d, .v = &v });
	}
	diff_free(d);
	return ret;
}

static const struct render_schema_field compare_fields[] = {
	{ "a_trace_id", SCHEMA_STR, NULL, 0, "trace A (before)", 0 },
	{ "b_trace_id", SCHEMA_STR, NULL, 0, "trace B (after)", 0 },
	{ "list_totals", SCHEMA_COUNTS, NULL, 0,
	  "the length of each list before it was cut at limit", 0 },
	{ NULL },
};

json_object *mcp_report_compare_schema(const struct mcp_tool *t)
{
	(void)t;
	return mcp_call_schema_extend(render_schema_diff(), compare_fields);
}
