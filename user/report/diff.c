// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/analyze-offcpu.h"
#include "report/analyze-runtime.h"
#include "report/diff.h"
#include "report/fdr.h"
#include "util/hash.h"
#include "util/array.h"

#define DEFAULT_ALPHA 0.01
#define DEFAULT_MIN_EFFECT 0.1
#define MIN_TESTED 10		/* values each side before a test is trusted */
#define SHARE_POINTS 5.0	/* a change of runtime or utilization worth naming */
#define RATE_FLOOR 10.0		/* rates below this per second are noise */
#define MAX_METRICS 32		/* of one entity, over all analyses */

double diff_alpha(const struct diff_config *c)
{
	return c->alpha > 0 ? c->alpha : DEFAULT_ALPHA;
}

double diff_min_effect(const struct diff_config *c)
{
	return c->min_effect > 0 ? c->min_effect : DEFAULT_MIN_EFFECT;
}

/* --- The metrics of every analysis, by what they are measured on --- */

struct metric_ref {
	const struct diff_metric *m;
	unsigned int section;
};

/* The metrics on @e (for DIFF_THREAD and DIFF_PROCESS: the threads' that go there). */
static unsigned int metrics_of(enum diff_entity e, struct metric_ref *out)
{
	unsigned int n = 0, i;
	const struct diff_metric *m;

	for (i = 0; i < nr_analyzers; i++) {
		for (m = analyzers[i]->metrics; m && m->name && n < MAX_METRICS; m++) {
			int on = m->entity == e ||
				(m->entity == DIFF_THREADS &&
				 ((e == DIFF_THREAD && (m->groups & DIFF_GROUP_THREAD)) ||
				  (e == DIFF_PROCESS && (m->groups & DIFF_GROUP_PROCESS))));

			if (on)
				out[n++] = (struct metric_ref){ m, 1u << i };
		}
	}
	return n;
}

/* --- Groups: the threads, processes, handlers or causes of one name --- */

static void groups_free(struct diff_run *x, enum diff_entity e)
{
	struct metric_ref ms[MAX_METRICS];
	unsigned int nm = metrics_of(e, ms), i, k;

	for (i = 0; i < x->ngroups[e]; i++) {
		for (k = 0; k < nm && x->groups[e][i].h; k++)
			hist_fini(&x->groups[e][i].h[k]);
		free(x->groups[e][i].sum);
		free(x->groups[e][i].h);
	}
	free(x->groups[e]);
	u64_map_fini(&x->index[e]);
}

/* The group named @name of entity @e in @x; NULL if none. */
static struct diff_group *find(const struct diff_run *x, enum diff_entity e, const char *name)
{
	uint64_t h = hash_fnv1a(name, strlen(name), HASH_FNV1A_SEED);
	void *v = u64_map_get(&x->index[e], h);
	uint32_t i;

	if (!v)
		return NULL;
	i = (uint32_t)((uintptr_t)v - 1);
	if (!strcmp(x->groups[e][i].name, name))
		return &x->groups[e][i];
	/* Two names of one hash: rare enough to look through them all. */
	for (i = 0; i < x->ngroups[e]; i++)
		if (!strcmp(x->groups[e][i].name, name))
			return &x->groups[e][i];
	return NULL;
}

/* The group named @name (made if new, with @nm metrics); NULL on ENOMEM. */
static struct diff_group *group_of(struct diff_run *x, enum diff_entity e, const char *name,
				   unsigned int nm)
{
	struct diff_group *g = find(x, e, name), *v;
	uint32_t n = x->ngroups[e];
	uint64_t h;
	unsigned int k;

	if (g)
		return g;
	/* Doubling: one group at a time would be quadratic in the groups. */
	if (!(n & (n - 1))) {
		v = realloc(x->groups[e], (n ? 2 * n : 16) * sizeof(*v));
		if (!v)
			return NULL;
		x->groups[e] = v;
	}
	g = &x->groups[e][n];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	g->sum = calloc(nm + 1, sizeof(*g->sum));
	g->h = calloc(nm + 1, sizeof(*g->h));
	if (!g->sum || !g->h) {
		free(g->sum);
		free(g->h);
		return NULL;
	}
	for (k = 0; k < nm; k++)
		hist_init(&g->h[k]);
	x->ngroups[e]++;
	h = hash_fnv1a(g->name, strlen(g->name), HASH_FNV1A_SEED);
	if (!u64_map_get(&x->index[e], h) &&
	    u64_map_put(&x->index[e], h, (void *)(uintptr_t)(n + 1)))
		return NULL;
	return g;
}

