// SPDX-License-Identifier: GPL-2.0
/*
 * The model's names for IRQs: device irqs and x86 system vectors
 * (KTP_IRQ_VECTOR_BASE + vector), named by the IRQ_NAME records of
 * tests/report/vectors.scn or not at all.
 */
#include <stdio.h>
#include <unistd.h>

#include "model/model.h"
#include "script-capture.h"
#include "unit.h"

static struct model *open_vectors(void)
{
	char cap[] = "/tmp/ktprof-unit-model.XXXXXX";
	struct model_config cfg = { .sched = 1 };
	struct error err = { 0 };
	struct model *m = NULL;
	int fd = mkstemp(cap);

	if (fd < 0)
		return NULL;
	close(fd);
	if (!script_capture_write("tests/report/vectors.scn", cap)) {
		m = model_open(cap, &cfg, &err);
		if (m && model_run(m, &err)) {
			model_close(m);
			m = NULL;
		}
	}
	unlink(cap);
	return m;
}

UNIT_TEST(irq_labels)
{
	static const struct {
		uint64_t irq;
		const char *name, *label;
	} cases[] = {
		{ 24, "virtio0", "irq 24 virtio0" },
		{ 25, NULL, "irq 25" },
		{ 0, NULL, "irq 0" },
		{ KTP_IRQ_VECTOR_BASE + 236, "timer", "irq timer" },
		{ KTP_IRQ_VECTOR_BASE + 251, NULL, "irq vector 251" },
		{ KTP_IRQ_VECTOR_BASE + 0, NULL, "irq vector 0" },
		/* Past the vectors: a number again. */
		{ KTP_IRQ_VECTOR_BASE + KTP_IRQ_NR_VECTORS, NULL, "irq 65792" },
		{ UINT32_MAX, NULL, "irq 4294967295" },
	};
	struct model *m = open_vectors();
	char buf[MODEL_IRQ_LABEL_MAX];
	unsigned int i;

	CHECK(m != NULL);
	if (!m)
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *name = model_irq_name(m, cases[i].irq);

		if (cases[i].name)
			CHECK_STR(name ? name : "(null)", cases[i].name);
		else
			CHECK(name == NULL);
		CHECK_STR(model_irq_label(m, cases[i].irq, buf, sizeof(buf)), cases[i].label);
	}
	model_close(m);
}

UNIT_TEST(irq_label_cut_to_the_buffer)
{
	struct model *m = open_vectors();
	char buf[8];

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK_STR(model_irq_label(m, 24, buf, sizeof(buf)), "irq 24 ");
	CHECK_STR(model_irq_label(m, KTP_IRQ_VECTOR_BASE + 236, buf, 5), "irq ");
	CHECK_STR(model_irq_label(m, KTP_IRQ_VECTOR_BASE + 251, buf, 3), "ir");
	CHECK_STR(model_irq_label(m, 123456, buf, sizeof(buf)), "irq 123");
	buf[0] = 'x';
	model_irq_label(m, 24, buf, 0);
	CHECK_EQ(buf[0], 'x');
	model_close(m);
}

UNIT_MAIN()

/* -S ...,user, as the metadata's stacks list spells it: one name of the list. */
UNIT_TEST(user_stacks_from_the_stacks_list)
{
	static const struct {
		const char *stacks;
		int user;
	} cases[] = {
		{ "offcpu,user", 1 }, { "user", 1 }, { "offcpu,waker,user", 1 },
		{ "user,offcpu", 1 }, { "offcpu,waker", 0 }, { "", 0 },
		{ "offcpu,users", 0 }, { "xuser,offcpu", 0 }, { "none", 0 },
	};
	static struct model m;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m.have_meta = 1;
		snprintf(m.meta.stacks, sizeof(m.meta.stacks), "%s", cases[i].stacks);
		CHECK_EQ(model_user_stacks(&m), cases[i].user);
	}
	m.have_meta = 0;
	snprintf(m.meta.stacks, sizeof(m.meta.stacks), "user");
	CHECK_EQ(model_user_stacks(&m), 0);
}
