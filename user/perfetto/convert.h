/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture to Perfetto trace: what the three views (scheduler, threads,
 * samples) share, and the interface each implements. The views are one
 * client of the model (model/model.h), which takes every event in global
 * time order first (who each pid is, who runs on each CPU, the symbols)
 * and hands the window's events to each enabled view; memory stays bounded
 * by tasks, CPUs and distinct stacks, whatever the number of records.
 */
#ifndef KTPROF_CONVERT_H
#define KTPROF_CONVERT_H

#include <stdint.h>

#include "model/model.h"
#include "perfetto/pf-bundle.h"
#include "perfetto/pf-out.h"

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

struct convert_config {
	int view_sched, view_threads, view_samples;
	int symbols;			/* name frames (0: objects and offsets) */
};

struct convert_ctx {
	struct pf_out *out;
	struct model *model;		/* opened with the scheduler model; symbols
					 * of every kind for the samples view */
	const struct meta *meta;	/* NULL for a dump without meta */
	struct convert_config opt;
	char (*idle_names)[24];		/* "swapper/N" for each CPU */
	unsigned int nr_cpus;
};

/*
 * Run the model's pass with the enabled views as its client, and finish
 * them. The model's filter is the window and the process selection of the
 * thread view and the samples. 0 or a negative error (@err says what).
 */
int convert_run(struct convert_ctx *c, struct error *err);

/* After lost records, until the next switch. Plain events then carry no pid. */
#define CONVERT_PID_UNKNOWN PF_PID_UNKNOWN

/* The pid running on @cpu (0 idle, or CONVERT_PID_UNKNOWN). */
static inline uint32_t convert_current(const struct convert_ctx *c, uint32_t cpu)
{
	return model_cpu_pid(c->model, cpu);
}

/* Whether thread @pid passes the -p/--comm filter. */
static inline int convert_selected(const struct convert_ctx *c, uint32_t pid)
{
	return model_pid_selected(c->model, pid);
}

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
