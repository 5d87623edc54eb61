// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "report/fisher.h"
#include "report/tail-test.h"

uint64_t tail_test_min_count(unsigned int permille)
{
	return permille < 1000 ? 1000 / (1000 - permille) : UINT64_MAX;
}

int tail_test(const struct hist *a, const struct hist *b, unsigned int permille,
	      struct tail_test *out)
{
	double top;

	memset(out, 0, sizeof(*out));
	out->permille = permille;
	if (!a->count || !b->count)
		return -EINVAL;
	out->threshold = hist_percentile(a, permille / 10.0);
	out->n1 = a->count;
	out->n2 = b->count;
	out->k1 = hist_count_above(a, out->threshold);
	out->k2 = hist_count_above(b, out->threshold);
	out->share1 = (double)out->k1 / out->n1;
	out->share2 = (double)out->k2 / out->n2;
	top = out->share1 > out->share2 ? out->share1 : out->share2;
	out->effect = top > 0 ? (out->share2 - out->share1) / top : 0;
	out->p = fisher_exact_p(out->k1, out->n1, out->k2, out->n2);
	return 0;
}
