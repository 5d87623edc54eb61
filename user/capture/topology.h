/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology from sysfs: package, core, last-level cache and NUMA node;
 * and the CPU's power side: cpufreq's current frequency and cpuidle's
 * states (name, exit latency), which power:cpu_idle records name by index.
 */
#ifndef KTPROF_TOPOLOGY_H
#define KTPROF_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define TOPOLOGY_IDLE_STATES 10	/* cpuidle's CPUIDLE_STATE_MAX */

struct topology_idle {
	char name[16];
	uint32_t exit_us;
};

struct topology_cpu {
	uint32_t cpu;
	int package, core, llc, node;	/* -1: unknown */
	int online;
	uint32_t cur_khz;		/* 0: unknown (no cpufreq) */
	uint32_t nr_idle;
	struct topology_idle idle[TOPOLOGY_IDLE_STATES];
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
