/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a distribution's tail changed: the share of A's values and of
 * B's above A's p99 (or p99.9), compared by Fisher's exact test
 * (fisher.h). A change confined to the top 2% moves the Mann-Whitney
 * effect by 0.02 at most and never reaches a verdict; this test sees it.
 * Values in A's percentile's own bucket are not above it (the histogram
 * cannot tell them apart), so A's share is at most 1% (0.1%).
 */
#ifndef KTPROF_TAIL_TEST_H
#define KTPROF_TAIL_TEST_H

#include <stdint.h>

#include "report/hist.h"

struct tail_test {
	unsigned int permille;	/* 990: above A's p99; 999: above A's p99.9 */
	uint64_t threshold;	/* that percentile of A, ns */
	uint64_t n1, n2;	/* the counts of A and B */
	uint64_t k1, k2;	/* how many of them lie above it */
	double share1, share2;	/* k / n */
	double p;		/* two-sided */
	double effect;		/* (share2 - share1) / the larger: +1 when only B
				 * has a tail, +0.5 when B's is twice A's, -1 when
				 * only A has one; 0 when neither */
};

/*
 * The values each side needs for a tail test at @permille: enough that A's
 * percentile has values above it (100 for p99, 1000 for p99.9).
 */
uint64_t tail_test_min_count(unsigned int permille);

/* Test @a against @b above A's @permille-th per-mille; 0, or -EINVAL when either is empty. */
int tail_test(const struct hist *a, const struct hist *b, unsigned int permille,
	      struct tail_test *out);

#endif
