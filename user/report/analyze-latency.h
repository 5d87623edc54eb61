/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wakeup latency (waking or wakeup_new to the next switch-in) and runqueue
 * latency (involuntary switch-out to the next switch-in), per thread and
 * per CPU (the CPU of the switch-in). Per process and overall are merged
 * from the threads afterwards, over the selected ones.
 */
#ifndef KTPROF_ANALYZE_LATENCY_H
#define KTPROF_ANALYZE_LATENCY_H

#include "report/hist.h"
#include "report/pairs.h"
#include "report/sched.h"

struct latency_result {
	struct hist h[2];	/* [SCHED_WAKEUP], [SCHED_RUNQUEUE] */
};

struct analyze_latency {
	struct latency_result *threads, *cpus;
	uint32_t n, cap, nr_cpus;
	uint64_t over_ns[2];	/* latencies above these ... */
	struct pairs over[2];	/* ... per (CPU, thread): which threads waited long where */
};

/* @over_ns: per kind, the latency above which (CPU, thread) pairs are kept. */
int analyze_latency_init(struct analyze_latency *a, struct sched *s,
			 const uint64_t over_ns[2]);
void analyze_latency_fini(struct analyze_latency *a);

#endif
