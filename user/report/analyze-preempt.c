// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-preempt.h"
#include "report/analyze-runtime.h"
#include "report/render.h"
#include "util/text.h"

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct analyze_preempt *a = ctx;
	struct pair *p;

	(void)cpu, (void)ts;
	if (!involuntary || prev >= SCHED_NONE)
		return;
	p = pairs_get(&a->pairs, next, prev);
	if (!p) {
		a->error = -ENOMEM;
		return;
	}
	p->count++;
	a->total++;
}

static const struct sched_ops preempt_ops = {
	.switch_out = on_switch,
};

static int preempt_init(void *state, struct report *r)
{
	struct analyze_preempt *a = state;

	pairs_init(&a->pairs, 0);
	return model_add_client(r->model, &preempt_ops, a, 0);
}

static void preempt_fini(void *state)
{
	struct analyze_preempt *a = state;

	pairs_fini(&a->pairs);
}

static int preempt_derive(void *state, struct report *r)
{
	struct analyze_preempt *a = state;

	(void)r;
	pairs_sort(&a->pairs);
	return a->error;
}

const struct analyze_preempt *analyze_preempt(const struct report *r)
{
	return report_state(r, &analyzer_preempt);
}

/* --- Output --- */

static const char *who(const struct report *r, uint32_t t, char *buf, size_t len)
{
	if (t == SCHED_IDLE)
		return "swapper";
	snprintf(buf, len, "%s (%u)", text_esc(report_thread_name(r, t)), r->model->sched.threads[t].pid);
	return buf;
}

static void preempt_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_preempt *a = analyze_preempt(r);
	const struct pairs *p = &a->pairs;
	char x[64], y[64];
	uint32_t i, shown = 0;

	render_heading(out, "preemption (involuntary switch-outs: who was switched in instead)");
	fprintf(out, "  %" PRIu64 " preemptions\n  %8s  %-26s %s\n", a->total, "count",
		"preemptor", "preempted");
	for (i = 0; i < p->n && shown < render_rows(v); i++) {
		if (!report_pair_selected(r, p->v[i].a, p->v[i].b))
			continue;
		fprintf(out, "  %8" PRIu64 "  %-26s %s\n", p->v[i].count,
			who(r, p->v[i].a, x, sizeof(x)), who(r, p->v[i].b, y, sizeof(y)));
		shown++;
	}
}

static void preempt_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_preempt *a = analyze_preempt(r);
	const struct pair *p = a->pairs.n ? &a->pairs.v[0] : NULL;
	char x[64], y[64];

	(void)v;
	if (p)
		fprintf(out, "preemptions: %" PRIu64 "; most: %s preempting %s, %" PRIu64 " times\n",
			a->total, who(r, p->a, x, sizeof(x)), who(r, p->b, y, sizeof(y)), p->count);
}

static void preempt_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_preempt *a = analyze_preempt(r);
	const struct pairs *p = &a->pairs;
	char x[64], y[64];
	uint32_t i, shown = 0;

	fprintf(f, "<h2 id=preemption>Preemption</h2>\n<p>%" PRIu64 " preemptions.</p>\n<table>"
		"<tr><th>count</th><th class=l>preemptor</th><th class=l>preempted</th></tr>\n",
		a->total);
	for (i = 0; i < p->n && shown < v->top; i++) {
		if (!report_pair_selected(r, p->v[i].a, p->v[i].b))
			continue;
		fprintf(f, "<tr><td>%" PRIu64 "</td><td class=l>", p->v[i].count);
		html_esc(f, report_thread_label(r, p->v[i].a, x, sizeof(x)));
		fputs("</td><td class=l>", f);
		html_esc(f, report_thread_label(r, p->v[i].b, y, sizeof(y)));
		fputs("</td></tr>\n", f);
		shown++;
	}
	fputs("</table>\n", f);
}

