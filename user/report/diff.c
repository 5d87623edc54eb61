// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/diff.h"
#include "report/render.h"

#define DEFAULT_ALPHA 0.01
#define DEFAULT_MIN_EFFECT 0.1
#define MIN_TESTED 10		/* values each side before a test is trusted */
#define SHARE_POINTS 5.0	/* a change of runtime or utilization worth naming */
#define RATE_FLOOR 10.0		/* rates below this per second are noise */

double diff_alpha(const struct diff_config *c)
{
	return c->alpha > 0 ? c->alpha : DEFAULT_ALPHA;
}

double diff_min_effect(const struct diff_config *c)
{
	return c->min_effect > 0 ? c->min_effect : DEFAULT_MIN_EFFECT;
}

/* --- Groups: the threads, processes or handlers of one name --- */

static void group_init(struct diff_group *g, const char *name)
{
	int k;

	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	for (k = 0; k < 3; k++)
		hist_init(&g->h[k]);
}

static void groups_free(struct diff_group *g, uint32_t n)
{
	uint32_t i;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 3; k++)
			hist_fini(&g[i].h[k]);
	free(g);
}

/* The group named @name in @v (made if new); NULL on ENOMEM. */
static struct diff_group *group_of(struct diff_group **v, uint32_t *n, const char *name)
{
	struct diff_group *g;
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (!strncmp((*v)[i].name, name, sizeof((*v)[i].name) - 1))
			return &(*v)[i];
	g = realloc(*v, (*n + 1) * sizeof(*g));
	if (!g)
		return NULL;
	*v = g;
	group_init(&g[*n], name);
	return &g[(*n)++];
}

static const char *process_name(const struct report *r, uint32_t t)
{
	const struct sched_thread *th = &r->sched.threads[t];
	const char *c = r->sched.procs[th->process].comm;

	return c[0] ? c : th->comm;
}

static int add_thread(struct diff_run *x, uint32_t t)
{
	const struct report *r = x->r;
	const struct runtime_result *rt = &r->runtime.threads[t];
	const struct migrations_result *m = &r->migrations.threads[t];
	struct diff_group *g[2];
	char name[64];
	int i, k;

	snprintf(name, sizeof(name), "%s/%s", process_name(r, t), report_thread_name(r, t));
	g[0] = group_of(&x->threads, &x->nthreads, name);
	if (!g[0])
		return -ENOMEM;
	g[1] = group_of(&x->procs, &x->nprocs, process_name(r, t));
	if (!g[1])
		return -ENOMEM;
	for (i = 0; i < 2; i++) {
		g[i]->n += i == 0 || r->sched.threads[t].pid == r->sched.threads[t].tgid;
		g[i]->runtime_ns += rt->runtime_ns;
		g[i]->voluntary += rt->voluntary;
		g[i]->involuntary += rt->involuntary;
		for (k = 0; k < MIGRATION_NR_CLASSES; k++)
			g[i]->migrations += m->count[k];
		for (k = 0; k < 2; k++)
			if (hist_merge(&g[i]->h[k], &r->latency.threads[t].h[k]))
				return -ENOMEM;
		if (hist_merge(&g[i]->h[2], &rt->slices))
			return -ENOMEM;
	}
	x->switches += rt->voluntary + rt->involuntary;
	return hist_merge(&x->slices, &rt->slices);
}

static int add_handler(struct diff_run *x, const struct irq_handler *h)
{
	const struct report *r = x->r;
	struct diff_group *g;
	char name[64], sym[96];
	const char *n;

	if (h->kind == SCHED_HARDIRQ) {
		n = analyze_irq_name(&r->irq, h->id);
		if (n)
			snprintf(name, sizeof(name), "irq %s", n);
		else
			snprintf(name, sizeof(name), "irq %" PRIu64, h->id);
	} else if (h->kind == SCHED_SOFTIRQ) {
		n = analyze_irq_softirq_name(h->id);
		snprintf(name, sizeof(name), "softirq %s", n ? n : "?");
	} else {
		snprintf(name, sizeof(name), "work %s", report_ksym(r, h->id, sym, sizeof(sym)));
	}
	g = group_of(&x->handlers, &x->nhandlers, name);
	if (!g)
		return -ENOMEM;
	g->n++;
	g->runtime_ns += h->self_ns;
	if (hist_merge(&g->h[0], &h->durations))
		return -ENOMEM;
	if (h->kind == SCHED_HARDIRQ || h->kind == SCHED_SOFTIRQ)
		return hist_merge(h->kind == SCHED_HARDIRQ ? &x->hardirq : &x->softirq,
				  &h->durations);
	return 0;
}

