// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report: one self-contained page (no scripts, no network, no
 * fonts from elsewhere) with inline SVG plots, each with axes, units and a
 * legend, and the tables of the text report. Every plot is a
 * <figure class="plot" data-plot="NAME"> so tests can find it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/render.h"
#include "report/svg.h"
#include "util/hash.h"

#define W 900			/* plot width */
#define LEFT 70			/* room for the y axis */
#define RIGHT 20
#define CDF_THREADS 5
#define FLAME_ROW 16
#define FLAME_MAX_DEPTH 80

static const char style[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
	"margin:0;background:#fafafa}"
	"main{max-width:960px;margin:0 auto;padding:16px 24px 48px;background:#fff}"
	"h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #ddd;padding-bottom:4px}"
	"nav a{margin-right:10px;color:#2563eb;text-decoration:none}"
	"table{border-collapse:collapse;margin:8px 0;font-size:13px}"
	"th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}"
	"th{background:#f3f4f6}td.l,th.l{text-align:left}"
	".bar{display:inline-block;height:10px;background:#4e79a7;vertical-align:middle}"
	"figure{margin:12px 0}figcaption{font-size:12px;color:#555}"
	".axis{stroke:#333;stroke-width:1}.grid{stroke:#e5e7eb;stroke-width:1}"
	"svg text{font:11px system-ui,sans-serif;fill:#333}svg text.title{font-size:12px}"
	"svg text.flame{font-size:10px;fill:#111}"
	".warn{background:#fff7ed;border-left:4px solid #f97316;padding:6px 10px}"
	".finding{margin:4px 0}.rule{display:inline-block;min-width:90px;font-weight:600;"
	"color:#b91c1c}.note{color:#555;font-size:12px}";

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static const char *thread_label(const struct report *r, uint32_t t, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%u)", report_thread_name(r, t), r->sched.threads[t].pid);
	return buf;
}

static void figure_open(FILE *f, const char *name, int w, int h, const char *label)
{
	fprintf(f, "<figure class=\"plot\" data-plot=\"%s\">\n", name);
	svg_open(f, w, h, label);
}

static void figure_close(FILE *f, const char *caption)
{
	svg_close(f);
	fputs("<figcaption>", f);
	esc(f, caption);
	fputs("</figcaption></figure>\n", f);
}

/* --- Header and findings --- */

static void header(FILE *f, const struct report *r)
{
	char a[32];
	uint32_t cpu;
	int g;

	fputs("<h1>ktprof report</h1>\n<table>", f);
	fputs("<tr><th class=l>capture</th><td class=l>", f);
	esc(f, r->path);
	fputs("</td></tr>", f);
	if (r->have_meta) {
		fputs("<tr><th class=l>kernel</th><td class=l>", f);
		esc(f, r->meta.kernel);
		fputs(" (", f);
		esc(f, r->meta.machine);
		fputs(")</td></tr>", f);
	}
	fprintf(f, "<tr><th class=l>CPUs</th><td class=l>%u</td></tr>", r->nr_cpus);
	fprintf(f, "<tr><th class=l>window</th><td class=l>%s</td></tr>",
		render_ns(r->window_ns, a, sizeof(a)));
	fprintf(f, "<tr><th class=l>events</th><td class=l>%" PRIu64 "</td></tr>", r->events);
	fprintf(f, "<tr><th class=l>lost records</th><td class=l>%" PRIu64 "</td></tr></table>\n",
		r->lost);
	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		static const char *const what[] = { "no data", "lost records", "offline" };

		if (!report_cpu_shown(r, cpu))
			continue;
		for (g = 0; g < SCHED_NR_GAPS; g++)
			if (c->gap_ns[g])
				fprintf(f, "<p class=warn>CPU %u: %s of %s, left out of every figure</p>\n",
					cpu, render_ns(c->gap_ns[g], a, sizeof(a)), what[g]);
	}
	if (r->truncated || r->damaged) {
		fprintf(f, "<p class=warn>The capture is %s (", r->damaged ? "damaged" : "cut short");
		esc(f, r->problem);
		fputs("): figures cover what was read.</p>\n", f);
	}
	fputs("<nav><a href=\"#findings\">findings</a><a href=\"#cpu\">CPUs</a>"
	      "<a href=\"#runtime\">runtime</a><a href=\"#latency\">latency</a>"
	      "<a href=\"#states\">states</a><a href=\"#migrations\">migrations</a>"
	      "<a href=\"#wakers\">wakers</a><a href=\"#irq\">interrupts</a>"
	      "<a href=\"#profile\">profile</a></nav>\n", f);
}

static void findings(FILE *f, const struct report *r, const struct report_view *v)
{
	size_t i;

	fputs("<h2 id=findings>Findings</h2>\n", f);
	if (!r->findings.n)
		fputs("<p>No rule fired.</p>\n", f);
	for (i = 0; i < r->findings.n && i < v->top; i++) {
		fprintf(f, "<div class=finding><span class=rule>%s</span>",
			findings_rules[r->findings.v[i].rule].name);
		esc(f, r->findings.v[i].text);
		fputs("</div>\n", f);
	}
	fputs("<p class=note>Each finding names its rule and threshold (--threshold "
	      "RULE=VALUE); definitions in docs/report.md.</p>\n", f);
}

