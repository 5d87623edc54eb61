// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-balance.h"
#include "report/diff.h"
#include "report/json-build.h"
#include "report/render.h"
#include "report/svg.h"
#include "util/array.h"
#include "util/text.h"

#define NONE UINT64_MAX

/*
 * The pass keeps, for each CPU, whether it is idle, busy or unknown and
 * who waits in its runqueue (the model's wait hook), and from those every
 * figure as an integral over time, clipped to the window: a CPU pair is
 * "active" while the first CPU idles and the second is busy with a
 * waiting thread the first may run. Threads that may run anywhere (most)
 * cost O(1) a change through the per-CPU integral x; threads with a
 * partial mask are visited at each idle CPU's change (at most
 * BALANCE_MAX_MASKED of them, the rest counted as unattributed).
 */

static uint64_t clamp_ts(const struct analyze_balance *a, uint64_t ts)
{
	const struct sched *s = &a->m->sched;

	return ts < s->from ? s->from : ts > s->to ? s->to : ts;
}

/* --- Run-queue depth --- */

static int depth_of(const struct balance_cpu *c)
{
	return c->state == BALANCE_UNKNOWN ? -1 : (int)(c->waiting + (c->state == BALANCE_BUSY));
}

/* Halve the heatmap's resolution until @ts fits in its columns. */
static void bins_fit(struct analyze_balance *a, uint64_t ts)
{
	uint32_t cpu, k;

	while ((ts - a->bin_from) / BALANCE_BINS >= a->bin_ns) {
		for (cpu = 0; cpu < a->n; cpu++) {
			struct balance_cpu *c = &a->cpus[cpu];

			for (k = 0; k < BALANCE_BINS / 2; k++) {
				c->bin_area[k] = c->bin_area[2 * k] + c->bin_area[2 * k + 1];
				c->bin_ns[k] = c->bin_ns[2 * k] + c->bin_ns[2 * k + 1];
			}
			memset(c->bin_area + k, 0, sizeof(c->bin_area) / 2);
			memset(c->bin_ns + k, 0, sizeof(c->bin_ns) / 2);
		}
		a->bin_ns *= 2;
		a->nr_bins = (a->nr_bins + 1) / 2;
	}
}

/* [from, to) at @depth into the heatmap's columns (offsets: no overflow near 2^64). */
static void bins_add(struct analyze_balance *a, struct balance_cpu *c, uint64_t from,
		     uint64_t to, int depth)
{
	uint64_t off, end, left;
	uint32_t k;

	if (from < a->bin_from)
		from = a->bin_from;
	if (from >= to)
		return;
	bins_fit(a, to - 1);
	while (from < to) {
		off = from - a->bin_from;
		k = (uint32_t)(off / a->bin_ns);
		left = a->bin_ns - off % a->bin_ns;
		end = to - from <= left ? to : from + left;
		c->bin_area[k] += (double)depth * (end - from);
		c->bin_ns[k] += end - from;
		if (k + 1 > a->nr_bins)
			a->nr_bins = k + 1;
		from = end;
	}
}

/* The depth @c held since its last change, up to @ts. */
static void depth_close(struct analyze_balance *a, struct balance_cpu *c, uint64_t ts)
{
	int d = depth_of(c);
	uint64_t dt = ts > c->depth_since ? ts - c->depth_since : 0;

	if (d >= 0 && dt) {
		c->depth_area += (double)d * dt;
		c->depth_ns += dt;
		c->at_depth[d < BALANCE_DEPTHS - 1 ? d : BALANCE_DEPTHS - 1] += dt;
		if ((uint32_t)d > c->depth_max)
			c->depth_max = d;
		bins_add(a, c, c->depth_since, ts, d);
	}
	if (ts > c->depth_since)
		c->depth_since = ts;
}

/* --- Pairs, and the rows and columns they make --- */

static void worst_push(struct analyze_balance *a, uint32_t idle, uint32_t busy, uint64_t start,
		       uint64_t ns)
{
	uint32_t k = a->nr_worst < BALANCE_WORST ? a->nr_worst++ : BALANCE_WORST;

	if (!ns || (k == BALANCE_WORST && a->worst[k - 1].ns >= ns))
		return;
	if (k == BALANCE_WORST)
		k--;
	while (k && a->worst[k - 1].ns < ns) {
		a->worst[k] = a->worst[k - 1];
		k--;
	}
	a->worst[k] = (struct balance_worst){ idle, busy, start, ns };
}

static void row_add(struct analyze_balance *a, uint32_t i, uint32_t j, uint64_t ts, int on)
{
	struct balance_cpu *c = &a->cpus[i];

	if (on) {
		if (!c->row++) {
			c->row_since = ts;
			c->row_first = j;
		}
		return;
	}
	if (--c->row)
		return;
	c->idle_waiting_ns += ts - c->row_since;
	worst_push(a, i, c->row_first, c->row_since, ts - c->row_since);
}

