// SPDX-License-Identifier: GPL-2.0
/* The text report: aligned tables with units, 80 columns where possible. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/render.h"
#include "util/text.h"	/* names from the capture: text_esc() */

#define SUMMARY_ROWS 5
#define SUMMARY_FINDINGS 3

const char *render_ns(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000ull, "s" }, { 1000000ull, "ms" }, { 1000ull, "us" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double v = (double)ns / units[i].div;

		if (ns < units[i].div)
			continue;
		snprintf(buf, len, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s",
			 v, units[i].unit);
		return buf;
	}
	snprintf(buf, len, "%" PRIu64 " ns", ns);
	return buf;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static double per_s(uint64_t n, uint64_t ns)
{
	return ns ? n / (ns / 1e9) : 0;
}

/* The rows to print: all, --top N, or a few in the summary. */
static unsigned int rows(const struct report_view *v)
{
	return v->summary ? SUMMARY_ROWS : v->top;
}

static void heading(FILE *out, const char *title)
{
	fprintf(out, "\n%s\n", title);
}

/* --- Header --- */

static void print_unknown(FILE *out, const struct report *r)
{
	const char *what[SCHED_NR_GAPS] = { "no data", "lost records", "offline" };
	char a[32];
	uint32_t cpu;
	int g, any = 0;

	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		const char *sep = "";

		if (!report_cpu_shown(r, cpu) ||
		    !(c->gap_ns[0] + c->gap_ns[1] + c->gap_ns[2]))
			continue;
		if (!any++)
			fprintf(out, "excluded (unknown) time, per CPU:\n");
		fprintf(out, "  CPU %-3u", cpu);
		for (g = 0; g < SCHED_NR_GAPS; g++) {
			if (!c->gap_ns[g])
				continue;
			fprintf(out, "%s %s %s", sep, render_ns(c->gap_ns[g], a, sizeof(a)), what[g]);
			sep = ",";
		}
		fputc('\n', out);
	}
	if (!any)
		fprintf(out, "excluded (unknown) time: none\n");
}

static void print_header(FILE *out, const struct report *r)
{
	char a[32], b[128], c[128];

	fprintf(out, "ktprof report: %s\n", r->path);
	if (r->have_meta)
		fprintf(out, "kernel %s (%s), ", text_esc(r->meta.kernel), text_esc(r->meta.machine));
	fprintf(out, "%u CPUs, window %s", r->nr_cpus, render_ns(r->window_ns, a, sizeof(a)));
	if (r->session_start)
		fprintf(out, " (+%s to +%s)",
			render_ns(r->from - r->session_start, b, sizeof(b)),
			render_ns(r->to - r->session_start, c, sizeof(c)));
	fprintf(out, ", %" PRIu64 " events\n", r->events);
	if (r->sched_ext[0].present)
		fprintf(out, "sched_ext: %s at start, %s at stop\n",
			text_esc(sched_ext_str(&r->sched_ext[0], b, sizeof(b))),
			r->sched_ext[1].present ? text_esc(sched_ext_str(&r->sched_ext[1], c, sizeof(c))) : "?");
	fprintf(out, "lost records: %" PRIu64 "%s", r->lost,
		r->lost ? " (their time is excluded from every figure)\n" : "\n");
	print_unknown(out, r);
	if (r->sched.latency_excluded[0] || r->sched.latency_excluded[1])
		fprintf(out, "latencies excluded (overlapping unknown time): %" PRIu64
			" wakeup, %" PRIu64 " runqueue\n", r->sched.latency_excluded[0],
			r->sched.latency_excluded[1]);
	if (r->sched.inconsistent)
		fprintf(out, "warning: %" PRIu64 " switch records contradict the ones before (damaged capture?)\n",
			r->sched.inconsistent);
	if (r->truncated || r->damaged)
		fprintf(out, "warning: the capture is %s (%s): figures cover what was read before\n",
			r->damaged ? "damaged" : "cut short", r->problem);
}

/* --- CPUs --- */

