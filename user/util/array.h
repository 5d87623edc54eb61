/* SPDX-License-Identifier: GPL-2.0 */
/* Growable arrays: the one way per-thread and per-CPU tables grow. */
#ifndef KTPROF_ARRAY_H
#define KTPROF_ARRAY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Make element @i of the array *@v (of *@cap elements of @size bytes)
 * exist: the array doubles (from @first) until it holds it, and the new
 * elements are zeroed. 0 or -ENOMEM (the array is then as it was).
 */
int array_grow(void **v, uint32_t *cap, uint32_t i, size_t size, uint32_t first);

/*
 * array_grow() when element @i is not there yet: inline, as most calls
 * (one a model event in some analyzers) find it there.
 */
static inline int array_reserve(void **v, uint32_t *cap, uint32_t i, size_t size,
				uint32_t first)
{
	return i < *cap ? 0 : array_grow(v, cap, i, size, first);
}

/* The same for arrays counted in size_t. */
int array_reserve_n(void **v, size_t *cap, size_t i, size_t size, size_t first);

#endif
