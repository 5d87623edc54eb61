// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/findings.h"
#include "report/report.h"

const struct findings_rule_info findings_rules[RULE_NR] = {
	[RULE_LOSS] = { "loss", "records", 0,
			"a CPU lost records: part of its time is unknown" },
	[RULE_RUNQUEUE] = { "runqueue", "ms", 10,
			    "a CPU's p99 runqueue latency is above this" },
	[RULE_WAKEUP] = { "wakeup", "ms", 5,
			  "a thread's p99 wakeup latency is above this" },
	[RULE_CPU_BUSY] = { "cpu-busy", "%", 95,
			    "a CPU is busy more than this share of its time" },
	[RULE_IMBALANCE] = { "imbalance", "points", 40,
			     "the busiest and the idlest CPU differ by more than this" },
	[RULE_IRQ] = { "irq", "%", 10,
		       "hardirq and softirq take more than this share of a CPU" },
	[RULE_MIGRATIONS] = { "migrations", "/s", 100,
			      "a thread migrates more often than this" },
	[RULE_PREEMPTED] = { "preempted", "/s", 200,
			     "a thread is preempted more often than this" },
};

#define DEFAULT_MIN_SAMPLES 10

double findings_threshold(const struct findings_config *c, enum findings_rule rule)
{
	return c->threshold[rule] > 0 ? c->threshold[rule] : findings_rules[rule].def;
}

static uint64_t min_samples(const struct findings_config *c)
{
	return c->min_samples ? c->min_samples : DEFAULT_MIN_SAMPLES;
}

int findings_set_threshold(struct findings_config *c, const char *rule, double v)
{
	int i;

	if (!(v >= 0) || isinf(v))
		return -EINVAL;
	if (!strcmp(rule, "min-samples")) {
		if (v < 1 || v != floor(v) || v > 1e15)
			return -EINVAL;
		c->min_samples = (uint64_t)v;
		return 0;
	}
	for (i = 0; i < RULE_NR; i++) {
		if (!strcmp(findings_rules[i].name, rule)) {
			/* 0 would mean "the default": the loss rule's is 0 already. */
			c->threshold[i] = v > 0 ? v : 1e-300;
			return 0;
		}
	}
	return -EINVAL;
}

int findings_parse_threshold(struct findings_config *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char rule[32], *end;
	double v;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(rule))
		return -EINVAL;
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end)
		return -EINVAL;
	memcpy(rule, arg, eq - arg);
	rule[eq - arg] = '\0';
	return findings_set_threshold(c, rule, v);
}

static struct finding *add(struct findings *f, enum findings_rule rule,
			   enum finding_subject subject, uint32_t id, double value,
			   double threshold)
{
	struct finding *x;

	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct finding *n = realloc(f->v, cap * sizeof(*n));

		if (!n)
			return NULL;
		f->v = n;
		f->cap = cap;
	}
	x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->rule = rule;
	x->subject = subject;
	x->id = id;
	x->value = value;
	x->threshold = threshold;
	x->severity = threshold > 0 ? value / threshold : 1e9;
	return x;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static const char *thread_label(const struct report *r, uint32_t t, char *buf, size_t len)
{
	snprintf(buf, len, "%s (pid %u)", report_thread_name(r, t), r->sched.threads[t].pid);
	return buf;
}

/* Losses: every CPU that lost records or has time unknown for it. */
static int rule_loss(struct findings *f, const struct report *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_streams; i++) {
		const struct report_cpu_stream *st = &r->streams[i];
		uint64_t unknown = st->cpu < r->cpu.nr_cpus ?
			r->cpu.cpus[st->cpu].gap_ns[SCHED_GAP_LOSS] : 0;
		struct finding *x;

		if (!st->lost && !st->garbage_bytes)
			continue;
		x = add(f, RULE_LOSS, SUBJECT_CPU, st->cpu, st->lost, 0);
		if (!x)
			return -ENOMEM;
		x->severity = 1e9;	/* everything else is judged on partial data */
		snprintf(x->text, sizeof(x->text),
			 "CPU %u lost %" PRIu64 " records%s: %.3f ms of its time is unknown and left out of every figure",
			 st->cpu, st->lost, st->garbage_bytes ? " and has damaged data" : "",
			 ms(unknown));
	}
	return 0;
}

