// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/probe-stacks.h"
#include "util/array.h"

void probe_stacks_init(struct probe_stacks *p)
{
	memset(p, 0, sizeof(*p));
	u64_map_init(&p->counts);
}

void probe_stacks_fini(struct probe_stacks *p)
{
	u64_map_fini(&p->counts);
}

int probe_stacks_add(struct probe_stacks *p, const struct stack_table *t, uint32_t stack,
		     uint32_t tgid)
{
	uint64_t key;
	uintptr_t had;

	p->with++;
	if (stack == STACK_NONE) {
		p->lost++;
		return 0;
	}
	if (!stack_table_get(t, stack)->nr_user)
		tgid = 0;
	key = (uint64_t)tgid << 32 | stack;
	had = (uintptr_t)u64_map_get(&p->counts, key);
	return u64_map_put(&p->counts, key, (void *)(had + 1));
}

static int by_count(const void *x, const void *y)
{
	const struct probe_stack *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return a->tgid < b->tgid ? -1 : a->tgid > b->tgid;
}

int probe_stacks_derive(struct probe_stacks *p)
{
	struct probe_stack *v = NULL;
	size_t i = 0, n = 0, cap = 0;
	uint64_t key;
	void *val;

	while (u64_map_next(&p->counts, &i, &key, &val)) {
		if (array_reserve_n((void **)&v, &cap, n, sizeof(*v), 16)) {
			free(v);
			return -ENOMEM;
		}
		v[n++] = (struct probe_stack){ (uint32_t)key, (uint32_t)(key >> 32),
					       (uintptr_t)val };
	}
	if (n)
		qsort(v, n, sizeof(*v), by_count);
	p->ntop = n < PROBE_STACKS_TOP ? (unsigned int)n : PROBE_STACKS_TOP;
	if (p->ntop)
		memcpy(p->top, v, p->ntop * sizeof(*v));
	for (p->other = 0, i = p->ntop; i < n; i++)
		p->other += v[i].count;
	free(v);
	return 0;
}
