// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>

#include "self-map.h"

int find_self_map(uint64_t addr, struct self_map *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %511s",
			   &m->start, &m->end, &m->pgoff, m->path) == 4 &&
		    addr >= m->start && addr < m->end) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found ? 0 : 1;
}
