/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who wakes whom: for each waking of a thread that was not running, the
 * waker (the task running on the waking CPU, or the hardirq or softirq
 * being handled there) and the wakee, with the count, mean and maximum of
 * the wakee's wakeup latencies after those wakings (pair_note()).
 * a: waker as analyze_wakers_id(), b: wakee thread index.
 */
#ifndef KTPROF_ANALYZE_WAKERS_H
#define KTPROF_ANALYZE_WAKERS_H

#include "report/pairs.h"
#include "report/sched.h"

struct analyze_wakers {
	struct pairs edges;
	uint64_t wakings, running;	/* wakings of sleeping / running threads */
	uint32_t *last_edge;		/* per thread: its last waking's edge + 1 */
	uint32_t n, cap;
};

int analyze_wakers_init(struct analyze_wakers *a, struct sched *s);
void analyze_wakers_fini(struct analyze_wakers *a);

/* A waker as one 32-bit id, and back. */
static inline uint32_t analyze_wakers_id(const struct sched_waker *w)
{
	return w->kind << 29 | (w->id & ((1u << 29) - 1));
}

static inline struct sched_waker analyze_wakers_waker(uint32_t id)
{
	return (struct sched_waker){ id >> 29, id & ((1u << 29) - 1) };
}

#endif
