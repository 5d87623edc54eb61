/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One probe's hits by the stack they took (record --probe ... stack;
 * report --probes): each distinct stack of each process counted, so that
 * memory follows the stacks, not the hits; after the pass the most
 * frequent ones. A stack with user frames is its process's (the same
 * addresses mean other code elsewhere); a kernel stack is anyone's.
 */
#ifndef KTPROF_PROBE_STACKS_H
#define KTPROF_PROBE_STACKS_H

#include <stdint.h>

#include "model/stack-table.h"
#include "util/u64-map.h"

#define PROBE_STACKS_TOP 5	/* stacks listed, the rest summed */

struct probe_stack {
	uint32_t stack;		/* the model's stack */
	uint32_t tgid;		/* whose user frames they are; 0: kernel only */
	uint64_t count;
};

struct probe_stacks {
	struct u64_map counts;	/* tgid << 32 | stack -> hits */
	uint64_t with;		/* hits that carried a stack id */
	uint64_t lost;		/* of them, whose stack the capture lacks (its record lost) */
	struct probe_stack top[PROBE_STACKS_TOP];
	unsigned int ntop;
	uint64_t other;		/* hits of the stacks not in top[] */
};

void probe_stacks_init(struct probe_stacks *p);
void probe_stacks_fini(struct probe_stacks *p);

/* A hit with stack @stack (STACK_NONE: lost) of process @tgid. 0 or -ENOMEM. */
int probe_stacks_add(struct probe_stacks *p, const struct stack_table *t, uint32_t stack,
		     uint32_t tgid);

/* After the pass: top[] by hits, most first (equal: the smaller stack first). */
int probe_stacks_derive(struct probe_stacks *p);

#endif
