/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemption pairs: at an involuntary switch-out of thread T, the task
 * switched in is T's preemptor. (a: preemptor, b: preempted; thread
 * indexes, SCHED_IDLE for the idle task.)
 */
#ifndef KTPROF_ANALYZE_PREEMPT_H
#define KTPROF_ANALYZE_PREEMPT_H

#include "report/pairs.h"
#include "report/report.h"

struct analyze_preempt {
	struct pairs pairs;
	uint64_t total;
	int error;
};

const struct analyze_preempt *analyze_preempt(const struct report *r);

extern const struct analyzer analyzer_preempt;

#endif