static void col_add(struct analyze_balance *a, uint32_t j, uint64_t ts, int on)
{
	struct balance_cpu *c = &a->cpus[j];

	if (on) {
		if (!c->col++)
			c->col_since = ts;
	} else if (!--c->col) {
		c->busy_stranding_ns += ts - c->col_since;
	}
}

/* Idle CPU @i and busy CPU @j: whether a thread waiting on @j may run on @i now. */
static void pair_update(struct analyze_balance *a, uint32_t i, uint32_t j, uint64_t ts)
{
	const struct balance_cpu *ci = &a->cpus[i], *cj = &a->cpus[j];
	uint64_t *since = &a->pair_since[(size_t)i * a->n + j];
	int on = i != j && ci->state == BALANCE_IDLE && cj->state == BALANCE_BUSY &&
		 (cj->nall || a->cmask[(size_t)j * a->n + i]);

	if (on == (*since != NONE))
		return;
	if (on) {
		*since = ts;
	} else {
		a->pair_ns[(size_t)i * a->n + j] += ts - *since;
		*since = NONE;
	}
	row_add(a, i, j, ts, on);
	col_add(a, j, ts, on);
}

static void pairs_of(struct analyze_balance *a, uint32_t cpu, uint64_t ts)
{
	uint32_t k;

	if (!a->pairs_kept)
		return;
	for (k = 0; k < a->n; k++) {
		pair_update(a, cpu, k, ts);
		pair_update(a, k, cpu, ts);
	}
}

/* --- Stranded threads --- */

static uint64_t x_now(const struct balance_cpu *c, uint64_t ts)
{
	return c->x_val + (c->x_rate ? ts - c->x_since : 0);
}

/* @c's integral goes on at the rate its state and the idle CPUs give now. */
static void x_set(struct analyze_balance *a, struct balance_cpu *c, uint64_t ts)
{
	c->x_val = x_now(c, ts);
	c->x_since = ts;
	c->x_rate = c->state == BALANCE_BUSY && a->nr_idle > 0;
}

/* A thread with a partial mask: stranded while its CPU is busy and one it may use idles. */
static void masked_update(struct analyze_balance *a, struct balance_thread *th, uint64_t ts,
			  int leaving)
{
	int on = !leaving && a->cpus[th->cpu].state == BALANCE_BUSY && th->nidle > 0;

	if (on && th->s_since == NONE) {
		th->s_since = ts;
	} else if (!on && th->s_since != NONE) {
		th->stranded_ns += ts - th->s_since;
		th->s_since = NONE;
	}
}

static void set_state(struct analyze_balance *a, uint32_t cpu, enum balance_state st,
		      uint64_t ts)
{
	struct balance_cpu *c = &a->cpus[cpu];
	const struct sched *s = &a->m->sched;
	int had_idle = a->nr_idle > 0, d = 0;
	uint32_t k;

	if (c->state == st)
		return;
	depth_close(a, c, ts);
	if (c->state == BALANCE_IDLE) {
		a->nr_idle--;
		c->idle_ns += ts - c->idle_since;
		d = -1;
	}
	if (st == BALANCE_IDLE) {
		a->nr_idle++;
		c->idle_since = ts;
		d = 1;
	}
	c->state = st;
	for (k = 0; k < a->nr_masked; k++) {
		struct balance_thread *th = &a->threads[a->masked[k]];

		if (th->cpu != (int32_t)cpu && d && sched_mask_has(s, th->mask, cpu))
			th->nidle += d;
		masked_update(a, th, ts, 0);
	}
	if (had_idle != (a->nr_idle > 0)) {
		for (k = 0; k < a->n; k++)
			x_set(a, &a->cpus[k], ts);
	} else {
		x_set(a, c, ts);
	}
	pairs_of(a, cpu, ts);
}

static void masked_add(struct analyze_balance *a, uint32_t t, struct balance_thread *th,
		       uint64_t ts)
{
	const struct sched *s = &a->m->sched;
	uint32_t i, j = (uint32_t)th->cpu;

	if (a->nr_masked == BALANCE_MAX_MASKED) {
		a->unattributed++;
		return;
	}
	a->masked[a->nr_masked++] = t;
	th->slot = a->nr_masked;
	th->nidle = 0;
	for (i = 0; i < a->n; i++) {
		if (!sched_mask_has(s, th->mask, i))
			continue;
		if (i != j && a->cpus[i].state == BALANCE_IDLE)
			th->nidle++;
		if (a->pairs_kept && i != j && !a->cmask[(size_t)j * a->n + i]++)
			pair_update(a, i, j, ts);
	}
	masked_update(a, th, ts, 0);
}

