/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work conservation, schedviz's question: how long CPUs sat idle while a
 * thread that could have run there waited in the runqueue of a busy CPU,
 * by idle CPU, by CPU pair and by thread, with the longest such stretches;
 * and the run-queue depth of each CPU over time (the thread it runs and
 * those waiting in its runqueue, as the scheduler model places them). A
 * thread may run where its last AFFINITY record allows, anywhere without
 * one. Definitions: docs/report.md, "Balance".
 */
#ifndef KTPROF_ANALYZE_BALANCE_H
#define KTPROF_ANALYZE_BALANCE_H

#include "report/report.h"

#define BALANCE_DEPTHS 9		/* time at depth 0 .. 7, and 8 or more */
#define BALANCE_BINS 64			/* heatmap columns kept (merged pairwise) */
#define BALANCE_MAX_CPUS 1024		/* CPU pairs kept up to this many CPUs */
#define BALANCE_MAX_MASKED 4096		/* waiting threads with a partial mask */
#define BALANCE_WORST 10

enum balance_state { BALANCE_UNKNOWN, BALANCE_IDLE, BALANCE_BUSY };

struct balance_cpu {
	uint8_t state;			/* enum balance_state */
	uint32_t waiting;		/* threads in its runqueue */
	uint32_t nall;			/* ... of which may run anywhere */
	/* Run-queue depth: since when it holds, and its figures. */
	uint64_t depth_since;
	double depth_area;		/* depth x ns */
	uint64_t depth_ns;		/* known time */
	uint32_t depth_max;		/* held for more than 0 ns */
	uint64_t at_depth[BALANCE_DEPTHS];
	double bin_area[BALANCE_BINS];
	uint64_t bin_ns[BALANCE_BINS];
	/*
	 * The time-integral, while it is busy and some CPU idles, that each
	 * thread waiting here that may run anywhere is stranded: a thread's
	 * share is its value at the thread's leave minus at its entry.
	 */
	uint64_t x_val, x_since;
	uint8_t x_rate;
	/* As the idle CPU: pairs active in its row, since when, how long. */
	uint32_t row;
	uint64_t row_since, idle_waiting_ns;
	uint32_t row_first;		/* the busy CPU of the pair that began it */
	/* As the busy CPU: pairs active in its column. */
	uint32_t col;
	uint64_t col_since, busy_stranding_ns;
	uint64_t idle_ns;		/* known idle time, for shares */
	uint64_t idle_since;
};

struct balance_thread {
	int32_t cpu;			/* the runqueue it waits in, -1: none */
	uint32_t mask;			/* its mask index when it began to wait there */
	uint32_t slot;			/* in the masked list + 1; 0: not there */
	uint64_t since;			/* its wait's start (clamped) */
	uint64_t x_at;			/* its CPU's x_val then (may run anywhere) */
	uint32_t nidle;			/* partial mask: idle CPUs it may use */
	uint64_t s_since;		/* partial mask: stranded since, or UINT64_MAX */
	uint64_t wait_ns, stranded_ns;
};

struct balance_worst {
	uint32_t idle_cpu, busy_cpu;	/* the pair that began it */
	uint64_t start, ns;
};

struct analyze_balance {
	const struct report *r;
	struct model *m;
	uint32_t n;			/* CPUs */
	struct balance_cpu *cpus;
	uint32_t nr_idle;		/* CPUs idle now */
	int pairs_kept;			/* n <= BALANCE_MAX_CPUS */
	uint32_t *cmask;		/* [j * n + i]: partial-mask waiters on j allowed on i */
	uint64_t *pair_since;		/* [i * n + j]: UINT64_MAX: not active */
	uint64_t *pair_ns;
	struct balance_thread *threads;
	uint32_t nr_threads, cap_threads;
	uint32_t *masked;		/* waiting threads with a partial mask */
	uint32_t nr_masked;
	uint64_t unattributed;		/* waits past BALANCE_MAX_MASKED */
	uint64_t bin_ns;		/* heatmap column width */
	uint64_t bin_from;
	uint32_t nr_bins;
	struct balance_worst worst[BALANCE_WORST];
	uint32_t nr_worst;
	uint64_t *procs;		/* derived: stranded ns per process */
	uint32_t *pairs;		/* derived: pairs with time (idle * n + busy),
					 * of shown idle CPUs, largest first */
	uint32_t nr_pairs;
	int error;
};

const struct analyze_balance *analyze_balance(const struct report *r);

/* The CPU pair's time: @idle_cpu idle while a thread it allows waited on @busy_cpu. */
uint64_t analyze_balance_pair(const struct analyze_balance *a, uint32_t idle_cpu,
			      uint32_t busy_cpu);

extern const struct analyzer analyzer_balance;

#endif
