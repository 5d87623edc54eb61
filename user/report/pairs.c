// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "report/pairs.h"
#include "util/array.h"

void pairs_init(struct pairs *p, int with_hist)
{
	memset(p, 0, sizeof(*p));
	u64_map_init(&p->index);
	p->with_hist = with_hist;
}

void pairs_fini(struct pairs *p)
{
	uint32_t i;

	for (i = 0; i < p->n; i++)
		hist_fini(&p->v[i].h);
	free(p->v);
	u64_map_fini(&p->index);
	memset(p, 0, sizeof(*p));
}

struct pair *pairs_get(struct pairs *p, uint32_t a, uint32_t b)
{
	uint64_t key = (uint64_t)a << 32 | b;
	void *v = u64_map_get(&p->index, key);
	struct pair *e;

	if (v)
		return &p->v[(uintptr_t)v - 1];
	if (array_reserve((void **)&p->v, &p->cap, p->n, sizeof(*p->v), 256))
		return NULL;
	if (u64_map_put(&p->index, key, (void *)(uintptr_t)(p->n + 1)))
		return NULL;
	e = &p->v[p->n++];
	memset(e, 0, sizeof(*e));
	e->a = a;
	e->b = b;
	hist_init(&e->h);
	return e;
}

static int by_count(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

void pairs_sort(struct pairs *p)
{
	uint32_t i;

	if (!p->n)
		return;
	qsort(p->v, p->n, sizeof(*p->v), by_count);
	for (i = 0; i < p->n; i++)
		u64_map_put(&p->index, (uint64_t)p->v[i].a << 32 | p->v[i].b,
			    (void *)(uintptr_t)(i + 1));
}
