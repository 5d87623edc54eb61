// SPDX-License-Identifier: GPL-2.0
/*
 * The renderers of a diff: text (the verdict, then each entity's figures,
 * A beside B), JSON (schema "ktprof-diff", docs/diff.md) and HTML (the
 * report's page style, A and B overlaid on the same axes).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "report/json-build.h"
#include "report/render-diff.h"
#include "report/svg.h"
#include "util/text.h"

#define W 900
#define LEFT 70
#define RIGHT 20
#define COLOR_A "#4e79a7"
#define COLOR_B "#e15759"

static const char *const entity_names[] = { "machine", "cpu", "process", "thread", "handler" };

static const char *value_str(const struct diff_item *it, double v, char *buf, size_t len)
{
	if (it->kind == DIFF_DIST)
		return render_ns((uint64_t)(v > 0 ? v : 0), buf, len);
	if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(buf, len, "%.1f%%", v);
	else
		snprintf(buf, len, v >= 100 ? "%.0f%s" : "%.2f%s", v, it->unit);
	return buf;
}

static const char *change_str(const struct diff_item *it, char *buf, size_t len)
{
	if (!it->in_a || !it->in_b)
		snprintf(buf, len, it->in_b ? "new" : "gone");
	else if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(buf, len, "%+.1f pt", it->delta);
	else if (isnan(it->rel))
		snprintf(buf, len, it->delta ? "from 0" : "=");
	else
		snprintf(buf, len, "%+.1f%%", 100 * it->rel);
	return buf;
}

/* Whether a view shows items of this metric. */
static int shown(const struct report_view *v, const struct diff_item *it)
{
	if (v->summary)
		return 1;
	if (it->entity == DIFF_CPU)
		return v->sections & (SECTION_CPU | SECTION_LATENCY);
	if (it->entity == DIFF_HANDLER)
		return v->sections & SECTION_IRQ;
	if (it->kind == DIFF_DIST)
		return v->sections & SECTION_LATENCY;
	return v->sections & (SECTION_RUNTIME | SECTION_CPU | SECTION_MIGRATIONS);
}

/* --- Text --- */

static void text_side(FILE *out, const char *label, const struct diff_run *x)
{
	char a[32];

	fprintf(out, "%s: %s, %s%s%u CPUs, window %s, %" PRIu64 " events, %" PRIu64
		" records lost\n", label, x->r->path, x->r->have_meta ? text_esc(x->r->meta.kernel) : "",
		x->r->have_meta ? ", " : "", x->cpus, render_ns(x->r->window_ns, a, sizeof(a)),
		x->r->events, x->r->lost);
}

static void text_dist(FILE *out, const struct diff_item *it)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	const struct hist *h[2] = { it->ha, it->hb };
	char b[16];
	int s, k;

	fprintf(out, "  %-22s %-16.16s", it->metric, text_esc(it->name));
	for (s = 0; s < 2; s++) {
		if (s)
			fprintf(out, "  %-22s %-16s", "", "");
		fprintf(out, " %s n %-7" PRIu64, s ? "B" : "A", h[s] ? h[s]->count : 0);
		for (k = 0; k < 4; k++)
			fprintf(out, " %8s", h[s] && h[s]->count ?
				render_ns(hist_percentile(h[s], ps[k]), b, sizeof(b)) : "-");
		fprintf(out, " %8s\n", h[s] && h[s]->count ? render_ns(h[s]->max, b, sizeof(b)) : "-");
	}
	if (it->ha && it->hb && it->ha->count && it->hb->count)
		fprintf(out, "  %-39s effect %+.2f, p %s%s\n", "", it->mw.effect,
			it->mw.p < 0.001 ? "< 0.001" : it->mw.p < 0.01 ? "< 0.01" : "ns",
			it->significant ? ": significant" : !it->tested ? " (too few values to test)" : "");
}

static void text_items(FILE *out, const struct diff *d, const struct report_view *v,
		       enum diff_entity e, const char *title)
{
	char a[32], b[32], c[32];
	unsigned int rows = 0, dists = 0;
	size_t i;