static void masked_remove(struct analyze_balance *a, struct balance_thread *th, uint64_t ts)
{
	const struct sched *s = &a->m->sched;
	uint32_t i, j = (uint32_t)th->cpu, last;

	if (!th->slot)
		return;
	masked_update(a, th, ts, 1);
	last = a->masked[--a->nr_masked];
	a->masked[th->slot - 1] = last;
	a->threads[last].slot = th->slot;
	th->slot = 0;
	for (i = 0; a->pairs_kept && i < a->n; i++)
		if (i != j && sched_mask_has(s, th->mask, i) &&
		    !--a->cmask[(size_t)j * a->n + i])
			pair_update(a, i, j, ts);
}

static void wait_enter(struct analyze_balance *a, uint32_t t, uint32_t j, uint64_t ts)
{
	struct balance_thread *th = &a->threads[t];
	struct balance_cpu *c = &a->cpus[j];
	uint32_t i;

	depth_close(a, c, ts);
	c->waiting++;
	th->cpu = (int32_t)j;
	th->since = ts;
	th->mask = a->m->sched.threads[t].mask;
	th->s_since = NONE;
	if (th->mask) {
		masked_add(a, t, th, ts);
		return;
	}
	th->x_at = x_now(c, ts);
	if (!c->nall++)
		for (i = 0; a->pairs_kept && i < a->n; i++)
			pair_update(a, i, j, ts);
}

static void wait_leave(struct analyze_balance *a, uint32_t t, uint64_t ts)
{
	struct balance_thread *th = &a->threads[t];
	struct balance_cpu *c;
	uint32_t i, j;

	if (th->cpu < 0)
		return;
	j = (uint32_t)th->cpu;
	c = &a->cpus[j];
	depth_close(a, c, ts);
	c->waiting--;
	th->wait_ns += ts - th->since;
	if (th->mask) {
		masked_remove(a, th, ts);
	} else {
		th->stranded_ns += x_now(c, ts) - th->x_at;
		if (!--c->nall)
			for (i = 0; a->pairs_kept && i < a->n; i++)
				pair_update(a, i, j, ts);
	}
	th->cpu = -1;
}

/* --- The model's hooks --- */

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_balance *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap_threads, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	memset(&a->threads[t], 0, sizeof(a->threads[t]));
	a->threads[t].cpu = -1;
	a->threads[t].s_since = NONE;
	if (t + 1 > a->nr_threads)
		a->nr_threads = t + 1;
	return 0;
}

static void on_wait(void *ctx, uint32_t t, int32_t from, int32_t to, uint64_t ts)
{
	struct analyze_balance *a = ctx;

	(void)from;
	if (t >= a->nr_threads)
		return;
	ts = clamp_ts(a, ts);
	wait_leave(a, t, ts);
	if (to >= 0 && (uint32_t)to < a->n)
		wait_enter(a, t, (uint32_t)to, ts);
}

/* A waiting thread's mask changed: it waits on, with the new one. */
static void on_affinity(void *ctx, uint32_t t, uint64_t ts)
{
	struct analyze_balance *a = ctx;
	int32_t cpu;

	if (t >= a->nr_threads || a->threads[t].cpu < 0)
		return;
	ts = clamp_ts(a, ts);
	cpu = a->threads[t].cpu;
	wait_leave(a, t, ts);
	wait_enter(a, t, (uint32_t)cpu, ts);
}

/* After the model took an event: the state of its CPU now. */
static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_balance *a = ctx;
	uint32_t pid;
	uint64_t ts;

	if (ev->cpu >= a->n)
		return 0;
	ts = clamp_ts(a, ev->ts);
	if (!a->bin_ns) {
		a->bin_from = ts;
		a->bin_ns = 1000000;
	}
	pid = sched_cpu_pid(&a->m->sched, ev->cpu);
	set_state(a, ev->cpu, pid == SCHED_PID_UNKNOWN ? BALANCE_UNKNOWN :
			      pid ? BALANCE_BUSY : BALANCE_IDLE, ts);
	return a->error;
}

static const struct sched_ops balance_ops = {
	.thread_new = on_thread_new,
	.wait = on_wait,
	.affinity = on_affinity,
	.event = on_event,
};

