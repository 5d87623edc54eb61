/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof report`: every analysis of a capture in one pass over its
 * merged events (the scheduler model feeding the analyzers), then what is
 * derived from them (processes, the overall distributions, findings,
 * outliers). Renderers (report-text.c, report-json.c, report-html.c) read
 * the result and never re-scan events.
 *
 * Definitions: ../shared/design/METRICS.md and docs/report.md.
 */
#ifndef KTPROF_REPORT_H
#define KTPROF_REPORT_H

#include <stdint.h>

#include "capture/input.h"
#include "capture/sched-ext.h"
#include "capture/topology.h"
#include "decode/task-table.h"
#include "report/analyze-cpu.h"
#include "report/analyze-irq.h"
#include "report/analyze-latency.h"
#include "report/analyze-migrations.h"
#include "report/analyze-preempt.h"
#include "report/analyze-runtime.h"
#include "report/analyze-states.h"
#include "report/analyze-wakers.h"
#include "report/findings.h"
#include "report/profile.h"
#include "symbols/symbolizer.h"
#include "util/error.h"

#define REPORT_MAX_PIDS 64

/* Event types counted: the record types, then the decoder's "lost" and "garbage". */
#define REPORT_EVENT_TYPES (KTP_REC_NR_TYPES + 2)

/* What to analyse and how; zero is the default for every field. */
struct report_config {
	uint64_t from_rel, to_rel;	/* window from the session's start */
	int have_from, have_to;
	const uint32_t *pids;		/* processes (thread group ids) */
	unsigned int nr_pids;
	const char *comm;		/* processes whose leader had this name */
	const char *cpus;		/* CPU list; NULL: all */
	int profile;			/* 1: CPU profile; 0: when samples exist; -1: never */
	int symbols;			/* name profile frames (1) */
	const char *symfs;
	int source;			/* sample source, -1: all */
	struct findings_config findings;
};

struct process_result {
	uint32_t threads;
	uint64_t runtime_ns, voluntary, involuntary;
	uint64_t migrations;
	struct hist latency[2];		/* SCHED_WAKEUP, SCHED_RUNQUEUE */
};

struct report_cpu_stream {
	uint32_t cpu;
	uint64_t records, lost, lost_subbufs, garbage_bytes;
};

struct report {
	struct report_config cfg;
	char path[512];
	struct meta meta;
	int have_meta;
	uint64_t session_start, session_stop;	/* stop 0: unknown */
	struct sched_ext sched_ext[2];		/* at start, at stop */
	uint64_t from, to;			/* the window, absolute */
	uint64_t window_ns;
	uint32_t nr_cpus;			/* CPUs with known time */
	uint8_t *cpu_selected;			/* -C */
	uint32_t nr_cpu_selected;
	uint64_t events, lost, samples, throttled;
	uint64_t by_type[REPORT_EVENT_TYPES];	/* events by report_event_type() index */
	struct report_cpu_stream *streams;
	unsigned int nr_streams;
	int truncated;				/* the capture file ends early */
	int damaged;				/* a damaged chunk ended the reading */
	char problem[256];			/* why, or what else is wrong */
	struct topology_cpu *topo;
	unsigned int nr_topo;

	struct sched sched;
	struct analyze_cpu cpu;
	struct analyze_runtime runtime;
	struct analyze_states states;
	struct analyze_latency latency;
	struct analyze_migrations migrations;
	struct analyze_preempt preempt;
	struct analyze_wakers wakers;
	struct analyze_irq irq;

	struct symbolizer *sym;			/* kernel symbols, and the profile's */
	struct task_table tasks;
	struct profile *profile;		/* NULL: no CPU profile */

	/* Derived after the pass. */
	uint8_t *thread_selected;		/* -p/--comm */
	uint8_t *process_selected;
	struct process_result *procs;
	struct latency_result overall;		/* the selected threads */
	uint64_t busy_ns, known_ns;		/* all CPUs */
	struct findings findings;
};

/*
 * Analyse the capture or raw dump directory @path. Returns a report (free
 * it with report_free()) or NULL with the reason in @err. A capture cut
 * short is analysed as far as it reads (report->truncated says so).
 */
struct report *report_run(const char *path, const struct report_config *cfg,
			  struct error *err);
void report_free(struct report *r);

/* The name of thread @t ("comm") and of waker @w ("irq 24 virtio0", ...). */
const char *report_thread_name(const struct report *r, uint32_t t);
const char *report_waker_name(const struct report *r, uint32_t waker_id,
			      char *buf, size_t len);

/* The event type (ev->type) counted at index @i of by_type[]. */
unsigned int report_event_type(unsigned int i);

/* "func" for a kernel address (work functions, IPI callbacks), or "0x...". */
const char *report_ksym(const struct report *r, uint64_t addr, char *buf, size_t len);

/* Whether the window's figure of CPU @cpu is shown (-C, and known time). */
int report_cpu_shown(const struct report *r, uint32_t cpu);

/* Sorted thread indexes: the selected threads with any known time, by @cmp. */
uint32_t *report_threads_sorted(const struct report *r, uint32_t *n,
				int (*cmp)(const struct report *r, uint32_t a, uint32_t b));

#endif
