// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/mann-whitney.h"

/* One histogram's next (bucket, count), equal buckets summed. */
struct walk {
	const struct hist *h;
	size_t pos;
	int have;
	uint64_t key, count;
	uint64_t next_value, next_count;
	int next_have;
};

static void step(struct walk *w)
{
	if (!w->next_have)
		w->next_have = hist_next(w->h, &w->pos, &w->next_value, &w->next_count) ? 1 : -1;
	w->have = w->next_have > 0;
	if (!w->have)
		return;
	w->key = hist_key(w->next_value);
	w->count = 0;
	while (w->next_have > 0 && hist_key(w->next_value) == w->key) {
		w->count += w->next_count;
		w->next_have = hist_next(w->h, &w->pos, &w->next_value, &w->next_count) ? 1 : -1;
	}
}

int mann_whitney(const struct hist *a, const struct hist *b, struct mann_whitney *out)
{
	struct walk wa = { .h = a }, wb = { .h = b };
	double rank = 0, r2 = 0, ties = 0, n1 = a->count, n2 = b->count, n, mean, var;

	memset(out, 0, sizeof(*out));
	if (!a->count || !b->count)
		return -EINVAL;
	step(&wa);
	step(&wb);
	while (wa.have || wb.have) {
		uint64_t key = !wb.have || (wa.have && wa.key < wb.key) ? wa.key : wb.key;
		double ca = wa.have && wa.key == key ? wa.count : 0;
		double cb = wb.have && wb.key == key ? wb.count : 0;
		double t = ca + cb;

		/* The tie group takes ranks rank + 1 .. rank + t: their average. */
		r2 += cb * (rank + (t + 1) / 2);
		ties += t * t * t - t;
		rank += t;
		if (ca)
			step(&wa);
		if (cb)
			step(&wb);
	}
	n = n1 + n2;
	out->n1 = a->count;
	out->n2 = b->count;
	out->u = r2 - n2 * (n2 + 1) / 2;
	out->effect = 2 * out->u / (n1 * n2) - 1;
	mean = n1 * n2 / 2;
	var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0) {
		out->z = 0;
		out->p = 1;
		return 0;
	}
	out->z = (out->u - mean - (out->u > mean ? 0.5 : out->u < mean ? -0.5 : 0)) / sqrt(var);
	out->p = erfc(fabs(out->z) / sqrt(2));
	return 0;
}