static int balance_init(void *state, struct report *r)
{
	struct analyze_balance *a = state;
	size_t nn;
	uint32_t k;

	a->r = r;
	a->m = r->model;
	a->n = r->model->sched.nr_cpus > r->model->nr_cpus ? r->model->sched.nr_cpus :
							      r->model->nr_cpus;
	a->cpus = calloc(a->n ? a->n : 1, sizeof(*a->cpus));
	a->masked = malloc(BALANCE_MAX_MASKED * sizeof(*a->masked));
	if (!a->cpus || !a->masked)
		return -ENOMEM;
	a->pairs_kept = a->n <= BALANCE_MAX_CPUS;
	if (a->pairs_kept) {
		nn = (size_t)a->n * a->n;
		a->cmask = calloc(nn ? nn : 1, sizeof(*a->cmask));
		a->pair_since = malloc((nn ? nn : 1) * sizeof(*a->pair_since));
		a->pair_ns = calloc(nn ? nn : 1, sizeof(*a->pair_ns));
		if (!a->cmask || !a->pair_since || !a->pair_ns)
			return -ENOMEM;
		for (k = 0; k < nn; k++)
			a->pair_since[k] = NONE;
	}
	return model_add_client(r->model, &balance_ops, a, 0);
}

static void balance_fini(void *state)
{
	struct analyze_balance *a = state;

	free(a->cpus);
	free(a->masked);
	free(a->cmask);
	free(a->pair_since);
	free(a->pair_ns);
	free(a->threads);
	free(a->procs);
	free(a->pairs);
}

struct pair_rank {
	uint64_t ns;
	uint32_t k;		/* idle CPU * n + busy CPU */
};

static int by_pair_ns(const void *x, const void *y)
{
	const struct pair_rank *p = x, *q = y;

	if (p->ns != q->ns)
		return p->ns < q->ns ? 1 : -1;
	return (p->k > q->k) - (p->k < q->k);
}

/* The pairs with time whose idle CPU is shown, largest first (a->pairs). */
static int pairs_rank(struct analyze_balance *a)
{
	size_t k, nn = a->pairs_kept ? (size_t)a->n * a->n : 0;
	struct pair_rank *v;
	uint32_t n = 0;

	for (k = 0; k < nn; k++)
		if (a->pair_ns[k] && report_cpu_shown(a->r, (uint32_t)(k / a->n)))
			n++;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	a->pairs = malloc(n * sizeof(*a->pairs));
	if (!v || !a->pairs) {
		free(v);
		return -ENOMEM;
	}
	n = 0;
	for (k = 0; k < nn; k++)
		if (a->pair_ns[k] && report_cpu_shown(a->r, (uint32_t)(k / a->n)))
			v[n++] = (struct pair_rank){ a->pair_ns[k], (uint32_t)k };
	qsort(v, n, sizeof(*v), by_pair_ns);
	for (k = 0; k < n; k++)
		a->pairs[k] = v[k].k;
	a->nr_pairs = n;
	free(v);
	return 0;
}

/* The end: every wait and every CPU's state closed at the window's end. */
static int balance_derive(void *state, struct report *r)
{
	struct analyze_balance *a = state;
	const struct sched *s = &r->model->sched;
	uint64_t end = clamp_ts(a, r->model->to);
	uint32_t t, cpu;

	if (!a->bin_ns)
		return 0;
	for (t = 0; t < a->nr_threads; t++)
		wait_leave(a, t, end);
	for (cpu = 0; cpu < a->n; cpu++)
		set_state(a, cpu, BALANCE_UNKNOWN, end);
	a->procs = calloc(s->nr_procs + 1, sizeof(*a->procs));
	if (!a->procs)
		return -ENOMEM;
	for (t = 0; t < a->nr_threads && t < s->nr_threads; t++)
		if (r->thread_selected[t])
			a->procs[s->threads[t].process] += a->threads[t].stranded_ns;
	return a->error ? a->error : pairs_rank(a);
}

const struct analyze_balance *analyze_balance(const struct report *r)
{
	return report_state(r, &analyzer_balance);
}

uint64_t analyze_balance_pair(const struct analyze_balance *a, uint32_t idle_cpu,
			      uint32_t busy_cpu)
{
	if (!a->pairs_kept || idle_cpu >= a->n || busy_cpu >= a->n)
		return 0;
	return a->pair_ns[(size_t)idle_cpu * a->n + busy_cpu];
}

/* --- Figures --- */

static double depth_mean(const struct balance_cpu *c)
{
	return c->depth_ns ? c->depth_area / c->depth_ns : NAN;
}

static int cpu_shown(const struct analyze_balance *a, uint32_t cpu)
{
	return report_cpu_shown(a->r, cpu) && a->cpus[cpu].depth_ns;
}

static uint64_t idle_waiting_total(const struct analyze_balance *a)
{
	uint64_t ns = 0;
	uint32_t cpu;

	for (cpu = 0; cpu < a->n; cpu++)
		if (report_cpu_shown(a->r, cpu))
			ns += a->cpus[cpu].idle_waiting_ns;
	return ns;
}

