/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof report`: every analysis of the table (analyzer.h) in one pass
 * of the model (model/model.h), as its clients, then what each derives
 * from its results (processes, overall distributions, findings,
 * outliers). Renderers (render-text.c, render-json.c, render-html.c)
 * frame the analyses' sections and never re-scan events.
 *
 * Definitions: docs/report.md.
 */
#ifndef KTPROF_REPORT_H
#define KTPROF_REPORT_H

#include <stdint.h>

#include "model/model.h"
#include "report/analyzer.h"
#include "report/findings.h"
#include "util/error.h"

#define REPORT_MAX_ANALYZERS 24

/* Event types counted: the record types, then the decoder's "lost" and "garbage". */
#define REPORT_EVENT_TYPES (KTP_REC_NR_TYPES + 2)

/* What to analyse and how; zero is the default for every field. */
struct report_config {
	struct filter filter;		/* window, processes, CPUs */
	int profile;			/* 1: CPU profile; 0: when samples exist; -1: never */
	const char *symfs;
	int source;			/* sample source, -1: all */
	struct findings_config findings;
};

struct report {
	struct report_config cfg;
	struct model *model;			/* the capture, its window, its scheduler */
	void *state[REPORT_MAX_ANALYZERS];	/* each analysis's, in table order */
	uint64_t samples, throttled;
	uint64_t by_type[REPORT_EVENT_TYPES];	/* events by report_event_type() index */

	/* Derived after the pass. */
	uint32_t nr_cpus;			/* CPUs with known time */
	uint8_t *thread_selected;		/* -p/--comm */
	uint8_t *process_selected;
	uint32_t *process_threads;		/* selected threads of each process */
	uint64_t busy_ns, known_ns;		/* all CPUs */
};

/*
 * Analyse the capture or raw dump directory @path. Returns a report (free
 * it with report_free()) or NULL with the reason in @err. A capture cut
 * short is analysed as far as it reads (model->truncated says so).
 */
struct report *report_run(const char *path, const struct report_config *cfg,
			  struct error *err);
void report_free(struct report *r);

/* The state of analysis @a (an entry of the table), or NULL. */
void *report_state(const struct report *r, const struct analyzer *a);

/* The name of thread @t ("comm"). */
const char *report_thread_name(const struct report *r, uint32_t t);

/* The name of thread @t's process (its leader's comm, else the thread's). */
const char *report_process_name(const struct report *r, uint32_t t);
const char *report_flame_process(void *ctx, uint32_t tgid, char *buf, size_t len);

/* "process/thread" of thread @t: its name across runs, where pids differ
 * (diff matches thread groups by it). */
const char *report_thread_key(const struct report *r, uint32_t t, char *buf, size_t len);

/* "comm (pid)" of thread @t, "swapper" for the idle task, escaped for text. */
const char *report_thread_label(const struct report *r, uint32_t t, char *buf, size_t len);

/* The event type (ev->type) counted at index @i of by_type[]. */
unsigned int report_event_type(unsigned int i);

/* "func" for a kernel address (work functions, IPI callbacks), or "0x...". */
const char *report_ksym(const struct report *r, uint64_t addr, char *buf, size_t len);

/* Whether the window's figure of CPU @cpu is shown (-C, and known time). */
int report_cpu_shown(const struct report *r, uint32_t cpu);

/* Whether thread @t is selected (-p, --comm); the idle task never is. */
static inline int report_thread_selected(const struct report *r, uint32_t t)
{
	return t < r->model->sched.nr_threads && r->thread_selected[t];
}

/* Whether a pair of threads has one selected (pairs of any two thread ids). */
static inline int report_pair_selected(const struct report *r, uint32_t a, uint32_t b)
{
	return report_thread_selected(r, a) || report_thread_selected(r, b);
}

/* Sorted thread indexes: the selected threads with any known time, by @cmp. */
uint32_t *report_threads_sorted(const struct report *r, uint32_t *n,
				int (*cmp)(const struct report *r, uint32_t a, uint32_t b));

/* The selected processes with threads, by @cmp (NULL: as the model has them). */
uint32_t *report_processes_sorted(const struct report *r, uint32_t *n,
				  int (*cmp)(const struct report *r, uint32_t a, uint32_t b));

#endif
