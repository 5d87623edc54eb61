/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per CPU: busy and idle time (busy + idle = the CPU's known window),
 * unknown time by reason, context switches, tasks moved in and out, and a
 * timeline of busy time for the utilization plot.
 */
#ifndef KTPROF_ANALYZE_CPU_H
#define KTPROF_ANALYZE_CPU_H

#include "report/report.h"

#define CPU_TIMELINE_BUCKETS 256	/* at most, per CPU */

struct cpu_result {
	int seen;			/* the CPU has known time */
	uint64_t busy_ns, idle_ns;
	uint64_t gap_ns[SCHED_NR_GAPS];
	uint64_t switches;
	uint64_t migrations_in, migrations_out;
	uint64_t *timeline;		/* busy ns per bucket */
	uint64_t *timeline_known;	/* known ns per bucket */
};

struct analyze_cpu {
	const struct sched *s;
	struct cpu_result *cpus;
	uint32_t nr_cpus;
	uint64_t t0;			/* the timeline's start */
	uint64_t bucket_ns;		/* doubles when the run outgrows it */
	int error;
};

const struct analyze_cpu *analyze_cpu(const struct report *r);

/* After the pass: the report's CPUs with known time, busy and known time of all. */
void analyze_cpu_totals(struct report *r);

/* Busy time of CPU @cpu as a share of its known time, in %. */
double analyze_cpu_util(const struct report *r, uint32_t cpu);

extern const struct analyzer analyzer_cpu;

#endif
