// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-critical-path.h"
#include "report/analyze-wakers.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/array.h"
#include "util/text.h"

#define NO_WAKER UINT32_MAX

/* --- The pass: each thread's intervals, wakings and run starts; each CPU's runs --- */

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_critical_path *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap_threads, t, sizeof(*a->threads), 256))
		return -ENOMEM;
	a->n_threads = t + 1;
	return 0;
}

static struct critical_path_cpu *cpu_of(struct analyze_critical_path *a, uint32_t cpu)
{
	if (array_reserve((void **)&a->cpus, &a->cap_cpus, cpu, sizeof(*a->cpus), 8))
		return NULL;
	if (cpu >= a->n_cpus)
		a->n_cpus = cpu + 1;
	return &a->cpus[cpu];
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct analyze_critical_path *a = ctx;
	struct critical_path_cpu *c = cpu_of(a, cpu);
	struct critical_path_thread *th;

	if (!c || array_reserve((void **)&c->runs, &c->cap, c->n, sizeof(*c->runs), 64))
		goto nomem;
	c->runs[c->n++] = (struct critical_path_run){ from, to, t };
	if (t == SCHED_IDLE || t >= a->n_threads)
		return;
	/* Where each run began: the CPU a runnable interval ending there waited for. */
	th = &a->threads[t];
	if (th->n_starts && th->starts[th->n_starts - 1].ts == from)
		return;
	if (array_reserve((void **)&th->starts, &th->cap_starts, th->n_starts,
			  sizeof(*th->starts), 16))
		goto nomem;
	th->starts[th->n_starts++] = (struct critical_path_start){ from, cpu };
	return;
nomem:
	a->nomem = 1;	/* derive() says -ENOMEM */
}

static void on_state_time(void *ctx, uint32_t t, enum sched_state state, uint64_t from,
			  uint64_t to)
{
	struct analyze_critical_path *a = ctx;
	struct critical_path_thread *th;

	if (t >= a->n_threads || to <= from)
		return;
	th = &a->threads[t];
	if (array_reserve((void **)&th->spans, &th->cap_spans, th->n_spans, sizeof(*th->spans), 16)) {
		a->nomem = 1;
		return;
	}
	th->spans[th->n_spans++] = (struct critical_path_span){ from, to, (uint8_t)state };
	if (to > a->end)
		a->end = to;
}

static int on_waking(void *ctx, uint32_t cpu, uint64_t ts, uint32_t t,
		     const struct sched_waker *waker, int running, int new)
{
	struct analyze_critical_path *a = ctx;
	struct critical_path_thread *th;

	(void)cpu, (void)new;
	if (running || t >= a->n_threads)
		return 0;
	th = &a->threads[t];
	if (array_reserve((void **)&th->wakes, &th->cap_wakes, th->n_wakes, sizeof(*th->wakes), 16))
		return -ENOMEM;
	th->wakes[th->n_wakes++] = (struct critical_path_wake){ ts, analyze_wakers_id(waker) };
	return 0;
}

static const struct sched_ops critical_path_ops = {
	.thread_new = on_thread_new,
	.cpu_time = on_cpu_time,
	.state_time = on_state_time,
	.waking = on_waking,
};

static int critical_path_init(void *state, struct report *r)
{
	return model_add_client(r->model, &critical_path_ops, state, 0);
}

static void causes_fini(struct critical_path_causes *c)
{
	free(c->v);
	u64_map_fini(&c->index);
}

static void critical_path_fini(void *state)
{
	struct analyze_critical_path *a = state;
	uint32_t i, j;

	for (i = 0; i < a->n_threads; i++) {
		free(a->threads[i].spans);
		free(a->threads[i].wakes);
		free(a->threads[i].starts);
	}
	free(a->threads);
	for (i = 0; i < a->n_cpus; i++)
		free(a->cpus[i].runs);
	free(a->cpus);
	for (i = 0; i < a->nr_results; i++) {
		causes_fini(&a->results[i].causes);
		for (j = 0; j < a->results[i].nr_worst; j++)
			causes_fini(&a->results[i].worst[j].causes);
	}
	free(a->results);
}

/* --- After the pass: the walk --- */

