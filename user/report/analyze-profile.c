// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU profile of the samples in the window (profile.c keeps them):
 * top symbols by self and total samples, overall and per process, and a
 * flame graph.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-profile.h"
#include "report/render.h"
#include "util/hash.h"
#include "util/text.h"

#define FLAME_MAX_DEPTH 80

struct analyze_profile {
	struct profile *p;	/* NULL: no profile */
	const struct report *r;
};

static int sample_selected(const void *m, uint32_t tgid, uint32_t tid)
{
	return model_sample_selected(m, tgid, tid);
}

static int take_sample(void *ctx, const struct event *ev)
{
	struct analyze_profile *a = ctx;

	if (ev->type != KTP_REC_SAMPLE || !model_in_window(a->r->model, ev->ts))
		return 0;
	return profile_on_event(a->p, ev);
}

static const struct sched_ops profile_ops = {
	.event = take_sample,
	.event_types = SCHED_TYPE(KTP_REC_SAMPLE),
};

static int want(const struct report *r)
{
	if (r->cfg.profile)
		return r->cfg.profile > 0;
	return model_sampled(r->model);
}

static int profile_init(void *state, struct report *r)
{
	struct analyze_profile *a = state;
	struct model *m = r->model;

	if (!want(r))
		return 0;
	a->r = r;
	a->p = profile_new(m->sym, &m->tasks, r->cfg.source);
	if (!a->p)
		return -ENOMEM;
	profile_select(a->p, sample_selected, m);
	return model_add_client(m, &profile_ops, a, 0);
}

static void profile_fini(void *state)
{
	struct analyze_profile *a = state;

	profile_free(a->p);
}

const struct profile *analyze_profile(const struct report *r)
{
	const struct analyze_profile *a = report_state(r, &analyzer_profile);

	return a ? a->p : NULL;
}

/* --- Text --- */

static void table_text(FILE *out, const struct profile *p, int64_t tgid, uint64_t samples,
		       unsigned int top)
{
	struct profile_row *rows;
	unsigned int n = profile_rows(p, tgid, &rows), i;

	fprintf(out, "  %8s %6s %8s %6s  %s\n", "self", "self%", "total", "total%", "symbol");
	for (i = 0; i < n && i < top; i++)
		fprintf(out, "  %8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%%  %s\n", rows[i].self,
			render_pct(rows[i].self, samples), rows[i].total,
			render_pct(rows[i].total, samples), text_esc(rows[i].symbol));
	free(rows);
}

static void profile_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct profile *p = analyze_profile(r);
	uint64_t total, *samples;
	unsigned int n, i;
	uint32_t *pids;
	char comm[32];

	if (!p)
		return;
	total = profile_samples(p);
	n = profile_processes(p, &pids, &samples);
	fprintf(out, "%sCPU profile: %" PRIu64 " samples",
		v->sections == analyzer_section("profile") ? "" : "\n", total);
	if (r->model->have_meta && r->model->meta.samples[0])
		fprintf(out, " of %s", text_esc(r->model->meta.samples));
	fprintf(out, ", %u processes\n\n", n);
	fprintf(out, "all processes, top %u symbols:\n", render_rows(v));
	table_text(out, p, -1, total, render_rows(v));
	for (i = 0; !v->summary && i < n; i++) {
		fprintf(out, "\nprocess %u %s: %" PRIu64 " samples (%.1f%%)\n", pids[i],
			text_esc(task_table_comm(&r->model->tasks, pids[i], comm, sizeof(comm))),
			samples[i], render_pct(samples[i], total));
		table_text(out, p, pids[i], samples[i], v->top);
	}
	free(pids);
	free(samples);
}

static void profile_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct profile *p = analyze_profile(r);

	(void)v;
	if (!p)
		return;
	fprintf(out, "\nCPU profile: %" PRIu64 " samples; top symbols:\n", profile_samples(p));
	table_text(out, p, -1, profile_samples(p), SUMMARY_ROWS);
}

/* --- HTML --- */

static const char *samples_text(uint64_t n, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 " samples", n);
	return buf;
}

static void flame_graph(FILE *f, const struct report *r)
{
	const struct flame_style style = {
		.process = report_flame_process, .ctx = (void *)r, .weight = samples_text,
		.id = "flame-graph", .label = "flame graph of the CPU samples",
		.axis = "width: share of samples; bottom row: processes; up: callees (hover for names)",
		.caption = "Flame graph: each box is a function in the stacks of the samples, "
			   "as wide as the samples it appears in.",
	};
	struct flame t;

	flame_init(&t, FLAME_MAX_DEPTH);
	if (!profile_tree(analyze_profile(r), &t))
		flame_html(f, &t, &style);
	flame_fini(&t);
}

