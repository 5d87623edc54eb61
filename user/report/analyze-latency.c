// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-irq.h"
#include "report/analyze-latency.h"
#include "report/analyze-power.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/text.h"
#include "util/array.h"

static void result_init(struct latency_result *r)
{
	hist_init(&r->h[0]);
	hist_init(&r->h[1]);
	hist_init(&r->step[0]);
	hist_init(&r->step[1]);
}

static void result_fini(struct latency_result *r)
{
	hist_fini(&r->h[0]);
	hist_fini(&r->h[1]);
	hist_fini(&r->step[0]);
	hist_fini(&r->step[1]);
}

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_latency *a = ctx;

	uint32_t cap = a->cap;

	uint32_t cap2 = a->cap, cap3 = a->cap;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024) ||
	    array_reserve((void **)&a->enqueued, &cap, t, sizeof(*a->enqueued), 1024) ||
	    array_reserve((void **)&a->wake, &cap2, t, sizeof(*a->wake), 1024) ||
	    array_reserve((void **)&a->by_idle, &cap3, t, sizeof(*a->by_idle), 1024))
		return -ENOMEM;
	result_init(&a->threads[t]);
	a->enqueued[t] = 0;
	a->wake[t] = (struct latency_wake){ 0, -1 };
	a->by_idle[t] = NULL;
	a->n = t + 1;
	return 0;
}

static struct latency_result *cpu_res(struct analyze_latency *a, uint32_t cpu)
{
	if (cpu >= 65536 ||
	    array_reserve((void **)&a->cpus, &a->nr_cpus, cpu, sizeof(*a->cpus), 8))
		return NULL;
	return &a->cpus[cpu];
}

/* A wakeup latency of @t whose target CPU was in idle slot @slot. */
static int idle_add(struct analyze_latency *a, uint32_t t, int32_t slot, uint64_t ns)
{
	uint32_t k;

	if (!a->by_idle[t]) {
		a->by_idle[t] = malloc(LATENCY_IDLE_SLOTS * sizeof(struct hist));
		if (!a->by_idle[t])
			return -ENOMEM;
		for (k = 0; k < LATENCY_IDLE_SLOTS; k++)
			hist_init(&a->by_idle[t][k]);
	}
	return hist_add(&a->by_idle[t][slot], ns);
}

static int on_latency(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		      uint64_t start, uint64_t end, const struct sched_waker *waker)
{
	struct analyze_latency *a = ctx;
	struct latency_result *c = cpu_res(a, cpu);

	struct pair *p;

	(void)waker;
	if (!c || hist_add(&a->threads[t].h[kind], end - start) ||
	    hist_add(&c->h[kind], end - start))
		return -ENOMEM;
	/* Its enqueue (sched_wakeup) inside this wakeup: the two steps. */
	if (kind == SCHED_WAKEUP && a->enqueued[t] >= start && a->enqueued[t] <= end &&
	    (hist_add(&a->threads[t].step[0], a->enqueued[t] - start) ||
	     hist_add(&a->threads[t].step[1], end - a->enqueued[t])))
		return -ENOMEM;
	if (kind == SCHED_WAKEUP && a->wake[t].ts == start && a->wake[t].slot >= 0 &&
	    idle_add(a, t, a->wake[t].slot, end - start))
		return -ENOMEM;
	if (end - start > a->over_ns[kind]) {
		p = pairs_get(&a->over[kind], cpu, t);
		if (!p)
			return -ENOMEM;
		p->count++;
	}
	return 0;
}

/* The idle slot of @cpu now; -1 before its first idle record (or after a loss). */
static int32_t *cpu_slot(struct analyze_latency *a, uint32_t cpu)
{
	uint32_t n = a->nr_cpu_slots, i;

	if (cpu >= 65536 ||
	    array_reserve((void **)&a->cpu_slot, &a->nr_cpu_slots, cpu, sizeof(*a->cpu_slot), 8))
		return NULL;
	for (i = n; i < a->nr_cpu_slots; i++)
		a->cpu_slot[i] = -1;
	return &a->cpu_slot[cpu];
}

