/* SPDX-License-Identifier: GPL-2.0 */
/* FNV-1a, the hash every table in ktprof uses for byte keys. */
#ifndef KTPROF_HASH_H
#define KTPROF_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_SEED 0xcbf29ce484222325ull

/* Hash @n bytes at @p, continuing from @h (HASH_FNV1A_SEED to start). */
static inline uint64_t hash_fnv1a(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ull;
	return h;
}

#endif