static const struct pair *pair(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_pair(const struct json_field *f, struct json_ctx *c)
{
	if (!strcmp(f->name, "count"))
		return json_doc_u64(pair(c)->count);
	return render_thread_ref_of(c, !strcmp(f->name, "preemptor") ? pair(c)->a : pair(c)->b);
}

static json_object *get_total(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(analyze_preempt(render_report(c))->total);
}

static int next_pair(struct json_ctx *c, size_t *pos)
{
	const struct report *r = render_report(c);
	const struct pairs *p = &analyze_preempt(r)->pairs;

	while (*pos < p->n && !report_pair_selected(r, p->v[*pos].a, p->v[*pos].b))
		(*pos)++;
	if (*pos >= p->n)
		return 0;
	c->item = &p->v[(*pos)++];
	return 1;
}

static const struct json_field pair_fields[] = {
	{ .name = "preemptor", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_pair },
	{ .name = "preempted", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_pair },
	{ .name = "count", .type = JSON_INT, .get = get_pair },
	JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "total", .type = JSON_INT, .get = get_total },
	{ .name = "pairs", .type = JSON_ARR, .sub = pair_fields, .flags = JSON_LIST, .next = next_pair },
	JSON_END
};

static const struct json_field preempt_doc[] = {
	{ .name = "preemption", .type = JSON_OBJ, .sub = section_fields, .flags = 0, .description = "(preemptor, preempted) pairs by count" },
	JSON_END
};

/* --- Findings --- */

/* The thread that preempted @t most. */
static uint32_t top_preemptor(const struct report *r, uint32_t t, uint64_t *count)
{
	const struct pairs *p = &analyze_preempt(r)->pairs;
	uint32_t i;

	/* Sorted by count: the first pair with @t preempted is the top one. */
	for (i = 0; i < p->n; i++) {
		if (p->v[i].b == t) {
			*count = p->v[i].count;
			return p->v[i].a;
		}
	}
	*count = 0;
	return SCHED_NONE;
}

static int judge(struct findings *f, const struct report *r, double th)
{
	const struct analyze_runtime *rt = analyze_runtime(r);
	double secs = r->model->window_ns / 1e9;
	char name[64], by[64];
	uint64_t top_n;
	uint32_t t, top;

	for (t = 0; secs > 0 && t < r->model->sched.nr_threads; t++) {
		uint64_t n = rt->threads[t].involuntary;
		double rate = n / secs;
		struct finding *x;

		if (!r->thread_selected[t] || n < findings_min_samples(&r->cfg.findings) ||
		    rate <= th)
			continue;
		x = findings_add(f, SUBJECT_THREAD, t, rate, th);
		if (!x)
			return -ENOMEM;
		top = top_preemptor(r, t, &top_n);
		snprintf(name, sizeof(name), "%s (pid %u)", report_thread_name(r, t),
			 r->model->sched.threads[t].pid);
		if (top < SCHED_NONE)
			snprintf(by, sizeof(by), "%s (pid %u)", report_thread_name(r, top),
				 r->model->sched.threads[top].pid);
		snprintf(x->text, sizeof(x->text),
			 "thread %s was preempted %" PRIu64 " times (%.1f/s > %g/s), most by %s (%" PRIu64 ")",
			 name, n, rate, th, top == SCHED_NONE ? "?" : top == SCHED_IDLE ? "swapper" : by,
			 top_n);
	}
	return 0;
}

static const struct findings_rule rules[] = {
	{ "preempted", "/s", 200, "a thread is preempted more often than this", judge },
	{ NULL }
};

const struct analyzer analyzer_preempt = {
	.name = "preemption",
	.help = "(preemptor, preempted) pairs",
	.size = sizeof(struct analyze_preempt),
	.init = preempt_init,
	.fini = preempt_fini,
	.derive = preempt_derive,
	.text = preempt_text,
	.summary = preempt_summary,
	.html = preempt_html,
	.doc = preempt_doc,
	.rules = rules,
	.tool = {
		"analyze_preemptions", "Preemptions",
		"Who preempts whom: (preemptor, preempted) thread pairs by count.",
		ARGS_ANALYSIS, 1u << KTP_REC_SWITCH, NULL,
	},
};
