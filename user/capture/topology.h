/* SPDX-License-Identifier: GPL-2.0 */
/* CPU topology from sysfs: package, core, last-level cache and NUMA node. */
#ifndef KTPROF_TOPOLOGY_H
#define KTPROF_TOPOLOGY_H

#include <stddef.h>
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

/*
 * Parse the text form a raw dump directory may hold ("topology": lines of
 * "cpu package core llc node"); other lines are skipped. Returns the count
 * (*out malloc'ed, NULL when 0) or -ENOMEM.
 */
int topology_parse(const char *text, struct topology_cpu **out);

/* The topology section of a capture (protobuf); count or -errno as above. */
int topology_unpack(const void *buf, size_t len, struct topology_cpu **out);

#endif
