/* SPDX-License-Identifier: GPL-2.0 */
/* CPU topology from sysfs: package, core, last-level cache and NUMA node. */
#ifndef KTPROF_TOPOLOGY_H
#define KTPROF_TOPOLOGY_H

#include <stdint.h>

struct topology_cpu {
	uint32_t cpu;
	int package, core, llc, node;	/* -1: unknown */
	int online;
};

/*
 * Read every possible CPU under @sysfs_cpu ("/sys/devices/system/cpu").
 * Returns the count (*out malloc'ed) or -errno.
 */
int topology_read(const char *sysfs_cpu, struct topology_cpu **out);

#endif
