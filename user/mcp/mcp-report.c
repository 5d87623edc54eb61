// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-report.h"
#include "report/json-build.h"
#include "report/render-diff.h"
#include "report/json-doc.h"
#include "report/render.h"

/*
 * The lists of a document that grow with the capture (threads, pairs,
 * handlers...): its JSON_LIST arrays, by dotted path, each with the field
 * its items are ordered by, largest first (NULL: as the document orders
 * them: threads by runtime, pairs and edges by count, findings by rank).
 */
#define MAX_LISTS 32

struct list {
	char path[64];
	const struct json_field *f;
};

static unsigned int find_lists(const struct json_field *fields, const char *prefix,
			       struct list *v, unsigned int n)
{
	const struct json_field *f;
	char path[64];

	for (f = fields; f->name && n < MAX_LISTS; f++) {
		if (f->type == JSON_FIELDS) {
			n = find_lists(f->sub, prefix, v, n);
			continue;
		}
		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", f->name);
		if (f->type == JSON_ARR && (f->flags & JSON_LIST)) {
			snprintf(v[n].path, sizeof(v[n].path), "%s", path);
			v[n++].f = f;
		} else if (f->type == JSON_OBJ && f->sub) {
			n = find_lists(f->sub, path, v, n);
		}
	}
	return n;
}

/*
 * The cut of a tool's document: its lists (above) at `limit`, threads and
 * processes in the tool's order, each list's length before the cut in
 * list_totals.
 */
struct mcp_cut {
	struct json_cut cut;
	struct list lists[MAX_LISTS];
	unsigned int n;
	const char *order;
	const char *metric;	/* outliers.items of this metric only; NULL: all */
	json_object *totals;
	struct json_build b;
};

static const struct list *cut_find(const struct json_cut *cut, const struct json_field *f)
{
	const struct mcp_cut *m = cut->arg;
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->lists[i].f == f)
			return &m->lists[i];
	return NULL;
}

static int cut_list(const struct json_cut *cut, const struct json_field *f, const char **order)
{
	const struct mcp_cut *m = cut->arg;
	const struct list *l = cut_find(cut, f);

	if (!l)
		return 0;
	if (m->order && (!strcmp(l->path, "threads") || !strcmp(l->path, "processes")))
		*order = m->order;
	return 1;
}

static int cut_keep(const struct json_cut *cut, const struct json_field *f, json_object *item)
{
	const struct mcp_cut *m = cut->arg;
	const struct list *l = cut_find(cut, f);
	json_object *v;

	if (!m->metric || !l || strcmp(l->path, "outliers.items"))
		return 1;
	return json_object_object_get_ex(item, "metric", &v) &&
	       !strcmp(json_object_get_string(v), m->metric);
}

static void cut_total(const struct json_cut *cut, const struct json_field *f, size_t len)
{
	struct mcp_cut *m = cut->arg;
	const struct list *l = cut_find(cut, f);

	if (l)
		json_build_put(&m->b, m->totals, l->path, json_object_new_uint64(len));
}

static int mcp_cut_init(struct mcp_cut *m, const struct json_field *fields, size_t limit,
			const char *order)
{
	*m = (struct mcp_cut){
		.cut = { .limit = limit, .list = cut_list, .keep = cut_keep, .total = cut_total,
			 .arg = m },
		.order = order, .totals = json_object_new_object(),
	};
	m->n = find_lists(fields, "", m->lists, 0);
	return m->totals ? 0 : -ENOMEM;
}

/* list_totals into the document made with @m's cut; its own on failure. */
static int mcp_cut_finish(struct mcp_cut *m, struct mcp_call *c)
{
	json_object *totals = m->totals;

	m->totals = NULL;
	if (!c->doc || m->b.nomem) {
		json_object_put(totals);
		return error_set(&c->err, -ENOMEM, NULL);
	}
	return mcp_call_put(c, "list_totals", totals) ? error_set(&c->err, -ENOMEM, NULL) : 0;
}

