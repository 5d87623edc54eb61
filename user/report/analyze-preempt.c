// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "report/analyze-preempt.h"

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct analyze_preempt *a = ctx;
	struct pair *p;

	(void)cpu, (void)ts;
	if (!involuntary || prev >= SCHED_NONE)
		return;
	p = pairs_get(&a->pairs, next, prev);
	if (!p) {
		a->error = -ENOMEM;
		return;
	}
	p->count++;
	a->total++;
}

static const struct sched_ops preempt_ops = {
	.switch_out = on_switch,
};

int analyze_preempt_init(struct analyze_preempt *a, struct sched *s)
{
	memset(a, 0, sizeof(*a));
	pairs_init(&a->pairs, 0);
	return sched_add_client(s, &preempt_ops, a);
}

void analyze_preempt_fini(struct analyze_preempt *a)
{
	pairs_fini(&a->pairs);
}
