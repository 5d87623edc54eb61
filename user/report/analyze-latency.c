// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-latency.h"
#include "util/array.h"

static void result_init(struct latency_result *r)
{
	hist_init(&r->h[0]);
	hist_init(&r->h[1]);
}

static void result_fini(struct latency_result *r)
{
	hist_fini(&r->h[0]);
	hist_fini(&r->h[1]);
}

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_latency *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	result_init(&a->threads[t]);
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
	if (end - start > a->over_ns[kind]) {
		p = pairs_get(&a->over[kind], cpu, t);
		if (!p)
			return -ENOMEM;
		p->count++;
	}
	return 0;
}

static const struct sched_ops latency_ops = {
	.thread_new = on_thread_new,
	.latency = on_latency,
};

int analyze_latency_init(struct analyze_latency *a, struct sched *s,
			 const uint64_t over_ns[2])
{
	memset(a, 0, sizeof(*a));
	a->over_ns[0] = over_ns[0];
	a->over_ns[1] = over_ns[1];
	pairs_init(&a->over[0], 0);
	pairs_init(&a->over[1], 0);
	if (!cpu_res(a, s->nr_cpus ? s->nr_cpus - 1 : 0))
		return -ENOMEM;
	return sched_add_client(s, &latency_ops, a);
}

void analyze_latency_fini(struct analyze_latency *a)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		result_fini(&a->threads[i]);
	for (i = 0; i < a->nr_cpus; i++)
		result_fini(&a->cpus[i]);
	pairs_fini(&a->over[0]);
	pairs_fini(&a->over[1]);
	free(a->threads);
	free(a->cpus);
	memset(a, 0, sizeof(*a));
}