/* --- CPUs --- */

/* Buckets of the timeline inside the window. */
static uint32_t timeline_buckets(const struct report *r)
{
	uint64_t n = r->cpu.bucket_ns ? (r->window_ns + r->cpu.bucket_ns - 1) / r->cpu.bucket_ns : 0;

	return n > CPU_TIMELINE_BUCKETS ? CPU_TIMELINE_BUCKETS : n ? n : 1;
}

static void machine_line(FILE *f, const struct report *r, uint32_t nb, double top, double h)
{
	struct svg_axis x = { 0, (double)nb * r->cpu.bucket_ns, 0, svg_fmt_ns };
	struct svg_axis y = { 0, 100, 0, svg_fmt_pct };
	uint32_t i, cpu;

	svg_y_axis(f, &y, top + h, top, LEFT, W - RIGHT, "machine busy");
	fputs("<polyline fill=\"none\" stroke=\"#4e79a7\" stroke-width=\"1.5\" points=\"", f);
	for (i = 0; i < nb; i++) {
		uint64_t busy = 0, known = 0;

		for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
			if (!report_cpu_shown(r, cpu))
				continue;
			busy += r->cpu.cpus[cpu].timeline[i];
			known += r->cpu.cpus[cpu].timeline_known[i];
		}
		fprintf(f, "%.1f,%.1f ", svg_pos(&x, (i + 0.5) * r->cpu.bucket_ns, LEFT, W - RIGHT),
			svg_pos(&y, pct(busy, known), top + h, top));
	}
	fputs("\"/>\n", f);
}

static void cpu_heatmap(FILE *f, const struct report *r)
{
	uint32_t nb = timeline_buckets(r), cpu, shown = 0, row = 0, i;
	double cell_w, cell_h, top = 130, ht;
	struct svg_axis x;
	char c[8], label[32];

	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++)
		shown += report_cpu_shown(r, cpu);
	if (!shown)
		return;
	cell_h = shown <= 16 ? 18 : shown <= 64 ? 6 : 3;
	ht = shown * cell_h;
	figure_open(f, "cpu-utilization", W, (int)(top + ht + 90),
		    "CPU utilization over time");
	machine_line(f, r, nb, 10, 100);
	x = (struct svg_axis){ 0, (double)nb * r->cpu.bucket_ns, 0, svg_fmt_ns };
	cell_w = (double)(W - RIGHT - LEFT) / nb;
	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *cr = &r->cpu.cpus[cpu];
		double y = top + row * cell_h;

		if (!report_cpu_shown(r, cpu))
			continue;
		if (cell_h >= 10) {
			snprintf(label, sizeof(label), "CPU %u", cpu);
			svg_text(f, LEFT - 5, y + cell_h - 5, "end", "tick", label);
		}
		for (i = 0; i < nb; i++) {
			uint64_t k = cr->timeline_known[i];

			fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n",
				LEFT + i * cell_w, y, cell_w + 0.05, cell_h - (cell_h >= 6),
				k ? svg_heat((double)cr->timeline[i] / k, c) : "#d1d5db");
		}
		row++;
	}
	svg_x_axis(f, &x, LEFT, W - RIGHT, top + ht + 2, top + ht + 2, "time since the window's start");
	for (i = 0; i <= 10; i++)
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\"/>\n",
			LEFT + (int)i * 20, top + ht + 48, svg_heat(i / 10.0, c));
	svg_text(f, LEFT + 230, top + ht + 57, "start", "legend",
		 "0% .. 100% busy per CPU (grey: unknown)");
	figure_close(f, "Per-CPU utilization in time buckets (busy / known time), and the "
		     "machine's above.");
}

static void cpu_table(FILE *f, const struct report *r)
{
	char a[4][16];
	uint32_t cpu;

	fputs("<table><tr><th>cpu</th><th>busy</th><th>idle</th><th>util</th><th class=l></th>"
	      "<th>hardirq</th><th>softirq</th><th>switches/s</th><th>mig in</th>"
	      "<th>mig out</th></tr>\n", f);
	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		const struct irq_cpu_result *q = cpu < r->irq.nr_cpus ? &r->irq.cpus[cpu] : NULL;
		uint64_t known = c->busy_ns + c->idle_ns;
		double u = pct(c->busy_ns, known);

		if (!report_cpu_shown(r, cpu))
			continue;
		fprintf(f, "<tr><td>%u</td><td>%s</td><td>%s</td><td>%.1f%%</td>"
			"<td class=l><span class=bar style=\"width:%.0fpx\"></span></td>"
			"<td>%s</td><td>%s</td><td>%.1f</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td></tr>\n", cpu, render_ns(c->busy_ns, a[0], 16),
			render_ns(c->idle_ns, a[1], 16), u, u, render_ns(q ? q->ns[0] : 0, a[2], 16),
			render_ns(q ? q->ns[1] : 0, a[3], 16),
			known ? c->switches / (known / 1e9) : 0, c->migrations_in,
			c->migrations_out);
	}
	fputs("</table>\n", f);
}

