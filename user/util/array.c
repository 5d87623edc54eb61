// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

int array_grow(void **v, uint32_t *cap, uint32_t i, size_t size, uint32_t first)
{
	uint64_t n = *cap ? *cap : first;
	void *p;

	if (i < *cap)
		return 0;
	while (n <= i)
		n *= 2;
	if (n > UINT32_MAX || n * size / size != n)
		return -ENOMEM;
	p = realloc(*v, n * size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + (size_t)*cap * size, 0, (n - *cap) * size);
	*v = p;
	*cap = n;
	return 0;
}

int array_reserve_n(void **v, size_t *cap, size_t i, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *p;

	if (i < *cap)
		return 0;
	while (n <= i) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*v, n * size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*v = p;
	*cap = n;
	return 0;
}
