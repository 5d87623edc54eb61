/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether two distributions differ: the Mann-Whitney U test on two
 * histograms, with the rank-biserial effect size. Values are compared by
 * histogram bucket (hist_key()), so values one bucket cannot tell apart
 * count as ties; ties get average ranks and correct the variance. The
 * p-value is two-sided, from the normal approximation with continuity
 * correction.
 *
 * Why this test: latency distributions are skewed and heavy-tailed, so a
 * test on means would be misled; U needs no distribution, works on the
 * binned data the report keeps (it never keeps every sample), and its
 * effect size says how often one run's values exceed the other's.
 */
#ifndef KTPROF_MANN_WHITNEY_H
#define KTPROF_MANN_WHITNEY_H

#include <stdint.h>

#include "report/hist.h"

struct mann_whitney {
	uint64_t n1, n2;	/* counts of A and B */
	double u;		/* U of B: pairs (a, b) with b > a, ties one half */
	double z, p;		/* p: two-sided */
	double effect;		/* rank-biserial, P(b > a) - P(b < a), in [-1, 1] */
};

/* Compare @a and @b; 0, or -EINVAL when either is empty. */
int mann_whitney(const struct hist *a, const struct hist *b, struct mann_whitney *out);

#endif