static void print_cpu_row(FILE *out, const char *label, uint64_t busy, uint64_t idle,
			  uint64_t hard, uint64_t soft, uint64_t sw, uint64_t in,
			  uint64_t outm, uint64_t unknown)
{
	char a[16], b[16], c[16], d[16], e[16];

	fprintf(out, "  %-4s %9s %9s %5.1f%% %9s %9s %9.1f %6" PRIu64 " %6" PRIu64 " %9s\n",
		label, render_ns(busy, a, sizeof(a)), render_ns(idle, b, sizeof(b)),
		pct(busy, busy + idle), render_ns(hard, c, sizeof(c)),
		render_ns(soft, d, sizeof(d)), per_s(sw, busy + idle), in, outm,
		unknown ? render_ns(unknown, e, sizeof(e)) : "-");
}

static void print_cpus(FILE *out, const struct report *r)
{
	uint64_t t[8] = { 0 };
	char label[16];
	uint32_t cpu;

	heading(out, "CPUs (utilization = busy / (busy + idle); irq time lies inside them)");
	fprintf(out, "  %-4s %9s %9s %6s %9s %9s %9s %6s %6s %9s\n", "cpu", "busy", "idle",
		"util", "hardirq", "softirq", "switch/s", "mig-in", "mig-out", "unknown");
	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		const struct irq_cpu_result *q = cpu < r->irq.nr_cpus ? &r->irq.cpus[cpu] : NULL;
		uint64_t v[8] = {
			c->busy_ns, c->idle_ns, q ? q->ns[SCHED_HARDIRQ] : 0,
			q ? q->ns[SCHED_SOFTIRQ] : 0, c->switches, c->migrations_in,
			c->migrations_out, c->gap_ns[0] + c->gap_ns[1] + c->gap_ns[2],
		};
		int i;

		if (!report_cpu_shown(r, cpu))
			continue;
		snprintf(label, sizeof(label), "%u", cpu);
		print_cpu_row(out, label, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
		for (i = 0; i < 8; i++)
			t[i] += v[i];
	}
	print_cpu_row(out, "all", t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]);
}

/* --- Runtime --- */

