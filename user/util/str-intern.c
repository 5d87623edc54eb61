// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/str-intern.h"

void str_intern_init(struct str_intern *t)
{
	u64_map_init(&t->by_hash);
	t->strs = NULL;
	t->n = t->cap = 0;
}

void str_intern_fini(struct str_intern *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		free(t->strs[i]);
	free(t->strs);
	u64_map_fini(&t->by_hash);
}

int str_intern(struct str_intern *t, const char *s, uint32_t *id, int *is_new)
{
	uint64_t h = hash_fnv1a(s, strlen(s), HASH_FNV1A_SEED);
	void *v;

	/* Probe on: a different string with the same hash takes h + 1. */
	for (;; h++) {
		v = u64_map_get(&t->by_hash, h);
		if (!v)
			break;
		if (!strcmp(t->strs[(uintptr_t)v - 1], s)) {
			*id = (uintptr_t)v - 1;
			if (is_new)
				*is_new = 0;
			return 0;
		}
	}
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		char **ns = realloc(t->strs, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		t->strs = ns;
		t->cap = cap;
	}
	t->strs[t->n] = strdup(s);
	if (!t->strs[t->n] ||
	    u64_map_put(&t->by_hash, h, (void *)(uintptr_t)(t->n + 1))) {
		free(t->strs[t->n]);
		return -ENOMEM;
	}
	*id = t->n++;
	if (is_new)
		*is_new = 1;
	return 0;
}
