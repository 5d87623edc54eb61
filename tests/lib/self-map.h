/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests on this very binary: the mapping of an address of ours, as
 * /proc/self/maps has it, and so the address's offset in its file.
 */
#ifndef KTPROF_TEST_SELF_MAP_H
#define KTPROF_TEST_SELF_MAP_H

#include <stdint.h>

struct self_map {
	uint64_t start, end, pgoff;
	char path[512];
};

/* 0 with @m filled, 1 when no file mapping holds @addr, -1 without procfs. */
int find_self_map(uint64_t addr, struct self_map *m);

/* @addr's offset in the file @m maps. */
static inline uint64_t self_map_offset(const struct self_map *m, uint64_t addr)
{
	return m->pgoff + (addr - m->start);
}

#endif