/* --- Runtime --- */

static int by_runtime(const struct report *r, uint32_t a, uint32_t b)
{
	uint64_t x = r->runtime.threads[a].runtime_ns, y = r->runtime.threads[b].runtime_ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void runtime(FILE *f, const struct report *r, const struct report_view *v)
{
	uint32_t n, i, *t = report_threads_sorted(r, &n, by_runtime);
	uint64_t top = n && t ? r->runtime.threads[t[0]].runtime_ns : 0;
	char a[16];

	fputs("<h2 id=runtime>Runtime</h2>\n<table><tr><th>pid</th><th>tgid</th>"
	      "<th class=l>comm</th><th>runtime</th><th class=l></th><th>% CPU</th>"
	      "<th>% machine</th><th>voluntary</th><th>involuntary</th></tr>\n", f);
	for (i = 0; t && i < n && i < v->top; i++) {
		const struct runtime_result *rt = &r->runtime.threads[t[i]];
		const struct sched_thread *th = &r->sched.threads[t[i]];

		fprintf(f, "<tr><td>%u</td><td>%u</td><td class=l>", th->pid, th->tgid);
		esc(f, th->comm);
		fprintf(f, "</td><td>%s</td><td class=l><span class=bar style=\"width:%.0fpx\">"
			"</span></td><td>%.1f%%</td><td>%.1f%%</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td></tr>\n", render_ns(rt->runtime_ns, a, sizeof(a)),
			top ? 120.0 * rt->runtime_ns / top : 0, pct(rt->runtime_ns, r->window_ns),
			pct(rt->runtime_ns, r->known_ns), rt->voluntary, rt->involuntary);
	}
	fputs("</table>\n<p class=note>% CPU: of one CPU over the window; % machine: of all "
	      "CPUs' known time.</p>\n", f);
	free(t);
}

/* --- Latency --- */

static int by_p99_wakeup(const struct report *r, uint32_t a, uint32_t b)
{
	uint64_t x = hist_percentile(&r->latency.threads[a].h[SCHED_WAKEUP], 99);
	uint64_t y = hist_percentile(&r->latency.threads[b].h[SCHED_WAKEUP], 99);

	return x < y ? 1 : x > y ? -1 : 0;
}

static void cdf_line(FILE *f, const struct hist *h, const struct svg_axis *x,
		     const struct svg_axis *y, double top, double bottom, const char *color)
{
	uint64_t value, n, seen = 0;
	size_t pos = 0;
	double px = LEFT, py = bottom;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%.1f,%.1f ",
		color, px, py);
	while (hist_next(h, &pos, &value, &n)) {
		px = svg_pos(x, value, LEFT, W - RIGHT);
		fprintf(f, "%.1f,%.1f ", px, py);
		seen += n;
		py = svg_pos(y, 100.0 * seen / h->count, bottom, top);
		fprintf(f, "%.1f,%.1f ", px, py);
	}
	fprintf(f, "%.1f,%.1f\"/>\n", (double)(W - RIGHT), py);
}

static void latency_cdf(FILE *f, const struct report *r)
{
	const struct hist *hs[CDF_THREADS + 1];
	const char *labels[CDF_THREADS + 1], *colors[CDF_THREADS + 1];
	char names[CDF_THREADS][48];
	uint32_t n, i, k = 0, *t = report_threads_sorted(r, &n, by_p99_wakeup);
	struct svg_axis x = { 1e9, 1, 1, svg_fmt_ns }, y = { 0, 100, 0, svg_fmt_pct };
	double top = 30, bottom = 280;

	hs[k] = &r->overall.h[SCHED_WAKEUP];
	labels[k] = "all threads";
	colors[k++] = "#111";
	for (i = 0; t && i < n && k <= CDF_THREADS; i++) {
		if (!r->latency.threads[t[i]].h[SCHED_WAKEUP].count)
			continue;
		hs[k] = &r->latency.threads[t[i]].h[SCHED_WAKEUP];
		labels[k] = thread_label(r, t[i], names[k - 1], sizeof(names[k - 1]));
		colors[k] = svg_color(k - 1);
		k++;
	}
	free(t);
	for (i = 0; i < k; i++) {
		if (hs[i]->count && hs[i]->min < x.min)
			x.min = hs[i]->min ? hs[i]->min : 1;
		if (hs[i]->max > x.max)
			x.max = hs[i]->max;
	}
	if (!hs[0]->count)
		return;
	svg_nice(&x);
	figure_open(f, "latency-cdf", W, 350, "wakeup latency CDF");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "share of wakeups");
	svg_x_axis(f, &x, LEFT, W - RIGHT, bottom, top, "wakeup latency (log scale)");
	for (i = 0; i < k; i++)
		cdf_line(f, hs[i], &x, &y, top, bottom, colors[i]);
	svg_legend(f, LEFT, 15, labels, colors, k);
	figure_close(f, "Cumulative distribution of wakeup latency: all threads and the "
		     "threads with the highest p99.");
}

