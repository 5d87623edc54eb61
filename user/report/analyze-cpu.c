// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"

static struct cpu_result *cpu_res(struct analyze_cpu *a, uint32_t cpu)
{
	uint32_t n = a->nr_cpus, i;
	struct cpu_result *r;

	if (cpu < a->nr_cpus)
		return &a->cpus[cpu];
	while (n <= cpu)
		n = n ? n * 2 : 8;
	r = realloc(a->cpus, n * sizeof(*r));
	if (!r)
		goto nomem;
	memset(r + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*r));
	a->cpus = r;
	for (i = a->nr_cpus; i < n; i++) {
		r[i].timeline = calloc(CPU_TIMELINE_BUCKETS, sizeof(uint64_t));
		r[i].timeline_known = calloc(CPU_TIMELINE_BUCKETS, sizeof(uint64_t));
		if (!r[i].timeline || !r[i].timeline_known) {
			a->nr_cpus = i + 1;
			goto nomem;
		}
	}
	a->nr_cpus = n;
	return &a->cpus[cpu];
nomem:
	a->error = -ENOMEM;
	return NULL;
}

/* Twice as wide buckets: pairs merge, for every CPU alike. */
static void widen(struct analyze_cpu *a)
{
	uint32_t cpu, i;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		uint64_t *b = a->cpus[cpu].timeline, *k = a->cpus[cpu].timeline_known;

		for (i = 0; i < CPU_TIMELINE_BUCKETS / 2; i++) {
			b[i] = b[2 * i] + b[2 * i + 1];
			k[i] = k[2 * i] + k[2 * i + 1];
		}
		memset(b + i, 0, (CPU_TIMELINE_BUCKETS - i) * sizeof(*b));
		memset(k + i, 0, (CPU_TIMELINE_BUCKETS - i) * sizeof(*k));
	}
	a->bucket_ns *= 2;
}

static void add_timeline(struct analyze_cpu *a, struct cpu_result *r, uint64_t from,
			 uint64_t to, int busy)
{
	/* Without a session start, the timeline starts at the first slice. */
	if (!a->t0)
		a->t0 = from;
	if (from < a->t0)
		from = a->t0;
	if (to <= from)
		return;
	/*
	 * Divided, not multiplied: times come from the capture and can be
	 * anything, and bucket_ns * CPU_TIMELINE_BUCKETS would wrap.
	 */
	while ((to - a->t0 - 1) / CPU_TIMELINE_BUCKETS >= a->bucket_ns)
		widen(a);
	while (from < to) {
		uint64_t i = (from - a->t0) / a->bucket_ns, end;
		uint64_t d;

		if (__builtin_mul_overflow(i + 1, a->bucket_ns, &end) ||
		    __builtin_add_overflow(end, a->t0, &end))
			end = UINT64_MAX;	/* the last bucket reaches the end of time */
		d = (to < end ? to : end) - from;

		if (busy)
			r->timeline[i] += d;
		r->timeline_known[i] += d;
		from += d;
	}
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct analyze_cpu *a = ctx;
	struct cpu_result *r = cpu_res(a, cpu);

	if (!r)
		return;
	r->seen = 1;
	if (t == SCHED_IDLE)
		r->idle_ns += to - from;
	else
		r->busy_ns += to - from;
	add_timeline(a, r, from, to, t != SCHED_IDLE);
}

static void on_gap(void *ctx, uint32_t cpu, enum sched_gap gap, uint64_t from, uint64_t to)
{
	struct cpu_result *r = cpu_res(ctx, cpu);

	if (r)
		r->gap_ns[gap] += to - from;
}

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct cpu_result *r = cpu_res(ctx, cpu);

	(void)ts, (void)prev, (void)next, (void)involuntary;
	if (r)
		r->switches++;
}

static int on_migrate(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts)
{
	struct analyze_cpu *a = ctx;
	struct cpu_result *r;

	(void)t, (void)ts;
	r = cpu_res(a, from);
	if (r)
		r->migrations_out++;
	r = cpu_res(a, to);
	if (r)
		r->migrations_in++;
	return a->error;
}

static const struct sched_ops cpu_ops = {
	.cpu_time = on_cpu_time,
	.gap = on_gap,
	.switch_out = on_switch,
	.migrate = on_migrate,
};

int analyze_cpu_init(struct analyze_cpu *a, struct sched *s)
{
	memset(a, 0, sizeof(*a));
	a->s = s;
	a->t0 = s->from;
	a->bucket_ns = 1000;	/* 1 us to begin with: it doubles as needed */
	if (!cpu_res(a, s->nr_cpus ? s->nr_cpus - 1 : 0))
		return -ENOMEM;
	return sched_add_client(s, &cpu_ops, a);
}

void analyze_cpu_fini(struct analyze_cpu *a)
{
	uint32_t i;

	for (i = 0; i < a->nr_cpus; i++) {
		free(a->cpus[i].timeline);
		free(a->cpus[i].timeline_known);
	}
	free(a->cpus);
	memset(a, 0, sizeof(*a));
}