static int run_side(struct diff_run *x, const char *path, const struct diff_config *cfg,
		    struct error *err)
{
	struct report *r;
	uint32_t t, i;

	hist_init(&x->slices);
	hist_init(&x->hardirq);
	hist_init(&x->softirq);
	x->r = r = report_run(path, &cfg->report, err);
	if (!r)
		return err->code ? err->code : -EINVAL;
	x->secs = r->window_ns / 1e9;
	for (i = 0; i < r->cpu.nr_cpus; i++)
		x->cpus += report_cpu_shown(r, i);
	for (t = 0; t < r->sched.nr_threads; t++) {
		const struct runtime_result *rt = &r->runtime.threads[t];

		if (!r->thread_selected[t] || (!rt->runtime_ns && !rt->voluntary &&
					       !rt->involuntary))
			continue;
		if (add_thread(x, t))
			return error_set(err, -ENOMEM, NULL);
	}
	for (i = 0; i < r->irq.nr_handlers; i++)
		if (add_handler(x, &r->irq.handlers[i]))
			return error_set(err, -ENOMEM, NULL);
	for (i = 0; i < r->cpu.nr_cpus; i++)
		if (report_cpu_shown(r, i))
			x->migrations += r->cpu.cpus[i].migrations_in;
	x->wakings = r->wakers.wakings;
	return 0;
}

static void run_fini(struct diff_run *x)
{
	groups_free(x->threads, x->nthreads);
	groups_free(x->procs, x->nprocs);
	groups_free(x->handlers, x->nhandlers);
	hist_fini(&x->slices);
	hist_fini(&x->hardirq);
	hist_fini(&x->softirq);
	report_free(x->r);
}

/* --- Items --- */

static struct diff_item *item(struct diff *d, enum diff_entity e, const char *name,
			      const char *metric, const char *unit, int in_a, int in_b)
{
	struct diff_item *it;

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		struct diff_item *v = realloc(d->items, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->items = v;
		d->cap = cap;
	}
	it = &d->items[d->n++];
	memset(it, 0, sizeof(*it));
	it->entity = e;
	snprintf(it->name, sizeof(it->name), "%s", name);
	it->metric = metric;
	it->unit = unit;
	it->in_a = in_a;
	it->in_b = in_b;
	return it;
}

static void set_change(struct diff_item *it)
{
	it->delta = it->b - it->a;
	it->rel = it->a != 0 ? it->delta / it->a : NAN;
}

static int scalar(struct diff *d, enum diff_entity e, const char *name, const char *metric,
		  const char *unit, int in_a, int in_b, double a, double b)
{
	struct diff_item *it = item(d, e, name, metric, unit, in_a, in_b);

	if (!it)
		return -ENOMEM;
	it->kind = DIFF_SCALAR;
	it->a = a;
	it->b = b;
	set_change(it);
	return 0;
}

static int dist(struct diff *d, enum diff_entity e, const char *name, const char *metric,
		const struct hist *ha, const struct hist *hb)
{
	struct diff_item *it;

	if (!(ha && ha->count) && !(hb && hb->count))
		return 0;
	it = item(d, e, name, metric, "ns", ha && ha->count, hb && hb->count);
	if (!it)
		return -ENOMEM;
	it->kind = DIFF_DIST;
	it->ha = ha;
	it->hb = hb;
	it->a = ha ? hist_percentile(ha, 99) : 0;
	it->b = hb ? hist_percentile(hb, 99) : 0;
	set_change(it);
	if (ha && hb && !mann_whitney(ha, hb, &it->mw)) {
		it->tested = ha->count >= MIN_TESTED && hb->count >= MIN_TESTED;
		it->significant = it->tested && it->mw.p < diff_alpha(&d->cfg) &&
				  fabs(it->mw.effect) >= diff_min_effect(&d->cfg);
	}
	return 0;
}

