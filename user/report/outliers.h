/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Outlying threads and CPUs by IQR or MAD (report_config's findings
 * method): each with the metric, its value, the limit it crossed and its
 * score. docs/report.md defines both methods.
 */
#ifndef KTPROF_OUTLIERS_H
#define KTPROF_OUTLIERS_H

#include "report/findings.h"

struct outlier {
	const char *metric;		/* "p99 wakeup latency", ... */
	const char *unit;
	enum finding_subject subject;
	uint32_t id;
	double value;
	double limit;			/* IQR: the upper fence; MAD: the value at z = 3.5 */
	double score;			/* IQR: (value - Q3) / IQR; MAD: modified z */
};

struct outliers {
	struct outlier *v;
	size_t n, cap;
};

struct report;
const struct outliers *report_outliers(const struct report *r);

extern const struct analyzer analyzer_outliers;

#endif