/* power:cpu_idle (-e power): the state each CPU is in. */
static void on_idle(struct analyze_latency *a, const struct event *ev)
{
	int32_t *slot = cpu_slot(a, ev->cpu);
	struct ktp_idle r;

	if (!slot)
		return;
	memcpy(&r, ev->rec, sizeof(r));
	if (r.state == KTP_IDLE_EXIT)
		*slot = 0;
	else
		*slot = 1 + (r.state < LATENCY_IDLE_SLOTS - 2 ? (int32_t)r.state :
							LATENCY_IDLE_SLOTS - 2);
}

/* A waking that started its thread's clock: where its target CPU was then. */
static void on_waking(struct analyze_latency *a, const struct event *ev)
{
	const struct sched_thread *th;
	struct ktp_waking r;
	int32_t *slot;
	uint32_t t, pid;

	memcpy(&r, ev->rec, sizeof(r));
	t = sched_lookup_pid(a->s, r.pid);
	if (t >= a->n)
		return;
	th = &a->s->threads[t];
	if (!th->wake_pending || th->wake_late || th->wake_ts != ev->ts)
		return;
	/* A CPU that runs a thread is in no idle state, records or not. */
	pid = sched_cpu_pid(a->s, r.target_cpu);
	slot = cpu_slot(a, r.target_cpu);
	a->wake[t] = (struct latency_wake){ ev->ts, pid && pid != SCHED_PID_UNKNOWN ? 0 :
						    slot ? *slot : -1 };
}

/* sched_wakeup (-e wakeup): when a woken thread was put on a runqueue. */
static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_latency *a = ctx;
	struct ktp_wakeup r;
	int32_t *slot;
	uint32_t t;

	if (ev->type == KTP_REC_IDLE) {
		on_idle(a, ev);
		return 0;
	}
	if (ev->type == KTP_REC_WAKING) {
		on_waking(a, ev);
		return 0;
	}
	if (ev->type == EVENT_LOST) {
		/* Its idle records may be among the lost. */
		slot = cpu_slot(a, ev->cpu);
		if (slot)
			*slot = -1;
		return 0;
	}
	if (ev->type != KTP_REC_WAKEUP)
		return 0;
	memcpy(&r, ev->rec, sizeof(r));
	t = sched_lookup_pid(a->s, r.pid);
	if (t < a->n)
		a->enqueued[t] = ev->ts;
	return 0;
}

static const struct sched_ops latency_ops = {
	.thread_new = on_thread_new,
	.latency = on_latency,
	.event = on_event,
	.event_types = SCHED_TYPE(KTP_REC_IDLE) | SCHED_TYPE(KTP_REC_WAKING) |
		       SCHED_TYPE(KTP_REC_WAKEUP),
};

static int latency_init(void *state, struct report *r)
{
	struct analyze_latency *a = state;
	struct sched *s = &r->model->sched;
	uint32_t k;

	a->s = s;
	a->over_ns[SCHED_WAKEUP] = findings_threshold_of(&r->cfg.findings, "wakeup") * 1e6;
	a->over_ns[SCHED_RUNQUEUE] = findings_threshold_of(&r->cfg.findings, "runqueue") * 1e6;
	pairs_init(&a->over[0], 0);
	pairs_init(&a->over[1], 0);
	result_init(&a->overall);
	for (k = 0; k < LATENCY_IDLE_SLOTS; k++)
		hist_init(&a->overall_idle[k]);
	if (!cpu_res(a, s->nr_cpus ? s->nr_cpus - 1 : 0))
		return -ENOMEM;
	return model_add_client(r->model, &latency_ops, a, 0);
}