/* A total as the comparison wants it: per second, per CPU, or as it is. */
static double rate(const struct diff *d, const struct diff_run *x, double v, int machine)
{
	if (!d->cfg.absolute)
		v = x->secs > 0 ? v / x->secs : 0;
	if (machine && d->cfg.per_cpu)
		v = x->cpus ? v / x->cpus : 0;
	return v;
}

static const char *rate_unit(const struct diff *d, const char *per_s, const char *total)
{
	return d->cfg.absolute ? total : per_s;
}

static double util(const struct report *r, uint32_t cpu)
{
	const struct cpu_result *c = &r->cpu.cpus[cpu];
	uint64_t k = c->busy_ns + c->idle_ns;

	return k ? 100.0 * c->busy_ns / k : 0;
}

static int machine_items(struct diff *d)
{
	const struct diff_run *a = &d->a, *b = &d->b;
	const struct report *ra = a->r, *rb = b->r;
	int ret;

	if ((ret = scalar(d, DIFF_MACHINE, "machine", "utilization", "%", 1, 1,
			  ra->known_ns ? 100.0 * ra->busy_ns / ra->known_ns : 0,
			  rb->known_ns ? 100.0 * rb->busy_ns / rb->known_ns : 0)) ||
	    (ret = scalar(d, DIFF_MACHINE, "machine", "context switches",
			  rate_unit(d, "/s", ""), 1, 1, rate(d, a, a->switches, 1),
			  rate(d, b, b->switches, 1))) ||
	    (ret = scalar(d, DIFF_MACHINE, "machine", "migrations", rate_unit(d, "/s", ""),
			  1, 1, rate(d, a, a->migrations, 1), rate(d, b, b->migrations, 1))) ||
	    (ret = scalar(d, DIFF_MACHINE, "machine", "wakings", rate_unit(d, "/s", ""), 1, 1,
			  rate(d, a, a->wakings, 1), rate(d, b, b->wakings, 1))) ||
	    (ret = dist(d, DIFF_MACHINE, "machine", "wakeup latency", &ra->overall.h[0],
			&rb->overall.h[0])) ||
	    (ret = dist(d, DIFF_MACHINE, "machine", "runqueue latency", &ra->overall.h[1],
			&rb->overall.h[1])) ||
	    (ret = dist(d, DIFF_MACHINE, "machine", "slice length", &a->slices, &b->slices)) ||
	    (ret = dist(d, DIFF_MACHINE, "machine", "hardirq duration", &a->hardirq,
			&b->hardirq)) ||
	    (ret = dist(d, DIFF_MACHINE, "machine", "softirq duration", &a->softirq,
			&b->softirq)))
		return ret;
	return 0;
}

static int cpu_items(struct diff *d)
{
	const struct report *ra = d->a.r, *rb = d->b.r;
	uint32_t cpu, n = ra->cpu.nr_cpus > rb->cpu.nr_cpus ? ra->cpu.nr_cpus : rb->cpu.nr_cpus;
	char name[32];
	int ret;

	for (cpu = 0; cpu < n; cpu++) {
		int ia = report_cpu_shown(ra, cpu), ib = report_cpu_shown(rb, cpu);
		const struct irq_cpu_result *qa = ia && cpu < ra->irq.nr_cpus ? &ra->irq.cpus[cpu] : NULL;
		const struct irq_cpu_result *qb = ib && cpu < rb->irq.nr_cpus ? &rb->irq.cpus[cpu] : NULL;

		if (!ia && !ib)
			continue;
		snprintf(name, sizeof(name), "CPU %u", cpu);
		if ((ret = scalar(d, DIFF_CPU, name, "utilization", "%", ia, ib,
				  ia ? util(ra, cpu) : 0, ib ? util(rb, cpu) : 0)) ||
		    (ret = scalar(d, DIFF_CPU, name, "context switches", rate_unit(d, "/s", ""),
				  ia, ib, ia ? rate(d, &d->a, ra->cpu.cpus[cpu].switches, 0) : 0,
				  ib ? rate(d, &d->b, rb->cpu.cpus[cpu].switches, 0) : 0)) ||
		    (ret = scalar(d, DIFF_CPU, name, "hardirq+softirq time",
				  rate_unit(d, "ms/s", "ms"), ia, ib,
				  qa ? rate(d, &d->a, (qa->ns[0] + qa->ns[1]) / 1e6, 0) : 0,
				  qb ? rate(d, &d->b, (qb->ns[0] + qb->ns[1]) / 1e6, 0) : 0)) ||
		    (ret = dist(d, DIFF_CPU, name, "wakeup latency",
				ia && cpu < ra->latency.nr_cpus ? &ra->latency.cpus[cpu].h[0] : NULL,
				ib && cpu < rb->latency.nr_cpus ? &rb->latency.cpus[cpu].h[0] : NULL)) ||
		    (ret = dist(d, DIFF_CPU, name, "runqueue latency",
				ia && cpu < ra->latency.nr_cpus ? &ra->latency.cpus[cpu].h[1] : NULL,
				ib && cpu < rb->latency.nr_cpus ? &rb->latency.cpus[cpu].h[1] : NULL)))
			return ret;
	}
	return 0;
}

