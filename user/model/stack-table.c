// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/stack-table.h"
#include "util/array.h"
#include "util/hash.h"

/* Values of by_ref: a stack + 1, or an id that must resolve to nothing. */
#define REF_POISONED ((void *)(uintptr_t)STACK_NONE)

void stack_table_init(struct stack_table *t)
{
	memset(t, 0, sizeof(*t));
	u64_map_init(&t->by_ref);
	u64_map_init(&t->by_hash);
}

void stack_table_fini(struct stack_table *t)
{
	free(t->v);
	free(t->frames);
	u64_map_fini(&t->by_ref);
	u64_map_fini(&t->by_hash);
	memset(t, 0, sizeof(*t));
}

static int same_frames(const struct stack_table *t, uint32_t s, const uint64_t *ips,
		       unsigned int nk, unsigned int nu)
{
	const struct stack_entry *e = &t->v[s];

	return e->nr_kernel == nk && e->nr_user == nu &&
	       !memcmp(t->frames + e->off, ips, (nk + nu) * sizeof(*ips));
}

/* The stack with these frames: found, or added. STACK_NONE on -ENOMEM. */
static uint32_t intern(struct stack_table *t, const uint64_t *ips, unsigned int nk,
		       unsigned int nu, int truncated)
{
	uint64_t h = hash_fnv1a(ips, (nk + nu) * sizeof(*ips), HASH_FNV1A_SEED ^ nk);
	uintptr_t first = (uintptr_t)u64_map_get(&t->by_hash, h);
	uint32_t s;

	for (s = first; s; s = t->v[s - 1].next)
		if (same_frames(t, s - 1, ips, nk, nu))
			return s - 1;
	if (array_reserve((void **)&t->v, &t->cap, t->n, sizeof(*t->v), 256) ||
	    array_reserve_n((void **)&t->frames, &t->cap_frames, t->nr_frames + nk + nu,
			    sizeof(*t->frames), 4096) ||
	    u64_map_put(&t->by_hash, h, (void *)(uintptr_t)(t->n + 1)))
		return STACK_NONE;
	memcpy(t->frames + t->nr_frames, ips, (nk + nu) * sizeof(*ips));
	t->v[t->n] = (struct stack_entry){
		.hash = h, .off = t->nr_frames, .nr_kernel = nk, .nr_user = nu,
		.truncated = !!truncated, .next = first,
	};
	t->nr_frames += nk + nu;
	return t->n++;
}

int stack_table_add(struct stack_table *t, const struct event *ev)
{
	struct ktp_stack r;
	uint64_t ips[2 * KTP_MAX_FRAMES], ref;
	unsigned int n;
	void *old;
	uint32_t s;

	/* The decoder checked the size against the counts. */
	memcpy(&r, ev->rec, sizeof(r));
	n = r.nr_kernel + r.nr_user;
	memcpy(ips, (const uint8_t *)ev->rec + sizeof(r), n * sizeof(*ips));
	s = intern(t, ips, r.nr_kernel, r.nr_user,
		   ev->flags & (KTP_STACK_KTRUNC | KTP_STACK_UTRUNC));
	if (s == STACK_NONE)
		return -ENOMEM;
	ref = (uint64_t)ev->cpu << 32 | r.id;
	old = u64_map_get(&t->by_ref, ref);
	/* Written again before overwrite mode could lose it: the same. */
	if (old == (void *)(uintptr_t)(s + 1) || old == REF_POISONED)
		return 0;
	if (old) {
		t->conflicts++;
		return u64_map_put(&t->by_ref, ref, REF_POISONED);
	}
	return u64_map_put(&t->by_ref, ref, (void *)(uintptr_t)(s + 1));
}

uint32_t stack_table_find(const struct stack_table *t, uint32_t cpu, uint32_t id)
{
	void *v = id ? u64_map_get(&t->by_ref, (uint64_t)cpu << 32 | id) : NULL;

	if (!v || v == REF_POISONED)
		return STACK_NONE;
	return (uint32_t)((uintptr_t)v - 1);
}
