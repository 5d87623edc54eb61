/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture to Perfetto trace: what the three views (scheduler, threads,
 * samples) share, and the interface each implements. The converter hands
 * every event, in global time order, to the task table and the symbolizer,
 * then to each enabled view; memory stays bounded by tasks, CPUs and
 * distinct stacks, whatever the number of records.
 */
#ifndef KTPROF_CONVERT_H
#define KTPROF_CONVERT_H

#include <stdint.h>

#include "decode/merge.h"
#include "decode/meta.h"
#include "decode/relay-decode.h"
#include "decode/task-table.h"
#include "perfetto/pf-bundle.h"
#include "perfetto/pf-out.h"
#include "symbols/symbolizer.h"

/* Trusted packet sequence ids: one per interning scope. */
enum {
	PF_SEQ_SYSTEM = 1,	/* system info, clocks, process tree, bundles */
	PF_SEQ_TRACKS = 2,	/* track descriptors and track events */
	PF_SEQ_SAMPLES = 3,	/* perf samples and their interned stacks */
};

/* TracePacket.sequence_flags bits (Perfetto's SequenceFlags). */
enum pf_seq_flags {
	PF_SEQ_INCREMENTAL_STATE_CLEARED = 1,	/* interned data starts again here */
	PF_SEQ_NEEDS_INCREMENTAL_STATE = 2,	/* the packet uses interned data */
};

/* Clock ids of a ClockSnapshot (Perfetto's BuiltinClock). */
enum pf_clock {
	PF_CLOCK_REALTIME = 1,
	PF_CLOCK_MONOTONIC = 3,
	PF_CLOCK_BOOTTIME = 6,
};

#define CONVERT_MAX_IRQS 1024	/* IRQ numbers named; others stay "irq" */

struct convert_config {
	int view_sched, view_threads, view_samples;
	uint64_t from_ns, to_ns;	/* CLOCK_BOOTTIME window; 0: open */
	const uint32_t *pids;		/* thread view and samples: only these */
	unsigned int nr_pids;		/*   processes (thread group ids) */
	const char *comm;		/*   or processes whose leader has this comm */
	int symbols;			/* name frames (0: objects and offsets) */
};

struct convert_ctx {
	struct pf_out *out;
	struct task_table *tasks;
	struct symbolizer *sym;
	const struct meta *meta;	/* NULL for a dump without meta */
	struct convert_config opt;
	uint32_t *cpu_current;		/* pid running on each CPU, or CONVERT_PID_UNKNOWN */
	char (*idle_names)[24];		/* "swapper/N" for each CPU */
	unsigned int nr_cpus;
	char irq_names[CONVERT_MAX_IRQS][KTP_IRQ_NAME_MAX];	/* IRQ_NAME records */
};

struct convert_stats {
	uint64_t events;	/* read from the input */
	uint64_t lost;		/* records the kernel reported lost */
	uint64_t outside_cpus;	/* events of CPUs beyond nr_cpus: skipped */
};

/*
 * Feed every event of @m to the enabled views and finish them. @c is set
 * up by the caller but for cpu_current. 0 or -errno.
 */
int convert_run(struct convert_ctx *c, struct merge *m, struct convert_stats *stats);

/* After lost records, until the next switch. Plain events then carry no pid. */
#define CONVERT_PID_UNKNOWN PF_PID_UNKNOWN

/* The pid running on @cpu (0 idle, or CONVERT_PID_UNKNOWN). */
uint32_t convert_current(const struct convert_ctx *c, uint32_t cpu);

/* Whether thread @pid passes the -p/--comm filter. */
int convert_selected(const struct convert_ctx *c, uint32_t pid);

/* "swapper/N" for pid 0 on CPU N, else the task's comm. */
const char *convert_comm(const struct convert_ctx *c, uint32_t pid, uint32_t cpu,
			 char *buf, unsigned int len);

/* A view: created for a conversion, fed events in time order, finished. */
struct convert_view {
	const char *name;
	void *(*create)(struct convert_ctx *c);
	int (*event)(void *view, const struct event *ev);
	int (*finish)(void *view);
	void (*destroy)(void *view);
};

extern const struct convert_view pf_sched_view;
extern const struct convert_view pf_threads_view;
extern const struct convert_view pf_samples_view;

#endif
