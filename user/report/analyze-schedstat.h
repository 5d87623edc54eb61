/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own scheduler statistics (/proc/schedstat, CONFIG_SCHEDSTATS)
 * as the recorder read them before the session's start and after its stop,
 * and their change: each CPU's counters, and the load balancer's per
 * scheduling-domain level summed over its CPUs (what `perf sched stats
 * diff` shows). Session-wide: --from/--to, -C and the selection do not
 * apply. Definitions: docs/report.md, "schedstat".
 */
#ifndef KTPROF_ANALYZE_SCHEDSTAT_H
#define KTPROF_ANALYZE_SCHEDSTAT_H

#include <stdio.h>

#include "capture/input.h"
#include "capture/schedstat.h"
#include "report/report.h"

struct schedstat_level {
	struct schedstat_domain sum;	/* summed over its CPUs */
	uint32_t cpus;
};

struct analyze_schedstat {
	int present;			/* both reads parse */
	int enabled;			/* kernel.sched_schedstats: 1, 0, -1 not recorded */
	unsigned int version;
	struct schedstat delta;		/* per CPU and domain, stop minus start */
	uint32_t restarted;		/* CPUs or domains whose counts went back: left out */
	struct schedstat_level *levels;	/* by level; cpus 0: none at that level */
	uint32_t nr_levels;
};

/* The change of @in's two reads into @a (analyze_schedstat_free() after). */
int analyze_schedstat_of(const struct input *in, struct analyze_schedstat *a);
void analyze_schedstat_free(struct analyze_schedstat *a);

/* Its text, as `report --schedstat` and `info` print it. */
void analyze_schedstat_print(FILE *out, const struct analyze_schedstat *a);

const struct analyze_schedstat *analyze_schedstat(const struct report *r);

extern const struct analyzer analyzer_schedstat;

#endif
