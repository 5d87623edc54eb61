/* SPDX-License-Identifier: GPL-2.0 */
/* Per thread: time in each state (running, runnable, S, D, other, dead). */
#ifndef KTPROF_ANALYZE_STATES_H
#define KTPROF_ANALYZE_STATES_H

#include "report/sched.h"

struct states_result {
	uint64_t ns[SCHED_NR_STATES];	/* [SCHED_UNKNOWN] stays 0 */
};

struct analyze_states {
	struct states_result *threads;
	uint32_t n, cap;
};

int analyze_states_init(struct analyze_states *a, struct sched *s);
void analyze_states_fini(struct analyze_states *a);

#endif