/* Counts of @h per power of two: [2^i, 2^(i+1)). */
static void octaves(const struct hist *h, uint64_t *bins)
{
	uint64_t value, n;
	size_t pos = 0;

	memset(bins, 0, 64 * sizeof(*bins));
	while (hist_next(h, &pos, &value, &n))
		bins[value ? 63 - __builtin_clzll(value) : 0] += n;
}

static void latency_histogram(FILE *f, const struct report *r)
{
	static const char *const labels[] = { "wakeup", "runqueue" };
	const char *colors[] = { svg_color(0), svg_color(1) };
	uint64_t bins[2][64], max = 0;
	int lo = 64, hi = -1, k, i;
	struct svg_axis x, y;
	double top = 30, bottom = 250, bw;

	for (k = 0; k < 2; k++) {
		octaves(&r->overall.h[k], bins[k]);
		for (i = 0; i < 64; i++) {
			if (!bins[k][i])
				continue;
			lo = i < lo ? i : lo;
			hi = i > hi ? i : hi;
			max = bins[k][i] > max ? bins[k][i] : max;
		}
	}
	if (hi < 0)
		return;
	x = (struct svg_axis){ pow(2, lo), pow(2, hi + 1), 1, svg_fmt_ns };
	y = (struct svg_axis){ 0, max, 0, svg_fmt_count };
	svg_nice(&y);
	figure_open(f, "latency-histogram", W, 320, "latency histogram");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "latencies");
	bw = (double)(W - RIGHT - LEFT) / (hi - lo + 1) / 2;
	for (k = 0; k < 2; k++)
		for (i = lo; i <= hi; i++)
			if (bins[k][i])
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					"fill=\"%s\"><title>%s: %" PRIu64 "</title></rect>\n",
					LEFT + (i - lo) * 2 * bw + k * bw, svg_pos(&y, bins[k][i], bottom, top),
					bw - 1, bottom - svg_pos(&y, bins[k][i], bottom, top), colors[k],
					labels[k], bins[k][i]);
	svg_x_axis(f, &x, LEFT, W - RIGHT, bottom, bottom, "latency (log scale, one bar per power of two)");
	svg_legend(f, LEFT, 15, labels, colors, 2);
	figure_close(f, "Wakeup and runqueue latencies of the selected threads, by power-of-two bins.");
}

static void runqueue_per_cpu(FILE *f, const struct report *r)
{
	static const char *const labels[] = { "p50", "p90", "p99", "max" };
	const char *colors[] = { svg_color(0), svg_color(1), svg_color(2), "#111" };
	static const double ps[] = { 50, 90, 99, 100 };
	struct svg_axis y = { 1e12, 1, 1, svg_fmt_ns };
	uint32_t cpu, n = 0, i = 0;
	double top = 30, bottom = 250, step;
	char label[16];
	int k;

	for (cpu = 0; cpu < r->latency.nr_cpus; cpu++) {
		const struct hist *h = &r->latency.cpus[cpu].h[SCHED_RUNQUEUE];

		if (!report_cpu_shown(r, cpu) || !h->count)
			continue;
		n++;
		if (h->min < y.min)
			y.min = h->min ? h->min : 1;
		if (h->max > y.max)
			y.max = h->max;
	}
	if (!n)
		return;
	svg_nice(&y);
	step = (double)(W - RIGHT - LEFT) / n;
	figure_open(f, "runqueue-per-cpu", W, 300, "runqueue latency per CPU");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "runqueue latency");
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT,
		bottom, W - RIGHT, bottom);
	for (cpu = 0; cpu < r->latency.nr_cpus; cpu++) {
		const struct hist *h = &r->latency.cpus[cpu].h[SCHED_RUNQUEUE];
		double x;

		if (!report_cpu_shown(r, cpu) || !h->count)
			continue;
		x = LEFT + (i++ + 0.5) * step;
		fprintf(f, "<line stroke=\"#9ca3af\" stroke-width=\"2\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>\n", x, svg_pos(&y, hist_percentile(h, 50), bottom, top),
			x, svg_pos(&y, h->max, bottom, top));
		for (k = 0; k < 4; k++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x,
				svg_pos(&y, hist_percentile(h, ps[k]), bottom, top), colors[k]);
		if (n <= 32 || cpu % 8 == 0) {
			snprintf(label, sizeof(label), "%u", cpu);
			svg_text(f, x, bottom + 14, "middle", "tick", label);
		}
	}
	svg_text(f, (LEFT + W - RIGHT) / 2, bottom + 32, "middle", "title", "CPU (of the switch-in)");
	svg_legend(f, LEFT, 15, labels, colors, 4);
	figure_close(f, "Runqueue latency per CPU: p50, p90, p99 and max (log scale).");
}