/* Add instance @id to group @g: each metric's value or distribution. */
static int take(struct diff_group *g, const struct report *r, const struct metric_ref *ms,
		unsigned int nm, uint32_t id)
{
	unsigned int k;

	for (k = 0; k < nm; k++) {
		if (ms[k].m->kind != METRIC_DIST)
			g->sum[k] += ms[k].m->value(r, id);
		else if (hist_merge(&g->h[k], ms[k].m->dist(r, id)))
			return -ENOMEM;
	}
	return 0;
}

static int add_thread(struct diff_run *x, uint32_t t)
{
	const struct report *r = x->r;
	struct metric_ref mt[MAX_METRICS], mp[MAX_METRICS];
	unsigned int nt = metrics_of(DIFF_THREAD, mt), np = metrics_of(DIFF_PROCESS, mp);
	struct diff_group *gt, *gp;
	char name[sizeof(gt->name)];

	gt = group_of(x, DIFF_THREAD, report_thread_key(r, t, name, sizeof(name)), nt);
	gp = group_of(x, DIFF_PROCESS, report_process_name(r, t), np);
	if (!gt || !gp)
		return -ENOMEM;
	gt->n++;
	gp->n += r->model->sched.threads[t].pid == r->model->sched.threads[t].tgid;
	return take(gt, r, mt, nt, t) || take(gp, r, mp, np, t) ? -ENOMEM : 0;
}

/* The hash of a cause's thread group: its name up to ": ". */
static uint64_t cause_group_hash(const char *name)
{
	const char *colon = strstr(name, ": ");

	return hash_fnv1a(name, colon ? (size_t)(colon - name) : strlen(name), HASH_FNV1A_SEED);
}

/*
 * Whether run @x walked the path of the thread group of cause @name. Each
 * run walks its own threads (those off CPU longest, unless -p, --tid or
 * --comm pick them): a thread one run did not walk has no causes there,
 * which is not a change.
 */
static int walked(const struct diff_run *x, const char *name)
{
	return u64_map_get(&x->walked, cause_group_hash(name)) != NULL;
}

/* The instances of a named entity (handlers, causes), summed by name. */
static int add_named(struct diff_run *x, enum diff_entity e)
{
	const struct report *r = x->r;
	struct metric_ref ms[MAX_METRICS];
	unsigned int nm = metrics_of(e, ms);
	struct diff_group *g;
	const char *key;
	uint32_t i, n;
	char name[sizeof(g->name)];

	if (!nm)
		return 0;
	n = ms[0].m->count(r);
	for (i = 0; i < n; i++) {
		key = ms[0].m->name_of(r, i, name, sizeof(name));
		if (!key)
			continue;
		g = group_of(x, e, key, nm);
		if (!g)
			return -ENOMEM;
		if (ms[0].m->weighs && !ms[0].m->weighs(r, i))
			g->unweighed = 1;
		if (e == DIFF_CAUSE && !walked(x, key) &&
		    u64_map_put(&x->walked, cause_group_hash(key), (void *)1))
			return -ENOMEM;
		g->n++;
		if (take(g, r, ms, nm, i))
			return -ENOMEM;
	}
	return 0;
}

static int run_side(struct diff_run *x, const char *path, const struct diff_config *cfg,
		    struct error *err)
{
	struct report *r;
	uint32_t t, i;

	x->r = r = report_run(path, &cfg->report, err);
	if (!r)
		return err->code ? err->code : -EINVAL;
	x->secs = r->model->window_ns / 1e9;
	for (i = 0; i < analyze_cpu(r)->nr_cpus; i++)
		x->cpus += report_cpu_shown(r, i);
	for (t = 0; t < r->model->sched.nr_threads; t++) {
		if (!r->thread_selected[t] || !analyze_runtime_active(r, t))
			continue;
		if (add_thread(x, t))
			return error_set(err, -ENOMEM, NULL);
	}
	if (add_named(x, DIFF_HANDLER) || add_named(x, DIFF_CAUSE) ||
	    add_named(x, DIFF_BLOCKED) || add_named(x, DIFF_CGROUP) ||
	    add_named(x, DIFF_PROBE) || add_named(x, DIFF_SPAN))
		return error_set(err, -ENOMEM, NULL);
	return 0;
}