/* Threads that waited more than @limit_ns on @cpu. */
static uint64_t affected(const struct report *r, enum sched_latency kind, uint32_t cpu)
{
	const struct pairs *p = &r->latency.over[kind];
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].a == cpu && r->thread_selected[p->v[i].b])
			n++;
	return n;
}

static int rule_runqueue(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_RUNQUEUE);
	uint32_t cpu;

	for (cpu = 0; cpu < r->latency.nr_cpus; cpu++) {
		const struct hist *h = &r->latency.cpus[cpu].h[SCHED_RUNQUEUE];
		double p99 = ms(hist_percentile(h, 99));
		struct finding *x;

		if (!report_cpu_shown(r, cpu) || h->count < min_samples(&r->cfg.findings) ||
		    p99 <= th)
			continue;
		x = add(f, RULE_RUNQUEUE, SUBJECT_CPU, cpu, p99, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text),
			 "CPU %u runqueue: p99 runqueue latency %.3f ms > %g ms over %" PRIu64
			 " waits; %" PRIu64 " threads waited longer than %g ms",
			 cpu, p99, th, h->count, affected(r, SCHED_RUNQUEUE, cpu), th);
	}
	return 0;
}

static int rule_wakeup(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_WAKEUP);
	char name[64];
	uint32_t t;

	for (t = 0; t < r->sched.nr_threads; t++) {
		const struct hist *h = &r->latency.threads[t].h[SCHED_WAKEUP];
		double p99 = ms(hist_percentile(h, 99));
		struct finding *x;

		if (!r->thread_selected[t] || h->count < min_samples(&r->cfg.findings) ||
		    p99 <= th)
			continue;
		x = add(f, RULE_WAKEUP, SUBJECT_THREAD, t, p99, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text),
			 "thread %s: p99 wakeup latency %.3f ms > %g ms over %" PRIu64
			 " wakeups (max %.3f ms)", thread_label(r, t, name, sizeof(name)),
			 p99, th, h->count, ms(h->max));
	}
	return 0;
}

static double util_of(const struct report *r, uint32_t cpu)
{
	const struct cpu_result *c = &r->cpu.cpus[cpu];

	return pct(c->busy_ns, c->busy_ns + c->idle_ns);
}

static int rule_cpu_busy(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_CPU_BUSY);
	uint32_t cpu;

	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		double u = util_of(r, cpu);
		struct finding *x;

		if (!report_cpu_shown(r, cpu) || u <= th)
			continue;
		x = add(f, RULE_CPU_BUSY, SUBJECT_CPU, cpu, u, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text), "CPU %u: busy %.1f%% of its time > %g%%",
			 cpu, u, th);
	}
	return 0;
}

static int rule_imbalance(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_IMBALANCE), hi = -1, lo = 101;
	uint32_t cpu, hi_cpu = 0, lo_cpu = 0, n = 0;
	struct finding *x;

	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		double u = util_of(r, cpu);

		if (!report_cpu_shown(r, cpu))
			continue;
		n++;
		if (u > hi) {
			hi = u;
			hi_cpu = cpu;
		}
		if (u < lo) {
			lo = u;
			lo_cpu = cpu;
		}
	}
	if (n < 2 || hi - lo <= th)
		return 0;
	x = add(f, RULE_IMBALANCE, SUBJECT_MACHINE, 0, hi - lo, th);
	if (!x)
		return -ENOMEM;
	snprintf(x->text, sizeof(x->text),
		 "load imbalance: CPU %u busy %.1f%%, CPU %u busy %.1f%%: %.1f points > %g; p99 runqueue latency on CPU %u %.3f ms",
		 hi_cpu, hi, lo_cpu, lo, hi - lo, th, hi_cpu,
		 hi_cpu < r->latency.nr_cpus ?
		 ms(hist_percentile(&r->latency.cpus[hi_cpu].h[SCHED_RUNQUEUE], 99)) : 0);
	return 0;
}

static int rule_irq(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_IRQ);
	uint32_t cpu;

	for (cpu = 0; cpu < r->irq.nr_cpus && cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];
		const struct irq_cpu_result *q = &r->irq.cpus[cpu];
		uint64_t irq = q->ns[SCHED_HARDIRQ] + q->ns[SCHED_SOFTIRQ];
		double share = pct(irq, c->busy_ns + c->idle_ns);
		struct finding *x;

		if (!report_cpu_shown(r, cpu) || share <= th)
			continue;
		x = add(f, RULE_IRQ, SUBJECT_CPU, cpu, share, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text),
			 "CPU %u: hardirq and softirq took %.1f%% of its time > %g%% (hardirq %.3f ms, softirq %.3f ms)",
			 cpu, share, th, ms(q->ns[SCHED_HARDIRQ]), ms(q->ns[SCHED_SOFTIRQ]));
	}
	return 0;
}