	for (i = 0; i < d->n; i++)
		rows += d->items[i].entity == e && shown(v, &d->items[i]);
	if (!rows)
		return;
	fprintf(out, "\n%s\n  %-22s %-16s %12s %12s %12s\n", title, "metric", "", "A", "B",
		"change");
	rows = 0;
	for (i = 0; i < d->n; i++) {
		const struct diff_item *it = &d->items[i];

		if (it->entity != e || !shown(v, it) || it->kind != DIFF_SCALAR)
			continue;
		/* Per process or thread: those that changed most, --top of them. */
		if ((e == DIFF_PROCESS || e == DIFF_THREAD || e == DIFF_HANDLER) && v->summary &&
		    !it->score)
			continue;
		if (e != DIFF_MACHINE && e != DIFF_CPU && rows++ >= v->top * 4)
			break;
		fprintf(out, "  %-22s %-16.16s %12s %12s %12s\n", it->metric, text_esc(it->name),
			it->in_a ? value_str(it, it->a, a, sizeof(a)) : "-",
			it->in_b ? value_str(it, it->b, b, sizeof(b)) : "-", change_str(it, c, sizeof(c)));
	}
	for (i = 0; i < d->n; i++) {
		const struct diff_item *it = &d->items[i];

		if (it->entity != e || !shown(v, it) || it->kind != DIFF_DIST)
			continue;
		if (e != DIFF_MACHINE && !it->significant && (v->summary || dists >= v->top))
			continue;
		if (!dists++)
			fprintf(out, "  %-22s %-16s %11s %8s %8s %8s %8s %8s\n", "distribution", "",
				"", "p50", "p90", "p99", "p99.9", "max");
		text_dist(out, it);
	}
}

int render_diff_text(const struct diff *d, const struct report_view *v, FILE *out)
{
	char line[512];
	size_t i;

	fprintf(out, "ktprof diff\n");
	text_side(out, "A", &d->a);
	text_side(out, "B", &d->b);
	fprintf(out, "compared as %s%s; distributions by the Mann-Whitney U test "
		"(alpha %g, |effect| >= %g)\n",
		d->cfg.absolute ? "totals" : "rates per second of window",
		d->cfg.per_cpu ? ", machine totals per CPU" : "", diff_alpha(&d->cfg),
		diff_min_effect(&d->cfg));
	fprintf(out, "\nverdict (the changes that matter most, ranked):\n");
	if (!d->nverdict)
		fprintf(out, "  no significant change\n");
	for (i = 0; i < d->nverdict; i++)
		fprintf(out, "  %zu. %s\n", i + 1,
			text_esc(diff_sentence(d, &d->items[d->verdict[i]], line, sizeof(line))));
	text_items(out, d, v, DIFF_MACHINE, "machine");
	text_items(out, d, v, DIFF_CPU, "CPUs");
	text_items(out, d, v, DIFF_PROCESS, "processes (by name)");
	text_items(out, d, v, DIFF_THREAD, "thread groups (process/thread name)");
	text_items(out, d, v, DIFF_HANDLER, "interrupt handlers (by name)");
	return ferror(out) ? -EIO : 0;
}

/* --- JSON --- */

static json_object *jside(struct json_build *j, const struct diff_run *x)
{
	json_object *o = json_object_new_object();

	json_build_put(j, o, "path", json_object_new_string(x->r->path));
	json_build_put(j, o, "kernel", json_object_new_string(x->r->have_meta ? x->r->meta.kernel : ""));
	json_build_put(j, o, "cpus", json_object_new_uint64(x->cpus));
	json_build_put(j, o, "window_ns", json_object_new_uint64(x->r->window_ns));
	json_build_put(j, o, "events", json_object_new_uint64(x->r->events));
	json_build_put(j, o, "lost_records", json_object_new_uint64(x->r->lost));
	return o;
}

