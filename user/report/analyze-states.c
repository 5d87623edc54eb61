// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-states.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_states *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	a->n = t + 1;
	return 0;
}

static void on_state_time(void *ctx, uint32_t t, enum sched_state state,
			  uint64_t from, uint64_t to)
{
	struct analyze_states *a = ctx;

	a->threads[t].ns[state] += to - from;
}

static const struct sched_ops states_ops = {
	.thread_new = on_thread_new,
	.state_time = on_state_time,
};

int analyze_states_init(struct analyze_states *a, struct sched *s)
{
	memset(a, 0, sizeof(*a));
	return sched_add_client(s, &states_ops, a);
}

void analyze_states_fini(struct analyze_states *a)
{
	free(a->threads);
	memset(a, 0, sizeof(*a));
}