static const struct diff_group *find(const struct diff_group *v, uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static int group_items(struct diff *d, enum diff_entity e, const struct diff_group *ga,
		       const struct diff_group *gb, const char *name)
{
	int ret;

	if ((ret = scalar(d, e, name, "runtime", d->cfg.absolute ? "ms" : "% of a CPU",
			  !!ga, !!gb,
			  ga ? (d->cfg.absolute ? ga->runtime_ns / 1e6 :
				100 * rate(d, &d->a, ga->runtime_ns / 1e9, 0)) : 0,
			  gb ? (d->cfg.absolute ? gb->runtime_ns / 1e6 :
				100 * rate(d, &d->b, gb->runtime_ns / 1e9, 0)) : 0)) ||
	    (ret = scalar(d, e, name, "voluntary switches", rate_unit(d, "/s", ""), !!ga, !!gb,
			  ga ? rate(d, &d->a, ga->voluntary, 0) : 0,
			  gb ? rate(d, &d->b, gb->voluntary, 0) : 0)) ||
	    (ret = scalar(d, e, name, "involuntary switches", rate_unit(d, "/s", ""), !!ga,
			  !!gb, ga ? rate(d, &d->a, ga->involuntary, 0) : 0,
			  gb ? rate(d, &d->b, gb->involuntary, 0) : 0)) ||
	    (ret = scalar(d, e, name, "migrations", rate_unit(d, "/s", ""), !!ga, !!gb,
			  ga ? rate(d, &d->a, ga->migrations, 0) : 0,
			  gb ? rate(d, &d->b, gb->migrations, 0) : 0)) ||
	    (ret = dist(d, e, name, "wakeup latency", ga ? &ga->h[0] : NULL,
			gb ? &gb->h[0] : NULL)) ||
	    (ret = dist(d, e, name, "runqueue latency", ga ? &ga->h[1] : NULL,
			gb ? &gb->h[1] : NULL)))
		return ret;
	if (e == DIFF_THREAD)
		return dist(d, e, name, "slice length", ga ? &ga->h[2] : NULL,
			    gb ? &gb->h[2] : NULL);
	return 0;
}

/* Every name of either side, A's first. */
static int groups(struct diff *d, enum diff_entity e, const struct diff_group *va,
		  uint32_t na, const struct diff_group *vb, uint32_t nb)
{
	uint32_t i;
	int ret;

	for (i = 0; i < na; i++)
		if ((ret = group_items(d, e, &va[i], find(vb, nb, va[i].name), va[i].name)))
			return ret;
	for (i = 0; i < nb; i++)
		if (!find(va, na, vb[i].name) &&
		    (ret = group_items(d, e, NULL, &vb[i], vb[i].name)))
			return ret;
	return 0;
}

static int handler_items(struct diff *d)
{
	const struct diff_run *a = &d->a, *b = &d->b;
	uint32_t i;
	int ret;

	for (i = 0; i < a->nhandlers + b->nhandlers; i++) {
		const struct diff_group *ga = i < a->nhandlers ? &a->handlers[i] :
			find(a->handlers, a->nhandlers, b->handlers[i - a->nhandlers].name);
		const struct diff_group *gb = i < a->nhandlers ?
			find(b->handlers, b->nhandlers, a->handlers[i].name) :
			&b->handlers[i - a->nhandlers];
		const char *name = ga ? ga->name : gb->name;

		if (i >= a->nhandlers && ga)
			continue;	/* done from A's side */
		if ((ret = scalar(d, DIFF_HANDLER, name, "time", rate_unit(d, "ms/s", "ms"),
				  !!ga, !!gb, ga ? rate(d, a, ga->runtime_ns / 1e6, 0) : 0,
				  gb ? rate(d, b, gb->runtime_ns / 1e6, 0) : 0)) ||
		    (ret = dist(d, DIFF_HANDLER, name, "duration", ga ? &ga->h[0] : NULL,
				gb ? &gb->h[0] : NULL)))
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
	return !find(d->a.procs, d->a.nprocs, proc) != !find(d->b.procs, d->b.nprocs, proc);
}

/* How much a change matters (docs/diff.md); 0: not worth naming. */
static double score(const struct diff *d, const struct diff_item *it)
{
	int share = !strcmp(it->metric, "utilization") || !strcmp(it->metric, "runtime");

	if (it->kind == DIFF_DIST)
		return it->significant ?
			fabs(it->mw.effect) * (1 + fmin(log2_ratio(it->a, it->b), 4)) : 0;
	if (share && (!it->in_a || !it->in_b) && it->entity != DIFF_CPU &&
	    strcmp(it->unit, "ms")) {
		/* A process or thread that came or went. */
		if (it->entity == DIFF_THREAD && process_came_or_went(d, it))
			return 0;
		return fmax(it->a, it->b) >= SHARE_POINTS ? 0.5 + fmax(it->a, it->b) / 25 : 0;
	}
	if (share && strcmp(it->unit, "ms"))
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
		    v->b == it->b && v->mw.effect == it->mw.effect)
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

static const char *fmt_value(const struct diff_item *it, double v, char *buf, size_t len)
{
	if (it->kind == DIFF_DIST)
		return render_ns((uint64_t)(v > 0 ? v : 0), buf, len);
	if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(buf, len, "%.1f%%", v);
	else
		snprintf(buf, len, v >= 100 ? "%.0f%s" : "%.2f%s", v, it->unit);
	return buf;
}

const char *diff_sentence(const struct diff *d, const struct diff_item *it, char *buf,
			  size_t len)
{
	static const char *const kinds[] = { "", "", "process ", "thread group ", "" };
	char a[32], b[32], change[48];

	(void)d;
	if (!it->in_a || !it->in_b) {
		snprintf(buf, len, "%s in B: %s%s, %s %s%s", it->in_b ? "new" : "gone",
			 kinds[it->entity], it->name, it->metric,
			 fmt_value(it, it->in_b ? it->b : it->a, a, sizeof(a)),
			 it->in_b ? "" : " in A");
		return buf;
	}
	if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(change, sizeof(change), "%+.1f points", it->delta);
	else if (isnan(it->rel))
		snprintf(change, sizeof(change), "from none");
	else
		snprintf(change, sizeof(change), "%+.0f%%", 100 * it->rel);
	if (it->kind == DIFF_DIST)
		snprintf(buf, len, "p99 %s of %s%s: %s -> %s (%s), %s (effect %+.2f, p %s)",
			 it->metric, kinds[it->entity], it->name, fmt_value(it, it->a, a, sizeof(a)),
			 fmt_value(it, it->b, b, sizeof(b)), change,
			 it->significant ? "significant" : "not significant", it->mw.effect,
			 it->mw.p < 0.001 ? "< 0.001" : it->mw.p < 0.01 ? "< 0.01" : "ns");
	else
		snprintf(buf, len, "%s of %s%s: %s -> %s (%s)", it->metric, kinds[it->entity],
			 it->name, fmt_value(it, it->a, a, sizeof(a)),
			 fmt_value(it, it->b, b, sizeof(b)), change);
	return buf;
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
	if (run_side(&d->a, a, cfg, err) || run_side(&d->b, b, cfg, err))
		goto fail;
	if ((ret = machine_items(d)) || (ret = cpu_items(d)) ||
	    (ret = groups(d, DIFF_PROCESS, d->a.procs, d->a.nprocs, d->b.procs, d->b.nprocs)) ||
	    (ret = groups(d, DIFF_THREAD, d->a.threads, d->a.nthreads, d->b.threads,
			  d->b.nthreads)) ||
	    (ret = handler_items(d)) || (ret = verdict(d))) {
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
