// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "decode/record.h"
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
		CHECK_STR(record_state_str(cases[i].state, buf, sizeof(buf)), cases[i].want);
}

UNIT_TEST(priorities)
{
	CHECK_EQ(record_prio(120), 120);
	CHECK_EQ(record_prio(0), 0);
	CHECK_EQ(record_prio(KTP_PRIO_DL), -1);
}

/* An IPI record with @nwords bitmap words, as the decoder hands it over. */
static const char *targets(const uint64_t *words, unsigned int nwords, char *buf,
			   size_t len)
{
	static uint8_t rec[sizeof(struct ktp_ipi) + 8 * 4];
	struct event ev = { .type = KTP_REC_IPI_SEND, .flags = nwords, .rec = rec };

	memcpy(rec + sizeof(struct ktp_ipi), words, 8 * nwords);
	return record_ipi_targets(&ev, buf, len);
}

UNIT_TEST(ipi_target_lists)
{
	uint64_t w[4] = { 0 };
	char buf[64], tiny[8];

	w[0] = 0x4f;	/* 0-3, 6 */
	CHECK_STR(targets(w, 1, buf, sizeof(buf)), "0-3,6");
	w[0] = 1ull << 63;
	w[1] = 0x3;	/* a run across a word boundary */
	w[3] = 1ull << 63;
	CHECK_STR(targets(w, 4, buf, sizeof(buf)), "63-65,255");
	w[0] = 0x5555;	/* 0,2,4,...,14 does not fit in 8 bytes */
	CHECK_STR(targets(w, 1, tiny, sizeof(tiny)), "0,2,...");
	memset(w, 0, sizeof(w));
	CHECK_STR(targets(w, 2, buf, sizeof(buf)), "");
	CHECK_STR(targets(w, 1, tiny, 3), "");
}

UNIT_MAIN()
