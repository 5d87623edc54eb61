// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "report/fdr.h"

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Step-up: q of rank k (1-based, p ascending) = min over ranks j >= k of p_j n / j. */
int fdr_adjust(const double *p, size_t n, double *q)
{
	struct ranked *r;
	double min = 1;
	size_t k;

	if (!n)
		return 0;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		r[k] = (struct ranked){ p[k], k };
	qsort(r, n, sizeof(*r), by_p);
	for (k = n; k-- > 0;) {
		double v = r[k].p * n / (k + 1);

		if (v < min)
			min = v;
		q[r[k].i] = min;
	}
	free(r);
	return 0;
}
