// SPDX-License-Identifier: GPL-2.0
/*
 * The stack table: STACK records by (CPU, id), each distinct stack once
 * (the same frames on two CPUs are one stack; kernel/user splits apart),
 * the same record written again (overwrite mode) harmless, and an id
 * defined twice differently, an id 0 or an unknown id resolving to
 * nothing.
 */
#include "model/stack-table.h"
#include "unit.h"

/* A STACK event of @cpu: id @id, @nk kernel then @nu user frames. */
static struct event stack_event(uint8_t *buf, uint32_t cpu, uint32_t id, const uint64_t *ips,
				unsigned int nk, unsigned int nu)
{
	struct ktp_stack r = { .h = { .type = KTP_REC_STACK }, .id = id, .nr_kernel = nk,
			       .nr_user = nu };
	struct event ev = { .cpu = cpu, .type = KTP_REC_STACK, .rec = buf };

	r.h.size = sizeof(r) + 8 * (nk + nu);
	ev.size = r.h.size;
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), ips, 8 * (nk + nu));
	return ev;
}

UNIT_TEST(known_answers)
{
	static const uint64_t a[] = { 0xffffffff81000010, 0xffffffff81000020, 0x401000 };
	static const uint64_t b[] = { 0xffffffff81000010, 0xffffffff81000030 };
	uint8_t buf[256];
	struct stack_table t;
	struct event ev;
	uint32_t s0, s1;

	stack_table_init(&t);
	ev = stack_event(buf, 0, 1, a, 2, 1);
	CHECK_EQ(stack_table_add(&t, &ev), 0);
	ev = stack_event(buf, 1, 5, a, 2, 1);
	CHECK_EQ(stack_table_add(&t, &ev), 0);
	s0 = stack_table_find(&t, 0, 1);
	s1 = stack_table_find(&t, 1, 5);
	/* One stack under two CPUs' ids. */
	CHECK(s0 != STACK_NONE);
	CHECK_EQ(s0, s1);
	CHECK_EQ(t.n, 1);
	CHECK_EQ(stack_table_get(&t, s0)->nr_kernel, 2);
	CHECK_EQ(stack_table_get(&t, s0)->nr_user, 1);
	CHECK_EQ(stack_table_frames(&t, s0)[2], 0x401000);
	/* The same frames split otherwise are another stack. */
	ev = stack_event(buf, 0, 2, a, 3, 0);
	CHECK_EQ(stack_table_add(&t, &ev), 0);
	CHECK(stack_table_find(&t, 0, 2) != s0);
	CHECK_EQ(t.n, 2);
	/* Written again, the same: no change. */
	ev = stack_event(buf, 0, 1, a, 2, 1);
	CHECK_EQ(stack_table_add(&t, &ev), 0);
	CHECK_EQ(stack_table_find(&t, 0, 1), s0);
	CHECK_EQ(t.conflicts, 0);
	/* Id 1 of CPU 0 again with other frames: neither, ever after. */
	ev = stack_event(buf, 0, 1, b, 2, 0);
	CHECK_EQ(stack_table_add(&t, &ev), 0);
	CHECK_EQ(stack_table_find(&t, 0, 1), STACK_NONE);
	CHECK_EQ(t.conflicts, 1);
	ev = stack_event(buf, 0, 1, a, 2, 1);
	CHECK_EQ(stack_table_add(&t, &ev), 0);
	CHECK_EQ(stack_table_find(&t, 0, 1), STACK_NONE);
	/* CPU 1's id 5 is untouched; unknown ids and id 0 are nothing. */
	CHECK_EQ(stack_table_find(&t, 1, 5), s0);
	CHECK_EQ(stack_table_find(&t, 1, 1), STACK_NONE);
	CHECK_EQ(stack_table_find(&t, 0, 0), STACK_NONE);
	stack_table_fini(&t);
}

UNIT_MAIN()