static int by_runtime(const struct report *r, uint32_t a, uint32_t b)
{
	uint64_t x = r->runtime.threads[a].runtime_ns, y = r->runtime.threads[b].runtime_ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void print_threads_runtime(FILE *out, const struct report *r, const struct report_view *v)
{
	uint32_t n, i, *t = report_threads_sorted(r, &n, by_runtime);
	uint64_t machine = r->known_ns;
	char a[16];

	if (!t)
		return;
	fprintf(out, "threads: %u (top %u by runtime)\n", n, n < rows(v) ? n : rows(v));
	fprintf(out, "  %8s %8s %-16s %9s %6s %6s %8s %8s\n", "pid", "tgid", "comm", "runtime",
		"%cpu", "%mach", "vol", "invol");
	for (i = 0; i < n && i < rows(v); i++) {
		const struct runtime_result *rt = &r->runtime.threads[t[i]];
		const struct sched_thread *th = &r->sched.threads[t[i]];

		fprintf(out, "  %8u %8u %-16s %9s %5.1f%% %5.1f%% %8" PRIu64 " %8" PRIu64 "\n",
			th->pid, th->tgid, text_esc(report_thread_name(r, t[i])),
			render_ns(rt->runtime_ns, a, sizeof(a)), pct(rt->runtime_ns, r->window_ns),
			pct(rt->runtime_ns, machine), rt->voluntary, rt->involuntary);
	}
	free(t);
}

static uint32_t *processes_sorted(const struct report *r, uint32_t *n)
{
	uint32_t *v = malloc((r->sched.nr_procs + 1) * sizeof(*v)), p, i, j;

	*n = 0;
	if (!v)
		return NULL;
	for (p = 0; p < r->sched.nr_procs; p++)
		if (r->process_selected[p] && r->procs[p].threads)
			v[(*n)++] = p;
	/* Insertion sort by runtime: process counts are small. */
	for (i = 1; i < *n; i++) {
		uint32_t x = v[i];

		for (j = i; j > 0 && r->procs[v[j - 1]].runtime_ns < r->procs[x].runtime_ns; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v;
}

static void print_processes_runtime(FILE *out, const struct report *r,
				    const struct report_view *v)
{
	uint32_t n, i, *p = processes_sorted(r, &n);
	char a[16];

	if (!p)
		return;
	fprintf(out, "processes: %u (top %u by runtime)\n", n, n < rows(v) ? n : rows(v));
	fprintf(out, "  %8s %-16s %7s %9s %6s %6s %8s %8s\n", "tgid", "comm", "threads",
		"runtime", "%cpu", "%mach", "vol", "invol");
	for (i = 0; i < n && i < rows(v); i++) {
		const struct process_result *pr = &r->procs[p[i]];

		fprintf(out, "  %8u %-16s %7u %9s %5.1f%% %5.1f%% %8" PRIu64 " %8" PRIu64 "\n",
			r->sched.procs[p[i]].tgid, text_esc(r->sched.procs[p[i]].comm), pr->threads,
			render_ns(pr->runtime_ns, a, sizeof(a)), pct(pr->runtime_ns, r->window_ns),
			pct(pr->runtime_ns, r->known_ns), pr->voluntary, pr->involuntary);
	}
	free(p);
}

static void print_runtime(FILE *out, const struct report *r, const struct report_view *v)
{
	heading(out, "runtime (%cpu: of one CPU over the window; %mach: of all CPUs' known time)");
	print_threads_runtime(out, r, v);
	print_processes_runtime(out, r, v);
}

/* --- Latency --- */

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

static int by_p99(const struct report *r, uint32_t a, uint32_t b, enum sched_latency kind)
{
	uint64_t x = hist_percentile(&r->latency.threads[a].h[kind], 99);
	uint64_t y = hist_percentile(&r->latency.threads[b].h[kind], 99);

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

static void print_latency_kind(FILE *out, const struct report *r,
			       const struct report_view *v, enum sched_latency kind)
{
	uint32_t n, i, shown = 0, *t;
	char label[64];
	uint32_t cpu;

	dist_header(out, kind == SCHED_WAKEUP ? "wakeup latency (waking to switch-in)" :
		    "runqueue latency (preemption to switch-in)");
	print_dist(out, "all threads", &r->overall.h[kind]);
	for (cpu = 0; !v->summary && cpu < r->latency.nr_cpus; cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		snprintf(label, sizeof(label), "CPU %u", cpu);
		print_dist(out, label, &r->latency.cpus[cpu].h[kind]);
	}
	t = report_threads_sorted(r, &n, kind == SCHED_WAKEUP ? by_p99_wakeup : by_p99_runqueue);
	for (i = 0; t && i < n && shown < rows(v); i++) {
		const struct sched_thread *th = &r->sched.threads[t[i]];

		if (!r->latency.threads[t[i]].h[kind].count)
			continue;
		snprintf(label, sizeof(label), "%s (%u)", text_esc(report_thread_name(r, t[i])), th->pid);
		print_dist(out, label, &r->latency.threads[t[i]].h[kind]);
		shown++;
	}
	free(t);
}

static void print_latency(FILE *out, const struct report *r, const struct report_view *v)
{
	heading(out, "latency (threads by p99; percentiles nearest-rank)");
	print_latency_kind(out, r, v, SCHED_WAKEUP);
	print_latency_kind(out, r, v, SCHED_RUNQUEUE);
}

/* --- States --- */

static void print_states(FILE *out, const struct report *r, const struct report_view *v)
{
	uint32_t n, i, *t = report_threads_sorted(r, &n, by_runtime);
	int k;

	if (!t)
		return;
	heading(out, "task states (% of the window; unknown: not born yet, exited, or not observed)");
	fprintf(out, "  %8s %-16s %7s %8s %8s %8s %6s %7s\n", "pid", "comm", "running",
		"runnable", "sleep-S", "block-D", "other", "unknown");
	for (i = 0; i < n && i < rows(v); i++) {
		const struct states_result *st = &r->states.threads[t[i]];
		uint64_t known = 0;

		for (k = SCHED_RUNNING; k < SCHED_DEAD; k++)
			known += st->ns[k];
		fprintf(out, "  %8u %-16s %6.1f%% %7.1f%% %7.1f%% %7.1f%% %5.1f%% %6.1f%%\n",
			r->sched.threads[t[i]].pid, text_esc(report_thread_name(r, t[i])),
			pct(st->ns[SCHED_RUNNING], r->window_ns),
			pct(st->ns[SCHED_RUNNABLE], r->window_ns),
			pct(st->ns[SCHED_SLEEPING], r->window_ns),
			pct(st->ns[SCHED_BLOCKED], r->window_ns),
			pct(st->ns[SCHED_OTHER], r->window_ns),
			pct(known < r->window_ns ? r->window_ns - known : 0, r->window_ns));
	}
	free(t);
}

/* --- Migrations --- */

static const char *const class_names[MIGRATION_NR_CLASSES] = {
	"same LLC", "cross-LLC", "cross-NUMA", "unknown topology",
};

static uint64_t migrations_of(const struct report *r, uint32_t t)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < MIGRATION_NR_CLASSES; k++)
		n += r->migrations.threads[t].count[k];
	return n;
}

static int by_migrations(const struct report *r, uint32_t a, uint32_t b)
{
	uint64_t x = migrations_of(r, a), y = migrations_of(r, b);

	return x < y ? 1 : x > y ? -1 : 0;
}

static void print_migrations(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct migrations_result *tot = &r->migrations.total;
	const struct pairs *p = &r->migrations.cpu_pairs;
	uint32_t n, i, shown = 0, *t;

	heading(out, "migrations (sched_migrate_task, classified by the recorded topology)");
	fprintf(out, "  total %" PRIu64 ": %" PRIu64 " same LLC, %" PRIu64 " cross-LLC, %" PRIu64
		" cross-NUMA, %" PRIu64 " unknown topology\n",
		tot->count[0] + tot->count[1] + tot->count[2] + tot->count[3],
		tot->count[0], tot->count[1], tot->count[2], tot->count[3]);
	fprintf(out, "  %-12s %8s  %s\n", "CPU pair", "count", "class");
	for (i = 0; i < p->n && i < rows(v); i++) {
		char pair[32];

		snprintf(pair, sizeof(pair), "%u -> %u", p->v[i].a, p->v[i].b);
		fprintf(out, "  %-12s %8" PRIu64 "  %s\n", pair, p->v[i].count,
			class_names[analyze_migrations_classify(&r->migrations, p->v[i].a, p->v[i].b)]);
	}
	t = report_threads_sorted(r, &n, by_migrations);
	fprintf(out, "  %8s %-16s %8s %8s %9s %10s\n", "pid", "comm", "total", "same", "cross-LLC",
		"cross-NUMA");
	for (i = 0; t && i < n && shown < rows(v); i++) {
		const struct migrations_result *m = &r->migrations.threads[t[i]];

		if (!migrations_of(r, t[i]))
			break;
		fprintf(out, "  %8u %-16s %8" PRIu64 " %8" PRIu64 " %9" PRIu64 " %10" PRIu64 "\n",
			r->sched.threads[t[i]].pid, text_esc(report_thread_name(r, t[i])),
			migrations_of(r, t[i]), m->count[0], m->count[1], m->count[2]);
		shown++;
	}
	free(t);
}

/* --- Preemption and wakers --- */

static const char *who(const struct report *r, uint32_t t, char *buf, size_t len)
{
	if (t == SCHED_IDLE)
		return "swapper";
	snprintf(buf, len, "%s (%u)", text_esc(report_thread_name(r, t)), r->sched.threads[t].pid);
	return buf;
}

static int pair_shown(const struct report *r, uint32_t a, uint32_t b)
{
	return (a < r->sched.nr_threads && r->thread_selected[a]) ||
	       (b < r->sched.nr_threads && r->thread_selected[b]);
}

static void print_preemption(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct pairs *p = &r->preempt.pairs;
	char a[64], b[64];
	uint32_t i, shown = 0;

	heading(out, "preemption (involuntary switch-outs: who was switched in instead)");
	fprintf(out, "  %" PRIu64 " preemptions\n  %8s  %-26s %s\n", r->preempt.total, "count",
		"preemptor", "preempted");
	for (i = 0; i < p->n && shown < rows(v); i++) {
		if (!pair_shown(r, p->v[i].a, p->v[i].b))
			continue;
		fprintf(out, "  %8" PRIu64 "  %-26s %s\n", p->v[i].count,
			who(r, p->v[i].a, a, sizeof(a)), who(r, p->v[i].b, b, sizeof(b)));
		shown++;
	}
}

static void print_wakers(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct pairs *p = &r->wakers.edges;
	char a[64], b[64], c[2][16];
	uint32_t i, shown = 0;

	heading(out, "wakers (who wakes whom; the wakee's wakeup latency)");
	fprintf(out, "  %" PRIu64 " wakings of sleeping threads, %" PRIu64 " of running ones\n",
		r->wakers.wakings, r->wakers.running);
	fprintf(out, "  %8s  %-24s %-22s %8s %8s\n", "count", "waker", "wakee", "mean",
		"max");
	for (i = 0; i < p->n && shown < rows(v); i++) {
		const struct pair *e = &p->v[i];

		if (e->b >= r->sched.nr_threads || !r->thread_selected[e->b])
			continue;
		fprintf(out, "  %8" PRIu64 "  %-24.24s %-22.22s %8s %8s\n", e->count,
			text_esc(report_waker_name(r, e->a, a, sizeof(a))), who(r, e->b, b, sizeof(b)),
			e->n ? render_ns(e->sum / e->n, c[0], 16) : "-",
			e->n ? render_ns(e->max, c[1], 16) : "-");
		shown++;
	}
}

/* --- IRQs --- */

static const char *handler_name(const struct report *r, const struct irq_handler *h,
				char *buf, size_t len)
{
	char sym[128];
	const char *n;

	switch (h->kind) {
	case SCHED_HARDIRQ:
		n = analyze_irq_name(&r->irq, h->id);
		snprintf(buf, len, "irq %" PRIu64 "%s%s", h->id, n ? " " : "", n ? n : "");
		break;
	case SCHED_SOFTIRQ:
		n = analyze_irq_softirq_name(h->id);
		snprintf(buf, len, "softirq %s", n ? n : "?");
		break;
	default:
		snprintf(buf, len, "work %s", report_ksym(r, h->id, sym, sizeof(sym)));
	}
	return buf;
}

static int by_self(const void *a, const void *b)
{
	const struct irq_handler *x = *(struct irq_handler *const *)a;
	const struct irq_handler *y = *(struct irq_handler *const *)b;

	return x->self_ns < y->self_ns ? 1 : x->self_ns > y->self_ns ? -1 : 0;
}

static void print_irq_handlers(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct irq_handler **h = malloc((r->irq.nr_handlers + 1) * sizeof(*h));
	char name[160], b[4][16];
	uint32_t i;

	if (!h)
		return;
	for (i = 0; i < r->irq.nr_handlers; i++)
		h[i] = &r->irq.handlers[i];
	qsort(h, r->irq.nr_handlers, sizeof(*h), by_self);
	fprintf(out, "  %-30s %8s %9s %8s %8s %8s\n", "handler", "count", "time", "mean",
		"p99", "max");
	for (i = 0; i < r->irq.nr_handlers && i < rows(v); i++)
		fprintf(out, "  %-30.30s %8" PRIu64 " %9s %8s %8s %8s\n",
			text_esc(handler_name(r, h[i], name, sizeof(name))), h[i]->durations.count,
			render_ns(h[i]->self_ns, b[0], 16),
			render_ns((uint64_t)hist_mean(&h[i]->durations), b[1], 16),
			render_ns(hist_percentile(&h[i]->durations, 99), b[2], 16),
			render_ns(h[i]->durations.max, b[3], 16));
	free(h);
}

static void print_irq(FILE *out, const struct report *r, const struct report_view *v)
{
	char b[3][16], sym[128];
	uint32_t cpu, i;

	heading(out, "interrupts (self time; work items run in their worker threads)");
	fprintf(out, "  %-4s %9s %8s %9s %8s %9s %8s %9s %9s\n", "cpu", "hardirq", "count",
		"softirq", "count", "work", "count", "ipi-sent", "ipi-recv");
	for (cpu = 0; cpu < r->irq.nr_cpus; cpu++) {
		const struct irq_cpu_result *q = &r->irq.cpus[cpu];

		if (!report_cpu_shown(r, cpu))
			continue;
		fprintf(out, "  %-4u %9s %8" PRIu64 " %9s %8" PRIu64 " %9s %8" PRIu64 " %9" PRIu64
			" %9" PRIu64 "\n", cpu, render_ns(q->ns[0], b[0], 16), q->count[0],
			render_ns(q->ns[1], b[1], 16), q->count[1], render_ns(q->ns[2], b[2], 16),
			q->count[2], q->ipi_sent, q->ipi_received);
	}
	print_irq_handlers(out, r, v);
	if (!r->irq.nr_ipis || v->summary)
		return;
	fprintf(out, "  %-30s %8s %8s\n", "IPI function", "sent", "targets");
	for (i = 0; i < r->irq.nr_ipis; i++)
		fprintf(out, "  %-30.30s %8" PRIu64 " %8" PRIu64 "\n",
			r->irq.ipis[i].callback ? text_esc(report_ksym(r, r->irq.ipis[i].callback, sym,
								  sizeof(sym))) : "(reschedule)",
			r->irq.ipis[i].sent, r->irq.ipis[i].targets);
}

/* --- Findings --- */

static const char *subject_name(const struct report *r, enum finding_subject s, uint32_t id,
				char *buf, size_t len)
{
	if (s == SUBJECT_CPU)
		snprintf(buf, len, "CPU %u", id);
	else if (s == SUBJECT_THREAD)
		snprintf(buf, len, "%s (%u)", text_esc(report_thread_name(r, id)), r->sched.threads[id].pid);
	else
		snprintf(buf, len, "machine");
	return buf;
}

static void print_findings(FILE *out, const struct report *r, const struct report_view *v)
{
	size_t i;

	heading(out, "findings (rule: what crossed its threshold; thresholds: --threshold)");
	if (!r->findings.n)
		fprintf(out, "  none\n");
	for (i = 0; i < r->findings.n && i < (v->summary ? SUMMARY_FINDINGS : rows(v)); i++)
		fprintf(out, "  [%s] %s\n", findings_rules[r->findings.v[i].rule].name,
			text_esc(r->findings.v[i].text));
	if (r->findings.n > (v->summary ? SUMMARY_FINDINGS : rows(v)))
		fprintf(out, "  ... %zu more (--findings)\n",
			r->findings.n - (v->summary ? SUMMARY_FINDINGS : rows(v)));
}

static void print_outliers(FILE *out, const struct report *r, const struct report_view *v)
{
	const char *method = r->cfg.findings.method == OUTLIER_MAD ?
		"MAD: modified z-score > 3.5" : "IQR: above Q3 + 1.5 IQR";
	char name[64];
	size_t i;

	heading(out, "outliers");
	fprintf(out, "  method %s\n", method);
	if (!r->findings.no)
		fprintf(out, "  none\n");
	for (i = 0; i < r->findings.no && i < rows(v); i++) {
		const struct outlier *o = &r->findings.o[i];

		fprintf(out, "  %-20s %-26s %10.3f %s (limit %.3f, score %.2f)\n", o->metric,
			subject_name(r, o->subject, o->id, name, sizeof(name)), o->value, o->unit,
			o->limit, o->score);
	}
}

/* --- Profile --- */

static void print_profile_table(FILE *out, const struct profile *p, int64_t tgid,
				uint64_t samples, unsigned int top)
{
	struct profile_row *rows;
	unsigned int n = profile_rows(p, tgid, &rows), i;

	fprintf(out, "  %8s %6s %8s %6s  %s\n", "self", "self%", "total", "total%", "symbol");
	for (i = 0; i < n && i < top; i++)
		fprintf(out, "  %8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%%  %s\n", rows[i].self,
			pct(rows[i].self, samples), rows[i].total, pct(rows[i].total, samples),
			text_esc(rows[i].symbol));
	free(rows);
}

static void print_profile(FILE *out, const struct report *r, const struct report_view *v)
{
	uint64_t total = profile_samples(r->profile), *samples;
	unsigned int n, i;
	uint32_t *pids;
	char comm[32];

	n = profile_processes(r->profile, &pids, &samples);
	fprintf(out, "%sCPU profile: %" PRIu64 " samples", v->sections == SECTION_PROFILE ?
		"" : "\n", total);
	if (r->have_meta && r->meta.samples[0])
		fprintf(out, " of %s", text_esc(r->meta.samples));
	fprintf(out, ", %u processes\n\n", n);
	fprintf(out, "all processes, top %u symbols:\n", rows(v));
	print_profile_table(out, r->profile, -1, total, rows(v));
	for (i = 0; !v->summary && i < n; i++) {
		fprintf(out, "\nprocess %u %s: %" PRIu64 " samples (%.1f%%)\n", pids[i],
			text_esc(task_table_comm(&r->tasks, pids[i], comm, sizeof(comm))), samples[i],
			pct(samples[i], total));
		print_profile_table(out, r->profile, pids[i], samples[i], v->top);
	}
	free(pids);
	free(samples);
}

/* --- The summary: one screen of every section --- */

#define SUMMARY_CPUS 8		/* more CPUs: the busiest and idlest only */

static void summary_cpus(FILE *out, const struct report *r)
{
	uint32_t cpu, n = 0, hi = 0, lo = 0;
	double uhi = -1, ulo = 101;
	char a[16], b[16];

	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		double u = pct(c->busy_ns, c->busy_ns + c->idle_ns);

		if (!report_cpu_shown(r, cpu))
			continue;
		n++;
		if (u > uhi) {
			uhi = u;
			hi = cpu;
		}
		if (u < ulo) {
			ulo = u;
			lo = cpu;
		}
	}
	fprintf(out, "\nCPUs: %.1f%% busy (%s busy, %s known)", pct(r->busy_ns, r->known_ns),
		render_ns(r->busy_ns, a, sizeof(a)), render_ns(r->known_ns, b, sizeof(b)));
	if (n > SUMMARY_CPUS) {
		fprintf(out, "; busiest CPU %u %.1f%%, idlest CPU %u %.1f%%\n", hi, uhi, lo, ulo);
		return;
	}
	fputc('\n', out);
	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];

		if (report_cpu_shown(r, cpu))
			fprintf(out, "  CPU %-3u %5.1f%% busy, %8.1f switches/s\n", cpu,
				pct(c->busy_ns, c->busy_ns + c->idle_ns),
				per_s(c->switches, c->busy_ns + c->idle_ns));
	}
}