static json_object *jitem(struct json_build *j, const struct diff *d, const struct diff_item *it)
{
	json_object *o = json_object_new_object();
	char line[512];

	json_build_put(j, o, "entity", json_object_new_string(entity_names[it->entity]));
	json_build_put(j, o, "name", json_object_new_string(it->name));
	json_build_put(j, o, "metric", json_object_new_string(it->metric));
	json_build_put(j, o, "unit", json_object_new_string(it->unit));
	json_build_put(j, o, "in_a", json_object_new_boolean(it->in_a));
	json_build_put(j, o, "in_b", json_object_new_boolean(it->in_b));
	json_build_num(j, o, "a", it->a, 6);
	json_build_num(j, o, "b", it->b, 6);
	json_build_num(j, o, "delta", it->delta, 6);
	json_build_num(j, o, "relative", it->rel, 6);
	json_build_num(j, o, "score", it->score, 6);
	json_build_put(j, o, "text", json_object_new_string(diff_sentence(d, it, line, sizeof(line))));
	if (it->kind == DIFF_DIST) {
		json_object *t = json_object_new_object();

		json_build_put(j, o, "a_dist", json_build_dist(j, it->ha));
		json_build_put(j, o, "b_dist", json_build_dist(j, it->hb));
		json_build_put(j, t, "test", json_object_new_string("mann-whitney-u"));
		json_build_put(j, t, "tested", json_object_new_boolean(it->tested));
		json_build_num(j, t, "u", it->mw.u, 6);
		json_build_num(j, t, "z", it->mw.z, 6);
		json_build_num(j, t, "p", it->mw.p, 6);
		json_build_num(j, t, "effect", it->mw.effect, 6);
		json_build_put(j, t, "significant", json_object_new_boolean(it->significant));
		json_build_put(j, o, "test", t);
	}
	return o;
}

json_object *render_diff_json_object(const struct diff *d, const struct report_view *v)
{
	json_object *doc = json_object_new_object(), *c = json_object_new_object();
	json_object *items = json_object_new_array(), *verdict = json_object_new_array();
	struct json_build j = { 0 };
	size_t i;

	json_build_put(&j, doc, "schema", json_object_new_string("ktprof-diff"));
	json_build_put(&j, doc, "version", json_object_new_string(DIFF_JSON_VERSION));
	json_build_put(&j, doc, "a", jside(&j, &d->a));
	json_build_put(&j, doc, "b", jside(&j, &d->b));
	json_build_put(&j, c, "rates", json_object_new_boolean(!d->cfg.absolute));
	json_build_put(&j, c, "per_cpu", json_object_new_boolean(d->cfg.per_cpu));
	json_build_put(&j, c, "test", json_object_new_string("mann-whitney-u"));
	json_build_num(&j, c, "alpha", diff_alpha(&d->cfg), 6);
	json_build_num(&j, c, "min_effect", diff_min_effect(&d->cfg), 6);
	json_build_put(&j, doc, "compare", c);
	for (i = 0; i < d->nverdict; i++)
		json_build_push(&j, verdict, jitem(&j, d, &d->items[d->verdict[i]]));
	json_build_put(&j, doc, "verdict", verdict);
	for (i = 0; i < d->n; i++)
		if (shown(v, &d->items[i]))
			json_build_push(&j, items, jitem(&j, d, &d->items[i]));
	json_build_put(&j, doc, "items", items);
	if (j.nomem) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

int render_diff_json(const struct diff *d, const struct report_view *v, FILE *out)
{
	json_object *doc = render_diff_json_object(d, v);
	const char *text;
	int ret = 0;

	if (!doc)
		return -ENOMEM;
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) < 0 || fputc('\n', out) < 0)
		ret = text ? -EIO : -ENOMEM;
	json_object_put(doc);
	return ret;
}

/* --- HTML --- */

