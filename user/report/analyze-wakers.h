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
#include "report/report.h"

struct analyze_wakers {
	struct pairs edges;
	uint64_t wakings, running;	/* wakings of sleeping / running threads */
	uint32_t *last_edge;		/* per thread: its last waking's edge + 1 */
	uint32_t n, cap;
};

const struct analyze_wakers *analyze_wakers(const struct report *r);

/* A waker's name: "comm (pid)", "swapper/N", "irq 24 virtio0", "softirq TIMER". */
const char *analyze_wakers_name(const struct report *r, uint32_t waker_id, char *buf,
				size_t len);

extern const struct analyzer analyzer_wakers;

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
