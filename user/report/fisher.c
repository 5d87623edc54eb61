// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "report/fisher.h"

/* Terms below this share of the mode's probability are left out of the sums. */
#define NEGLIGIBLE 1e-20

/* Hypergeometric: N values, K with the property, n1 drawn; x of them with it. */
struct hyper {
	double N, K, n1;
	double lo, hi;		/* the support */
};

/* P(x + 1) / P(x). */
static double up(const struct hyper *h, double x)
{
	return (h->K - x) * (h->n1 - x) / ((x + 1) * (h->N - h->K - h->n1 + x + 1));
}

static double log_choose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/* log P(x) - log P(mode): where to start the walk from the mode. */
static double log_rel(const struct hyper *h, double x, double mode)
{
	return log_choose(h->K, x) + log_choose(h->N - h->K, h->n1 - x) -
	       log_choose(h->K, mode) - log_choose(h->N - h->K, h->n1 - mode);
}

/*
 * Sum, from the mode outward in one direction (@dir +1 or -1), the terms
 * (relative to the mode's) into *all and those no likelier than @obs into
 * *sel, until they are negligible: each direction only falls.
 */
static void walk(const struct hyper *h, double mode, int dir, double obs, double *all,
		 double *sel)
{
	double x = mode, r = 1;

	for (;;) {
		if (dir > 0) {
			if (x >= h->hi)
				return;
			r *= up(h, x);
			x += 1;
		} else {
			if (x <= h->lo)
				return;
			r /= up(h, x - 1);
			x -= 1;
		}
		if (r < NEGLIGIBLE)
			return;
		*all += r;
		if (r <= obs * (1 + 1e-7))
			*sel += r;
	}
}

double fisher_exact_p(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
	struct hyper h = { (double)n1 + n2, (double)k1 + k2, (double)n1, 0, 0 };
	double mode, obs, all = 1, sel = 0, p;

	if (!n1 || !n2 || k1 > n1 || k2 > n2 || !(k1 + k2) || k1 + k2 == n1 + n2)
		return 1;
	h.lo = h.K > n2 ? h.K - n2 : 0;
	h.hi = h.K < h.n1 ? h.K : h.n1;
	mode = floor((h.n1 + 1) * (h.K + 1) / (h.N + 2));
	mode = mode < h.lo ? h.lo : mode > h.hi ? h.hi : mode;
	obs = exp(log_rel(&h, (double)k1, mode));
	if (obs >= 1 - 1e-7)
		sel = 1;	/* the observed table is as likely as the mode's */
	walk(&h, mode, 1, obs, &all, &sel);
	walk(&h, mode, -1, obs, &all, &sel);
	/* A table too unlikely for the walk: its own probability, no less. */
	p = (sel > obs ? sel : obs) / all;
	return p > 1 ? 1 : p;
}