static int cause_add(struct critical_path_causes *c, uint32_t kind, uint32_t id, uint64_t ns)
{
	uint64_t key = (uint64_t)kind << 32 | id;
	uintptr_t pos;

	if (!ns)
		return 0;
	pos = (uintptr_t)u64_map_get(&c->index, key);
	if (!pos) {
		if (array_reserve((void **)&c->v, &c->cap, c->n, sizeof(*c->v), 8))
			return -ENOMEM;
		c->v[c->n] = (struct critical_path_cause){ kind, id, 0 };
		pos = ++c->n;
		if (u64_map_put(&c->index, key, (void *)pos))
			return -ENOMEM;
	}
	c->v[pos - 1].ns += ns;
	return 0;
}

static int cause_cmp(const void *x, const void *y)
{
	const struct critical_path_cause *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Largest first; the index is not needed after. */
static void causes_sort(struct critical_path_causes *c)
{
	qsort(c->v, c->n, sizeof(*c->v), cause_cmp);
	u64_map_fini(&c->index);
	u64_map_init(&c->index);
}

/*
 * The first of the @n elements of @size bytes at @v whose u64 at @off is
 * above @key (@n if none): the arrays are in time order.
 */
static uint32_t first_above(const void *v, uint32_t n, size_t size, size_t off, uint64_t key)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t x;

		memcpy(&x, (const char *)v + (size_t)mid * size + off, sizeof(x));
		if (x <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first span of @th that ends after @ts. */
static uint32_t span_at(const struct critical_path_thread *th, uint64_t ts)
{
	return first_above(th->spans, th->n_spans, sizeof(*th->spans),
			   offsetof(struct critical_path_span, to), ts);
}

/* The first run of @c that ends after @ts. */
static uint32_t run_at(const struct critical_path_cpu *c, uint64_t ts)
{
	return first_above(c->runs, c->n, sizeof(*c->runs), offsetof(struct critical_path_run, to),
			   ts);
}

/* The CPU of the run of @th that began at @ts, or -1. */
static int64_t cpu_started(const struct critical_path_thread *th, uint64_t ts)
{
	uint32_t i = ts ? first_above(th->starts, th->n_starts, sizeof(*th->starts),
				      offsetof(struct critical_path_start, ts), ts - 1) : 0;

	return i < th->n_starts && th->starts[i].ts == ts ? (int64_t)th->starts[i].cpu : -1;
}

/* The waker of the waking that ended a wait at @to (not before @from), or NO_WAKER. */
static uint32_t waker_at(const struct critical_path_thread *th, uint64_t from, uint64_t to)
{
	uint32_t i = first_above(th->wakes, th->n_wakes, sizeof(*th->wakes),
				 offsetof(struct critical_path_wake, ts), to);

	return i && th->wakes[i - 1].ts == to && th->wakes[i - 1].ts >= from ?
		th->wakes[i - 1].waker : NO_WAKER;
}

/* Time [lo, hi) a thread waited for CPU @cpu: to what ran there. */
static int walk_runnable(const struct analyze_critical_path *a, int64_t cpu, uint64_t lo,
			 uint64_t hi, struct critical_path_causes *out)
{
	const struct critical_path_cpu *c;
	uint64_t at = lo, x, y;
	uint32_t i;
	int ret;

	if (cpu < 0)
		return cause_add(out, CP_RUNNABLE_OPEN, 0, hi - lo);
	c = cpu < a->n_cpus ? &a->cpus[cpu] : NULL;
	for (i = c ? run_at(c, lo) : 0; c && i < c->n && c->runs[i].from < hi; i++) {
		x = c->runs[i].from > lo ? c->runs[i].from : lo;
		y = c->runs[i].to < hi ? c->runs[i].to : hi;
		if (x > at && (ret = cause_add(out, CP_UNKNOWN, 0, x - at)))
			return ret;
		ret = c->runs[i].t == SCHED_IDLE ? cause_add(out, CP_RUNNABLE_IDLE, cpu, y - x) :
			cause_add(out, CP_RUNNABLE, c->runs[i].t, y - x);
		if (ret)
			return ret;
		at = y;
	}
	return at < hi ? cause_add(out, CP_UNKNOWN, 0, hi - at) : 0;
}

static int walk(const struct analyze_critical_path *a, uint32_t t, uint64_t lo, uint64_t hi,
		unsigned int depth, struct critical_path_causes *out);

/* Time [lo, hi) thread @t was blocked in span @s: to its waker, or why not. */
static int walk_blocked(const struct analyze_critical_path *a, uint32_t t,
			const struct critical_path_span *s, uint64_t lo, uint64_t hi,
			unsigned int depth, struct critical_path_causes *out)
{
	uint32_t w = waker_at(&a->threads[t], s->from, s->to);
	struct sched_waker k;

	if (w == NO_WAKER)
		return cause_add(out, s->to >= a->end ? CP_BLOCKED_OPEN : CP_UNKNOWN, 0, hi - lo);
	k = analyze_wakers_waker(w);
	if (k.kind == SCHED_WAKER_UNKNOWN ||
	    (k.kind == SCHED_WAKER_THREAD && k.id >= a->n_threads))
		return cause_add(out, CP_UNKNOWN, 0, hi - lo);
	if (k.kind != SCHED_WAKER_THREAD)
		return cause_add(out, CP_INTERRUPT, w, hi - lo);
	/* A thread that wakes itself (a timer it set, in its own context)
	 * would be walked in a circle: its chain ends there. */
	if (depth + 1 > CRITICAL_PATH_DEPTH || k.id == t)
		return cause_add(out, CP_DEPTH, k.id, hi - lo);
	return walk(a, k.id, lo, hi, depth + 1, out);
}

/*
 * What thread @t's time [lo, hi) went to, added to @out. Each level
 * walks disjoint parts of its parent's time, so a level visits each span
 * at most once more than the parts it is given: the walk is linear in the
 * spans, times the depth.
 */
static int walk(const struct analyze_critical_path *a, uint32_t t, uint64_t lo, uint64_t hi,
		unsigned int depth, struct critical_path_causes *out)
{
	const struct critical_path_thread *th = &a->threads[t];
	uint64_t at = lo, x, y;
	uint32_t i;
	int ret = 0;

	for (i = span_at(th, lo); i < th->n_spans && th->spans[i].from < hi && !ret; i++) {
		const struct critical_path_span *s = &th->spans[i];

		x = s->from > lo ? s->from : lo;
		y = s->to < hi ? s->to : hi;
		if (x > at && (ret = cause_add(out, CP_UNKNOWN, 0, x - at)))
			break;
		switch (s->state) {
		case SCHED_RUNNING:
			ret = cause_add(out, CP_RUNNING, t, y - x);
			break;
		case SCHED_RUNNABLE:
			ret = walk_runnable(a, cpu_started(th, s->to), x, y, out);
			break;
		case SCHED_SLEEPING:
		case SCHED_BLOCKED:
			ret = walk_blocked(a, t, s, x, y, depth, out);
			break;
		default:
			ret = cause_add(out, CP_UNKNOWN, 0, y - x);
			break;
		}
		at = y;
	}
	if (!ret && at < hi)
		ret = cause_add(out, CP_UNKNOWN, 0, hi - at);
	return ret;
}

/* Keep span @s of @res's thread among its longest waits. */
static void note_wait(struct critical_path_result *res, const struct critical_path_span *s)
{
	uint32_t i, n = res->nr_worst;

	if (n == CRITICAL_PATH_WORST && s->to - s->from <= res->worst[n - 1].to - res->worst[n - 1].from)
		return;
	if (n < CRITICAL_PATH_WORST)
		n = ++res->nr_worst;
	for (i = n - 1; i > 0 && s->to - s->from > res->worst[i - 1].to - res->worst[i - 1].from; i--)
		res->worst[i] = res->worst[i - 1];
	res->worst[i] = (struct critical_path_wait){ .from = s->from, .to = s->to, .state = s->state };
}

static int path_of(const struct analyze_critical_path *a, struct critical_path_result *res)
{
	const struct critical_path_thread *th = &a->threads[res->t];
	uint32_t i;
	int ret;

	u64_map_init(&res->causes.index);
	for (i = 0; i < th->n_spans; i++)
		if (th->spans[i].state == SCHED_SLEEPING || th->spans[i].state == SCHED_BLOCKED)
			note_wait(res, &th->spans[i]);
	ret = walk(a, res->t, res->from, res->to, 0, &res->causes);
	causes_sort(&res->causes);
	for (i = 0; i < res->nr_worst && !ret; i++) {
		struct critical_path_wait *w = &res->worst[i];
		struct critical_path_span s = { w->from, w->to, w->state };

		u64_map_init(&w->causes.index);
		w->waker = waker_at(th, w->from, w->to);
		ret = walk_blocked(a, res->t, &s, w->from, w->to, 0, &w->causes);
		causes_sort(&w->causes);
	}
	return ret;
}

/* Thread @t's time in the window and its own running time, from its spans. */
static struct critical_path_result result_of(const struct critical_path_thread *th, uint32_t t)
{
	struct critical_path_result res = {
		.t = t, .from = th->spans[0].from, .to = th->spans[th->n_spans - 1].to,
	};
	uint32_t i;

	for (i = 0; i < th->n_spans; i++)
		if (th->spans[i].state == SCHED_RUNNING)
			res.running += th->spans[i].to - th->spans[i].from;
	return res;
}

static int result_cmp(const void *x, const void *y)
{
	const struct critical_path_result *p = x, *q = y;
	uint64_t u = p->to - p->from - p->running, v = q->to - q->from - q->running;

	if (u != v)
		return u < v ? 1 : -1;
	return p->t < q->t ? -1 : p->t > q->t;
}

/*
 * The selected threads with spans, the CRITICAL_PATH_THREADS off CPU
 * longest first. Without -p, --tid or --comm, a thread that never ran in the
 * window is left out: all its time is a wait nothing ended, or unknown,
 * and idle kernel threads would fill the list (and diff's causes).
 */
static int pick_threads(struct analyze_critical_path *a, const struct report *r)
{
	int chosen = filter_selects(&r->cfg.filter);
	struct critical_path_result res;
	uint32_t t, n = 0, cap = 0;

	for (t = 0; t < a->n_threads; t++) {
		if (!report_thread_selected(r, t) || !a->threads[t].n_spans)
			continue;
		res = result_of(&a->threads[t], t);
		if (!chosen && !res.running)
			continue;
		if (array_reserve((void **)&a->results, &cap, n, sizeof(*a->results), 64))
			return -ENOMEM;
		a->results[n++] = res;
	}
	if (n)
		qsort(a->results, n, sizeof(*a->results), result_cmp);
	a->nr_results = n < CRITICAL_PATH_THREADS ? n : CRITICAL_PATH_THREADS;
	return 0;
}

static int critical_path_derive(void *state, struct report *r)
{
	struct analyze_critical_path *a = state;
	uint32_t i;
	int ret;

	if (a->nomem)
		return -ENOMEM;
	ret = pick_threads(a, r);
	for (i = 0; i < a->nr_results && !ret; i++)
		ret = path_of(a, &a->results[i]);
	return ret;
}

const struct analyze_critical_path *analyze_critical_path(const struct report *r)
{
	return report_state(r, &analyzer_critical_path);
}

/* Each kind's JSON name, its words in the text, its HTML legend (one line
 * of 900 px for all eight). */
static const struct {
	const char *json, *text, *legend;
} kinds[CP_NR_KINDS] = {
	[CP_RUNNING] = { "running", "running", "running" },
	[CP_RUNNABLE] = { "runnable", "runnable behind", "runnable behind" },
	[CP_RUNNABLE_IDLE] = { "runnable_idle", "runnable,", "runnable, idle CPU" },
	[CP_RUNNABLE_OPEN] = { "runnable_open", "runnable", "runnable to end" },
	[CP_INTERRUPT] = { "interrupt", "woken by", "interrupt" },
	[CP_BLOCKED_OPEN] = { "blocked_open", "blocked", "blocked to end" },
	[CP_DEPTH] = { "depth_limit", "blocked past depth on", "past depth" },
	[CP_UNKNOWN] = { "unknown", "unknown", "unknown" },
};

const char *analyze_critical_path_kind(uint32_t kind)
{
	return kind < CP_NR_KINDS ? kinds[kind].json : "unknown";
}

const char *analyze_critical_path_name(const struct report *r,
				       const struct critical_path_cause *c, char *buf,
				       size_t len)
{
	switch (c->kind) {
	case CP_RUNNING:
	case CP_RUNNABLE:
	case CP_DEPTH:
		return report_thread_label(r, c->id, buf, len);
	case CP_RUNNABLE_IDLE:
		snprintf(buf, len, "cpu %u idle", c->id);
		return buf;
	case CP_INTERRUPT:
		return analyze_wakers_name(r, c->id, buf, len);
	case CP_RUNNABLE_OPEN:
		return "(no CPU in the window)";
	case CP_BLOCKED_OPEN:
		return "(no waking in the window)";
	default:
		return "(unknown)";
	}
}

/* --- Text --- */

static const char *kind_text(uint32_t kind)
{
	return kind < CP_NR_KINDS ? kinds[kind].text : "?";
}

/* --- diff: each walked thread's time by cause --- */

/* Cause @id of all the walked threads' causes, in order, and its thread's result. */
static const struct critical_path_cause *diff_cause(const struct report *r, uint32_t id,
						    const struct critical_path_result **res)
{
	const struct analyze_critical_path *a = analyze_critical_path(r);
	uint32_t i;

	/* At most CRITICAL_PATH_THREADS results: a walk over them is cheap. */
	for (i = 0; i < a->nr_results; i++) {
		if (id < a->results[i].causes.n) {
			*res = &a->results[i];
			return &a->results[i].causes.v[id];
		}
		id -= a->results[i].causes.n;
	}
	return NULL;
}

static uint32_t diff_causes(const struct report *r)
{
	const struct analyze_critical_path *a = analyze_critical_path(r);
	uint32_t i, n = 0;

	for (i = 0; i < a->nr_results; i++)
		n += a->results[i].causes.n;
	return n;
}

static double diff_ns(const struct report *r, uint32_t id)
{
	const struct critical_path_result *res;
	const struct critical_path_cause *c = diff_cause(r, id, &res);

	return c ? (double)c->ns : 0;
}

/*
 * "app/client: runnable behind hog/hog": the thread group and the cause
 * by names, not pids, which differ between runs. NULL for a thread's own
 * running, which diff compares as its runtime.
 */
static const char *diff_key(const struct report *r, uint32_t id, char *buf, size_t len)
{
	const struct critical_path_result *res;
	const struct critical_path_cause *c = diff_cause(r, id, &res);
	char who[80], name[96];
	const char *what;

	if (!c || (c->kind == CP_RUNNING && c->id == res->t))
		return NULL;
	switch (c->kind) {
	case CP_RUNNING:
	case CP_RUNNABLE:
	case CP_DEPTH:
		what = report_thread_key(r, c->id, name, sizeof(name));
		break;
	case CP_UNKNOWN:
		what = "";
		break;
	default:
		what = analyze_critical_path_name(r, c, name, sizeof(name));
		break;
	}
	snprintf(buf, len, "%s: %s%s%s", report_thread_key(r, res->t, who, sizeof(who)),
		 kind_text(c->kind), what[0] ? " " : "", what);
	return buf;
}

/*
 * The verdict names changes of what other threads took of a thread's time:
 * their running, their time on its CPU, a wait past the depth on one.
 * Where the window cuts a long sleep moves time between a thread's own
 * waits (woken by a timer, no waking, unknown) from run to run: those are
 * listed, not named.
 */
static int diff_weighs(const struct report *r, uint32_t id)
{
	const struct critical_path_result *res;
	const struct critical_path_cause *c = diff_cause(r, id, &res);

	return c && (c->kind == CP_RUNNING || c->kind == CP_RUNNABLE || c->kind == CP_DEPTH);
}

/* As a share of the window, as a thread's runtime is (% of a CPU). */
static const struct diff_metric critical_path_metrics[] = {
	{ .name = "critical path", .entity = DIFF_CAUSE, .kind = METRIC_RUNTIME,
	  .value = diff_ns, .count = diff_causes, .name_of = diff_key, .weighs = diff_weighs },
	{ 0 },
};

static void causes_text(FILE *out, const struct report *r, const struct critical_path_causes *c,
			uint64_t whole, unsigned int rows, const char *indent)
{
	char name[96], t[16];
	uint32_t i;

	for (i = 0; i < c->n && i < rows; i++)
		fprintf(out, "%s%9s %5.1f%%  %s %s\n", indent, render_ns(c->v[i].ns, t, sizeof(t)),
			render_pct(c->v[i].ns, whole), kind_text(c->v[i].kind),
			c->v[i].kind == CP_UNKNOWN ? "" :
			text_esc(analyze_critical_path_name(r, &c->v[i], name, sizeof(name))));
}

static void worst_text(FILE *out, const struct report *r, const struct critical_path_wait *w)
{
	char t[2][16], name[96];
	struct critical_path_cause by = { CP_INTERRUPT, w->waker, 0 };
	struct sched_waker k = analyze_wakers_waker(w->waker);

	if (k.kind == SCHED_WAKER_THREAD)
		by.kind = CP_RUNNING;
	fprintf(out, "      %s %s at +%s, woken by %s:\n", render_ns(w->to - w->from, t[0], 16),
		w->state == SCHED_BLOCKED ? "D" : "S",
		render_ns(w->from - r->model->from, t[1], 16),
		w->waker == NO_WAKER ? "(none seen)" :
		text_esc(analyze_critical_path_name(r, &by, name, sizeof(name))));
	causes_text(out, r, &w->causes, w->to - w->from, 3, "        ");
}

static void critical_path_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_critical_path *a = analyze_critical_path(r);
	char name[96], t[3][16];
	uint32_t i, j;

	render_heading(out, "critical path (each thread's time, following its wakers)");
	if (!a->nr_results) {
		fputs("  no thread\n", out);
		return;
	}
	for (i = 0; i < a->nr_results && i < render_rows(v); i++) {
		const struct critical_path_result *res = &a->results[i];
		uint64_t wall = res->to - res->from;

		fprintf(out, "  %s: %s, %s running, %s off CPU\n",
			text_esc(report_thread_label(r, res->t, name, sizeof(name))),
			render_ns(wall, t[0], 16), render_ns(res->running, t[1], 16),
			render_ns(wall - res->running, t[2], 16));
		causes_text(out, r, &res->causes, wall, v->summary ? 3 : 8, "    ");
		if (v->summary || !res->nr_worst)
			continue;
		fputs("    longest waits:\n", out);
		for (j = 0; j < res->nr_worst; j++)
			worst_text(out, r, &res->worst[j]);
	}
}

/* --- HTML --- */

/* Left of the bars: the threads' names; right of them: their wall time. */
#define CP_BAR_X 340
#define CP_BAR_W (HTML_W - HTML_RIGHT - CP_BAR_X - 80)
#define CP_PART_MIN 0.5		/* px: a narrower part joins the rest */

/* One part of a bar, @ns of @wall wide, its tooltip "@what: time (share)". */
static void part_html(FILE *f, double x, double y, double h, uint64_t ns, uint64_t wall,
		      const char *color, const char *what)
{
	char t[16], tip[200];

	snprintf(tip, sizeof(tip), "%s: %s (%.1f%%)", what, render_ns(ns, t, sizeof(t)),
		 render_pct(ns, wall));
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
		x, y, (double)ns / wall * CP_BAR_W, h, color);
	fputs("<title>", f);
	svg_escape(f, tip);
	fputs("</title></rect>\n", f);
}

