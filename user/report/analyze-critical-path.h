/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The critical path of a thread: what its time in the window went to,
 * following its wakers. Its running time is its own; time runnable goes to
 * whoever ran on the CPU it then ran on (or to that CPU's idle task);
 * time blocked goes, recursively, to what the thread that woke it did
 * meanwhile, to a depth of CRITICAL_PATH_DEPTH wakers. A waking by an
 * interrupt (a timer, a device) or by the idle task ends a chain there.
 * Definitions and limits: docs/report.md, "Critical path".
 *
 * The pass keeps each thread's state intervals, its wakings and where each
 * of its runs began, and each CPU's runs; after it, the paths of at most
 * CRITICAL_PATH_THREADS selected threads (those off CPU longest) are
 * walked.
 */
#ifndef KTPROF_ANALYZE_CRITICAL_PATH_H
#define KTPROF_ANALYZE_CRITICAL_PATH_H

#include "report/report.h"

#define CRITICAL_PATH_DEPTH 8		/* wakers followed from a thread */
#define CRITICAL_PATH_THREADS 16	/* threads whose path is walked */
#define CRITICAL_PATH_WORST 3		/* longest waits shown of each */

/* What a part of a thread's time went to. */
enum critical_path_kind {
	CP_RUNNING,		/* @id (a thread) ran: the thread or one of its wakers */
	CP_RUNNABLE,		/* a thread of the chain waited while @id ran on its CPU */
	CP_RUNNABLE_IDLE,	/* ... while CPU @id was idle (the wakeup's own path) */
	CP_RUNNABLE_OPEN,	/* runnable until the window's end: no CPU seen */
	CP_INTERRUPT,		/* blocked until @id woke it: analyze_wakers_id() of an
				 * IRQ, a softirq or an idle CPU; the chain ends */
	CP_BLOCKED_OPEN,	/* blocked until the window's end */
	CP_DEPTH,		/* blocked on @id (a thread) past the depth limit */
	CP_UNKNOWN,		/* unknown time (losses, before it was seen, a gap) */
	CP_NR_KINDS
};

struct critical_path_cause {
	uint32_t kind, id;
	uint64_t ns;
};

/* Causes summed: an array and an index of it by (kind, id). */
struct critical_path_causes {
	struct critical_path_cause *v;
	uint32_t n, cap;
	struct u64_map index;	/* kind << 32 | id -> position + 1 */
};

/* One of a thread's longest waits: blocked from @from to @to, and why. */
struct critical_path_wait {
	uint64_t from, to;
	uint8_t state;		/* enum sched_state: SLEEPING or BLOCKED */
	uint32_t waker;		/* analyze_wakers_id(), or UINT32_MAX: none seen */
	struct critical_path_causes causes;
};

struct critical_path_result {
	uint32_t t;		/* thread index */
	uint64_t from, to;	/* its time in the window */
	uint64_t running;	/* its own running time */
	struct critical_path_causes causes;
	struct critical_path_wait worst[CRITICAL_PATH_WORST];
	uint32_t nr_worst;
};

struct critical_path_span {
	uint64_t from, to;
	uint8_t state;		/* enum sched_state */
};

struct critical_path_wake {
	uint64_t ts;
	uint32_t waker;		/* analyze_wakers_id() */
};

struct critical_path_start {
	uint64_t ts;
	uint32_t cpu;
};

struct critical_path_run {
	uint64_t from, to;
	uint32_t t;		/* thread index or SCHED_IDLE */
};

struct critical_path_thread {
	struct critical_path_span *spans;
	struct critical_path_wake *wakes;
	struct critical_path_start *starts;
	uint32_t n_spans, cap_spans, n_wakes, cap_wakes, n_starts, cap_starts;
};

struct critical_path_cpu {
	struct critical_path_run *runs;
	uint32_t n, cap;
};

struct analyze_critical_path {
	struct critical_path_thread *threads;
	uint32_t n_threads, cap_threads;
	struct critical_path_cpu *cpus;
	uint32_t n_cpus, cap_cpus;
	uint64_t end;				/* the window's end as the spans show it */
	int nomem;				/* an allocation of the pass failed */
	struct critical_path_result *results;	/* by time off CPU, largest first */
	uint32_t nr_results;
};

const struct analyze_critical_path *analyze_critical_path(const struct report *r);

/* "running", "runnable", ...: the JSON name of @kind. */
const char *analyze_critical_path_kind(uint32_t kind);

/* A cause for people: "hog (300)", "cpu 1 idle", "softirq TIMER", "(unknown)". */
const char *analyze_critical_path_name(const struct report *r,
				       const struct critical_path_cause *c, char *buf,
				       size_t len);

extern const struct analyzer analyzer_critical_path;

#endif
