/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof diff`: two captures analysed alike (report.c), their entities
 * matched (CPUs by number, processes by name, threads by process and
 * thread name, since pids differ between runs, IRQ handlers by name), every
 * figure the analyses offer (their struct diff_metric tables) side by side
 * with its change, distributions tested for a real difference (a shift:
 * mann-whitney.c; a tail: tail-test.c; q-values over all the tests:
 * fdr.c), and a verdict: the changes that matter most, ranked.
 * Definitions and scores: docs/diff.md.
 */
#ifndef KTPROF_DIFF_H
#define KTPROF_DIFF_H

#include <stddef.h>

#include "report/mann-whitney.h"
#include "report/tail-test.h"
#include "report/report.h"

struct diff_config {
	struct report_config report;	/* applied to both captures */
	int absolute;		/* totals as they are (default: per second of window) */
	int per_cpu;		/* machine totals divided by the CPUs */
	double alpha;		/* the false discovery rate (0: 0.01) */
	double min_effect;	/* smallest |effect| called a change (0: 0.1) */
};

enum diff_entity {
	DIFF_MACHINE, DIFF_CPU, DIFF_PROCESS, DIFF_THREAD,
	DIFF_HANDLER,		/* an IRQ handler, by name */
	DIFF_CAUSE,		/* a thread's critical-path cause: "app/w: running srv/srv" */
	DIFF_BLOCKED,		/* a thread's time off CPU in one blocking function:
				 * "app/reader: S pipe_read" */
	DIFF_CGROUP,		/* a cgroup v2, by path */
	DIFF_PROBE,		/* a record --probe probe, by name */
	DIFF_SPAN,		/* the spans of a name: a probe pair's (record --span
				 * NAME=...), or markers' ("marker TEXT") */
	DIFF_THREADS,		/* a metric's source only: each thread, summed into
				 * thread groups and processes (@groups) */
};

#define DIFF_GROUP_THREAD (1u << 0)
#define DIFF_GROUP_PROCESS (1u << 1)

enum diff_metric_kind {
	METRIC_PERCENT,		/* a share already in %, compared as it is */
	METRIC_RUNTIME,		/* ns: % of one CPU over the window, or ms (--absolute) */
	METRIC_COUNT,		/* a count: per second, or as it is */
	METRIC_TIME,		/* ns: ms per second, or ms */
	METRIC_DIST,		/* a distribution: its p99, and a test */
};

/*
 * A figure an analysis offers to diff: its name, what it is measured on,
 * and how to read it. DIFF_MACHINE: id 0; DIFF_CPU: the CPU; DIFF_THREADS:
 * a thread index; DIFF_HANDLER .. DIFF_SPAN: 0 .. count() - 1, matched
 * by name_of(), which may return NULL for an instance not compared.
 */
struct diff_metric {
	const char *name;	/* "wakeup latency"; NULL ends a table */
	enum diff_entity entity;
	enum diff_metric_kind kind;
	unsigned int groups;	/* DIFF_THREADS: DIFF_GROUP_* */
	double (*value)(const struct report *r, uint32_t id);
	const struct hist *(*dist)(const struct report *r, uint32_t id);
	uint32_t (*count)(const struct report *r);
	const char *(*name_of)(const struct report *r, uint32_t id, char *buf, size_t len);
	/* Named entities: whether a change of instance @id may be named in
	 * the verdict (NULL: every one may). */
	int (*weighs)(const struct report *r, uint32_t id);
};

/* The things of one name in one run, and a metric's sum over them. */
struct diff_group {
	char name[96];
	uint32_t n;		/* how many share the name */
	int unweighed;		/* its changes are listed, never named in the verdict */
	double *sum;		/* per metric of the group's entity */
	struct hist *h;		/* per metric (distributions) */
};

/* The entities matched by name: DIFF_PROCESS .. DIFF_SPAN. */
#define DIFF_NR_NAMED (DIFF_SPAN + 1)

struct diff_run {
	struct report *r;
	double secs;		/* the window */
	uint32_t cpus;		/* CPUs with known time */
	struct diff_group *groups[DIFF_NR_NAMED];	/* DIFF_PROCESS .. DIFF_SPAN */
	uint32_t ngroups[DIFF_NR_NAMED];
	struct u64_map index[DIFF_NR_NAMED];		/* name hash -> group + 1 */
	struct u64_map walked;	/* hashes of the thread groups with causes */
};

enum diff_kind { DIFF_SCALAR, DIFF_DIST };

/* The tests of a distribution pair. */
enum diff_test_kind {
	DIFF_SHIFT,		/* the whole distribution: Mann-Whitney U */
	DIFF_TAIL99,		/* the share above A's p99: Fisher's exact test */
	DIFF_TAIL999,		/* the share above A's p99.9 */
	DIFF_NR_TESTS
};

struct diff_test {
	int tested;		/* enough values on both sides to run it */
	double p, q;		/* q: p adjusted over all the diff's tests (fdr.h) */
	double effect;		/* the shift's rank-biserial, the tail's share change */
	int significant;	/* q < alpha and |effect| large enough */
	double score;		/* in the verdict (docs/diff.md); 0: not significant */
};

struct diff_item {
	enum diff_entity entity;
	char name[96];		/* "CPU 1", "app", "app/ktp-hog", "irq eth0" */
	const char *metric, *unit;
	enum diff_kind kind;
	unsigned int section;	/* of the analysis that offers the metric */
	int share;		/* a share of time: compared in points */
	int in_a, in_b;		/* the entity exists in A, in B */
	double a, b;		/* scalars, or the distributions' p99 */
	double delta, rel;	/* b - a; (b - a) / a (NAN when a is 0) */
	const struct hist *ha, *hb;	/* DIFF_DIST */
	struct mann_whitney mw;
	struct tail_test tail[2];	/* above A's p99, above A's p99.9 */
	struct diff_test test[DIFF_NR_TESTS];
	int significant;	/* any of its tests */
	int named_by;		/* the test of its highest score, the verdict's words */
	double score;		/* rank in the verdict; 0: not a change worth naming */
	int unweighed;		/* listed, never named in the verdict (diff_metric.weighs) */
};

struct diff {
	struct diff_config cfg;
	struct diff_run a, b;
	struct diff_item *items;
	size_t n, cap;
	size_t *verdict;	/* item indexes, most important first */
	size_t nverdict;
	size_t tests;		/* tests run over all items */
};

#define DIFF_VERDICT_MAX 8

/* Compare capture @a with capture @b. NULL with the reason in @err. */
struct diff *diff_run(const char *a, const char *b, const struct diff_config *cfg,
		      struct error *err);
void diff_free(struct diff *d);

/* The false discovery rate and the smallest shift effect in force. */
double diff_alpha(const struct diff_config *c);
double diff_min_effect(const struct diff_config *c);

/* The smallest |effect| of a tail called a change: one share twice the other. */
#define DIFF_TAIL_MIN_EFFECT 0.5

/* The percentile a test of @it compares (p50 for the shift; p99, p99.9), side @b. */
double diff_test_percentile(const struct diff_item *it, enum diff_test_kind k, int b);

#endif
