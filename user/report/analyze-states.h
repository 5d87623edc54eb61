/* SPDX-License-Identifier: GPL-2.0 */
/* Per thread: time in each state (running, runnable, S, D, other, dead). */
#ifndef KTPROF_ANALYZE_STATES_H
#define KTPROF_ANALYZE_STATES_H

#include "report/report.h"

struct states_result {
	uint64_t ns[SCHED_NR_STATES];	/* [SCHED_UNKNOWN] stays 0 */
};

struct analyze_states {
	struct states_result *threads;
	uint32_t n, cap;
};

const struct analyze_states *analyze_states(const struct report *r);

extern const struct analyzer analyzer_states;

#endif
