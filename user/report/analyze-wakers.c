// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-wakers.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/text.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_wakers *a = ctx;

	if (array_reserve((void **)&a->last_edge, &a->cap, t, sizeof(*a->last_edge), 1024))
		return -ENOMEM;
	a->n = t + 1;
	return 0;
}

static int on_waking(void *ctx, uint32_t cpu, uint64_t ts, uint32_t t,
		     const struct sched_waker *waker, int running, int new)
{
	struct analyze_wakers *a = ctx;
	struct pair *p;

	(void)cpu, (void)ts, (void)new;
	if (running) {
		a->running++;
		return 0;
	}
	p = pairs_get(&a->edges, analyze_wakers_id(waker), t);
	if (!p)
		return -ENOMEM;
	p->count++;
	a->wakings++;
	a->last_edge[t] = p - a->edges.v + 1;
	return 0;
}

static int on_latency(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		      uint64_t start, uint64_t end, const struct sched_waker *waker)
{
	struct analyze_wakers *a = ctx;
	uint32_t id = analyze_wakers_id(waker), e = a->last_edge[t];
	struct pair *p;

	(void)cpu;
	if (kind != SCHED_WAKEUP)
		return 0;
	/* Usually the edge of the thread's last waking: no lookup. */
	p = e && a->edges.v[e - 1].a == id && a->edges.v[e - 1].b == t ?
		&a->edges.v[e - 1] : pairs_get(&a->edges, id, t);
	if (!p)
		return -ENOMEM;
	pair_note(p, end - start);
	return 0;
}

static const struct sched_ops wakers_ops = {
	.thread_new = on_thread_new,
	.waking = on_waking,
	.latency = on_latency,
};

static int wakers_init(void *state, struct report *r)
{
	struct analyze_wakers *a = state;

	pairs_init(&a->edges, 0);
	return model_add_client(r->model, &wakers_ops, a, 0);
}

static void wakers_fini(void *state)
{
	struct analyze_wakers *a = state;

	pairs_fini(&a->edges);
	free(a->last_edge);
}

static int wakers_derive(void *state, struct report *r)
{
	struct analyze_wakers *a = state;

	(void)r;
	pairs_sort(&a->edges);
	return 0;
}

const struct analyze_wakers *analyze_wakers(const struct report *r)
{
	return report_state(r, &analyzer_wakers);
}

const char *analyze_wakers_name(const struct report *r, uint32_t waker_id, char *buf, size_t len)
{
	struct sched_waker w = analyze_wakers_waker(waker_id);
	const char *name;

	switch (w.kind) {
	case SCHED_WAKER_THREAD:
		snprintf(buf, len, "%s (%u)", report_thread_name(r, w.id),
			 w.id < r->model->sched.nr_threads ? r->model->sched.threads[w.id].pid : 0);
		break;
	case SCHED_WAKER_IDLE:
		snprintf(buf, len, "swapper/%u", w.id);
		break;
	case SCHED_WAKER_HARDIRQ:
		model_irq_label(r->model, w.id, buf, len);
		break;
	case SCHED_WAKER_SOFTIRQ:
		name = model_softirq_name(w.id);
		snprintf(buf, len, "softirq %s", name ? name : "?");
		break;
	default:
		snprintf(buf, len, "(unknown)");
		break;
	}
	return buf;
}

/* --- Text --- */

static const char *who(const struct report *r, uint32_t t, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%u)", text_esc(report_thread_name(r, t)), r->model->sched.threads[t].pid);
	return buf;
}

static int edge_shown(const struct report *r, const struct pair *e)
{
	return report_thread_selected(r, e->b);
}

static void wakers_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_wakers *a = analyze_wakers(r);
	const struct pairs *p = &a->edges;
	char x[64], y[64], c[2][16];
	uint32_t i, shown = 0;

	render_heading(out, "wakers (who wakes whom; the wakee's wakeup latency)");
	fprintf(out, "  %" PRIu64 " wakings of sleeping threads, %" PRIu64 " of running ones\n",
		a->wakings, a->running);
	fprintf(out, "  %8s  %-24s %-22s %8s %8s\n", "count", "waker", "wakee", "mean",
		"max");
	for (i = 0; i < p->n && shown < render_rows(v); i++) {
		const struct pair *e = &p->v[i];

		if (!edge_shown(r, e))
			continue;
		fprintf(out, "  %8" PRIu64 "  %-24.24s %-22.22s %8s %8s\n", e->count,
			text_esc(analyze_wakers_name(r, e->a, x, sizeof(x))), who(r, e->b, y, sizeof(y)),
			e->n ? render_ns(e->sum / e->n, c[0], 16) : "-",
			e->n ? render_ns(e->max, c[1], 16) : "-");
		shown++;
	}
}