static void run_init(struct diff_run *x)
{
	int e;

	memset(x, 0, sizeof(*x));
	for (e = DIFF_PROCESS; e < DIFF_NR_NAMED; e++)
		u64_map_init(&x->index[e]);
	u64_map_init(&x->walked);
}

static void run_fini(struct diff_run *x)
{
	int e;

	for (e = DIFF_PROCESS; e < DIFF_NR_NAMED; e++)
		groups_free(x, e);
	u64_map_fini(&x->walked);
	report_free(x->r);
}

/* --- Items --- */

static struct diff_item *item(struct diff *d, enum diff_entity e, const char *name,
			      const struct metric_ref *m, int in_a, int in_b)
{
	struct diff_item *it;

	if (array_reserve_n((void **)&d->items, &d->cap, d->n, sizeof(*d->items), 256))
		return NULL;
	it = &d->items[d->n++];
	memset(it, 0, sizeof(*it));
	it->entity = e;
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->metric = m->m->name;
	it->section = m->section;
	it->in_a = in_a;
	it->in_b = in_b;
	return it;
}

static void set_change(struct diff_item *it)
{
	it->delta = it->b - it->a;
	it->rel = it->a != 0 ? it->delta / it->a : NAN;
}

/*
 * The seconds a rate of entity @e (instance @id) is per: a CPU's own known
 * time (a CPU offline half the window did its switches in the other
 * half), the CPUs' known time summed for machine totals --per-cpu, else
 * the window.
 */
static double rate_secs(const struct diff *d, const struct diff_run *x, enum diff_entity e,
			uint32_t id)
{
	const struct analyze_cpu *c = analyze_cpu(x->r);

	if (e == DIFF_CPU)
		return id < c->nr_cpus ? (c->cpus[id].busy_ns + c->cpus[id].idle_ns) / 1e9 : 0;
	if (e == DIFF_MACHINE && d->cfg.per_cpu)
		return x->r->known_ns / 1e9;
	return x->secs;
}

/* A total as the comparison wants it: per second, or as it is. */
static double rate(const struct diff *d, const struct diff_run *x, double v,
		   enum diff_entity e, uint32_t id)
{
	double secs;

	if (d->cfg.absolute)
		return v;
	secs = rate_secs(d, x, e, id);
	return secs > 0 ? v / secs : 0;
}

/* A metric's raw value as compared. */
static double as_compared(const struct diff *d, const struct diff_run *x,
			  const struct metric_ref *m, enum diff_entity e, uint32_t id, double v)
{
	switch (m->m->kind) {
	case METRIC_RUNTIME:
		return d->cfg.absolute ? v / 1e6 : 100 * rate(d, x, v / 1e9, e, id);
	case METRIC_COUNT:
		return rate(d, x, v, e, id);
	case METRIC_TIME:
		return rate(d, x, v / 1e6, e, id);
	default:
		return v;
	}
}

static const char *unit_of(const struct diff *d, const struct metric_ref *m)
{
	static const char *const units[][2] = {
		[METRIC_PERCENT] = { "%", "%" },
		[METRIC_RUNTIME] = { "% of a CPU", "ms" },
		[METRIC_COUNT] = { "/s", "" },
		[METRIC_TIME] = { "ms/s", "ms" },
		[METRIC_DIST] = { "ns", "ns" },
	};

	return units[m->m->kind][!!d->cfg.absolute];
}

static int scalar(struct diff *d, enum diff_entity e, const char *name, uint32_t id,
		  const struct metric_ref *m, int in_a, int in_b, double a, double b)
{
	struct diff_item *it = item(d, e, name, m, in_a, in_b);

	if (!it)
		return -ENOMEM;
	it->kind = DIFF_SCALAR;
	it->unit = unit_of(d, m);
	it->share = m->m->kind == METRIC_PERCENT || m->m->kind == METRIC_RUNTIME;
	it->a = in_a ? as_compared(d, &d->a, m, e, id, a) : 0;
	it->b = in_b ? as_compared(d, &d->b, m, e, id, b) : 0;
	set_change(it);
	return 0;
}