static void dist_row(FILE *f, const char *label, const struct hist *h)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	char b[16];
	int i;

	if (!h->count)
		return;
	fputs("<tr><td class=l>", f);
	esc(f, label);
	fprintf(f, "</td><td>%" PRIu64 "</td><td>%s</td>", h->count, render_ns(h->min, b, 16));
	fprintf(f, "<td>%s</td>", render_ns((uint64_t)hist_mean(h), b, 16));
	for (i = 0; i < 4; i++)
		fprintf(f, "<td>%s</td>", render_ns(hist_percentile(h, ps[i]), b, 16));
	fprintf(f, "<td>%s</td></tr>\n", render_ns(h->max, b, 16));
}

static void latency(FILE *f, const struct report *r, const struct report_view *v)
{
	uint32_t n, i, shown = 0, *t;
	char label[64];

	fputs("<h2 id=latency>Latency</h2>\n", f);
	latency_cdf(f, r);
	latency_histogram(f, r);
	runqueue_per_cpu(f, r);
	fputs("<table><tr><th class=l>wakeup latency</th><th>count</th><th>min</th><th>mean</th>"
	      "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", f);
	dist_row(f, "all threads", &r->overall.h[SCHED_WAKEUP]);
	t = report_threads_sorted(r, &n, by_p99_wakeup);
	for (i = 0; t && i < n && shown < v->top; i++) {
		if (!r->latency.threads[t[i]].h[SCHED_WAKEUP].count)
			continue;
		dist_row(f, thread_label(r, t[i], label, sizeof(label)),
			 &r->latency.threads[t[i]].h[SCHED_WAKEUP]);
		shown++;
	}
	free(t);
	fputs("<tr><th class=l>runqueue latency</th><th colspan=8></th></tr>\n", f);
	dist_row(f, "all threads", &r->overall.h[SCHED_RUNQUEUE]);
	fputs("</table>\n", f);
}

/* --- States --- */

static void states(FILE *f, const struct report *r, const struct report_view *v)
{
	static const char *const labels[] = { "running", "runnable", "sleeping (S)",
					      "blocked (D)", "other", "unknown" };
	const char *colors[] = { svg_color(4), svg_color(2), svg_color(0), svg_color(5),
				 svg_color(6), "#d1d5db" };
	uint32_t n, i, *t = report_threads_sorted(r, &n, by_runtime), rows;
	struct svg_axis x = { 0, 100, 0, svg_fmt_pct };
	double top = 30, row = 18;
	char label[64];
	int k;

	fputs("<h2 id=states>Task states</h2>\n", f);
	rows = n < v->top ? n : v->top;
	if (!t || !rows) {
		free(t);
		return;
	}
	figure_open(f, "task-states", W, (int)(top + rows * row + 50), "task states");
	for (i = 0; i < rows; i++) {
		const struct states_result *st = &r->states.threads[t[i]];
		uint64_t ns[6] = { st->ns[SCHED_RUNNING], st->ns[SCHED_RUNNABLE],
				   st->ns[SCHED_SLEEPING], st->ns[SCHED_BLOCKED],
				   st->ns[SCHED_OTHER], 0 };
		double xx = 160, y = top + i * row, wdt;
		uint64_t known = 0;

		for (k = 0; k < 5; k++)
			known += ns[k];
		ns[5] = known < r->window_ns ? r->window_ns - known : 0;
		svg_text(f, 155, y + 12, "end", "tick", thread_label(r, t[i], label, sizeof(label)));
		for (k = 0; k < 6; k++) {
			wdt = pct(ns[k], r->window_ns) / 100 * (W - RIGHT - 160);
			if (wdt < 0.2)
				continue;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
				"<title>%s %.1f%%</title></rect>\n", xx, y, wdt, row - 3, colors[k],
				labels[k], pct(ns[k], r->window_ns));
			xx += wdt;
		}
	}
	svg_x_axis(f, &x, 160, W - RIGHT, top + rows * row, top + rows * row, "share of the window");
	svg_legend(f, 160, 15, labels, colors, 6);
	figure_close(f, "Time each thread spent in each state (threads with the most runtime).");
	free(t);
}

/* --- Migrations --- */

