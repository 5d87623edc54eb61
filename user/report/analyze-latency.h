/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wakeup latency (waking or wakeup_new to the next switch-in) and runqueue
 * latency (involuntary switch-out to the next switch-in), per thread and
 * per CPU (the CPU of the switch-in). Per process and overall are merged
 * from the threads afterwards, over the selected ones.
 */
#ifndef KTPROF_ANALYZE_LATENCY_H
#define KTPROF_ANALYZE_LATENCY_H

#include "capture/topology.h"
#include "report/hist.h"
#include "report/pairs.h"
#include "report/report.h"

struct latency_result {
	struct hist h[2];	/* [SCHED_WAKEUP], [SCHED_RUNQUEUE] */
	/* With -e wakeup: each wakeup latency that holds its task's enqueue
	 * (sched_wakeup), split there: [0] waking to enqueue, [1] enqueue to
	 * switch-in. */
	struct hist step[2];
};

/*
 * With -e power: wakeup latency by the idle state the waking's target CPU
 * was in at the waking: slot 0 none (busy, or idle outside a state), slot
 * k + 1 state k (the last slot: every state past the table).
 */
#define LATENCY_IDLE_SLOTS (TOPOLOGY_IDLE_STATES + 2)

/* A thread's pending wakeup: where its target CPU was at its waking. */
struct latency_wake {
	uint64_t ts;		/* the waking that started the clock, 0: none */
	int32_t slot;		/* its slot, -1: not known */
};

struct analyze_latency {
	const struct sched *s;
	uint64_t *enqueued;	/* per thread: its last sched_wakeup, 0: none */
	struct latency_wake *wake;	/* per thread */
	struct hist **by_idle;	/* per thread: LATENCY_IDLE_SLOTS, made at its first */
	int32_t *cpu_slot;	/* per CPU: its slot now, -1: not known (no record yet) */
	uint32_t nr_cpu_slots;
	struct hist overall_idle[LATENCY_IDLE_SLOTS];	/* derived: selected threads' */
	struct latency_result *threads, *cpus;
	uint32_t n, cap, nr_cpus;
	uint64_t over_ns[2];	/* latencies above the rules' thresholds ... */
	struct pairs over[2];	/* ... per (CPU, thread): which threads waited long where */
	/* Derived: the selected threads' merged, per process and overall. */
	struct latency_result *procs;
	uint32_t nr_procs;
	struct latency_result overall;
};

const struct analyze_latency *analyze_latency(const struct report *r);

extern const struct analyzer analyzer_latency;

#endif