static void summary_threads(FILE *out, const struct report *r)
{
	uint32_t n, i, *t = report_threads_sorted(r, &n, by_runtime);
	char a[16];

	if (!t)
		return;
	fprintf(out, "\nthreads: %u; the busiest:\n", n);
	for (i = 0; i < n && i < SUMMARY_ROWS; i++) {
		const struct runtime_result *rt = &r->runtime.threads[t[i]];

		fprintf(out, "  %-16s %8u  %9s  %5.1f%% of a CPU  %6" PRIu64 " vol %6" PRIu64
			" invol\n", text_esc(report_thread_name(r, t[i])), r->sched.threads[t[i]].pid,
			render_ns(rt->runtime_ns, a, sizeof(a)), pct(rt->runtime_ns, r->window_ns),
			rt->voluntary, rt->involuntary);
	}
	free(t);
}

static void summary_latency(FILE *out, const struct report *r)
{
	static const char *const names[2] = { "wakeup  ", "runqueue" };
	char b[4][16];
	int k;

	fprintf(out, "\nlatency         count      p50      p99      max   worst thread (p99)\n");
	for (k = 0; k < 2; k++) {
		const struct hist *h = &r->overall.h[k];
		uint32_t n, *t = report_threads_sorted(r, &n, k ? by_p99_runqueue : by_p99_wakeup);

		fprintf(out, "  %s %9" PRIu64 " %8s %8s %8s", names[k], h->count,
			render_ns(hist_percentile(h, 50), b[0], 16),
			render_ns(hist_percentile(h, 99), b[1], 16), render_ns(h->max, b[2], 16));
		if (t && n && r->latency.threads[t[0]].h[k].count)
			fprintf(out, "   %s (%u) %s", text_esc(report_thread_name(r, t[0])),
				r->sched.threads[t[0]].pid,
				render_ns(hist_percentile(&r->latency.threads[t[0]].h[k], 99), b[3], 16));
		fputc('\n', out);
		free(t);
	}
}