static void wakers_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_wakers *a = analyze_wakers(r);
	const struct pair *e = a->edges.n ? &a->edges.v[0] : NULL;
	char x[64], y[64];

	(void)v;
	if (e)
		fprintf(out, "wakings: %" PRIu64 "; most: %s waking %s, %" PRIu64 " times\n",
			a->wakings, text_esc(analyze_wakers_name(r, e->a, x, sizeof(x))),
			who(r, e->b, y, sizeof(y)), e->count);
}

/* --- HTML --- */

static void wakers_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct pairs *p = &analyze_wakers(r)->edges;
	uint32_t i, rows = 0, idx[256];
	struct svg_axis x = { 0, 1, 0, svg_fmt_count };
	double top = 30, row = 20;
	char a[96], b[64], label[200], lat[16];

	fputs("<h2 id=wakers>Wakers</h2>\n", f);
	for (i = 0; i < p->n && rows < v->top && rows < 256; i++) {
		if (!edge_shown(r, &p->v[i]))
			continue;
		idx[rows++] = i;
		if (p->v[i].count > x.max)
			x.max = p->v[i].count;
	}
	if (!rows) {
		fputs("<p>No wakings.</p>\n", f);
		return;
	}
	svg_nice(&x);
	html_figure_open(f, "wakers", HTML_W, (int)(top + rows * row + 50),
			 "top waker to wakee edges");
	for (i = 0; i < rows; i++) {
		const struct pair *e = &p->v[idx[i]];
		double y = top + i * row;

		snprintf(label, sizeof(label), "%s -> %s", analyze_wakers_name(r, e->a, a, sizeof(a)),
			 report_thread_label(r, e->b, b, sizeof(b)));
		svg_text(f, 335, y + 13, "end", "tick", label);
		fprintf(f, "<rect x=\"340\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			y, svg_pos(&x, e->count, 340, HTML_W - HTML_RIGHT - 90) - 340, row - 4,
			svg_color(0));
		snprintf(label, sizeof(label), "%" PRIu64 " (mean %s)", e->count,
			 e->n ? render_ns(e->sum / e->n, lat, sizeof(lat)) : "-");
		svg_text(f, svg_pos(&x, e->count, 340, HTML_W - HTML_RIGHT - 90) + 4, y + 13, "start",
			 "tick", label);
	}
	svg_x_axis(f, &x, 340, HTML_W - HTML_RIGHT - 90, top + rows * row, top + rows * row,
		   "wakings");
	html_figure_close(f, "Who wakes whom most: wakings per edge, with the wakee's mean wakeup latency.");
}

/* --- JSON --- */

static const struct json_field waker_fields[] = {
	{ .name = "pid", .type = JSON_INT, .flags = JSON_OPTIONAL }, { .name = "tgid", .type = JSON_INT, .flags = JSON_OPTIONAL },
	{ .name = "comm", .type = JSON_STR, .flags = JSON_OPTIONAL }, { .name = "kind", .type = JSON_STR },
	{ .name = "cpu", .type = JSON_INT, .flags = JSON_OPTIONAL }, { .name = "irq", .type = JSON_INT, .flags = JSON_OPTIONAL },
	{ .name = "vector", .type = JSON_INT, .flags = JSON_OPTIONAL }, { .name = "name", .type = JSON_STR },
	JSON_END
};

