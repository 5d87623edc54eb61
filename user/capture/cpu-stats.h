/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's per-CPU counters, as its netlink GET_STATS reply or its
 * debugfs "stats" text gives them.
 */
#ifndef KTPROF_CPU_STATS_H
#define KTPROF_CPU_STATS_H

#include <stdint.h>

#include "ktprof_abi.h"

struct cpu_stats {
	uint32_t cpu;
	uint64_t records, bytes, lost, subbufs, nested, overwritten;
	uint64_t samples, throttled;
	uint64_t unresolved, files_deferred;	/* symbolization skips */
	uint64_t dropped[KTP_REC_NR_TYPES];	/* by record type */
};

/*
 * Parse "cpu=N records=.. bytes=.. lost=.." lines and their
 * "cpu=N dropped TYPE=.." companions. Returns the CPU count (*out
 * malloc'ed) or -EINVAL when there is no CPU line at all.
 */
int cpu_stats_parse(const char *text, struct cpu_stats **out);

#endif
