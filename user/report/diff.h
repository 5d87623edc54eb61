/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof diff`: two captures analysed alike (report.c), their entities
 * matched (CPUs by number, processes by name, threads by process and
 * thread name, since pids differ between runs, IRQ handlers by name), every
 * figure side by side with its change, distributions tested for a real
 * difference (mann-whitney.c), and a verdict: the changes that matter
 * most, ranked. Definitions and scores: docs/diff.md.
 */
#ifndef KTPROF_DIFF_H
#define KTPROF_DIFF_H

#include <stddef.h>

#include "report/mann-whitney.h"
#include "report/report.h"

struct diff_config {
	struct report_config report;	/* applied to both captures */
	int absolute;		/* totals as they are (default: per second of window) */
	int per_cpu;		/* machine totals divided by the CPUs */
	double alpha;		/* significance level (0: 0.01) */
	double min_effect;	/* smallest |effect| called a change (0: 0.1) */
};

enum diff_entity { DIFF_MACHINE, DIFF_CPU, DIFF_PROCESS, DIFF_THREAD, DIFF_HANDLER };

/* The threads (or processes, or handlers) of one name in one run. */
struct diff_group {
	char name[48];
	uint32_t n;		/* how many share the name */
	uint64_t runtime_ns, voluntary, involuntary, migrations;
	struct hist h[3];	/* wakeup, runqueue latency; slices (handlers: durations) */
};

struct diff_run {
	struct report *r;
	double secs;		/* the window */
	uint32_t cpus;		/* CPUs with known time */
	struct diff_group *threads, *procs, *handlers;
	uint32_t nthreads, nprocs, nhandlers;
	struct hist slices, hardirq, softirq;	/* over the selected threads, all CPUs */
	uint64_t switches, migrations, wakings;
};

enum diff_kind { DIFF_SCALAR, DIFF_DIST };

struct diff_item {
	enum diff_entity entity;
	char name[64];		/* "CPU 1", "app", "app/ktp-hog", "irq eth0" */
	const char *metric, *unit;
	enum diff_kind kind;
	int in_a, in_b;		/* the entity exists in A, in B */
	double a, b;		/* scalars, or the distributions' p99 */
	double delta, rel;	/* b - a; (b - a) / a (NAN when a is 0) */
	const struct hist *ha, *hb;	/* DIFF_DIST */
	struct mann_whitney mw;
	int tested, significant;
	double score;		/* rank in the verdict; 0: not a change worth naming */
};

struct diff {
	struct diff_config cfg;
	struct diff_run a, b;
	struct diff_item *items;
	size_t n, cap;
	size_t *verdict;	/* item indexes, most important first */
	size_t nverdict;
};

#define DIFF_VERDICT_MAX 8

/* Compare capture @a with capture @b. NULL with the reason in @err. */
struct diff *diff_run(const char *a, const char *b, const struct diff_config *cfg,
		      struct error *err);
void diff_free(struct diff *d);

/* The significance level and smallest effect in force. */
double diff_alpha(const struct diff_config *c);
double diff_min_effect(const struct diff_config *c);

/* The verdict's sentence for item @i ("p99 wakeup latency of ..."). */
const char *diff_sentence(const struct diff *d, const struct diff_item *i, char *buf,
			  size_t len);

#endif