static void latency_fini(void *state)
{
	struct analyze_latency *a = state;
	uint32_t i, k;

	for (i = 0; i < a->n; i++) {
		result_fini(&a->threads[i]);
		for (k = 0; a->by_idle[i] && k < LATENCY_IDLE_SLOTS; k++)
			hist_fini(&a->by_idle[i][k]);
		free(a->by_idle[i]);
	}
	for (k = 0; k < LATENCY_IDLE_SLOTS; k++)
		hist_fini(&a->overall_idle[k]);
	for (i = 0; i < a->nr_cpus; i++)
		result_fini(&a->cpus[i]);
	for (i = 0; a->procs && i < a->nr_procs; i++)
		result_fini(&a->procs[i]);
	result_fini(&a->overall);
	pairs_fini(&a->over[0]);
	pairs_fini(&a->over[1]);
	free(a->threads);
	free(a->enqueued);
	free(a->wake);
	free(a->by_idle);
	free(a->cpu_slot);
	free(a->cpus);
	free(a->procs);
}

const struct analyze_latency *analyze_latency(const struct report *r)
{
	return report_state(r, &analyzer_latency);
}

/* Per process and overall: the selected threads' distributions merged. */
static int latency_derive(void *state, struct report *r)
{
	struct analyze_latency *a = state;
	const struct sched *s = &r->model->sched;
	uint32_t t, p;
	int k;

	a->procs = calloc(s->nr_procs + 1, sizeof(*a->procs));
	if (!a->procs)
		return -ENOMEM;
	a->nr_procs = s->nr_procs;
	for (p = 0; p < s->nr_procs; p++)
		result_init(&a->procs[p]);
	for (t = 0; t < s->nr_threads; t++) {
		struct latency_result *pr = &a->procs[s->threads[t].process];

		if (!r->thread_selected[t])
			continue;
		for (k = 0; k < 2; k++)
			if (hist_merge(&pr->h[k], &a->threads[t].h[k]) ||
			    hist_merge(&a->overall.h[k], &a->threads[t].h[k]) ||
			    hist_merge(&a->overall.step[k], &a->threads[t].step[k]))
				return -ENOMEM;
		for (k = 0; a->by_idle[t] && k < LATENCY_IDLE_SLOTS; k++)
			if (hist_merge(&a->overall_idle[k], &a->by_idle[t][k]))
				return -ENOMEM;
	}
	return 0;
}

static int by_p99(const struct report *r, uint32_t a, uint32_t b, enum sched_latency kind)
{
	const struct analyze_latency *l = analyze_latency(r);
	uint64_t x = hist_percentile(&l->threads[a].h[kind], 99);
	uint64_t y = hist_percentile(&l->threads[b].h[kind], 99);

	return x < y ? 1 : x > y ? -1 : 0;
}

static int by_p99_wakeup(const struct report *r, uint32_t a, uint32_t b)
{
	return by_p99(r, a, b, SCHED_WAKEUP);
}

static int by_p99_runqueue(const struct report *r, uint32_t a, uint32_t b)
{
	return by_p99(r, a, b, SCHED_RUNQUEUE);
}

/* --- Text --- */

static void print_dist(FILE *out, const char *label, const struct hist *h)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	char b[7][16];
	unsigned int i;

	if (!h->count)
		return;
	for (i = 0; i < 4; i++)
		render_ns(hist_percentile(h, ps[i]), b[i], sizeof(b[i]));
	render_ns(h->min, b[4], sizeof(b[4]));
	render_ns((uint64_t)hist_mean(h), b[5], sizeof(b[5]));
	render_ns(h->max, b[6], sizeof(b[6]));
	fprintf(out, "  %-22.22s %7" PRIu64 " %8s %8s %8s %8s %8s %8s %8s\n", label, h->count,
		b[4], b[5], b[0], b[1], b[2], b[3], b[6]);
}

static void dist_header(FILE *out, const char *title)
{
	fprintf(out, "%s\n  %-22s %7s %8s %8s %8s %8s %8s %8s %8s\n", title, "", "count",
		"min", "mean", "p50", "p90", "p99", "p99.9", "max");
}

/* Idle slot @k as the text names it: the state's name on CPU 0 (-e power). */
static const char *idle_slot_label(const struct report *r, uint32_t k, char *buf, size_t len)
{
	char name[32];

	if (!k)
		return snprintf(buf, len, "  target in no state"), buf;
	snprintf(buf, len, "  target in %s",
		 analyze_power_state_name(r, 0, k - 1 < POWER_STATES - 1 ? k - 1 : POWER_STATES - 1,
					  name, sizeof(name)));
	return buf;
}

