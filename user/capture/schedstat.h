/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/schedstat (CONFIG_SCHEDSTATS), as a capture keeps it: the text the
 * recorder read at the session's start and at its stop, whole (its domain
 * lines too), and parsed: each CPU's counters, whose change over the
 * session `info` shows. Format versions 15 to 17 share the CPU lines'
 * first nine fields (kernel/sched/stats.c, show_schedstat()).
 */
#ifndef KTPROF_SCHEDSTAT_H
#define KTPROF_SCHEDSTAT_H

#include <stddef.h>
#include <stdint.h>

#define SCHEDSTAT_TEXT_MAX (1u << 20)	/* bytes kept: a few KB a CPU */

/* A CPU line's fields, in order. */
enum schedstat_field {
	SCHEDSTAT_YLD_COUNT,	/* sched_yield() calls */
	SCHEDSTAT_LEGACY,	/* always 0 (was an array-switch count) */
	SCHEDSTAT_SCHED_COUNT,	/* schedule() calls */
	SCHEDSTAT_SCHED_GOIDLE,	/* ... that left the CPU idle */
	SCHEDSTAT_TTWU_COUNT,	/* try_to_wake_up() calls */
	SCHEDSTAT_TTWU_LOCAL,	/* ... that woke a task to this CPU */
	SCHEDSTAT_RUN_NS,	/* time tasks ran on this CPU, ns */
	SCHEDSTAT_DELAY_NS,	/* time tasks waited to run on this CPU, ns */
	SCHEDSTAT_TIMESLICES,	/* timeslices run */
	SCHEDSTAT_NR_FIELDS
};

struct schedstat_cpu {
	uint32_t cpu;
	uint64_t v[SCHEDSTAT_NR_FIELDS];
};

struct schedstat {
	int present;
	unsigned int version;
	struct schedstat_cpu *cpus;	/* by their order in the text */
	uint32_t nr_cpus;
};

/* The file @path whole into *@text (malloc'ed, NUL-terminated); 0 or -errno. */
int schedstat_read(const char *path, char **text);

/* Parse @text; 0, -EINVAL (not schedstat), -ENOMEM. schedstat_free() after. */
int schedstat_parse(const char *text, struct schedstat *s);
void schedstat_free(struct schedstat *s);

/* CPU @cpu's counters, NULL when @s has no line for it. */
const struct schedstat_cpu *schedstat_cpu(const struct schedstat *s, uint32_t cpu);

/* The field's name, as `info` prints it. */
const char *schedstat_field_name(enum schedstat_field f);

#endif
