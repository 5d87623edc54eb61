/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU profile: samples aggregated by stack, per process, with each
 * symbol's self samples (leaf) and total samples (anywhere in the stack,
 * once per sample). Memory grows with distinct stacks, not with samples.
 */
#ifndef KTPROF_PROFILE_H
#define KTPROF_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "decode/relay-decode.h"
#include "model/task-table.h"
#include "report/flame.h"
#include "symbols/symbolizer.h"

struct profile;

struct profile_row {
	const char *symbol;
	uint64_t self, total;
};

/* @source: the sample source to count (-1: all). */
struct profile *profile_new(struct symbolizer *sym, const struct task_table *tasks,
			    int source);
void profile_free(struct profile *p);

/* Count only the samples (of thread @tid in thread group @tgid) @selected says yes to. */
void profile_select(struct profile *p,
		    int (*selected)(const void *ctx, uint32_t tgid, uint32_t tid),
		    const void *ctx);

/* Count a SAMPLE event (others are ignored). 0 or -ENOMEM. */
int profile_on_event(struct profile *p, const struct event *ev);

uint64_t profile_samples(const struct profile *p);

/* The processes seen, most samples first: *pids and *samples malloc'ed. */
unsigned int profile_processes(const struct profile *p, uint32_t **pids,
			       uint64_t **samples);

/* Symbols of process @tgid (-1: all), by self then total; malloc'ed. */
unsigned int profile_rows(const struct profile *p, int64_t tgid,
			  struct profile_row **rows);

/*
 * Each distinct stack once, in no order: its process, its frames root
 * first, its sample count. @fn returns 0, or an error to stop the walk.
 */
typedef int (*profile_stack_fn)(void *ctx, uint32_t tgid, const char *const *frames,
				uint32_t n, uint64_t count);
int profile_walk(const struct profile *p, profile_stack_fn fn, void *ctx);

/* The stacks into flame graph @t (report/flame.h), weighed by samples. 0, -ENOMEM. */
int profile_tree(const struct profile *p, struct flame *t);

/* Folded stacks, "comm;root;...;leaf N" per line, sorted. */
void profile_write_folded(const struct profile *p, FILE *out);

#endif
