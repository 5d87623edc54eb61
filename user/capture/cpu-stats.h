/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's per-CPU counters, as its netlink GET_STATS reply or its
 * debugfs "stats" text gives them, and as a capture keeps them.
 */
#ifndef KTPROF_CPU_STATS_H
#define KTPROF_CPU_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "ktprof_abi.h"

/* One field per counter of KTP_CPU_STATS() (ktprof_abi.h), named as in the text. */
#define CPU_STATS_FIELD(NAME, NR, name, help) uint64_t name;
struct cpu_stats {
	uint32_t cpu;
	KTP_CPU_STATS(CPU_STATS_FIELD)
	uint64_t dropped[KTP_REC_NR_TYPES];	/* by record type */
};
#undef CPU_STATS_FIELD

/*
 * Parse "cpu=N records=.. bytes=.. lost=.." lines and their
 * "cpu=N dropped TYPE=.." companions. Returns the CPU count (*out
 * malloc'ed) or -EINVAL when there is no CPU line at all.
 */
int cpu_stats_parse(const char *text, struct cpu_stats **out);

/*
 * The Stats section of a capture (protobuf). Returns the CPU count (*out
 * malloc'ed) or -EBADMSG (damaged), -ENOMEM; a counter the capture lacks
 * (one newer than its writer) is 0.
 */
int cpu_stats_unpack(const void *buf, size_t len, struct cpu_stats **out);

#endif
