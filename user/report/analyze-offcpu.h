/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU time (report --offcpu): each thread's time asleep (S) and
 * blocked (D), by the stack it left its CPU with (-S offcpu) and by that
 * stack's blocking function. Definitions: docs/report.md, "Off-CPU".
 */
#ifndef KTPROF_ANALYZE_OFFCPU_H
#define KTPROF_ANALYZE_OFFCPU_H

#include <stdio.h>

#include "report/report.h"
#include "util/str-intern.h"
#include "util/u64-map.h"

enum offcpu_state { OFFCPU_S, OFFCPU_D };

/* Why a sleep has no stack (STACK_NONE). */
enum offcpu_why {
	OFFCPU_HAS_STACK,
	OFFCPU_BEFORE,		/* asleep since before the capture (or the window's data) */
	OFFCPU_NO_STACK,	/* its switch-out took none (not -S offcpu, -p/--comm) */
	OFFCPU_LOST,		/* its switch-out named a stack the capture lacks */
};

/* Time of one thread in one state, under one stack or one function. */
struct offcpu_row {
	uint32_t t;		/* thread */
	uint32_t stack;		/* model->stacks index, or STACK_NONE */
	uint32_t func;		/* the blocking function (funcs id) */
	uint8_t state;		/* enum offcpu_state */
	uint8_t why;		/* enum offcpu_why */
	uint64_t ns, count;	/* time in the window; sleeps that began there */
};

struct offcpu_rows {
	struct offcpu_row *v;
	uint32_t n, cap;
	struct u64_map index;	/* key -> row + 1 */
};

/* Time of one thread's sleeps in one stack that one waker ended from one stack. */
struct offcpu_wake {
	uint32_t t, stack;	/* the sleeper and its stack */
	uint32_t waker;		/* analyze_wakers_id() */
	uint32_t wstack;	/* the waker's stack, or STACK_NONE */
	uint64_t ns, count;
};

struct offcpu_wakes {
	struct offcpu_wake *v;
	uint32_t n, cap;
	struct u64_map index;	/* hash, probed -> wake + 1 */
};

struct offcpu_thread {
	uint32_t stack;		/* of its last switch-out */
	uint8_t why;		/* enum offcpu_why of that stack */
	uint8_t counted;	/* its current sleep is counted */
	uint8_t pend_count[2];	/* the current sleep began in the window, by state */
	uint64_t pend_ns[2];	/* the current sleep's time so far, by state */
	uint32_t waker;		/* of its last waking (analyze_wakers_id()) */
	uint8_t woken;		/* @waker is its current sleep's */
};

struct analyze_offcpu {
	struct report *r;
	struct offcpu_thread *threads;
	uint32_t n, cap;
	struct offcpu_rows by_stack, by_func;	/* by_func after the pass */
	struct offcpu_wakes wakes;		/* with -S waker */
	struct str_intern funcs;
	uint64_t switches_with_stack, missing;	/* switch-outs naming a stack,
						 * and of them with no STACK record */
	uint64_t wakings_with_stack;
	uint64_t ns[2];				/* all selected threads, by state */
};

const struct analyze_offcpu *analyze_offcpu(const struct report *r);

/*
 * Folded off-CPU stacks ("comm;user outermost;...;kernel leaf NS"),
 * weighted by nanoseconds, as flamegraph.pl and speedscope read them.
 */
void analyze_offcpu_write_folded(const struct report *r, FILE *out);

extern const struct analyzer analyzer_offcpu;

#endif