static void kind_text(FILE *out, const struct report *r, const struct report_view *v,
		      enum sched_latency kind)
{
	const struct analyze_latency *a = analyze_latency(r);
	uint32_t n, i, shown = 0, *t;
	char label[64];
	uint32_t cpu;

	dist_header(out, kind == SCHED_WAKEUP ? "wakeup latency (waking to switch-in)" :
		    "runqueue latency (preemption to switch-in)");
	print_dist(out, "all threads", &a->overall.h[kind]);
	if (kind == SCHED_WAKEUP && a->overall.step[0].count) {
		print_dist(out, "  waking>enqueue", &a->overall.step[0]);
		print_dist(out, "  enqueue>run", &a->overall.step[1]);
	}
	for (i = 0; kind == SCHED_WAKEUP && i < LATENCY_IDLE_SLOTS; i++)
		print_dist(out, idle_slot_label(r, i, label, sizeof(label)), &a->overall_idle[i]);
	for (cpu = 0; !v->summary && cpu < a->nr_cpus; cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		snprintf(label, sizeof(label), "CPU %u", cpu);
		print_dist(out, label, &a->cpus[cpu].h[kind]);
	}
	t = report_threads_sorted(r, &n, kind == SCHED_WAKEUP ? by_p99_wakeup : by_p99_runqueue);
	for (i = 0; t && i < n && shown < render_rows(v); i++) {
		const struct sched_thread *th = &r->model->sched.threads[t[i]];

		if (!a->threads[t[i]].h[kind].count)
			continue;
		snprintf(label, sizeof(label), "%s (%u)", text_esc(report_thread_name(r, t[i])),
			 th->pid);
		print_dist(out, label, &a->threads[t[i]].h[kind]);
		shown++;
	}
	free(t);
}

static void latency_text(FILE *out, const struct report *r, const struct report_view *v)
{
	render_heading(out, "latency (threads by p99; percentiles nearest-rank)");
	kind_text(out, r, v, SCHED_WAKEUP);
	kind_text(out, r, v, SCHED_RUNQUEUE);
	/* A cross-CPU wakeup waits for its IPI: the delay is part of its latency. */
	analyze_irq_delivery_text(out, r);
}

static void latency_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	static const char *const names[2] = { "wakeup  ", "runqueue" };
	const struct analyze_latency *a = analyze_latency(r);
	char b[4][16];
	int k;

	(void)v;
	fprintf(out, "\nlatency         count      p50      p99      max   worst thread (p99)\n");
	for (k = 0; k < 2; k++) {
		const struct hist *h = &a->overall.h[k];
		uint32_t n, *t = report_threads_sorted(r, &n, k ? by_p99_runqueue : by_p99_wakeup);

		fprintf(out, "  %s %9" PRIu64 " %8s %8s %8s", names[k], h->count,
			render_ns(hist_percentile(h, 50), b[0], 16),
			render_ns(hist_percentile(h, 99), b[1], 16), render_ns(h->max, b[2], 16));
		if (t && n && a->threads[t[0]].h[k].count)
			fprintf(out, "   %s (%u) %s", text_esc(report_thread_name(r, t[0])),
				r->model->sched.threads[t[0]].pid,
				render_ns(hist_percentile(&a->threads[t[0]].h[k], 99), b[3], 16));
		fputc('\n', out);
		free(t);
	}
}

/* --- HTML --- */