static int dist(struct diff *d, enum diff_entity e, const char *name,
		const struct metric_ref *m, const struct hist *ha, const struct hist *hb)
{
	static const unsigned int permille[] = { 990, 999 };
	struct diff_item *it;
	unsigned int k;

	if (!(ha && ha->count) && !(hb && hb->count))
		return 0;
	it = item(d, e, name, m, ha && ha->count, hb && hb->count);
	if (!it)
		return -ENOMEM;
	it->kind = DIFF_DIST;
	it->unit = "ns";
	it->ha = ha;
	it->hb = hb;
	it->a = ha ? hist_percentile(ha, 99) : 0;
	it->b = hb ? hist_percentile(hb, 99) : 0;
	set_change(it);
	if (!it->in_a || !it->in_b)
		return 0;
	if (!mann_whitney(ha, hb, &it->mw)) {
		it->test[DIFF_SHIFT] = (struct diff_test){
			.tested = ha->count >= MIN_TESTED && hb->count >= MIN_TESTED,
			.p = it->mw.p, .effect = it->mw.effect };
	}
	for (k = 0; k < 2; k++) {
		uint64_t min = tail_test_min_count(permille[k]);

		if (tail_test(ha, hb, permille[k], &it->tail[k]))
			continue;
		it->test[DIFF_TAIL99 + k] = (struct diff_test){
			.tested = ha->count >= min && hb->count >= min,
			.p = it->tail[k].p, .effect = it->tail[k].effect };
	}
	return 0;
}

double diff_test_percentile(const struct diff_item *it, enum diff_test_kind k, int b)
{
	static const double ps[] = { 50, 99, 99.9 };
	const struct hist *h = b ? it->hb : it->ha;

	return h && h->count ? (double)hist_percentile(h, ps[k]) : 0;
}

/*
 * q-values over every test run, then which are significant: q < alpha and
 * an effect that matters (a shift of --min-effect, a tail that at least
 * doubled or halved).
 */
static int judge(struct diff *d)
{
	double alpha = diff_alpha(&d->cfg), *p, *q;
	size_t i, n = 0;
	unsigned int k;

	p = malloc((d->n * DIFF_NR_TESTS + 1) * sizeof(*p));
	q = malloc((d->n * DIFF_NR_TESTS + 1) * sizeof(*q));
	if (!p || !q) {
		free(p);
		free(q);
		return -ENOMEM;
	}
	for (i = 0; i < d->n; i++)
		for (k = 0; k < DIFF_NR_TESTS; k++)
			if (d->items[i].test[k].tested)
				p[n++] = d->items[i].test[k].p;
	if (fdr_adjust(p, n, q)) {
		free(p);
		free(q);
		return -ENOMEM;
	}
	d->tests = n;
	n = 0;
	for (i = 0; i < d->n; i++) {
		struct diff_item *it = &d->items[i];

		for (k = 0; k < DIFF_NR_TESTS; k++) {
			struct diff_test *t = &it->test[k];

			if (!t->tested)
				continue;
			t->q = q[n++];
			t->significant = t->q < alpha &&
				fabs(t->effect) >= (k == DIFF_SHIFT ? diff_min_effect(&d->cfg) :
						    DIFF_TAIL_MIN_EFFECT);
			it->significant |= t->significant;
		}
	}
	free(p);
	free(q);
	return 0;
}

/* The items of one machine or CPU: side @ia/@ib has it, instance @id. */
static int instance_items(struct diff *d, enum diff_entity e, const char *name, uint32_t id,
			  int ia, int ib)
{
	struct metric_ref ms[MAX_METRICS];
	unsigned int nm = metrics_of(e, ms), k;
	const struct report *ra = d->a.r, *rb = d->b.r;
	int ret;

	for (k = 0; k < nm; k++) {
		const struct diff_metric *m = ms[k].m;

		if (m->kind == METRIC_DIST)
			ret = dist(d, e, name, &ms[k], ia ? m->dist(ra, id) : NULL,
				   ib ? m->dist(rb, id) : NULL);
		else
			ret = scalar(d, e, name, id, &ms[k], ia, ib, ia ? m->value(ra, id) : 0,
				     ib ? m->value(rb, id) : 0);
		if (ret)
			return ret;
	}
	return 0;
}

