// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-runtime.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_runtime *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	hist_init(&a->threads[t].slices);
	a->n = t + 1;
	return 0;
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct analyze_runtime *a = ctx;
	struct runtime_result *r;

	(void)cpu;
	if (t == SCHED_IDLE)
		return;
	r = &a->threads[t];
	r->runtime_ns += to - from;
	if (hist_add(&r->slices, to - from))
		a->error = -ENOMEM;
}

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct analyze_runtime *a = ctx;

	(void)cpu, (void)ts, (void)next;
	if (prev >= SCHED_NONE)
		return;
	if (involuntary)
		a->threads[prev].involuntary++;
	else
		a->threads[prev].voluntary++;
}

static const struct sched_ops runtime_ops = {
	.thread_new = on_thread_new,
	.cpu_time = on_cpu_time,
	.switch_out = on_switch,
};

int analyze_runtime_init(struct analyze_runtime *a, struct sched *s)
{
	memset(a, 0, sizeof(*a));
	return sched_add_client(s, &runtime_ops, a);
}

void analyze_runtime_fini(struct analyze_runtime *a)
{
	uint32_t i;

	for (i = 0; i < a->n; i++)
		hist_fini(&a->threads[i].slices);
	free(a->threads);
	memset(a, 0, sizeof(*a));
}
