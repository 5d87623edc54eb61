/* SPDX-License-Identifier: GPL-2.0 */
/* An open-addressing hash map from u64 keys to pointers. */
#ifndef KTPROF_U64_MAP_H
#define KTPROF_U64_MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64_map {
	uint64_t *keys;
	void **vals;
	size_t cap, len;	/* cap is a power of two; a NULL value is empty */
};

void u64_map_init(struct u64_map *m);
/* Frees the table, not the values. */
void u64_map_fini(struct u64_map *m);
void *u64_map_get(const struct u64_map *m, uint64_t key);
/* Insert or replace; @val must not be NULL. 0 or -ENOMEM. */
int u64_map_put(struct u64_map *m, uint64_t key, void *val);

/* Iterate: for (i = 0; u64_map_next(m, &i, &k, &v); ) */
int u64_map_next(const struct u64_map *m, size_t *i, uint64_t *key, void **val);

#endif