static int by_stranded(const struct report *r, uint32_t x, uint32_t y)
{
	const struct analyze_balance *a = analyze_balance(r);
	uint64_t p = x < a->nr_threads ? a->threads[x].stranded_ns : 0;
	uint64_t q = y < a->nr_threads ? a->threads[y].stranded_ns : 0;

	return p < q ? 1 : p > q ? -1 : 0;
}

static const char *affinity_note(const struct analyze_balance *a)
{
	if (a->m->have_meta && (a->m->meta.abi_major > 1 || a->m->meta.abi_minor >= 5))
		return "threads may run where their last AFFINITY record allows; anywhere "
		       "without one";
	return "the capture has no affinity (record ABI before 1.5): every thread is taken "
	       "to run anywhere";
}

/* --- Text --- */

static void text_cpus(FILE *out, const struct analyze_balance *a)
{
	char ns[16], ns2[16], ns3[16], pct[16];
	uint32_t cpu, d;

	fprintf(out, "  %-4s %10s %10s %8s %10s %6s %4s  %s\n", "cpu", "idle", "idle, work",
		"of idle", "stranding", "depth", "max", "time at depth 0 1 2 3 4+ (%)");
	for (cpu = 0; cpu < a->n; cpu++) {
		const struct balance_cpu *c = &a->cpus[cpu];
		uint64_t deep = 0;

		if (!cpu_shown(a, cpu))
			continue;
		snprintf(pct, sizeof(pct), "%.1f%%", render_pct(c->idle_waiting_ns, c->idle_ns));
		fprintf(out, "  %-4u %10s %10s %8s %10s %6.2f %4u ", cpu,
			render_ns(c->idle_ns, ns, sizeof(ns)),
			render_ns(c->idle_waiting_ns, ns2, sizeof(ns2)), pct,
			render_ns(c->busy_stranding_ns, ns3, sizeof(ns3)), depth_mean(c), c->depth_max);
		for (d = 0; d < 4; d++)
			fprintf(out, " %5.1f", render_pct(c->at_depth[d], c->depth_ns));
		for (d = 4; d < BALANCE_DEPTHS; d++)
			deep += c->at_depth[d];
		fprintf(out, " %5.1f\n", render_pct(deep, c->depth_ns));
	}
}

static void text_pairs(FILE *out, const struct analyze_balance *a, const struct report_view *v)
{
	char ns[16], pair[32];
	uint32_t k;

	if (!a->pairs_kept) {
		fprintf(out, "  CPU pairs: not kept past %u CPUs\n", BALANCE_MAX_CPUS);
		return;
	}
	if (!a->nr_pairs)
		return;
	fprintf(out, "\n  %-22s %10s\n", "idle cpu <- busy cpu", "time");
	for (k = 0; k < a->nr_pairs && k < render_rows(v); k++) {
		snprintf(pair, sizeof(pair), "%u <- %u", a->pairs[k] / a->n, a->pairs[k] % a->n);
		fprintf(out, "  %-22s %10s\n", pair,
			render_ns(a->pair_ns[a->pairs[k]], ns, sizeof(ns)));
	}
}

static void text_threads(FILE *out, const struct report *r, const struct analyze_balance *a,
			 const struct report_view *v)
{
	uint32_t n, k, shown = 0, *t = report_threads_sorted(r, &n, by_stranded);
	char ns[16], ns2[16], pct[16];

	fprintf(out, "\n  %8s %-16s %10s %10s %8s\n", "pid", "comm", "waited", "stranded",
		"of wait");
	for (k = 0; t && k < n && shown < render_rows(v); k++) {
		const struct balance_thread *th = t[k] < a->nr_threads ? &a->threads[t[k]] : NULL;

		if (!th || !th->stranded_ns)
			break;
		snprintf(pct, sizeof(pct), "%.1f%%", render_pct(th->stranded_ns, th->wait_ns));
		fprintf(out, "  %8u %-16s %10s %10s %8s\n", r->model->sched.threads[t[k]].pid,
			text_esc(report_thread_name(r, t[k])),
			render_ns(th->wait_ns, ns, sizeof(ns)),
			render_ns(th->stranded_ns, ns2, sizeof(ns2)), pct);
		shown++;
	}
	if (!shown)
		fprintf(out, "  no thread waited on a busy CPU while one it may use idled\n");
	free(t);
}

