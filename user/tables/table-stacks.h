/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stacks a capture's rows name (samples, off-CPU switches, probe
 * hits), each distinct one once: a stack_id, whose frames go to the
 * stack_frames table when it is first seen. Distinct means the same
 * frames, and for user frames the same process: the same addresses in
 * two processes may be two functions.
 */
#ifndef KTPROF_TABLE_STACKS_H
#define KTPROF_TABLE_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "util/u64-map.h"

struct table_stack {
	uint64_t hash;
	uint32_t tgid;		/* for user frames; 0 without them */
	uint16_t nr_kernel, nr_user;
	size_t off;		/* its frames in the pool */
	uint32_t next;		/* the next stack of the same hash, + 1 */
};

struct table_stacks {
	struct table_stack *v;
	uint32_t n, cap;
	uint64_t *pool;
	size_t nr_pool, cap_pool;
	struct u64_map by_hash;	/* hash -> first stack + 1 */
};

void table_stacks_init(struct table_stacks *t);
void table_stacks_fini(struct table_stacks *t);

/*
 * The id of the stack @frames (@nr_kernel kernel frames, leaf first, then
 * @nr_user user frames) of process @tgid: *@is_new 1 when first seen.
 * 0 or -ENOMEM.
 */
int table_stacks_intern(struct table_stacks *t, const uint64_t *frames, uint16_t nr_kernel,
			uint16_t nr_user, uint32_t tgid, uint32_t *id, int *is_new);

#endif