static const struct pair *edge(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_waker(const struct json_field *f, struct json_ctx *c)
{
	static const char *const kinds[] = { "thread", "idle", "hardirq", "softirq", "unknown" };
	struct sched_waker w = analyze_wakers_waker(edge(c)->a);
	json_object *o;
	char name[96];

	(void)f;
	if (w.kind == SCHED_WAKER_THREAD)
		o = render_thread_ref_of(c, w.id);
	else
		o = json_object_new_object();
	json_build_put(c->b, o, "kind", json_doc_str(kinds[w.kind < 5 ? w.kind : 4]));
	if (w.kind != SCHED_WAKER_THREAD && w.kind != SCHED_WAKER_UNKNOWN)
		json_build_put(c->b, o, w.kind == SCHED_WAKER_IDLE ? "cpu" :
			       w.kind == SCHED_WAKER_HARDIRQ ? "irq" : "vector", json_doc_u64(w.id));
	json_build_put(c->b, o, "name", json_doc_str(analyze_wakers_name(render_report(c),
									 edge(c)->a, name,
									 sizeof(name))));
	return o;
}

static json_object *get_wakee(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return render_thread_ref_of(c, edge(c)->b);
}

static json_object *get_edge(const struct json_field *f, struct json_ctx *c)
{
	const struct pair *e = edge(c);

	if (!strcmp(f->name, "mean_ns"))
		return json_doc_num(c, e->n ? (double)e->sum / e->n : 0, 1);
	return json_doc_u64(!strcmp(f->name, "max_ns") ? e->max : f->off ? e->n : e->count);
}

static const struct json_field edge_latency[] = {
	{ .name = "count", .type = JSON_INT, .off = 1, .get = get_edge },
	{ .name = "mean_ns", .type = JSON_NUM, .get = get_edge }, { .name = "max_ns", .type = JSON_INT, .get = get_edge },
	JSON_END
};

static const struct json_field edge_fields[] = {
	{ .name = "waker", .type = JSON_OBJ, .sub = waker_fields, .get = get_waker },
	{ .name = "wakee", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_wakee },
	{ .name = "count", .type = JSON_INT, .get = get_edge },
	{ .name = "latency", .type = JSON_OBJ, .sub = edge_latency },
	JSON_END
};

static json_object *get_count(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_wakers *a = analyze_wakers(render_report(c));

	return json_doc_u64(f->off ? a->running : a->wakings);
}

static int next_edge(struct json_ctx *c, size_t *pos)
{
	const struct report *r = render_report(c);
	const struct pairs *p = &analyze_wakers(r)->edges;

	while (*pos < p->n && !edge_shown(r, &p->v[*pos]))
		(*pos)++;
	if (*pos >= p->n)
		return 0;
	c->item = &p->v[(*pos)++];
	return 1;
}

static const struct json_field section_fields[] = {
	{ .name = "wakings", .type = JSON_INT, .get = get_count },
	{ .name = "wakings_of_running", .type = JSON_INT, .off = 1, .get = get_count },
	{ .name = "edges", .type = JSON_ARR, .sub = edge_fields, .flags = JSON_LIST, .next = next_edge },
	JSON_END
};

static const struct json_field wakers_doc[] = {
	{ .name = "wakers", .type = JSON_OBJ, .sub = section_fields, .flags = 0, .description = "waker -> wakee edges by count" },
	JSON_END
};

/* --- diff --- */

static double machine_wakings(const struct report *r, uint32_t id)
{
	(void)id;
	return analyze_wakers(r)->wakings;
}

static const struct diff_metric metrics[] = {
	{ .name = "wakings", .entity = DIFF_MACHINE, .kind = METRIC_COUNT, .value = machine_wakings },
	{ NULL }
};

const struct analyzer analyzer_wakers = {
	.name = "wakers",
	.help = "waker -> wakee edges with the wakee's latency",
	.size = sizeof(struct analyze_wakers),
	.init = wakers_init,
	.fini = wakers_fini,
	.derive = wakers_derive,
	.text = wakers_text,
	.summary = wakers_summary,
	.html = wakers_html,
	.nav = "wakers",
	.doc = wakers_doc,
	.metrics = metrics,
	.tool = {
		"analyze_wakers", "Wakers",
		"Who wakes whom: waker -> wakee edges (threads, idle CPUs, hardirqs, softirqs) by "
		"count, with the wakee's wakeup latency.",
		ARGS_ANALYSIS, 1u << KTP_REC_WAKING, NULL,
	},
};