static void balance_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_balance *a = analyze_balance(r);
	char ns[16], at[16];
	uint32_t k;

	render_heading(out, "balance (work conservation: CPUs idle while a thread that may run "
		       "there waits on a busy CPU; run-queue depth)");
	fprintf(out, "  %s\n", affinity_note(a));
	if (a->unattributed)
		fprintf(out, "  %" PRIu64 " waits of threads with a partial mask past %u at once "
			"were not attributed\n", a->unattributed, BALANCE_MAX_MASKED);
	text_cpus(out, a);
	text_pairs(out, a, v);
	text_threads(out, r, a, v);
	if (!a->nr_worst)
		return;
	fprintf(out, "\n  longest stretches of an idle CPU beside waiting work:\n");
	for (k = 0; k < a->nr_worst; k++)
		fprintf(out, "  cpu %u idle %s from +%s while cpu %u had work it could take\n",
			a->worst[k].idle_cpu, render_ns(a->worst[k].ns, ns, sizeof(ns)),
			render_ns(a->worst[k].start - r->model->session_start, at, sizeof(at)),
			a->worst[k].busy_cpu);
}

static void balance_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_balance *a = analyze_balance(r);
	uint64_t ns = idle_waiting_total(a);

	(void)v;
	if (!ns)
		return;
	fprintf(out, "balance: CPUs idled %.3f ms in all while a thread that could run there "
		"waited elsewhere\n", ns / 1e6);
}

/* --- HTML: the table, and run-queue depth over time as a heatmap --- */

static void html_heatmap(FILE *f, const struct analyze_balance *a)
{
	uint32_t cpu, k, rows = 0, row = 0;
	double top = 0, cell_w, cell_h = 14, y0 = 24;
	char c[8], label[32];

	for (cpu = 0; cpu < a->n; cpu++) {
		if (!cpu_shown(a, cpu))
			continue;
		rows++;
		for (k = 0; k < a->nr_bins; k++)
			if (a->cpus[cpu].bin_ns[k] &&
			    a->cpus[cpu].bin_area[k] / a->cpus[cpu].bin_ns[k] > top)
				top = a->cpus[cpu].bin_area[k] / a->cpus[cpu].bin_ns[k];
	}
	if (!rows || !a->nr_bins || rows > 256)
		return;
	cell_w = (HTML_W - HTML_LEFT - 20.0) / a->nr_bins;
	html_figure_open(f, "runq-depth", HTML_W, (int)(y0 + rows * cell_h + 50),
			 "run-queue depth over time");
	for (cpu = 0; cpu < a->n; cpu++) {
		const struct balance_cpu *b = &a->cpus[cpu];

		if (!cpu_shown(a, cpu))
			continue;
		snprintf(label, sizeof(label), "cpu %u", cpu);
		svg_text(f, HTML_LEFT - 4, y0 + (row + 0.75) * cell_h, "end", "tick", label);
		for (k = 0; k < a->nr_bins; k++) {
			double mean = b->bin_ns[k] ? b->bin_area[k] / b->bin_ns[k] : 0;

			if (!b->bin_ns[k])
				continue;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>cpu %u: mean depth %.2f</title></rect>\n",
				HTML_LEFT + k * cell_w, y0 + row * cell_h, cell_w, cell_h - 1,
				svg_heat(top > 0 ? mean / top : 0, c), cpu, mean);
		}
		row++;
	}
	snprintf(label, sizeof(label), "each column %.3f ms", a->bin_ns / 1e6);
	svg_text(f, HTML_LEFT, y0 + rows * cell_h + 18, "start", "legend", label);
	snprintf(label, sizeof(label), "darkest: depth %.2f", top);
	svg_text(f, HTML_LEFT + 200, y0 + rows * cell_h + 18, "start", "legend", label);
	html_figure_close(f, "Run-queue depth (the running thread and those waiting) per CPU "
			  "over time: each cell its time-weighted mean.");
}

static void balance_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_balance *a = analyze_balance(r);
	char ns[16], ns2[16], ns3[16];
	uint32_t cpu;

	(void)v;
	fputs("<h2 id=balance>Balance</h2>\n<p>", f);
	html_esc(f, affinity_note(a));
	fputs(".</p>\n<table><tr><th>cpu</th><th>idle</th><th>idle beside work</th>"
	      "<th>stranding</th><th>depth mean</th><th>max</th></tr>\n", f);
	for (cpu = 0; cpu < a->n; cpu++) {
		const struct balance_cpu *c = &a->cpus[cpu];

		if (!cpu_shown(a, cpu))
			continue;
		fprintf(f, "<tr><td>%u</td><td>%s</td><td>%s</td><td>%s</td><td>%.2f</td>"
			"<td>%u</td></tr>\n", cpu, render_ns(c->idle_ns, ns, sizeof(ns)),
			render_ns(c->idle_waiting_ns, ns2, sizeof(ns2)),
			render_ns(c->busy_stranding_ns, ns3, sizeof(ns3)), depth_mean(c),
			c->depth_max);
	}
	fputs("</table>\n", f);
	html_heatmap(f, a);
}