static void summary_rest(FILE *out, const struct report *r)
{
	const struct migrations_result *m = &r->migrations.total;
	uint64_t hard = 0, soft = 0, work = 0;
	char a[64], b[64], c[16];
	uint32_t cpu;

	fprintf(out, "\nmigrations: %" PRIu64 " (%" PRIu64 " same LLC, %" PRIu64 " cross-LLC, %"
		PRIu64 " cross-NUMA)\n", m->count[0] + m->count[1] + m->count[2] + m->count[3],
		m->count[0], m->count[1], m->count[2]);
	if (r->preempt.pairs.n) {
		const struct pair *p = &r->preempt.pairs.v[0];

		fprintf(out, "preemptions: %" PRIu64 "; most: %s preempting %s, %" PRIu64 " times\n",
			r->preempt.total, who(r, p->a, a, sizeof(a)), who(r, p->b, b, sizeof(b)),
			p->count);
	}
	if (r->wakers.edges.n) {
		const struct pair *e = &r->wakers.edges.v[0];

		fprintf(out, "wakings: %" PRIu64 "; most: %s waking %s, %" PRIu64 " times\n",
			r->wakers.wakings, text_esc(report_waker_name(r, e->a, a, sizeof(a))),
			who(r, e->b, b, sizeof(b)), e->count);
	}
	for (cpu = 0; cpu < r->irq.nr_cpus; cpu++) {
		if (!report_cpu_shown(r, cpu))
			continue;
		hard += r->irq.cpus[cpu].ns[SCHED_HARDIRQ];
		soft += r->irq.cpus[cpu].ns[SCHED_SOFTIRQ];
		work += r->irq.cpus[cpu].ns[SCHED_WORK];
	}
	fprintf(out, "interrupts: hardirq %s, ", render_ns(hard, c, sizeof(c)));
	fprintf(out, "softirq %s, ", render_ns(soft, c, sizeof(c)));
	fprintf(out, "work items %s (%.1f%% of the CPUs' time)\n", render_ns(work, c, sizeof(c)),
		pct(hard + soft, r->known_ns));
	fprintf(out, "outliers: %zu (%s)\n", r->findings.no,
		r->cfg.findings.method == OUTLIER_MAD ? "MAD" : "IQR");
}

