/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A distribution of durations (ns) in bounded memory. The first
 * HIST_EXACT values are kept as they are, so small distributions have
 * exact percentiles; past that, values go into log-linear buckets, 64 per
 * power of two, so a percentile is the midpoint of its bucket: within
 * 1/128 (0.78%) of a value in the bucket. Count, sum, min and max are
 * always exact. Memory grows with the octaves used, never with the count.
 */
#ifndef KTPROF_HIST_H
#define KTPROF_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_EXACT 64		/* values kept exactly */
#define HIST_SUB_BITS 6		/* 2^6 buckets per power of two */
#define HIST_OCTAVES (64 - HIST_SUB_BITS + 1)
#define HIST_MAX_ERROR 0.0078125	/* 1/128: bound on a percentile's relative error */

struct hist {
	uint64_t count, sum, min, max;
	uint64_t *exact;	/* sorted, while count <= HIST_EXACT */
	uint64_t *buckets;	/* once past HIST_EXACT: octaves [lo, hi), 64 each */
	uint8_t bucketed, lo, hi;
};

void hist_init(struct hist *h);
void hist_fini(struct hist *h);

/* Add @v. 0 or -ENOMEM (the value is then not counted). */
int hist_add(struct hist *h, uint64_t v);

/* Add every value of @src to @dst. 0 or -ENOMEM. */
int hist_merge(struct hist *dst, const struct hist *src);

/* Whether percentiles are exact (every value is kept). */
static inline int hist_is_exact(const struct hist *h)
{
	return !h->bucketed;
}

/*
 * The nearest-rank @p-th percentile (0 < @p <= 100, to a tenth of a
 * percent): the value of rank ceil(p/100 * count), computed exactly. 0 for
 * an empty distribution.
 */
uint64_t hist_percentile(const struct hist *h, double p);

static inline double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / h->count : 0;
}

/*
 * The bucket @v falls in, as a number that grows with @v: values compare
 * equal when a histogram cannot tell them apart.
 */
uint64_t hist_key(uint64_t v);

/* How many values lie in a bucket above @v's (hist_key() greater). */
uint64_t hist_count_above(const struct hist *h, uint64_t v);

/*
 * Walk the distribution in ascending order: each call gives one value
 * (exact, or a bucket's midpoint) and how many values it stands for;
 * start with *pos = 0. Returns 0 after the last.
 */
int hist_next(const struct hist *h, size_t *pos, uint64_t *value, uint64_t *count);

#endif