static int rule_migrations(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_MIGRATIONS);
	double secs = r->window_ns / 1e9;
	char name[64];
	uint32_t t;
	int k;

	for (t = 0; secs > 0 && t < r->sched.nr_threads; t++) {
		const struct migrations_result *m = &r->migrations.threads[t];
		uint64_t n = 0;
		struct finding *x;
		double rate;

		for (k = 0; k < MIGRATION_NR_CLASSES; k++)
			n += m->count[k];
		rate = n / secs;
		if (!r->thread_selected[t] || n < min_samples(&r->cfg.findings) || rate <= th)
			continue;
		x = add(f, RULE_MIGRATIONS, SUBJECT_THREAD, t, rate, th);
		if (!x)
			return -ENOMEM;
		snprintf(x->text, sizeof(x->text),
			 "thread %s migrated %" PRIu64 " times (%.1f/s > %g/s): %" PRIu64
			 " within an LLC, %" PRIu64 " across LLCs, %" PRIu64 " across NUMA nodes",
			 thread_label(r, t, name, sizeof(name)), n, rate, th,
			 m->count[MIGRATION_SAME_LLC], m->count[MIGRATION_CROSS_LLC],
			 m->count[MIGRATION_CROSS_NUMA]);
	}
	return 0;
}

/* The thread that preempted @t most. */
static uint32_t top_preemptor(const struct report *r, uint32_t t, uint64_t *count)
{
	const struct pairs *p = &r->preempt.pairs;
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

static int rule_preempted(struct findings *f, const struct report *r)
{
	double th = findings_threshold(&r->cfg.findings, RULE_PREEMPTED);
	double secs = r->window_ns / 1e9;
	char name[64], by[64];
	uint64_t top_n;
	uint32_t t, top;

	for (t = 0; secs > 0 && t < r->sched.nr_threads; t++) {
		uint64_t n = r->runtime.threads[t].involuntary;
		double rate = n / secs;
		struct finding *x;

		if (!r->thread_selected[t] || n < min_samples(&r->cfg.findings) || rate <= th)
			continue;
		x = add(f, RULE_PREEMPTED, SUBJECT_THREAD, t, rate, th);
		if (!x)
			return -ENOMEM;
		top = top_preemptor(r, t, &top_n);
		snprintf(x->text, sizeof(x->text),
			 "thread %s was preempted %" PRIu64 " times (%.1f/s > %g/s), most by %s (%" PRIu64 ")",
			 thread_label(r, t, name, sizeof(name)), n, rate, th,
			 top == SCHED_NONE ? "?" : top == SCHED_IDLE ? "swapper" :
			 thread_label(r, top, by, sizeof(by)), top_n);
	}
	return 0;
}

/* --- Outliers --- */

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Quantile by linear interpolation between order statistics (R's type 7). */
static double quantile(const double *sorted, size_t n, double q)
{
	double h = (n - 1) * q;
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]);
}

struct metric_value {
	enum finding_subject subject;
	uint32_t id;
	double value;
};