static void print_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	print_findings(out, r, v);
	summary_cpus(out, r);
	summary_threads(out, r);
	summary_latency(out, r);
	summary_rest(out, r);
	if (r->profile) {
		fprintf(out, "\nCPU profile: %" PRIu64 " samples; top symbols:\n",
			profile_samples(r->profile));
		print_profile_table(out, r->profile, -1, profile_samples(r->profile), SUMMARY_ROWS);
	}
	fprintf(out, "\nmore: --cpu --runtime --latency --states --migrations --preemption "
		"--wakers\n      --irq --findings --outliers --profile, --json, --html FILE\n");
}

int render_text(const struct report *r, const struct report_view *v, FILE *out)
{
	unsigned int s = v->sections;

	/* --profile alone prints what it always printed. */
	if (s != SECTION_PROFILE)
		print_header(out, r);
	if (v->summary) {
		print_summary(out, r, v);
		return ferror(out) ? -EIO : 0;
	}
	if (s & SECTION_FINDINGS)
		print_findings(out, r, v);
	if (s & SECTION_CPU)
		print_cpus(out, r);
	if (s & SECTION_RUNTIME)
		print_runtime(out, r, v);
	if (s & SECTION_LATENCY)
		print_latency(out, r, v);
	if (s & SECTION_STATES)
		print_states(out, r, v);
	if (s & SECTION_MIGRATIONS)
		print_migrations(out, r, v);
	if (s & SECTION_PREEMPTION)
		print_preemption(out, r, v);
	if (s & SECTION_WAKERS)
		print_wakers(out, r, v);
	if (s & SECTION_IRQ)
		print_irq(out, r, v);
	if (s & SECTION_OUTLIERS)
		print_outliers(out, r, v);
	if ((s & SECTION_PROFILE) && r->profile)
		print_profile(out, r, v);
	return ferror(out) ? -EIO : 0;
}
