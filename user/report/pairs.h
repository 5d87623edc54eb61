/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counts of (a, b) pairs of 32-bit ids, each with an optional
 * distribution: preemptor and preempted, waker and wakee, migration
 * source and destination.
 */
#ifndef KTPROF_PAIRS_H
#define KTPROF_PAIRS_H

#include <stdint.h>

#include "report/hist.h"
#include "util/u64-map.h"

struct pair {
	uint32_t a, b;
	uint64_t count;
	uint64_t n, sum, max;	/* values noted with pair_note() */
	struct hist h;		/* used when the table was made with_hist */
};

/* Note a value (a latency) for the pair: count, sum and maximum only. */
static inline void pair_note(struct pair *p, uint64_t v)
{
	p->n++;
	p->sum += v;
	if (v > p->max)
		p->max = v;
}

struct pairs {
	struct u64_map index;	/* a << 32 | b -> position + 1 */
	struct pair *v;
	uint32_t n, cap;
	int with_hist;
};

void pairs_init(struct pairs *p, int with_hist);
void pairs_fini(struct pairs *p);

/* The pair (a, b), added with a zero count if new; NULL on ENOMEM. */
struct pair *pairs_get(struct pairs *p, uint32_t a, uint32_t b);

/* Sort the pairs by count, most first (positions change). */
void pairs_sort(struct pairs *p);

#endif