static const char style[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
	"margin:0;background:#fafafa}main{max-width:960px;margin:0 auto;padding:16px 24px 48px;"
	"background:#fff}h1{font-size:22px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #ddd}table{border-collapse:collapse;font-size:13px}"
	"th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}th{background:#f3f4f6}"
	"td.l,th.l{text-align:left}figcaption{font-size:12px;color:#555}"
	".axis{stroke:#333}.grid{stroke:#e5e7eb}svg text{font:11px system-ui,sans-serif;fill:#333}"
	"svg text.title{font-size:12px}ol li{margin:4px 0}";

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static void figure_open(FILE *f, const char *name, int h, const char *label)
{
	fprintf(f, "<figure class=\"plot\" data-plot=\"%s\">\n", name);
	svg_open(f, W, h, label);
}

static void figure_close(FILE *f, const char *caption)
{
	svg_close(f);
	fputs("<figcaption>", f);
	esc(f, caption);
	fputs("</figcaption></figure>\n", f);
}

static void legend_ab(FILE *f, double x, double y)
{
	static const char *const labels[] = { "A", "B" };
	const char *colors[] = { COLOR_A, COLOR_B };

	svg_legend(f, x, y, labels, colors, 2);
}

/* Utilization of every CPU, A and B side by side. */
static void html_cpus(FILE *f, const struct diff *d)
{
	struct svg_axis y = { 0, 100, 0, svg_fmt_pct };
	double top = 30, bottom = 240, step;
	unsigned int n = 0, i = 0;
	char label[32];
	size_t k;

	for (k = 0; k < d->n; k++)
		n += d->items[k].entity == DIFF_CPU && !strcmp(d->items[k].metric, "utilization");
	if (!n)
		return;
	step = (double)(W - LEFT - RIGHT) / n;
	figure_open(f, "cpu-utilization", 300, "CPU utilization, A and B");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "utilization");
	for (k = 0; k < d->n; k++) {
		const struct diff_item *it = &d->items[k];
		double x;
		int s;

		if (it->entity != DIFF_CPU || strcmp(it->metric, "utilization"))
			continue;
		x = LEFT + i++ * step;
		for (s = 0; s < 2; s++) {
			double v = s ? it->b : it->a, yy = svg_pos(&y, v, bottom, top);

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%s %s: %.1f%%</title></rect>\n",
				x + step * (0.1 + 0.4 * s), yy, step * 0.38, bottom - yy,
				s ? COLOR_B : COLOR_A, it->name, s ? "B" : "A", v);
		}
		if (n <= 32 || i % 8 == 1) {
			snprintf(label, sizeof(label), "%s", it->name + 4);
			svg_text(f, x + step / 2, bottom + 14, "middle", "tick", label);
		}
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT,
		bottom, W - RIGHT, bottom);
	svg_text(f, (LEFT + W - RIGHT) / 2, bottom + 32, "middle", "title", "CPU");
	legend_ab(f, LEFT, 15);
	figure_close(f, "Utilization of each CPU in A and in B.");
}

static void cdf(FILE *f, const struct hist *h, const struct svg_axis *x, const struct svg_axis *y,
		double top, double bottom, const char *color, const char *dash)
{
	uint64_t value, n, seen = 0;
	size_t pos = 0;
	double py = bottom;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"%d,%.1f ",
		color, dash, LEFT, bottom);
	while (hist_next(h, &pos, &value, &n)) {
		double px = svg_pos(x, value, LEFT, W - RIGHT);

		fprintf(f, "%.1f,%.1f ", px, py);
		seen += n;
		py = svg_pos(y, 100.0 * seen / h->count, bottom, top);
		fprintf(f, "%.1f,%.1f ", px, py);
	}
	fprintf(f, "%d,%.1f\"/>\n", W - RIGHT, py);
}

/* The CDFs of one distribution item, A and B on the same axes. */
static void html_cdf(FILE *f, const struct diff_item *it, const char *name)
{
	struct svg_axis x = { 1e12, 1, 1, svg_fmt_ns }, y = { 0, 100, 0, svg_fmt_pct };
	const struct hist *h[2] = { it->ha, it->hb };
	double top = 30, bottom = 260;
	char title[160];
	int s;

	for (s = 0; s < 2; s++) {
		if (!h[s] || !h[s]->count)
			continue;
		if (h[s]->min < x.min)
			x.min = h[s]->min ? h[s]->min : 1;
		if (h[s]->max > x.max)
			x.max = h[s]->max;
	}
	if (x.min > x.max)
		return;
	svg_nice(&x);
	snprintf(title, sizeof(title), "%s of %s", it->metric, it->name);
	figure_open(f, name, 330, title);
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "share");
	svg_x_axis(f, &x, LEFT, W - RIGHT, bottom, top, "latency (log scale)");
	for (s = 0; s < 2; s++)
		if (h[s] && h[s]->count)
			cdf(f, h[s], &x, &y, top, bottom, s ? COLOR_B : COLOR_A,
			    s ? " stroke-dasharray=\"6 3\"" : "");
	legend_ab(f, LEFT, 15);
	snprintf(title, sizeof(title), "Cumulative distribution of the %s of %s: A (solid) "
		 "and B (dashed).", it->metric, it->name);
	figure_close(f, title);
}