/* --- JSON --- */

static const struct balance_cpu *cpu_of(const struct json_ctx *c)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	return c->id < a->n && a->cpus[c->id].depth_ns ? &a->cpus[c->id] : NULL;
}

static json_object *get_cpu(const struct json_field *f, struct json_ctx *c)
{
	const struct balance_cpu *b = cpu_of(c);
	json_object *arr;
	uint32_t d;

	if (!b)
		return NULL;
	if (!strcmp(f->name, "idle_ns"))
		return json_doc_u64(b->idle_ns);
	if (!strcmp(f->name, "idle_while_work_waited_ns"))
		return json_doc_u64(b->idle_waiting_ns);
	if (!strcmp(f->name, "stranding_ns"))
		return json_doc_u64(b->busy_stranding_ns);
	if (!strcmp(f->name, "depth_mean"))
		return json_doc_num(c, depth_mean(b), 3);
	if (!strcmp(f->name, "depth_max"))
		return json_doc_u64(b->depth_max);
	if (!strcmp(f->name, "depth_known_ns"))
		return json_doc_u64(b->depth_ns);
	arr = json_object_new_array();
	for (d = 0; arr && d < BALANCE_DEPTHS; d++)
		json_build_push(c->b, arr, json_doc_u64(b->at_depth[d]));
	return arr;
}

static const struct json_field cpu_sub[] = {
	{ .name = "idle_ns", .type = JSON_INT, .get = get_cpu },
	{ .name = "idle_while_work_waited_ns", .type = JSON_INT, .get = get_cpu,
	  .description = "idle while a thread it may run waited on a busy CPU" },
	{ .name = "stranding_ns", .type = JSON_INT, .get = get_cpu,
	  .description = "busy with a waiting thread that an idle CPU could have run" },
	{ .name = "depth_mean", .type = JSON_NUM, .get = get_cpu,
	  .description = "run-queue depth (running + waiting), time-weighted" },
	{ .name = "depth_max", .type = JSON_INT, .get = get_cpu },
	{ .name = "depth_known_ns", .type = JSON_INT, .get = get_cpu },
	{ .name = "time_at_depth_ns", .type = JSON_ANY, .get = get_cpu,
	  .description = "ns at depth 0, 1, ... 7, and 8 or more" },
	JSON_END
};

static json_object *get_cpu_obj(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return cpu_of(c) ? json_doc_object(cpu_sub, c) : NULL;
}

static const struct json_field cpu_fields[] = {
	{ .name = "balance", .type = JSON_OBJ, .sub = cpu_sub, .flags = JSON_OPTIONAL,
	  .get = get_cpu_obj, .description = "work conservation and run-queue depth" },
	JSON_END
};

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	if (c->id >= a->nr_threads)
		return NULL;
	return json_doc_u64(!strcmp(f->name, "runqueue_wait_ns") ? a->threads[c->id].wait_ns :
			    a->threads[c->id].stranded_ns);
}

static const struct json_field thread_fields[] = {
	{ .name = "runqueue_wait_ns", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_thread,
	  .description = "time it waited in a runqueue (waking or preemption to switch-in)" },
	{ .name = "stranded_ns", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_thread,
	  .description = "of which its CPU was busy while a CPU it may use idled" },
	JSON_END
};

static json_object *get_process(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	(void)f;
	return a->procs ? json_doc_u64(a->procs[c->id]) : NULL;
}

static const struct json_field process_fields[] = {
	{ .name = "stranded_ns", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_process },
	JSON_END
};

static int next_pair(struct json_ctx *c, size_t *pos)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	if (*pos >= a->nr_pairs)
		return 0;
	c->id = a->pairs[(*pos)++];
	c->item = &a->pair_ns[c->id];
	return 1;
}

static json_object *get_pair(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	if (!strcmp(f->name, "idle_cpu"))
		return json_doc_u64(c->id / a->n);
	if (!strcmp(f->name, "busy_cpu"))
		return json_doc_u64(c->id % a->n);
	return json_doc_u64(*(const uint64_t *)c->item);
}

static const struct json_field pair_fields[] = {
	{ .name = "idle_cpu", .type = JSON_INT, .get = get_pair },
	{ .name = "busy_cpu", .type = JSON_INT, .get = get_pair },
	{ .name = "ns", .type = JSON_INT, .get = get_pair },
	JSON_END
};

static int next_worst(struct json_ctx *c, size_t *pos)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	if (*pos >= a->nr_worst)
		return 0;
	c->item = &a->worst[(*pos)++];
	return 1;
}