/* One cause's part: its kind's color, its kind and name. */
static void cause_html(FILE *f, const struct report *r, const struct critical_path_cause *k,
		       uint64_t wall, double x, double y, double h)
{
	char name[96], what[128];

	snprintf(what, sizeof(what), "%s %s", kind_text(k->kind),
		 k->kind == CP_UNKNOWN ? "" : analyze_critical_path_name(r, k, name, sizeof(name)));
	part_html(f, x, y, h, k->ns, wall, svg_color(k->kind), what);
}

/* The causes of @res from @first on, each too narrow to draw, as one part. */
static void rest_html(FILE *f, const struct critical_path_result *res, uint32_t first,
		      uint64_t wall, double x, double y, double h)
{
	uint64_t ns = 0;
	uint32_t j;
	char what[48];

	for (j = first; j < res->causes.n; j++)
		ns += res->causes.v[j].ns;
	snprintf(what, sizeof(what), "%u more causes", res->causes.n - first);
	part_html(f, x, y, h, ns, wall, svg_color(CP_NR_KINDS + 1), what);
}

/*
 * Each thread's time as one bar split by cause, in the order of the text
 * (largest first), colored by the cause's kind; its time in the window on
 * the right.
 */
static void critical_path_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_critical_path *a = analyze_critical_path(r);
	const char *labels[CP_NR_KINDS], *colors[CP_NR_KINDS];
	double top = 40, row = 22;
	uint32_t i, j, rows;
	char name[96], t[16];

	fputs("<h2 id=critical-path>Critical path</h2>\n", f);
	rows = a->nr_results < v->top ? a->nr_results : v->top;
	if (!rows) {
		fputs("<p>No thread.</p>\n", f);
		return;
	}
	html_figure_open(f, "critical-path", HTML_W, (int)(top + rows * row + 20),
			 "each thread's time by cause");
	for (i = 0; i < CP_NR_KINDS; i++) {
		labels[i] = kinds[i].legend;
		colors[i] = svg_color(i);
	}
	svg_legend(f, 10, 14, labels, colors, CP_NR_KINDS);
	for (i = 0; i < rows; i++) {
		const struct critical_path_result *res = &a->results[i];
		uint64_t wall = res->to - res->from;
		double y = top + i * row, x = CP_BAR_X, w;

		svg_text(f, CP_BAR_X - 5, y + 13, "end", "tick",
			 report_thread_label(r, res->t, name, sizeof(name)));
		if (!wall)	/* seen at one instant only: no bar */
			continue;
		/* Largest first: the first too narrow to see starts the rest,
		 * drawn as one part (a page's size stays in its threads). */
		for (j = 0; j < res->causes.n; j++) {
			w = (double)res->causes.v[j].ns / wall * CP_BAR_W;
			if (w < CP_PART_MIN)
				break;
			cause_html(f, r, &res->causes.v[j], wall, x, y, row - 4);
			x += w;
		}
		if (j < res->causes.n)
			rest_html(f, res, j, wall, x, y, row - 4);
		svg_text(f, CP_BAR_X + CP_BAR_W + 5, y + 13, "start", "tick",
			 render_ns(wall, t, sizeof(t)));
	}
	html_figure_close(f, "What each thread's time in the window went to: its own running, "
			  "waiting for a CPU behind other threads, and for each wait what the "
			  "thread that woke it did, following wakers 8 deep (docs/report.md, "
			  "\"Critical path\"). Hover a part for its cause.");
}

