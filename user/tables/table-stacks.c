// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tables/table-stacks.h"
#include "util/array.h"
#include "util/hash.h"

void table_stacks_init(struct table_stacks *t)
{
	memset(t, 0, sizeof(*t));
	u64_map_init(&t->by_hash);
}

void table_stacks_fini(struct table_stacks *t)
{
	free(t->v);
	free(t->pool);
	u64_map_fini(&t->by_hash);
	memset(t, 0, sizeof(*t));
}

static int same(const struct table_stacks *t, const struct table_stack *s,
		const uint64_t *frames, uint16_t nk, uint16_t nu, uint32_t tgid)
{
	return s->nr_kernel == nk && s->nr_user == nu && s->tgid == tgid &&
	       !memcmp(t->pool + s->off, frames, (size_t)(nk + nu) * sizeof(*frames));
}

int table_stacks_intern(struct table_stacks *t, const uint64_t *frames, uint16_t nr_kernel,
			uint16_t nr_user, uint32_t tgid, uint32_t *id, int *is_new)
{
	size_t n = (size_t)nr_kernel + nr_user;
	uint64_t h = HASH_FNV1A_SEED;
	uint32_t i, first;
	struct table_stack *s;

	if (!nr_user)
		tgid = 0;
	h = hash_fnv1a(&nr_kernel, sizeof(nr_kernel), h);
	h = hash_fnv1a(&nr_user, sizeof(nr_user), h);
	h = hash_fnv1a(&tgid, sizeof(tgid), h);
	h = hash_fnv1a(frames, n * sizeof(*frames), h);
	first = (uint32_t)(uintptr_t)u64_map_get(&t->by_hash, h);
	for (i = first; i; i = t->v[i - 1].next)
		if (same(t, &t->v[i - 1], frames, nr_kernel, nr_user, tgid)) {
			*id = i - 1;
			*is_new = 0;
			return 0;
		}
	if (array_reserve((void **)&t->v, &t->cap, t->n, sizeof(*t->v), 256) ||
	    array_reserve_n((void **)&t->pool, &t->cap_pool, t->nr_pool + n,
			    sizeof(*t->pool), 4096))
		return -ENOMEM;
	s = &t->v[t->n];
	*s = (struct table_stack){ .hash = h, .tgid = tgid, .nr_kernel = nr_kernel,
				   .nr_user = nr_user, .off = t->nr_pool, .next = first };
	memcpy(t->pool + t->nr_pool, frames, n * sizeof(*frames));
	t->nr_pool += n;
	if (u64_map_put(&t->by_hash, h, (void *)(uintptr_t)(t->n + 1)))
		return -ENOMEM;
	*id = t->n++;
	*is_new = 1;
	return 0;
}
