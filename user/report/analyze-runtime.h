/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per thread: runtime (on-CPU time in the window), voluntary and
 * involuntary switches, and the distribution of its on-CPU slices.
 */
#ifndef KTPROF_ANALYZE_RUNTIME_H
#define KTPROF_ANALYZE_RUNTIME_H

#include "report/hist.h"
#include "report/sched.h"

struct runtime_result {
	uint64_t runtime_ns;
	uint64_t voluntary, involuntary;
	struct hist slices;
};

struct analyze_runtime {
	struct runtime_result *threads;
	uint32_t n, cap;
	int error;
};

int analyze_runtime_init(struct analyze_runtime *a, struct sched *s);
void analyze_runtime_fini(struct analyze_runtime *a);

#endif