static int add_outlier(struct findings *f, const char *metric, const char *unit,
		       const struct metric_value *v, double limit, double score)
{
	struct outlier *o;

	if (f->no == f->cap_o) {
		size_t cap = f->cap_o ? f->cap_o * 2 : 16;
		struct outlier *n = realloc(f->o, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		f->o = n;
		f->cap_o = cap;
	}
	o = &f->o[f->no++];
	*o = (struct outlier){ metric, unit, v->subject, v->id, v->value, limit, score };
	return 0;
}

/* The outliers above the others among @n values, by @method. */
static int outliers_of(struct findings *f, enum outlier_method method, const char *metric,
		       const char *unit, const struct metric_value *v, size_t n)
{
	double *x = malloc((n + 1) * sizeof(*x)), med, spread, limit;
	size_t i;
	int ret = 0;

	if (!x)
		return -ENOMEM;
	if (n < 4)
		goto out;	/* too few to call anything abnormal */
	for (i = 0; i < n; i++)
		x[i] = v[i].value;
	qsort(x, n, sizeof(*x), by_double);
	if (method == OUTLIER_IQR) {
		double q1 = quantile(x, n, 0.25), q3 = quantile(x, n, 0.75);

		spread = q3 - q1;
		limit = q3 + 1.5 * spread;
		for (i = 0; !ret && i < n; i++)
			if (v[i].value > limit)
				ret = add_outlier(f, metric, unit, &v[i], limit,
						  spread > 0 ? (v[i].value - q3) / spread : INFINITY);
		goto out;
	}
	/* MAD: modified z = 0.6745 (x - median) / MAD (Iglewicz and Hoaglin). */
	med = quantile(x, n, 0.5);
	for (i = 0; i < n; i++)
		x[i] = fabs(v[i].value - med);
	qsort(x, n, sizeof(*x), by_double);
	spread = quantile(x, n, 0.5) / 0.6745;
	if (spread == 0) {
		/* Half the values equal: the mean absolute deviation instead. */
		double sum = 0;

		for (i = 0; i < n; i++)
			sum += x[i];
		spread = 1.253314 * sum / n;
	}
	if (spread == 0)
		goto out;
	limit = med + 3.5 * spread;
	for (i = 0; !ret && i < n; i++)
		if (v[i].value > limit)
			ret = add_outlier(f, metric, unit, &v[i], limit, (v[i].value - med) / spread);
out:
	free(x);
	return ret;
}

static int outliers_run(struct findings *f, const struct report *r)
{
	enum outlier_method m = r->cfg.findings.method;
	uint32_t n = 0, nl = 0, t, cpu, len = r->sched.nr_threads > r->cpu.nr_cpus ?
		r->sched.nr_threads : r->cpu.nr_cpus;
	struct metric_value *lat = calloc(len + 1, sizeof(*lat));
	struct metric_value *run = calloc(len + 1, sizeof(*run));
	struct metric_value *sw = calloc(len + 1, sizeof(*sw));
	double secs = r->window_ns / 1e9;
	int ret = -ENOMEM;

	if (!lat || !run || !sw)
		goto out;
	for (t = 0; t < r->sched.nr_threads; t++) {
		const struct runtime_result *rt = &r->runtime.threads[t];
		const struct hist *h = &r->latency.threads[t].h[SCHED_WAKEUP];

		if (!r->thread_selected[t])
			continue;
		if (h->count)
			lat[nl++] = (struct metric_value){ SUBJECT_THREAD, t,
							   ms(hist_percentile(h, 99)) };
		if (!rt->runtime_ns && !rt->voluntary && !rt->involuntary)
			continue;
		run[n] = (struct metric_value){ SUBJECT_THREAD, t, ms(rt->runtime_ns) };
		sw[n++] = (struct metric_value){ SUBJECT_THREAD, t, secs > 0 ?
			(rt->voluntary + rt->involuntary) / secs : 0 };
	}
	ret = outliers_of(f, m, "p99 wakeup latency", "ms", lat, nl);
	if (!ret)
		ret = outliers_of(f, m, "runtime", "ms", run, n);
	if (!ret)
		ret = outliers_of(f, m, "switch rate", "/s", sw, n);
	n = 0;
	for (cpu = 0; !ret && cpu < r->cpu.nr_cpus; cpu++)
		if (report_cpu_shown(r, cpu))
			run[n++] = (struct metric_value){ SUBJECT_CPU, cpu, util_of(r, cpu) };
	if (!ret)
		ret = outliers_of(f, m, "CPU utilization", "%", run, n);
out:
	free(lat);
	free(run);
	free(sw);
	return ret;
}

static int by_severity(const void *a, const void *b)
{
	const struct finding *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity < y->severity ? 1 : -1;
	if (x->rule != y->rule)
		return x->rule < y->rule ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int findings_run(struct findings *f, const struct report *r)
{
	int ret;

	memset(f, 0, sizeof(*f));
	if ((ret = rule_loss(f, r)) || (ret = rule_runqueue(f, r)) ||
	    (ret = rule_wakeup(f, r)) || (ret = rule_cpu_busy(f, r)) ||
	    (ret = rule_imbalance(f, r)) || (ret = rule_irq(f, r)) ||
	    (ret = rule_migrations(f, r)) || (ret = rule_preempted(f, r)) ||
	    (ret = outliers_run(f, r)))
		return ret;
	if (f->n)
		qsort(f->v, f->n, sizeof(*f->v), by_severity);
	return 0;
}

void findings_fini(struct findings *f)
{
	free(f->v);
	free(f->o);
	memset(f, 0, sizeof(*f));
}