static void profile_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct profile *p = analyze_profile(r);
	struct profile_row *rows;
	unsigned int n, i;
	uint64_t total;

	if (!p)
		return;
	total = profile_samples(p);
	fprintf(f, "<h2 id=profile>CPU profile</h2>\n<p>%" PRIu64 " samples", total);
	if (r->model->have_meta && r->model->meta.samples[0]) {
		fputs(" of ", f);
		html_esc(f, r->model->meta.samples);
	}
	fputs(".</p>\n", f);
	if (!total)
		return;
	flame_graph(f, r);
	n = profile_rows(p, -1, &rows);
	fputs("<table><tr><th>self</th><th>self %</th><th>total</th><th>total %</th>"
	      "<th class=l>symbol</th></tr>\n", f);
	for (i = 0; i < n && i < v->top; i++) {
		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.1f%%</td><td>%" PRIu64 "</td><td>%.1f%%"
			"</td><td class=l>", rows[i].self, render_pct(rows[i].self, total),
			rows[i].total, render_pct(rows[i].total, total));
		html_esc(f, rows[i].symbol);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	free(rows);
}

/* --- JSON --- */

static const struct report_view *view(const struct json_ctx *c)
{
	return c->view;
}

/* The top symbols of process c->id (the whole profile when c->aux is NULL). */
static json_object *get_symbols(const struct json_field *f, struct json_ctx *c)
{
	const struct profile *p = analyze_profile(render_report(c));
	json_object *a = json_object_new_array();
	struct profile_row *rows;
	unsigned int n = profile_rows(p, c->aux ? (int64_t)c->id : -1, &rows), i;

	(void)f;
	for (i = 0; i < n && i < view(c)->top; i++) {
		json_object *o = json_object_new_object();

		json_build_put(c->b, o, "symbol", json_doc_str(rows[i].symbol));
		json_build_put(c->b, o, "self", json_doc_u64(rows[i].self));
		json_build_put(c->b, o, "total", json_doc_u64(rows[i].total));
		json_build_push(c->b, a, o);
	}
	free(rows);
	return a;
}

static json_object *get_processes(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);
	json_object *a = json_object_new_array();
	struct json_ctx e = *c;
	uint64_t *samples;
	uint32_t *pids;
	unsigned int n = profile_processes(analyze_profile(r), &pids, &samples), i;
	char comm[32];

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		e.id = pids[i];
		e.aux = pids;
		json_build_put(c->b, o, "tgid", json_doc_u64(pids[i]));
		json_build_put(c->b, o, "comm",
			       json_doc_str(task_table_comm(&r->model->tasks, pids[i], comm,
							    sizeof(comm))));
		json_build_put(c->b, o, "samples", json_doc_u64(samples[i]));
		json_build_put(c->b, o, "symbols", get_symbols(f, &e));
		json_build_push(c->b, a, o);
	}
	free(pids);
	free(samples);
	return a;
}

static json_object *get_profile(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);
	const struct profile *p = analyze_profile(r);
	struct json_ctx e = *c;

	if (!p)
		return NULL;
	e.aux = NULL;
	return json_doc_object(f->sub, &e);
}

static json_object *get_head(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);

	if (!strcmp(f->name, "samples"))
		return json_doc_u64(profile_samples(analyze_profile(r)));
	return json_doc_str(r->model->have_meta ? r->model->meta.samples : "");
}

static const struct json_field symbol_fields[] = {
	{ .name = "symbol", .type = JSON_STR }, { .name = "self", .type = JSON_INT }, { .name = "total", .type = JSON_INT }, JSON_END
};

static const struct json_field process_fields[] = {
	{ .name = "tgid", .type = JSON_INT }, { .name = "comm", .type = JSON_STR }, { .name = "samples", .type = JSON_INT },
	{ .name = "symbols", .type = JSON_ARR, .sub = symbol_fields }, JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "samples", .type = JSON_INT, .get = get_head }, { .name = "sources", .type = JSON_STR, .get = get_head },
	{ .name = "symbols", .type = JSON_ARR, .sub = symbol_fields, .get = get_symbols },
	{ .name = "processes", .type = JSON_ARR, .sub = process_fields, .flags = JSON_LIST, .get = get_processes },
	JSON_END
};

static const struct json_field profile_doc[] = {
	{ .name = "profile", .type = JSON_OBJ, .sub = section_fields, .flags = JSON_OPTIONAL, .description = "CPU profile: top symbols by samples (only when the capture has samples)", .get = get_profile },
	JSON_END
};

const struct analyzer analyzer_profile = {
	.name = "profile",
	.help = "CPU profile: top symbols by self and total samples,\noverall and per process",
	.size = sizeof(struct analyze_profile),
	.init = profile_init,
	.fini = profile_fini,
	.text = profile_text,
	.summary = profile_summary,
	.html = profile_html,
	.nav = "profile",
	.doc = profile_doc,
	.tool = {
		"get_profile", "CPU profile",
		"The CPU profile of the samples: top symbols by self and total samples, overall and "
		"per process.",
		ARGS_PROFILE, 1u << KTP_REC_SAMPLE, NULL,
	},
};