static void migrations(FILE *f, const struct report *r)
{
	const struct pairs *p = &r->migrations.cpu_pairs;
	const struct migrations_result *tot = &r->migrations.total;
	uint32_t n = 0, i;
	uint64_t max = 0;
	double cell, top = 30;
	char c[8], label[16];

	fprintf(f, "<h2 id=migrations>Migrations</h2>\n<p>%" PRIu64 " same LLC, %" PRIu64
		" cross-LLC, %" PRIu64 " cross-NUMA, %" PRIu64 " unknown topology.</p>\n",
		tot->count[0], tot->count[1], tot->count[2], tot->count[3]);
	for (i = 0; i < p->n; i++) {
		n = p->v[i].a + 1 > n ? p->v[i].a + 1 : n;
		n = p->v[i].b + 1 > n ? p->v[i].b + 1 : n;
		max = p->v[i].count > max ? p->v[i].count : max;
	}
	if (!n || n > 512)
		return;
	cell = 500.0 / n;
	if (cell > 40)
		cell = 40;
	figure_open(f, "migration-matrix", W, (int)(top + n * cell + 70), "migration matrix");
	for (i = 0; i < p->n; i++)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			"<title>%u -> %u: %" PRIu64 "</title></rect>\n", LEFT + p->v[i].b * cell,
			top + p->v[i].a * cell, cell, cell,
			svg_heat(log1p(p->v[i].count) / log1p(max), c), p->v[i].a, p->v[i].b,
			p->v[i].count);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#333\"/>\n", LEFT, top, n * cell, n * cell);
	for (i = 0; i < n && cell >= 10; i++) {
		snprintf(label, sizeof(label), "%u", i);
		svg_text(f, LEFT - 4, top + (i + 0.7) * cell, "end", "tick", label);
		svg_text(f, LEFT + (i + 0.5) * cell, top - 4, "middle", "tick", label);
	}
	svg_text(f, LEFT + n * cell / 2, top + n * cell + 18, "middle", "title",
		 "to CPU (columns); from CPU (rows)");
	for (i = 0; i <= 10; i++)
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\"/>\n",
			LEFT + (int)i * 20, top + n * cell + 32, svg_heat(i / 10.0, c));
	snprintf(label, sizeof(label), "%" PRIu64, max);
	svg_text(f, LEFT + 230, top + n * cell + 41, "start", "legend", "1 .. ");
	svg_text(f, LEFT + 258, top + n * cell + 41, "start", "legend", label);
	figure_close(f, "Migrations from CPU to CPU (log color scale).");
}

/* --- Preemption and wakers --- */

static void preemption(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct pairs *p = &r->preempt.pairs;
	char a[64], b[64];
	uint32_t i, shown = 0;

	fprintf(f, "<h2 id=preemption>Preemption</h2>\n<p>%" PRIu64 " preemptions.</p>\n<table>"
		"<tr><th>count</th><th class=l>preemptor</th><th class=l>preempted</th></tr>\n",
		r->preempt.total);
	for (i = 0; i < p->n && shown < v->top; i++) {
		int sa = p->v[i].a < r->sched.nr_threads && r->thread_selected[p->v[i].a];
		int sb = p->v[i].b < r->sched.nr_threads && r->thread_selected[p->v[i].b];

		if (!sa && !sb)
			continue;
		fprintf(f, "<tr><td>%" PRIu64 "</td><td class=l>", p->v[i].count);
		esc(f, p->v[i].a == SCHED_IDLE ? "swapper" : thread_label(r, p->v[i].a, a, sizeof(a)));
		fputs("</td><td class=l>", f);
		esc(f, thread_label(r, p->v[i].b, b, sizeof(b)));
		fputs("</td></tr>\n", f);
		shown++;
	}
	fputs("</table>\n", f);
}

