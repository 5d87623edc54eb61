/* SPDX-License-Identifier: GPL-2.0 */
/* Interned strings: each distinct string once, named by a dense id. */
#ifndef KTPROF_STR_INTERN_H
#define KTPROF_STR_INTERN_H

#include <stdint.h>

#include "util/u64-map.h"

struct str_intern {
	struct u64_map by_hash;	/* hash (probed) -> id + 1 */
	char **strs;
	uint32_t n, cap;
};

void str_intern_init(struct str_intern *t);
void str_intern_fini(struct str_intern *t);

/*
 * The id of @s (0, 1, 2... in order of first appearance); *is_new tells
 * whether it was just added (may be NULL). 0 or -ENOMEM.
 */
int str_intern(struct str_intern *t, const char *s, uint32_t *id, int *is_new);

static inline const char *str_intern_get(const struct str_intern *t, uint32_t id)
{
	return t->strs[id];
}

#endif
