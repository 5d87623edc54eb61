/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stacks a capture's switches and wakings name (-S offcpu, -S waker):
 * STACK records by their per-CPU id, and each distinct stack once, so that
 * the same stack taken on two CPUs (two ids) is one stack to its readers.
 * An id with no STACK record (lost, or overwritten) or with two different
 * ones (a damaged capture) resolves to nothing, never to another stack.
 */
#ifndef KTPROF_STACK_TABLE_H
#define KTPROF_STACK_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "decode/event.h"
#include "util/u64-map.h"

#define STACK_NONE UINT32_MAX

struct stack_entry {
	uint64_t hash;		/* of its frames */
	size_t off;		/* its frames: kernel (leaf first), then user */
	uint16_t nr_kernel, nr_user;
	uint8_t truncated;	/* a side was cut at KTP_MAX_FRAMES */
	uint32_t next;		/* the next stack of the same hash, + 1 */
};

struct stack_table {
	struct stack_entry *v;
	uint32_t n, cap;
	uint64_t *frames;
	size_t nr_frames, cap_frames;
	struct u64_map by_ref;	/* cpu << 32 | id -> stack + 1, or STACK_NONE */
	struct u64_map by_hash;	/* frames' hash -> first stack + 1 */
	uint64_t conflicts;	/* ids defined twice, differently */
};

void stack_table_init(struct stack_table *t);
void stack_table_fini(struct stack_table *t);

/* Take a STACK record. 0 or -ENOMEM. */
int stack_table_add(struct stack_table *t, const struct event *ev);

/* The stack that id @id of CPU @cpu names, or STACK_NONE. */
uint32_t stack_table_find(const struct stack_table *t, uint32_t cpu, uint32_t id);

static inline const struct stack_entry *stack_table_get(const struct stack_table *t,
							 uint32_t s)
{
	return &t->v[s];
}

static inline const uint64_t *stack_table_frames(const struct stack_table *t, uint32_t s)
{
	return t->frames + t->v[s].off;
}

#endif