static void wakers(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct pairs *p = &r->wakers.edges;
	uint32_t i, rows = 0, idx[256];
	struct svg_axis x = { 0, 1, 0, svg_fmt_count };
	double top = 30, row = 20;
	char a[96], b[64], label[200], lat[16];

	fputs("<h2 id=wakers>Wakers</h2>\n", f);
	for (i = 0; i < p->n && rows < v->top && rows < 256; i++) {
		if (p->v[i].b >= r->sched.nr_threads || !r->thread_selected[p->v[i].b])
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
	figure_open(f, "wakers", W, (int)(top + rows * row + 50), "top waker to wakee edges");
	for (i = 0; i < rows; i++) {
		const struct pair *e = &p->v[idx[i]];
		double y = top + i * row;

		snprintf(label, sizeof(label), "%s -> %s", report_waker_name(r, e->a, a, sizeof(a)),
			 thread_label(r, e->b, b, sizeof(b)));
		svg_text(f, 335, y + 13, "end", "tick", label);
		fprintf(f, "<rect x=\"340\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			y, svg_pos(&x, e->count, 340, W - RIGHT - 90) - 340, row - 4, svg_color(0));
		snprintf(label, sizeof(label), "%" PRIu64 " (mean %s)", e->count,
			 e->n ? render_ns(e->sum / e->n, lat, sizeof(lat)) : "-");
		svg_text(f, svg_pos(&x, e->count, 340, W - RIGHT - 90) + 4, y + 13, "start", "tick",
			 label);
	}
	svg_x_axis(f, &x, 340, W - RIGHT - 90, top + rows * row, top + rows * row, "wakings");
	figure_close(f, "Who wakes whom most: wakings per edge, with the wakee's mean wakeup latency.");
}

/* --- Interrupts --- */

static void irq(FILE *f, const struct report *r)
{
	static const char *const labels[] = { "hardirq", "softirq", "work items" };
	const char *colors[] = { svg_color(2), svg_color(1), svg_color(3) };
	struct svg_axis y = { 0, 0.001, 0, svg_fmt_pct };
	uint32_t cpu, n = 0, i = 0;
	double top = 30, bottom = 240, step;
	char label[16];
	int k;

	fputs("<h2 id=irq>Interrupts</h2>\n", f);
	for (cpu = 0; cpu < r->irq.nr_cpus && cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		const struct irq_cpu_result *q = &r->irq.cpus[cpu];
		double sum = pct(q->ns[0] + q->ns[1] + q->ns[2], c->busy_ns + c->idle_ns);

		if (!report_cpu_shown(r, cpu))
			continue;
		n++;
		y.max = sum > y.max ? sum : y.max;
	}
	if (!n)
		return;
	svg_nice(&y);
	step = (double)(W - RIGHT - LEFT) / n;
	figure_open(f, "irq-per-cpu", W, 300, "interrupt time per CPU");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "share of the CPU");
	for (cpu = 0; cpu < r->irq.nr_cpus && cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		const struct irq_cpu_result *q = &r->irq.cpus[cpu];
		double base = bottom, x;

		if (!report_cpu_shown(r, cpu))
			continue;
		x = LEFT + i++ * step + step * 0.15;
		for (k = 0; k < 3; k++) {
			double h = bottom - svg_pos(&y, pct(q->ns[k], c->busy_ns + c->idle_ns), bottom, top);

			if (h > 0.1)
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
					x, base - h, step * 0.7, h, colors[k]);
			base -= h;
		}
		if (n <= 32 || cpu % 8 == 0) {
			snprintf(label, sizeof(label), "%u", cpu);
			svg_text(f, x + step * 0.35, bottom + 14, "middle", "tick", label);
		}
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT,
		bottom, W - RIGHT, bottom);
	svg_text(f, (LEFT + W - RIGHT) / 2, bottom + 32, "middle", "title", "CPU");
	svg_legend(f, LEFT, 15, labels, colors, 3);
	figure_close(f, "Hardirq, softirq (self time) and work-item time per CPU, as a share of "
		     "its known time.");
}

/* --- Flame graph --- */

struct flame_node {
	const char *name;
	uint32_t tgid;		/* the process level: names are its comm */
	uint64_t count;
	struct flame_node *child, *next;
};

struct flame {
	struct flame_node root;
	const struct report *r;
	unsigned int depth;
	int nomem;
};

static struct flame_node *flame_child(struct flame *fl, struct flame_node *n,
				      const char *name, uint32_t tgid)
{
	struct flame_node *c;

	for (c = n->child; c; c = c->next)
		if (c->name == name && c->tgid == tgid)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c) {
		fl->nomem = 1;
		return NULL;
	}
	c->name = name;
	c->tgid = tgid;
	c->next = n->child;
	n->child = c;
	return c;
}

static int flame_add(void *ctx, uint32_t tgid, const char *const *frames, uint32_t n,
		     uint64_t count)
{
	struct flame *fl = ctx;
	struct flame_node *node = &fl->root;
	uint32_t i;

	node->count += count;
	node = flame_child(fl, node, NULL, tgid);
	for (i = 0; node && i < n && i < FLAME_MAX_DEPTH; i++) {
		node->count += count;
		node = flame_child(fl, node, frames[i], 0);
	}
	if (node)
		node->count += count;
	if (i + 1 > fl->depth)
		fl->depth = i + 1;
	return fl->nomem ? -ENOMEM : 0;
}

static void flame_free(struct flame_node *n)
{
	while (n) {
		struct flame_node *next = n->next;

		flame_free(n->child);
		free(n);
		n = next;
	}
}