#define CDF_THREADS 5
#define W HTML_W
#define LEFT HTML_LEFT
#define RIGHT HTML_RIGHT

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
	const struct analyze_latency *a = analyze_latency(r);
	const struct hist *hs[CDF_THREADS + 1];
	const char *labels[CDF_THREADS + 1], *colors[CDF_THREADS + 1];
	char names[CDF_THREADS][48];
	uint32_t n, i, k = 0, *t = report_threads_sorted(r, &n, by_p99_wakeup);
	struct svg_axis x = { 1e9, 1, 1, svg_fmt_ns }, y = { 0, 100, 0, svg_fmt_pct };
	double top = 30, bottom = 280;

	hs[k] = &a->overall.h[SCHED_WAKEUP];
	labels[k] = "all threads";
	colors[k++] = "#111";
	for (i = 0; t && i < n && k <= CDF_THREADS; i++) {
		if (!a->threads[t[i]].h[SCHED_WAKEUP].count)
			continue;
		hs[k] = &a->threads[t[i]].h[SCHED_WAKEUP];
		labels[k] = report_thread_label(r, t[i], names[k - 1], sizeof(names[k - 1]));
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
	html_figure_open(f, "latency-cdf", W, 350, "wakeup latency CDF");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "share of wakeups");
	svg_x_axis(f, &x, LEFT, W - RIGHT, bottom, top, "wakeup latency (log scale)");
	for (i = 0; i < k; i++)
		cdf_line(f, hs[i], &x, &y, top, bottom, colors[i]);
	svg_legend(f, LEFT, 15, labels, colors, k);
	html_figure_close(f, "Cumulative distribution of wakeup latency: all threads and the "
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
	const struct analyze_latency *a = analyze_latency(r);
	const char *colors[] = { svg_color(0), svg_color(1) };
	uint64_t bins[2][64], max = 0;
	int lo = 64, hi = -1, k, i;
	struct svg_axis x, y;
	double top = 30, bottom = 250, bw;

	for (k = 0; k < 2; k++) {
		octaves(&a->overall.h[k], bins[k]);
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
	html_figure_open(f, "latency-histogram", W, 320, "latency histogram");
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
	html_figure_close(f, "Wakeup and runqueue latencies of the selected threads, by power-of-two bins.");
}

static void runqueue_per_cpu(FILE *f, const struct report *r)
{
	static const char *const labels[] = { "p50", "p90", "p99", "max" };
	const struct analyze_latency *a = analyze_latency(r);
	const char *colors[] = { svg_color(0), svg_color(1), svg_color(2), "#111" };
	static const double ps[] = { 50, 90, 99, 100 };
	struct svg_axis y = { 1e12, 1, 1, svg_fmt_ns };
	uint32_t cpu, n = 0, i = 0;
	double top = 30, bottom = 250, step;
	char label[16];
	int k;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct hist *h = &a->cpus[cpu].h[SCHED_RUNQUEUE];

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
	html_figure_open(f, "runqueue-per-cpu", W, 300, "runqueue latency per CPU");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "runqueue latency");
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT,
		bottom, W - RIGHT, bottom);
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct hist *h = &a->cpus[cpu].h[SCHED_RUNQUEUE];
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
	html_figure_close(f, "Runqueue latency per CPU: p50, p90, p99 and max (log scale).");
}

static void dist_row(FILE *f, const char *label, const struct hist *h)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	char b[16];
	int i;

	if (!h->count)
		return;
	fputs("<tr><td class=l>", f);
	html_esc(f, label);
	fprintf(f, "</td><td>%" PRIu64 "</td><td>%s</td>", h->count, render_ns(h->min, b, 16));
	fprintf(f, "<td>%s</td>", render_ns((uint64_t)hist_mean(h), b, 16));
	for (i = 0; i < 4; i++)
		fprintf(f, "<td>%s</td>", render_ns(hist_percentile(h, ps[i]), b, 16));
	fprintf(f, "<td>%s</td></tr>\n", render_ns(h->max, b, 16));
}

