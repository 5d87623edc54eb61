// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "util/u64-map.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return key & (cap - 1);
}

void u64_map_init(struct u64_map *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->len = 0;
}

void u64_map_fini(struct u64_map *m)
{
	free(m->keys);
	free(m->vals);
	u64_map_init(m);
}

void *u64_map_get(const struct u64_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int grow(struct u64_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i, j;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		for (j = slot_of(m->keys[i], cap); vals[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int u64_map_put(struct u64_map *m, uint64_t key, void *val)
{
	size_t i;

	if ((m->len + 1) * 4 > m->cap * 3 && grow(m))
		return -ENOMEM;
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->len++;
	return 0;
}

int u64_map_next(const struct u64_map *m, size_t *i, uint64_t *key, void **val)
{
	for (; *i < m->cap; (*i)++) {
		if (m->vals[*i]) {
			*key = m->keys[*i];
			*val = m->vals[*i];
			(*i)++;
			return 1;
		}
	}
	return 0;
}