static void flame_draw(FILE *f, struct flame *fl, const struct flame_node *n, double x,
		       double scale, unsigned int depth, double bottom)
{
	const struct flame_node *c;
	char comm[32], label[160];
	const char *name;
	double w = n->count * scale;
	uint64_t h;

	if (w < 0.4)
		return;
	if (depth) {
		name = n->name ? n->name :
			task_table_comm(&fl->r->tasks, n->tgid, comm, sizeof(comm));
		h = hash_fnv1a(name, strlen(name), HASH_FNV1A_SEED);
		fprintf(f, "<g><title>");
		esc(f, name);
		fprintf(f, " (%" PRIu64 " samples, %.2f%%)</title><rect x=\"%.2f\" y=\"%.1f\" "
			"width=\"%.2f\" height=\"%d\" fill=\"hsl(%u,75%%,%u%%)\" rx=\"1\"/>",
			n->count, pct(n->count, fl->root.count), x,
			bottom - depth * FLAME_ROW, w - 0.3, FLAME_ROW - 1,
			(unsigned int)(h % 40 + 10), (unsigned int)(h / 40 % 15 + 55));
		if (w > 30) {
			snprintf(label, sizeof(label), "%.*s", (int)(w / 6.2), name);
			fprintf(f, "<text class=\"flame\" x=\"%.1f\" y=\"%.1f\">", x + 3,
				bottom - depth * FLAME_ROW + 11);
			esc(f, label);
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
	}
	for (c = n->child; c; c = c->next) {
		flame_draw(f, fl, c, x, scale, depth + 1, bottom);
		x += c->count * scale;
	}
}

static void flame_graph(FILE *f, const struct report *r)
{
	struct flame fl = { .r = r };
	double height;

	if (profile_walk(r->profile, flame_add, &fl) || fl.nomem || !fl.root.count) {
		flame_free(fl.root.child);
		return;
	}
	height = (fl.depth + 2) * FLAME_ROW + 40;
	figure_open(f, "flame-graph", W, (int)height, "flame graph of the CPU samples");
	flame_draw(f, &fl, &fl.root, 10, (W - 20.0) / fl.root.count, 0, height - 30);
	svg_text(f, W / 2, height - 8, "middle", "title",
		 "width: share of samples; bottom row: processes; up: callees (hover for names)");
	figure_close(f, "Flame graph: each box is a function in the stacks of the samples, "
		     "as wide as the samples it appears in.");
	flame_free(fl.root.child);
}

static void profile(FILE *f, const struct report *r, const struct report_view *v)
{
	uint64_t total = profile_samples(r->profile);
	struct profile_row *rows;
	unsigned int n, i;

	fprintf(f, "<h2 id=profile>CPU profile</h2>\n<p>%" PRIu64 " samples", total);
	if (r->have_meta && r->meta.samples[0]) {
		fputs(" of ", f);
		esc(f, r->meta.samples);
	}
	fputs(".</p>\n", f);
	if (!total)
		return;
	flame_graph(f, r);
	n = profile_rows(r->profile, -1, &rows);
	fputs("<table><tr><th>self</th><th>self %</th><th>total</th><th>total %</th>"
	      "<th class=l>symbol</th></tr>\n", f);
	for (i = 0; i < n && i < v->top; i++) {
		fprintf(f, "<tr><td>%" PRIu64 "</td><td>%.1f%%</td><td>%" PRIu64 "</td><td>%.1f%%"
			"</td><td class=l>", rows[i].self, pct(rows[i].self, total), rows[i].total,
			pct(rows[i].total, total));
		esc(f, rows[i].symbol);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	free(rows);
}

static void outliers(FILE *f, const struct report *r, const struct report_view *v)
{
	char name[64];
	size_t i;

	fprintf(f, "<h2 id=outliers>Outliers</h2>\n<p>Method: %s.</p>\n",
		r->cfg.findings.method == OUTLIER_MAD ? "MAD, modified z-score above 3.5" :
		"IQR, above Q3 + 1.5 IQR");
	if (!r->findings.no)
		return;
	fputs("<table><tr><th class=l>metric</th><th class=l>subject</th><th>value</th>"
	      "<th>limit</th><th>score</th></tr>\n", f);
	for (i = 0; i < r->findings.no && i < v->top; i++) {
		const struct outlier *o = &r->findings.o[i];

		fputs("<tr><td class=l>", f);
		esc(f, o->metric);
		fputs("</td><td class=l>", f);
		if (o->subject == SUBJECT_CPU)
			fprintf(f, "CPU %u", o->id);
		else
			esc(f, thread_label(r, o->id, name, sizeof(name)));
		fprintf(f, "</td><td>%.3f %s</td><td>%.3f</td><td>%.2f</td></tr>\n", o->value,
			o->unit, o->limit, o->score);
	}
	fputs("</table>\n", f);
}

int render_html(const struct report *r, const struct report_view *v, FILE *f)
{
	unsigned int s = v->sections;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>ktprof report: ", f);
	esc(f, r->path);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body><main>\n", style);
	header(f, r);
	if (s & SECTION_FINDINGS)
		findings(f, r, v);
	if (s & SECTION_CPU) {
		fputs("<h2 id=cpu>CPUs</h2>\n", f);
		cpu_heatmap(f, r);
		cpu_table(f, r);
	}
	if (s & SECTION_RUNTIME)
		runtime(f, r, v);
	if (s & SECTION_LATENCY)
		latency(f, r, v);
	if (s & SECTION_STATES)
		states(f, r, v);
	if (s & SECTION_MIGRATIONS)
		migrations(f, r);
	if (s & SECTION_PREEMPTION)
		preemption(f, r, v);
	if (s & SECTION_WAKERS)
		wakers(f, r, v);
	if (s & SECTION_IRQ)
		irq(f, r);
	if (s & SECTION_OUTLIERS)
		outliers(f, r, v);
	if ((s & SECTION_PROFILE) && r->profile)
		profile(f, r, v);
	fprintf(f, "<p class=note>ktprof %s; definitions of every figure: docs/report.md.</p>\n"
		"</main></body></html>\n", KTP_VERSION_STRING);
	return ferror(f) ? -EIO : 0;
}