static void latency_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_latency *a = analyze_latency(r);
	uint32_t n, i, shown = 0, *t;
	char label[64];

	fputs("<h2 id=latency>Latency</h2>\n", f);
	latency_cdf(f, r);
	latency_histogram(f, r);
	runqueue_per_cpu(f, r);
	fputs("<table><tr><th class=l>wakeup latency</th><th>count</th><th>min</th><th>mean</th>"
	      "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", f);
	dist_row(f, "all threads", &a->overall.h[SCHED_WAKEUP]);
	t = report_threads_sorted(r, &n, by_p99_wakeup);
	for (i = 0; t && i < n && shown < v->top; i++) {
		if (!a->threads[t[i]].h[SCHED_WAKEUP].count)
			continue;
		dist_row(f, report_thread_label(r, t[i], label, sizeof(label)),
			 &a->threads[t[i]].h[SCHED_WAKEUP]);
		shown++;
	}
	free(t);
	fputs("<tr><th class=l>runqueue latency</th><th colspan=8></th></tr>\n", f);
	dist_row(f, "all threads", &a->overall.h[SCHED_RUNQUEUE]);
	fputs("</table>\n", f);
}

/* --- JSON --- */

/* The latencies of the object being written: @c->aux, set by the getter of "latency". */
static json_object *get_kind(const struct json_field *f, struct json_ctx *c)
{
	const struct latency_result *x = c->aux;

	return json_doc_dist(c, &x->h[strcmp(f->name, "wakeup") ? SCHED_RUNQUEUE : SCHED_WAKEUP]);
}

static const struct json_field kinds[] = {
	{ .name = "wakeup", .type = JSON_DIST, .get = get_kind }, { .name = "runqueue", .type = JSON_DIST, .get = get_kind },
	JSON_END
};

static json_object *latency_of(struct json_ctx *c, const struct latency_result *x)
{
	struct json_ctx k = *c;

	k.aux = x;
	return json_doc_object(kinds, &k);
}

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return latency_of(c, &analyze_latency(render_report(c))->threads[c->id]);
}

static json_object *get_process(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return latency_of(c, &analyze_latency(render_report(c))->procs[c->id]);
}

static json_object *get_cpu(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_latency *a = analyze_latency(render_report(c));

	(void)f;
	return c->id < a->nr_cpus ? latency_of(c, &a->cpus[c->id]) : NULL;
}

static const struct json_field cpu_fields[] = {
	{ .name = "latency", .type = JSON_OBJ, .sub = kinds, .flags = JSON_OPTIONAL, .def = "latency", .get = get_cpu },
	JSON_END
};

static const struct json_field thread_fields[] = {
	{ .name = "latency", .type = JSON_OBJ, .sub = kinds, .def = "latency", .get = get_thread }, JSON_END
};

static const struct json_field process_fields[] = {
	{ .name = "latency", .type = JSON_OBJ, .sub = kinds, .def = "latency", .get = get_process }, JSON_END
};

static json_object *get_step(const struct json_field *f, struct json_ctx *c)
{
	const struct latency_result *x = c->aux;

	if (!x->step[0].count)
		return NULL;
	return json_doc_dist(c, &x->step[f->off]);
}

static int has_idle_slots(const struct json_ctx *c)
{
	const struct analyze_latency *a = analyze_latency(render_report(c));
	uint32_t k;

	for (k = 0; k < LATENCY_IDLE_SLOTS; k++)
		if (a->overall_idle[k].count)
			return 1;
	return 0;
}

static int next_idle_slot(struct json_ctx *c, size_t *pos)
{
	const struct analyze_latency *a = analyze_latency(render_report(c));

	while (*pos < LATENCY_IDLE_SLOTS && !a->overall_idle[*pos].count)
		(*pos)++;
	if (*pos >= LATENCY_IDLE_SLOTS)
		return 0;
	c->id = (*pos)++;
	c->item = &a->overall_idle[c->id];
	return 1;
}

static json_object *get_idle_slot(const struct json_field *f, struct json_ctx *c)
{
	char name[32];

	if (!strcmp(f->name, "state"))
		return json_object_new_int64((int64_t)c->id - 1);
	if (!strcmp(f->name, "name"))
		return c->id ? json_doc_str(analyze_power_state_name(render_report(c), 0,
								     (uint32_t)c->id - 1, name,
								     sizeof(name))) : NULL;
	return json_doc_dist(c, c->item);
}