static int cpu_items(struct diff *d)
{
	uint32_t cpu, n = analyze_cpu(d->a.r)->nr_cpus > analyze_cpu(d->b.r)->nr_cpus ?
		analyze_cpu(d->a.r)->nr_cpus : analyze_cpu(d->b.r)->nr_cpus;
	char name[32];
	int ret;

	for (cpu = 0; cpu < n; cpu++) {
		int ia = report_cpu_shown(d->a.r, cpu), ib = report_cpu_shown(d->b.r, cpu);

		if (!ia && !ib)
			continue;
		snprintf(name, sizeof(name), "CPU %u", cpu);
		if ((ret = instance_items(d, DIFF_CPU, name, cpu, ia, ib)))
			return ret;
	}
	return 0;
}

static int group_items(struct diff *d, enum diff_entity e, const struct diff_group *ga,
		       const struct diff_group *gb, const char *name)
{
	struct metric_ref ms[MAX_METRICS];
	unsigned int nm = metrics_of(e, ms), k;
	int unweighed = (ga && ga->unweighed) || (gb && gb->unweighed);
	size_t first = d->n;
	int ret;

	for (k = 0; k < nm; k++) {
		if (ms[k].m->kind == METRIC_DIST)
			ret = dist(d, e, name, &ms[k], ga ? &ga->h[k] : NULL, gb ? &gb->h[k] : NULL);
		else
			ret = scalar(d, e, name, 0, &ms[k], !!ga, !!gb, ga ? ga->sum[k] : 0,
				     gb ? gb->sum[k] : 0);
		if (ret)
			return ret;
	}
	for (; first < d->n; first++)
		d->items[first].unweighed = unweighed;
	return 0;
}

/* Whether group @g of one run compares with the other run @other. */
static int comparable(const struct diff_run *other, enum diff_entity e,
		      const struct diff_group *g)
{
	if (e == DIFF_BLOCKED)
		return analyze_offcpu(other->r)->switches_with_stack > 0;
	return e != DIFF_CAUSE || walked(other, g->name);
}

/* Every name of either side, A's first. */
static int groups(struct diff *d, enum diff_entity e)
{
	const struct diff_run *a = &d->a, *b = &d->b;
	const struct diff_group *g;
	uint32_t i;
	int ret;

	for (i = 0; i < a->ngroups[e]; i++) {
		g = &a->groups[e][i];
		if (comparable(b, e, g) &&
		    (ret = group_items(d, e, g, find(b, e, g->name), g->name)))
			return ret;
	}
	for (i = 0; i < b->ngroups[e]; i++) {
		g = &b->groups[e][i];
		if (!find(a, e, g->name) && comparable(a, e, g) &&
		    (ret = group_items(d, e, NULL, g, g->name)))
			return ret;
	}
	return 0;
}

/* --- The verdict --- */

static double log2_ratio(double a, double b)
{
	if (a <= 0 || b <= 0)
		return a == b ? 0 : 10;
	return fabs(log2(b / a));
}

