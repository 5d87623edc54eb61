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
#include "decode/task-table.h"
#include "symbols/symbolizer.h"

struct profile;

struct profile_row {
	const char *symbol;
	uint64_t self, total;
};

/* @source: the sample source to count (-1: all); @pid: a tgid or 0 for all. */
struct profile *profile_new(struct symbolizer *sym, const struct task_table *tasks,
			    int source, uint32_t pid);
void profile_free(struct profile *p);

/*
 * Count only samples of these processes, or of processes whose leader is
 * named @comm (the arrays must outlive @p).
 */
void profile_select(struct profile *p, const uint32_t *pids, unsigned int nr_pids,
		    const char *comm);

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

/* Folded stacks, "comm;root;...;leaf N" per line, sorted. */
void profile_write_folded(const struct profile *p, FILE *out);

#endif
