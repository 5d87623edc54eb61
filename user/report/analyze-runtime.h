/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per thread: runtime (on-CPU time in the window), voluntary and
 * involuntary switches, and the distribution of its on-CPU slices.
 */
#ifndef KTPROF_ANALYZE_RUNTIME_H
#define KTPROF_ANALYZE_RUNTIME_H

#include "report/hist.h"
#include "report/report.h"

struct runtime_result {
	uint64_t runtime_ns;
	uint64_t voluntary, involuntary;
	struct hist slices;
};

struct analyze_runtime {
	struct runtime_result *threads;
	uint32_t n, cap;
	int error;
	/* Derived: per process (slices unused), and over the active threads. */
	struct runtime_result *procs;
	struct hist slices;
};

const struct analyze_runtime *analyze_runtime(const struct report *r);

/* Whether thread @t ran or switched in the window. */
int analyze_runtime_active(const struct report *r, uint32_t t);

/* Threads by runtime, most first (for report_threads_sorted()). */
int analyze_runtime_cmp(const struct report *r, uint32_t a, uint32_t b);

extern const struct analyzer analyzer_runtime;

#endif