static const struct json_field idle_slot_fields[] = {
	{ .name = "state", .type = JSON_INT, .get = get_idle_slot,
	  .description = "the target CPU's cpuidle state at the waking, -1: in none" },
	{ .name = "name", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_idle_slot,
	  .description = "its name (CPU 0's)" },
	{ .name = "latency", .type = JSON_DIST, .get = get_idle_slot },
	JSON_END
};

/* The section's: the kinds, and a wakeup's two steps when they were recorded. */
static const struct json_field section_kinds[] = {
	{ .name = "wakeup", .type = JSON_DIST, .get = get_kind },
	{ .name = "runqueue", .type = JSON_DIST, .get = get_kind },
	{ .name = "waking_to_enqueue", .type = JSON_DIST, .flags = JSON_OPTIONAL, .off = 0,
	  .get = get_step,
	  .description = "of the wakeups whose enqueue was recorded (-e wakeup): waking to "
			 "sched_wakeup" },
	{ .name = "enqueue_to_run", .type = JSON_DIST, .flags = JSON_OPTIONAL, .off = 1,
	  .get = get_step, .description = "their sched_wakeup to switch-in" },
	{ .name = "by_target_idle_state", .type = JSON_ARR, .sub = idle_slot_fields,
	  .flags = JSON_OPTIONAL, .next = next_idle_slot, .present = has_idle_slots,
	  .description = "wakeup latency by the idle state the waking's target CPU was in "
			 "(-e power)" },
	JSON_END
};

static json_object *get_section(const struct json_field *f, struct json_ctx *c)
{
	struct json_ctx k = *c;

	(void)f;
	k.aux = &analyze_latency(render_report(c))->overall;
	return json_doc_object(section_kinds, &k);
}

static const struct json_field latency_doc[] = {
	{ .name = "latency", .type = JSON_OBJ, .sub = section_kinds, .flags = 0, .description = "wakeup and runqueue latency of the selected threads", .get = get_section },
	JSON_END
};

/* --- Findings --- */

/* Threads that waited longer than the rule's threshold on @cpu. */
static uint64_t affected(const struct report *r, enum sched_latency kind, uint32_t cpu)
{
	const struct pairs *p = &analyze_latency(r)->over[kind];
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].a == cpu && r->thread_selected[p->v[i].b])
			n++;
	return n;
}

static int judge_runqueue(struct findings *f, const struct report *r, double th)
{
	const struct analyze_latency *a = analyze_latency(r);
	uint32_t cpu;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct hist *h = &a->cpus[cpu].h[SCHED_RUNQUEUE];
		double p99 = hist_percentile(h, 99) / 1e6;
		struct finding *x;

		if (!report_cpu_shown(r, cpu) || h->count < findings_min_samples(&r->cfg.findings) ||
		    p99 <= th)
			continue;
		x = findings_add(f, SUBJECT_CPU, cpu, p99, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text),
			 "CPU %u runqueue: p99 runqueue latency %.3f ms > %g ms over %" PRIu64
			 " waits in its runqueue; %" PRIu64 " thread%s waited longer than %g ms",
			 cpu, p99, th, h->count, affected(r, SCHED_RUNQUEUE, cpu),
			 affected(r, SCHED_RUNQUEUE, cpu) == 1 ? "" : "s", th);
	}
	return 0;
}

static int judge_wakeup(struct findings *f, const struct report *r, double th)
{
	const struct analyze_latency *a = analyze_latency(r);
	char name[64];
	uint32_t t;

	for (t = 0; t < r->model->sched.nr_threads; t++) {
		const struct hist *h = &a->threads[t].h[SCHED_WAKEUP];
		double p99 = hist_percentile(h, 99) / 1e6;
		struct finding *x;

		if (!r->thread_selected[t] || h->count < findings_min_samples(&r->cfg.findings) ||
		    p99 <= th)
			continue;
		x = findings_add(f, SUBJECT_THREAD, t, p99, th);
		if (!x)
			return -ENOMEM;
		snprintf(name, sizeof(name), "%s (pid %u)", report_thread_name(r, t),
			 r->model->sched.threads[t].pid);
		snprintf(x->text, sizeof(x->text),
			 "thread %s: p99 wakeup latency %.3f ms > %g ms over %" PRIu64
			 " wakeups (max %.3f ms)", name, p99, th, h->count, h->max / 1e6);
	}
	return 0;
}