/* Runtime of the processes that changed most, A and B. */
static void html_runtime(FILE *f, const struct diff *d, unsigned int top_n)
{
	struct svg_axis x = { 0, 1, 0, svg_fmt_pct };
	const struct diff_item *rows[64];
	unsigned int n = 0, i;
	double top = 30, row = 26;
	size_t k;

	for (k = 0; k < d->n && n < top_n && n < 64; k++) {
		const struct diff_item *it = &d->items[k];

		if (it->entity != DIFF_PROCESS || strcmp(it->metric, "runtime") ||
		    strcmp(it->unit, "% of a CPU") || fmax(it->a, it->b) < 0.5)
			continue;
		rows[n++] = it;
		x.max = fmax(x.max, fmax(it->a, it->b));
	}
	if (!n)
		return;
	svg_nice(&x);
	figure_open(f, "runtime", (int)(top + n * row + 50), "runtime per process, A and B");
	for (i = 0; i < n; i++) {
		double y = top + i * row;
		int s;

		svg_text(f, 215, y + 15, "end", "tick", rows[i]->name);
		for (s = 0; s < 2; s++)
			fprintf(f, "<rect x=\"220\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"/>\n", y + s * 11, svg_pos(&x, s ? rows[i]->b : rows[i]->a,
				220, W - RIGHT) - 220, 10.0, s ? COLOR_B : COLOR_A);
	}
	svg_x_axis(f, &x, 220, W - RIGHT, top + n * row, top + n * row, "% of one CPU");
	legend_ab(f, 220, 15);
	figure_close(f, "Runtime of each process (by name) in A and B, as a share of one CPU.");
}

int render_diff_html(const struct diff *d, const struct report_view *v, FILE *f)
{
	char line[512], name[32];
	unsigned int shown_cdfs = 0;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>ktprof diff</title>\n", f);
	fprintf(f, "<style>%s</style></head>\n<body><main>\n<h1>ktprof diff</h1>\n", style);
	fputs("<table><tr><th></th><th class=l>capture</th><th>CPUs</th><th>window</th></tr>", f);
	for (i = 0; i < 2; i++) {
		const struct diff_run *x = i ? &d->b : &d->a;

		fprintf(f, "<tr><th>%s</th><td class=l>", i ? "B" : "A");
		esc(f, x->r->path);
		fprintf(f, "</td><td>%u</td><td>%s</td></tr>", x->cpus,
			render_ns(x->r->window_ns, line, sizeof(line)));
	}
	fputs("</table>\n<h2>Verdict</h2>\n", f);
	if (!d->nverdict)
		fputs("<p>No significant change.</p>\n", f);
	fputs("<ol>", f);
	for (i = 0; i < d->nverdict; i++) {
		fputs("<li>", f);
		esc(f, diff_sentence(d, &d->items[d->verdict[i]], line, sizeof(line)));
		fputs("</li>\n", f);
	}
	fputs("</ol>\n<h2>CPUs</h2>\n", f);
	html_cpus(f, d);
	fputs("<h2>Latency</h2>\n", f);
	for (i = 0; i < d->n; i++)
		if (d->items[i].entity == DIFF_MACHINE && d->items[i].kind == DIFF_DIST &&
		    strstr(d->items[i].metric, "latency")) {
			snprintf(name, sizeof(name), "latency-cdf-%u", shown_cdfs++);
			html_cdf(f, &d->items[i], name);
		}
	/* And the distributions of the verdict. */
	for (i = 0; i < d->nverdict && shown_cdfs < 6; i++) {
		const struct diff_item *it = &d->items[d->verdict[i]];

		if (it->kind == DIFF_DIST && it->entity != DIFF_MACHINE) {
			snprintf(name, sizeof(name), "latency-cdf-%u", shown_cdfs++);
			html_cdf(f, it, name);
		}
	}
	fputs("<h2>Runtime</h2>\n", f);
	html_runtime(f, d, v->top);
	fputs("<h2>All figures</h2>\n<table><tr><th class=l>entity</th><th class=l>metric</th>"
	      "<th>A</th><th>B</th><th>change</th></tr>\n", f);
	for (i = 0; i < d->n; i++) {
		const struct diff_item *it = &d->items[i];
		char a[32], b[32], c[32];

		if (it->kind != DIFF_SCALAR || (it->entity >= DIFF_PROCESS && !it->score))
			continue;
		fputs("<tr><td class=l>", f);
		esc(f, it->name);
		fputs("</td><td class=l>", f);
		esc(f, it->metric);
		fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			it->in_a ? value_str(it, it->a, a, sizeof(a)) : "-",
			it->in_b ? value_str(it, it->b, b, sizeof(b)) : "-", change_str(it, c, sizeof(c)));
	}
	fputs("</table>\n<p>Distributions compared by the Mann-Whitney U test; definitions in "
	      "docs/diff.md.</p>\n</main></body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
