/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/schedstat (CONFIG_SCHEDSTATS), as a capture keeps it: the text the
 * recorder read at the session's start and at its stop, whole (its domain
 * lines too), and parsed: each CPU's counters, whose change over the
 * session `info` shows. Format versions 15 to 17 share the CPU lines'
 * first nine fields (kernel/sched/stats.c, show_schedstat()). Each CPU's
 * domain lines follow its CPU line: the load balancer's counters per
 * scheduling domain, per idle type. Version 16 swapped the first two idle
 * types' columns; version 17 named the domain and split lb_imbalance in
 * four; the parser takes each to the same fields.
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

/* When a balance ran: as the kernel's enum cpu_idle_type says, in our order. */
enum schedstat_idle {
	SCHEDSTAT_BUSY,		/* the CPU had work (__CPU_NOT_IDLE) */
	SCHEDSTAT_IDLE,		/* the CPU was idle (periodic balance) */
	SCHEDSTAT_NEWIDLE,	/* the CPU was about to go idle */
	SCHEDSTAT_NR_IDLE
};

/* A load-balance counter of a domain, per idle type. */
enum schedstat_lb {
	SCHEDSTAT_LB_COUNT,	/* load_balance() calls */
	SCHEDSTAT_LB_BALANCED,	/* ... that found it balanced */
	SCHEDSTAT_LB_FAILED,	/* ... that failed to move a task */
	SCHEDSTAT_LB_GAINED,	/* tasks pulled */
	SCHEDSTAT_LB_HOT_GAINED,	/* ... of them cache-hot */
	SCHEDSTAT_LB_NOBUSYQ,	/* no busy runqueue found */
	SCHEDSTAT_LB_NOBUSYG,	/* no busy group found */
	SCHEDSTAT_NR_LB
};

/* A domain's other counters, in the line's order. */
enum schedstat_dom {
	SCHEDSTAT_ALB_COUNT,	/* active balances */
	SCHEDSTAT_ALB_FAILED,
	SCHEDSTAT_ALB_PUSHED,	/* tasks pushed by them */
	SCHEDSTAT_SBE_COUNT, SCHEDSTAT_SBE_BALANCED, SCHEDSTAT_SBE_PUSHED,	/* unused */
	SCHEDSTAT_SBF_COUNT, SCHEDSTAT_SBF_BALANCED, SCHEDSTAT_SBF_PUSHED,	/* unused */
	SCHEDSTAT_TTWU_WAKE_REMOTE,	/* wakeups of a task last on another CPU of the domain */
	SCHEDSTAT_TTWU_MOVE_AFFINE,	/* ... moved to the waker's CPU (wake affine) */
	SCHEDSTAT_TTWU_MOVE_BALANCE,	/* unused */
	SCHEDSTAT_NR_DOM
};

struct schedstat_domain {
	uint32_t cpu;
	uint32_t level;			/* N of "domainN" */
	char name[16];			/* "SMT", "MC", "PKG", ... (version 17), or "" */
	uint64_t lb[SCHEDSTAT_NR_IDLE][SCHEDSTAT_NR_LB];
	uint64_t v[SCHEDSTAT_NR_DOM];
};

struct schedstat {
	int present;
	unsigned int version;
	struct schedstat_cpu *cpus;	/* by their order in the text */
	uint32_t nr_cpus;
	struct schedstat_domain *domains;	/* by CPU, then level */
	uint32_t nr_domains;
};

/* The file @path whole into *@text (malloc'ed, NUL-terminated); 0 or -errno. */
int schedstat_read(const char *path, char **text);

/* Parse @text; 0, -EINVAL (not schedstat), -ENOMEM. schedstat_free() after. */
int schedstat_parse(const char *text, struct schedstat *s);
void schedstat_free(struct schedstat *s);

/* CPU @cpu's counters, NULL when @s has no line for it. */
const struct schedstat_cpu *schedstat_cpu(const struct schedstat *s, uint32_t cpu);

/*
 * The change from @a to @b into @d (schedstat_free() after): each CPU and
 * each domain (by CPU and level) both have, field by field. A CPU or domain
 * whose counters went back (domains are rebuilt, their counts restarted, at
 * hotplug and cpuset changes) has no change: it is left out and counted in
 * *@restarted. 0 or -ENOMEM.
 */
int schedstat_delta(const struct schedstat *a, const struct schedstat *b, struct schedstat *d,
		    uint32_t *restarted);

/*
 * The domains at @level of @s summed over CPUs into @sum (its name the
 * first's); how many CPUs have one.
 */
uint32_t schedstat_level_sum(const struct schedstat *s, uint32_t level,
			     struct schedstat_domain *sum);

/* One past the deepest level of @s's domains; 0 without domains. */
uint32_t schedstat_nr_levels(const struct schedstat *s);

/* CPU @cpu's domain at @level, NULL when @s has no line for it. */
const struct schedstat_domain *schedstat_domain(const struct schedstat *s, uint32_t cpu,
						uint32_t level);

/* The field's name, as `info` prints it. */
const char *schedstat_field_name(enum schedstat_field f);
const char *schedstat_lb_name(enum schedstat_lb f);
const char *schedstat_dom_name(enum schedstat_dom f);
const char *schedstat_idle_name(enum schedstat_idle i);

#endif