/* detect_outliers' categories and the report's outlier metrics of each. */
const char *const mcp_report_categories[] = { "all", "latency", "runtime", "switches", "cpu", NULL };
static const char *const category_metrics[] = {
	NULL, "p99 wakeup latency", "runtime", "switch rate", "CPU utilization",
};

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
	struct mcp_cut cut;

	if (!tr || mcp_call_config(c, &cfg))
		return c->err.code;
	r = mcp_traces_report(tr, &cfg, &c->err);
	if (!r)
		return c->err.code;
	if (mcp_cut_init(&cut, render_json_fields(v.sections), v.top, c->tool->order))
		return error_set(&c->err, -ENOMEM, NULL);
	if (category)
		cut.metric = category_metrics[mcp_args_choice(mcp_report_categories, category)];
	c->doc = render_json_object(r, &v, &cut.cut);
	if (mcp_cut_finish(&cut, c))
		return c->err.code;
	if (mcp_call_put(c, "trace_id", json_object_new_string(tr->id)))
		return error_set(&c->err, -ENOMEM, NULL);
	/* All sections: the report's one-screen summary; else the sections' tables. */
	v.summary = v.sections == analyzer_sections_all();
	return mcp_call_text_from(c, write_report_text, &(struct text_ctx){ .r = r, .v = &v });
}

static const struct json_field analysis_fields[] = {
	{ .name = "trace_id", .type = JSON_STR, .description = "the trace analysed" },
	{ .name = "list_totals", .type = JSON_COUNTS, .description = "the length of each list before it was cut at limit (by path: \"wakers.edges\")" },
	{ NULL },
};

json_object *mcp_report_analysis_schema(const struct mcp_tool *t)
{
	return mcp_call_schema_extend(render_json_schema(t->sections), analysis_fields);
}

int mcp_report_compare(struct mcp_call *c)
{
	struct report_view v = { .sections = analyzer_sections_all(), .top = limit_of(c) };
	struct diff_config cfg = { 0 };
	struct mcp_trace *a, *b;
	struct mcp_cut cut;
	struct diff *d;
	int ret;

	a = mcp_call_trace(c, "a");
	b = a ? mcp_call_trace(c, "b") : NULL;
	if (!b || mcp_call_config(c, &cfg.report) || mcp_traces_check(a, &c->err) ||
	    mcp_traces_check(b, &c->err))
		return c->err.code;
	cfg.report.profile = -1;	/* as ktprof diff: nothing of the profile is compared */
	cfg.absolute = mcp_args_bool(c->args, "absolute", 0);
	cfg.per_cpu = mcp_args_bool(c->args, "per_cpu", 0);
	d = diff_run(a->path, b->path, &cfg, &c->err);
	if (!d)
		return c->err.code;
	if (mcp_cut_init(&cut, render_diff_json_fields(), v.top, NULL)) {
		diff_free(d);
		return error_set(&c->err, -ENOMEM, NULL);
	}
	c->doc = render_diff_json_object(d, &v, &cut.cut);
	if (mcp_cut_finish(&cut, c)) {
		ret = c->err.code;
	} else if (mcp_call_put(c, "a_trace_id", json_object_new_string(a->id)) ||
		   mcp_call_put(c, "b_trace_id", json_object_new_string(b->id))) {
		ret = error_set(&c->err, -ENOMEM, NULL);
	} else {
		v.summary = 1;
		ret = mcp_call_text_from(c, write_diff_text, &(struct text_ctx){ .d = d, .v = &v });
	}
	diff_free(d);
	return ret;
}

static const struct json_field compare_fields[] = {
	{ .name = "a_trace_id", .type = JSON_STR, .description = "trace A (before)" },
	{ .name = "b_trace_id", .type = JSON_STR, .description = "trace B (after)" },
	{ .name = "list_totals", .type = JSON_COUNTS, .description = "the length of each list before it was cut at limit" },
	{ NULL },
};

json_object *mcp_report_compare_schema(const struct mcp_tool *t)
{
	(void)t;
	return mcp_call_schema_extend(render_diff_json_schema(), compare_fields);
}
