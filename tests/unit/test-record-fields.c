// SPDX-License-Identifier: GPL-2.0
#include "record-fields.h"
#include "unit.h"

UNIT_TEST(prev_state_strings)
{
	static const struct {
		uint16_t state;
		const char *want;
	} cases[] = {
		{ 0, "R" },
		{ KTP_STATE_PREEMPTED, "R+" },
		{ KTP_STATE_INTERRUPTIBLE, "S" },
		{ KTP_STATE_UNINTERRUPTIBLE, "D" },
		{ KTP_STATE_IDLE, "I" },
		{ KTP_STATE_EXIT_ZOMBIE, "Z" },
		{ KTP_STATE_UNINTERRUPTIBLE | KTP_STATE_INTERRUPTIBLE, "S|D" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_STR(ktp_state_str(cases[i].state, buf, sizeof(buf)), cases[i].want);
}

UNIT_TEST(priorities)
{
	CHECK_EQ(ktp_prio_value(120), 120);
	CHECK_EQ(ktp_prio_value(0), 0);
	CHECK_EQ(ktp_prio_value(KTP_PRIO_DL), -1);
}

UNIT_MAIN()