/* A thread group that came or went with its whole process says nothing more. */
static int process_came_or_went(const struct diff *d, const struct diff_item *it)
{
	char proc[sizeof(it->name)];
	char *slash;

	snprintf(proc, sizeof(proc), "%s", it->name);
	slash = strrchr(proc, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	return !find(&d->a, DIFF_PROCESS, proc) != !find(&d->b, DIFF_PROCESS, proc);
}

/*
 * A distribution's score: that of its significant test that scores
 * highest, |effect| × (1 + min(|log2| of the ratio of the percentile the
 * test is about, 4)); the item is named by that test.
 */
static double dist_score(struct diff_item *it)
{
	double best = 0;
	unsigned int k;

	it->named_by = DIFF_SHIFT;
	for (k = 0; k < DIFF_NR_TESTS; k++) {
		struct diff_test *t = &it->test[k];

		t->score = t->significant ? fabs(t->effect) *
			(1 + fmin(log2_ratio(diff_test_percentile(it, k, 0),
					     diff_test_percentile(it, k, 1)), 4)) : 0;
		if (t->score > best) {
			best = t->score;
			it->named_by = k;
		}
	}
	return best;
}

/* How much a change matters (docs/diff.md); 0: not worth naming. */
static double score(const struct diff *d, struct diff_item *it)
{
	int share = it->share && strcmp(it->unit, "ms");

	if (it->unweighed)
		return 0;
	if (it->kind == DIFF_DIST)
		return dist_score(it);
	if (share && (!it->in_a || !it->in_b) && it->entity != DIFF_CPU) {
		/* A process or thread that came or went. */
		if (it->entity == DIFF_THREAD && process_came_or_went(d, it))
			return 0;
		return fmax(it->a, it->b) >= SHARE_POINTS ? 0.5 + fmax(it->a, it->b) / 25 : 0;
	}
	if (share)
		return fabs(it->delta) >= SHARE_POINTS ? fabs(it->delta) / 25 : 0;
	if (!strcmp(it->unit, "/s") && it->in_a && it->in_b)
		return fmax(it->a, it->b) >= RATE_FLOOR && log2_ratio(it->a, it->b) >= 1 ?
			log2_ratio(it->a, it->b) / 4 : 0;
	return 0;
}

static int by_score(const void *x, const void *y, void *ctx)
{
	const struct diff *d = ctx;
	const struct diff_item *a = &d->items[*(const size_t *)x];
	const struct diff_item *b = &d->items[*(const size_t *)y];

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	/* The same change seen at several levels: the most specific first. */
	if (a->entity != b->entity)
		return a->entity > b->entity ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/*
 * One change seen at several levels (a thread group, its process, its CPU,
 * the machine: the same values, the same effect) is named once, at the
 * most specific level, which sorts first.
 */
static int said(const struct diff *d, const struct diff_item *it)
{
	size_t i;

	for (i = 0; i < d->nverdict; i++) {
		const struct diff_item *v = &d->items[d->verdict[i]];

		if (v->kind == it->kind && !strcmp(v->metric, it->metric) && v->a == it->a &&
		    v->b == it->b && v->named_by == it->named_by &&
		    v->test[v->named_by].effect == it->test[it->named_by].effect)
			return 1;
	}
	return 0;
}

static int verdict(struct diff *d)
{
	size_t i, n = 0;

	d->verdict = malloc((d->n + 1) * sizeof(*d->verdict));
	if (!d->verdict)
		return -ENOMEM;
	for (i = 0; i < d->n; i++) {
		d->items[i].score = score(d, &d->items[i]);
		if (d->items[i].score > 0)
			d->verdict[n++] = i;
	}
	qsort_r(d->verdict, n, sizeof(*d->verdict), by_score, d);
	d->nverdict = 0;
	for (i = 0; i < n && d->nverdict < DIFF_VERDICT_MAX; i++)
		if (!said(d, &d->items[d->verdict[i]]))
			d->verdict[d->nverdict++] = d->verdict[i];
	return 0;
}

struct diff *diff_run(const char *a, const char *b, const struct diff_config *cfg,
		      struct error *err)
{
	struct diff *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	d->cfg = *cfg;
	run_init(&d->a);
	run_init(&d->b);
	if (run_side(&d->a, a, cfg, err) || run_side(&d->b, b, cfg, err))
		goto fail;
	if ((ret = instance_items(d, DIFF_MACHINE, "machine", 0, 1, 1)) ||
	    (ret = cpu_items(d)) || (ret = groups(d, DIFF_PROCESS)) ||
	    (ret = groups(d, DIFF_THREAD)) || (ret = groups(d, DIFF_HANDLER)) ||
	    (ret = groups(d, DIFF_CAUSE)) || (ret = groups(d, DIFF_BLOCKED)) ||
	    (ret = groups(d, DIFF_CGROUP)) || (ret = groups(d, DIFF_PROBE)) ||
	    (ret = groups(d, DIFF_SPAN)) ||
	    (ret = judge(d)) || (ret = verdict(d))) {
		error_set(err, ret, NULL);
		goto fail;
	}
	return d;
fail:
	diff_free(d);
	return NULL;
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	run_fini(&d->a);
	run_fini(&d->b);
	free(d->items);
	free(d->verdict);
	free(d);
}