static const struct findings_rule latency_rules[] = {
	{ "runqueue", "ms", 10, "a CPU's p99 runqueue latency is above this", judge_runqueue },
	{ "wakeup", "ms", 5, "a thread's p99 wakeup latency is above this", judge_wakeup },
	{ NULL }
};

/* --- diff --- */

static const struct hist *machine_wakeup(const struct report *r, uint32_t id)
{
	(void)id;
	return &analyze_latency(r)->overall.h[SCHED_WAKEUP];
}

static const struct hist *machine_runqueue(const struct report *r, uint32_t id)
{
	(void)id;
	return &analyze_latency(r)->overall.h[SCHED_RUNQUEUE];
}

static const struct hist *cpu_wakeup(const struct report *r, uint32_t cpu)
{
	const struct analyze_latency *a = analyze_latency(r);

	return cpu < a->nr_cpus ? &a->cpus[cpu].h[SCHED_WAKEUP] : NULL;
}

static const struct hist *cpu_runqueue(const struct report *r, uint32_t cpu)
{
	const struct analyze_latency *a = analyze_latency(r);

	return cpu < a->nr_cpus ? &a->cpus[cpu].h[SCHED_RUNQUEUE] : NULL;
}

static const struct hist *thread_wakeup(const struct report *r, uint32_t t)
{
	return &analyze_latency(r)->threads[t].h[SCHED_WAKEUP];
}

static const struct hist *thread_runqueue(const struct report *r, uint32_t t)
{
	return &analyze_latency(r)->threads[t].h[SCHED_RUNQUEUE];
}

#define GROUPS (DIFF_GROUP_THREAD | DIFF_GROUP_PROCESS)

static const struct diff_metric latency_metrics[] = {
	{ .name = "wakeup latency", .entity = DIFF_MACHINE, .kind = METRIC_DIST, .dist = machine_wakeup },
	{ .name = "runqueue latency", .entity = DIFF_MACHINE, .kind = METRIC_DIST, .dist = machine_runqueue },
	{ .name = "wakeup latency", .entity = DIFF_CPU, .kind = METRIC_DIST, .dist = cpu_wakeup },
	{ .name = "runqueue latency", .entity = DIFF_CPU, .kind = METRIC_DIST, .dist = cpu_runqueue },
	{ .name = "wakeup latency", .entity = DIFF_THREADS, .kind = METRIC_DIST, .groups = GROUPS, .dist = thread_wakeup },
	{ .name = "runqueue latency", .entity = DIFF_THREADS, .kind = METRIC_DIST, .groups = GROUPS, .dist = thread_runqueue },
	{ NULL }
};

const struct analyzer analyzer_latency = {
	.name = "latency",
	.help = "wakeup and runqueue latency distributions, per\nthread, process, CPU and overall",
	.size = sizeof(struct analyze_latency),
	.init = latency_init,
	.fini = latency_fini,
	.derive = latency_derive,
	.text = latency_text,
	.summary = latency_summary,
	.html = latency_html,
	.nav = "latency",
	.doc = latency_doc,
	.fields = { [ENTITY_CPU] = cpu_fields, [ENTITY_THREAD] = thread_fields,
		    [ENTITY_PROCESS] = process_fields },
	.rules = latency_rules,
	.metrics = latency_metrics,
	.tool = {
		"analyze_wakeup_latency", "Wakeup and runqueue latency",
		"Wakeup latency (waking to running) and runqueue latency (preempted to running): "
		"count, min, mean, p50, p90, p99, p99.9, max, overall, per CPU, and per thread and "
		"process, worst p99 wakeup latency first.",
		ARGS_ANALYSIS, 1u << KTP_REC_WAKING, "latency.wakeup.p99_ns",
	},
};