static json_object *get_worst(const struct json_field *f, struct json_ctx *c)
{
	const struct balance_worst *w = c->item;
	const struct report *r = render_report(c);

	if (!strcmp(f->name, "idle_cpu"))
		return json_doc_u64(w->idle_cpu);
	if (!strcmp(f->name, "busy_cpu"))
		return json_doc_u64(w->busy_cpu);
	if (!strcmp(f->name, "start_ns"))
		return json_doc_u64(w->start - r->model->session_start);
	return json_doc_u64(w->ns);
}

static const struct json_field worst_fields[] = {
	{ .name = "idle_cpu", .type = JSON_INT, .get = get_worst },
	{ .name = "busy_cpu", .type = JSON_INT, .get = get_worst,
	  .description = "the busy CPU whose waiting thread began the stretch" },
	{ .name = "start_ns", .type = JSON_INT, .get = get_worst,
	  .description = "after the session's start" },
	{ .name = "ns", .type = JSON_INT, .get = get_worst },
	JSON_END
};

static json_object *get_section(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_balance *a = analyze_balance(render_report(c));

	if (!strcmp(f->name, "affinity"))
		return json_doc_str(affinity_note(a));
	if (!strcmp(f->name, "affinity_records"))
		return json_doc_u64(a->m->sched.affinity_records);
	if (!strcmp(f->name, "unattributed_waits"))
		return json_doc_u64(a->unattributed);
	return json_doc_u64(idle_waiting_total(a));
}

static const struct json_field section_fields[] = {
	{ .name = "affinity", .type = JSON_STR, .get = get_section },
	{ .name = "affinity_records", .type = JSON_INT, .get = get_section },
	{ .name = "unattributed_waits", .type = JSON_INT, .get = get_section,
	  .description = "waits of threads with a partial mask past the table's size" },
	{ .name = "idle_while_work_waited_ns", .type = JSON_INT, .get = get_section,
	  .description = "the CPUs' sum" },
	{ .name = "cpu_pairs", .type = JSON_ARR, .sub = pair_fields, .flags = JSON_LIST,
	  .next = next_pair, .order = "ns",
	  .description = "idle CPU beside a busy one with a thread it may run" },
	{ .name = "longest", .type = JSON_ARR, .sub = worst_fields, .next = next_worst,
	  .description = "the longest stretches of a CPU idle beside waiting work" },
	JSON_END
};

static const struct json_field balance_doc[] = {
	{ .name = "balance", .type = JSON_OBJ, .sub = section_fields,
	  .description = "work conservation; per CPU figures in cpus[], per thread in threads[]" },
	JSON_END
};

/* --- diff --- */

static double machine_idle_waiting(const struct report *r, uint32_t id)
{
	(void)id;
	return idle_waiting_total(analyze_balance(r));
}

static double cpu_idle_waiting(const struct report *r, uint32_t cpu)
{
	const struct analyze_balance *a = analyze_balance(r);

	return cpu < a->n ? a->cpus[cpu].idle_waiting_ns : 0;
}

static double thread_stranded(const struct report *r, uint32_t t)
{
	const struct analyze_balance *a = analyze_balance(r);

	return t < a->nr_threads ? a->threads[t].stranded_ns : 0;
}

static const struct diff_metric metrics[] = {
	{ .name = "idle beside waiting work", .entity = DIFF_MACHINE, .kind = METRIC_TIME,
	  .value = machine_idle_waiting },
	{ .name = "idle beside waiting work", .entity = DIFF_CPU, .kind = METRIC_TIME,
	  .value = cpu_idle_waiting },
	{ .name = "stranded", .entity = DIFF_THREADS, .kind = METRIC_TIME,
	  .groups = DIFF_GROUP_THREAD | DIFF_GROUP_PROCESS, .value = thread_stranded },
	{ NULL }
};

const struct analyzer analyzer_balance = {
	.name = "balance",
	.help = "work conservation: CPUs idle while a thread that may\nrun there waits on a "
		"busy CPU (per CPU, pair, thread);\nrun-queue depth per CPU",
	.size = sizeof(struct analyze_balance),
	.init = balance_init,
	.fini = balance_fini,
	.derive = balance_derive,
	.text = balance_text,
	.summary = balance_summary,
	.html = balance_html,
	.nav = "balance",
	.doc = balance_doc,
	.fields = { [ENTITY_CPU] = cpu_fields, [ENTITY_THREAD] = thread_fields,
		    [ENTITY_PROCESS] = process_fields },
	.metrics = metrics,
	.tool = {
		"analyze_balance", "Work conservation and run-queue depth",
		"Per CPU: the time it idled while a thread allowed on it waited on a busy CPU, "
		"and its run-queue depth (mean, max, time at each depth); per CPU pair and per "
		"thread the stranded time; the longest such stretches.",
		ARGS_ANALYSIS, 1u << KTP_REC_SWITCH, "stranded_ns",
	},
};
