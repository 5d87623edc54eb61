/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_ext: what the BPF scheduler decided, from the module's scx group
 * (-e scx): its transitions and the window's phases between them, each
 * dispatch queue (DSQ: inserts, time in it, depth over time), the kinds
 * of DSQ tasks went to (local, global, the scheduler's own), per thread
 * the slices given and used and how each run ended, fairness against
 * weight, the event counters' changes and the debug dump of a scheduler
 * that failed. Definitions: docs/report.md, "sched_ext".
 */
#ifndef KTPROF_ANALYZE_SCX_H
#define KTPROF_ANALYZE_SCX_H

#include "report/hist.h"
#include "report/report.h"
#include "util/u64-map.h"

#define SCX_MAX_PHASES 64	/* transitions past this one join the last phase */
#define SCX_MAX_POINTS 4096	/* a DSQ's depth samples kept for the plot */
#define SCX_MAX_DUMP 20000	/* dump lines kept */

/* The kinds of DSQ a task is inserted into. */
enum scx_dsq_kind { SCX_DSQ_LOCAL_KIND, SCX_DSQ_GLOBAL_KIND, SCX_DSQ_CUSTOM_KIND,
		    SCX_DSQ_OTHER_KIND, SCX_NR_DSQ_KINDS };

struct scx_point {
	uint64_t ts;
	uint32_t depth;
};

struct scx_dsq {
	uint64_t id;		/* the kernel's DSQ id */
	uint32_t uid;		/* which DSQ of that id (the record's dsq_uid) */
	uint32_t cpu;		/* the first task's CPU: a per-CPU DSQ's */
	uint64_t inserts, removes;
	uint32_t depth, max_depth;	/* the kernel's count, after each change */
	uint64_t since;		/* first change seen (the depth is known from it) */
	uint64_t last;		/* last change */
	double area;		/* depth x ns since @since */
	uint64_t mismatches;	/* changes where the count was not ours +/- 1 */
	struct hist wait;	/* insert to removal, ns */
	struct scx_point *points;
	uint32_t nr_points, cap_points;
	uint64_t stride, skipped;	/* points kept: one in @stride */
};

struct scx_thread {
	int ext;		/* seen on the ext class */
	uint32_t weight;	/* last seen */
	uint32_t queued;	/* DSQ index + 1 while in one; 0: none */
	uint64_t queued_at;
	int from_dsq;		/* taken from a DSQ since its last switch-out */
	int running;		/* switched in on the ext class, slice_in valid */
	uint64_t slice_in;	/* the slice at its switch-in */
	int involuntary;	/* its last switch-out left it runnable */
	uint64_t switch_ins, direct;	/* switch-ins; of them, not from a DSQ */
	uint64_t granted, used, runs;	/* slice ns given at switch-ins, used */
	uint64_t granted_runs;		/* switch-ins with a finite slice */
	uint64_t inf_slices;		/* switch-ins with SCX_SLICE_INF */
	uint64_t expired, preempted, blocked;	/* how its runs ended */
	uint64_t dsq_ns, dsq_waits;	/* time in DSQs */
	uint64_t runtime_ns;	/* on CPU, on the ext class */
	uint64_t run_since;
};

struct scx_transition {
	uint64_t ts;
	unsigned int kind;	/* KTP_SCX_OP_* */
	int64_t value;
};

struct scx_phase {
	uint64_t from, to;
	uint64_t switch_ins, inserts;	/* ext tasks' */
};

struct scx_event_sum {
	char name[48];
	int64_t delta;		/* the tracepoint's, in the window */
	int64_t sysfs_delta;	/* root/events at stop minus at start; -1: not both */
};

struct analyze_scx {
	const struct report *r;
	uint64_t records;		/* scx records in the window: 0, no data */
	struct scx_dsq *dsqs;
	uint32_t nr_dsqs, cap_dsqs;
	struct u64_map dsq_index;	/* DSQ key -> index + 1 */
	struct scx_thread *threads;
	uint32_t nr_threads, cap_threads;
	uint64_t inserts[SCX_NR_DSQ_KINDS];
	struct scx_transition *transitions;
	uint32_t nr_transitions, cap_transitions;
	struct scx_phase phases[SCX_MAX_PHASES];
	uint32_t nr_phases;
	struct scx_event_sum *events;
	uint32_t nr_events, cap_events;
	struct u64_map event_index;	/* name's hash -> first event index + 1 */
	uint64_t ext_runtime, ext_weight;	/* of the ext threads that ran: fairness */
	char **dump;
	uint32_t nr_dump, cap_dump;
	uint64_t dump_dropped;
	struct hist wait;		/* every DSQ's time in it */
	int error;
};

const struct analyze_scx *analyze_scx(const struct report *r);

/* "ERROR_STALL", "UNREG", ... for a sched_ext exit kind; NULL if unknown. */
const char *analyze_scx_exit_name(int64_t kind);

extern const struct analyzer analyzer_scx;

#endif
