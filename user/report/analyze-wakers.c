// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-wakers.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_wakers *a = ctx;

	if (array_reserve((void **)&a->last_edge, &a->cap, t, sizeof(*a->last_edge), 1024))
		return -ENOMEM;
	a->n = t + 1;
	return 0;
}

static int on_waking(void *ctx, uint32_t cpu, uint64_t ts, uint32_t t,
		     const struct sched_waker *waker, int running, int new)
{
	struct analyze_wakers *a = ctx;
	struct pair *p;

	(void)cpu, (void)ts, (void)new;
	if (running) {
		a->running++;
		return 0;
	}
	p = pairs_get(&a->edges, analyze_wakers_id(waker), t);
	if (!p)
		return -ENOMEM;
	p->count++;
	a->wakings++;
	a->last_edge[t] = p - a->edges.v + 1;
	return 0;
}

static int on_latency(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		      uint64_t start, uint64_t end, const struct sched_waker *waker)
{
	struct analyze_wakers *a = ctx;
	uint32_t id = analyze_wakers_id(waker), e = a->last_edge[t];
	struct pair *p;

	(void)cpu;
	if (kind != SCHED_WAKEUP)
		return 0;
	/* Usually the edge of the thread's last waking: no lookup. */
	p = e && a->edges.v[e - 1].a == id && a->edges.v[e - 1].b == t ?
		&a->edges.v[e - 1] : pairs_get(&a->edges, id, t);
	if (!p)
		return -ENOMEM;
	pair_note(p, end - start);
	return 0;
}

static const struct sched_ops wakers_ops = {
	.thread_new = on_thread_new,
	.waking = on_waking,
	.latency = on_latency,
};

int analyze_wakers_init(struct analyze_wakers *a, struct sched *s)
{
	memset(a, 0, sizeof(*a));
	pairs_init(&a->edges, 0);
	return sched_add_client(s, &wakers_ops, a);
}

void analyze_wakers_fini(struct analyze_wakers *a)
{
	pairs_fini(&a->edges);
	free(a->last_edge);
}