/* --- JSON --- */

static const struct critical_path_result *result(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_cause(const struct json_field *f, struct json_ctx *c)
{
	const struct critical_path_cause *k = c->aux;
	const struct report *r = render_report(c);
	char name[96];

	if (!strcmp(f->name, "kind"))
		return json_doc_str(analyze_critical_path_kind(k->kind));
	if (!strcmp(f->name, "name"))
		return json_doc_str(analyze_critical_path_name(r, k, name, sizeof(name)));
	if (!strcmp(f->name, "thread"))
		return k->kind == CP_RUNNING || k->kind == CP_RUNNABLE || k->kind == CP_DEPTH ?
			render_thread_ref_of(c, k->id) : NULL;
	if (!strcmp(f->name, "cpu"))
		return k->kind == CP_RUNNABLE_IDLE ? json_doc_u64(k->id) : NULL;
	if (!strcmp(f->name, "pct"))
		return json_doc_num(c, render_pct(k->ns, c->id), 1);
	return json_doc_u64(k->ns);
}

static const struct json_field cause_fields[] = {
	{ .name = "kind", .type = JSON_STR, .get = get_cause,
	  .description = "running, runnable, runnable_idle, runnable_open, interrupt, blocked_open, depth_limit, unknown" },
	{ .name = "name", .type = JSON_STR, .get = get_cause },
	{ .name = "thread", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref",
	  .flags = JSON_OPTIONAL, .get = get_cause },
	{ .name = "cpu", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cause },
	{ .name = "ns", .type = JSON_INT, .get = get_cause },
	{ .name = "pct", .type = JSON_NUM, .get = get_cause },
	JSON_END
};

/* Each cause of @l: c->aux the cause, c->id the whole it is a share of. */
static int next_cause_of(struct json_ctx *c, size_t *pos, const struct critical_path_causes *l,
			 uint64_t whole)
{
	if (*pos >= l->n)
		return 0;
	c->aux = &l->v[(*pos)++];
	c->id = whole;
	return 1;
}

static int next_cause(struct json_ctx *c, size_t *pos)
{
	const struct critical_path_result *res = result(c);

	return next_cause_of(c, pos, &res->causes, res->to - res->from);
}

static int next_wait_cause(struct json_ctx *c, size_t *pos)
{
	const struct critical_path_wait *w = c->item;

	return next_cause_of(c, pos, &w->causes, w->to - w->from);
}

static json_object *get_wait(const struct json_field *f, struct json_ctx *c)
{
	const struct critical_path_wait *w = c->item;
	const struct report *r = render_report(c);
	char name[96];

	if (!strcmp(f->name, "state"))
		return json_doc_str(w->state == SCHED_BLOCKED ? "D" : "S");
	if (!strcmp(f->name, "waker"))
		return json_doc_str(w->waker == NO_WAKER ? "(none seen)" :
				    analyze_wakers_name(r, w->waker, name, sizeof(name)));
	if (!strcmp(f->name, "from_rel_ns"))
		return json_doc_u64(w->from - r->model->from);
	return json_doc_u64(w->to - w->from);
}

static const struct json_field wait_fields[] = {
	{ .name = "from_rel_ns", .type = JSON_INT, .get = get_wait },
	{ .name = "ns", .type = JSON_INT, .get = get_wait },
	{ .name = "state", .type = JSON_STR, .get = get_wait },
	{ .name = "waker", .type = JSON_STR, .get = get_wait },
	{ .name = "causes", .type = JSON_ARR, .sub = cause_fields, .def = "critical_path_cause",
	  .next = next_wait_cause },
	JSON_END
};

/* The waits of the result in c->item on the first call (kept in c->aux). */
static int next_wait(struct json_ctx *c, size_t *pos)
{
	const struct critical_path_result *res;

	if (!*pos)
		c->aux = c->item;
	res = c->aux;
	if (*pos >= res->nr_worst)
		return 0;
	c->item = &res->worst[(*pos)++];
	return 1;
}

static json_object *get_result(const struct json_field *f, struct json_ctx *c)
{
	const struct critical_path_result *res = result(c);

	if (!strcmp(f->name, "thread"))
		return render_thread_ref_of(c, res->t);
	if (!strcmp(f->name, "running_ns"))
		return json_doc_u64(res->running);
	if (!strcmp(f->name, "offcpu_ns"))
		return json_doc_u64(res->to - res->from - res->running);
	return json_doc_u64(res->to - res->from);
}

static const struct json_field result_fields[] = {
	{ .name = "thread", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref",
	  .get = get_result },
	{ .name = "wall_ns", .type = JSON_INT, .get = get_result },
	{ .name = "running_ns", .type = JSON_INT, .get = get_result },
	{ .name = "offcpu_ns", .type = JSON_INT, .get = get_result },
	{ .name = "causes", .type = JSON_ARR, .sub = cause_fields, .def = "critical_path_cause",
	  .next = next_cause },
	{ .name = "worst", .type = JSON_ARR, .sub = wait_fields, .next = next_wait,
	  .description = "the thread's longest waits, each with its own causes" },
	JSON_END
};

static int next_result(struct json_ctx *c, size_t *pos)
{
	const struct analyze_critical_path *a = analyze_critical_path(render_report(c));

	if (*pos >= a->nr_results)
		return 0;
	c->item = &a->results[(*pos)++];
	return 1;
}

static json_object *get_depth(const struct json_field *f, struct json_ctx *c)
{
	(void)f, (void)c;
	return json_doc_u64(CRITICAL_PATH_DEPTH);
}

static const struct json_field section_fields[] = {
	{ .name = "depth_limit", .type = JSON_INT, .get = get_depth },
	{ .name = "threads", .type = JSON_ARR, .sub = result_fields, .flags = JSON_LIST,
	  .next = next_result, .order = "offcpu_ns" },
	JSON_END
};

static const struct json_field critical_path_doc[] = {
	{ .name = "critical_path", .type = JSON_OBJ, .sub = section_fields,
	  .description = "what each thread's time went to, following its wakers" },
	JSON_END
};

const struct analyzer analyzer_critical_path = {
	.name = "critical-path",
	.help = "what each thread's time went to, following its wakers (use -p)",
	.size = sizeof(struct analyze_critical_path),
	.init = critical_path_init,
	.fini = critical_path_fini,
	.derive = critical_path_derive,
	.text = critical_path_text,
	.html = critical_path_html,
	.nav = "critical path",
	.doc = critical_path_doc,
	.metrics = critical_path_metrics,
	.tool = {
		"analyze_critical_path", "Critical path",
		"What each selected thread's time went to, following its wakers: its own running, "
		"waiting for a CPU behind other threads, and for each wait the work of the thread "
		"that woke it, recursively (8 wakers deep); interrupts end a chain. Use the pid, tid "
		"or comm filters to pick the threads (else the 16 off CPU longest that ran).",
		ARGS_ANALYSIS, 1u << KTP_REC_WAKING | 1u << KTP_REC_SWITCH, NULL,
	},
};
