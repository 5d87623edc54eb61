/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemption pairs: at an involuntary switch-out of thread T, the task
 * switched in is T's preemptor. (a: preemptor, b: preempted; thread
 * indexes, SCHED_IDLE for the idle task.)
 */
#ifndef KTPROF_ANALYZE_PREEMPT_H
#define KTPROF_ANALYZE_PREEMPT_H

#include "report/pairs.h"
#include "report/sched.h"

struct analyze_preempt {
	struct pairs pairs;
	uint64_t total;
	int error;
};

int analyze_preempt_init(struct analyze_preempt *a, struct sched *s);
void analyze_preempt_fini(struct analyze_preempt *a);

#endif
