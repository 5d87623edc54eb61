// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
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

/* The string fields of a record, "key=value;" each, in @ctx. */
static void str_field(void *ctx, const char *key, const char *v)
{
	char *out = ctx;

	snprintf(out + strlen(out), 256 - strlen(out), "%s=%s;", key, v);
}

static void no_num(void *ctx, const char *key, uint64_t v)
{
	(void)ctx, (void)key, (void)v;
}

static void no_snum(void *ctx, const char *key, int64_t v)
{
	(void)ctx, (void)key, (void)v;
}

/* A FILE record's build id, and whether the module could read one. */
UNIT_TEST(file_build_id_fields)
{
	static const struct record_sink sink = {
		.u64 = no_num, .s64 = no_snum, .hex = no_num, .str = str_field,
	};
	uint8_t rec[sizeof(struct ktp_file) + 8] = { 0 };
	struct ktp_file *f = (struct ktp_file *)rec;
	struct event ev = { .type = KTP_REC_FILE, .rec = rec };
	char out[256] = "";

	f->build_id_len = 2;
	f->build_id[0] = 0xab;
	f->build_id[1] = 0x01;
	memcpy(rec + sizeof(*f), "/bin/x", 7);
	record_fields(&ev, &sink, out);
	CHECK_STR(out, "build_id=ab01;path=/bin/x;");
	/* Its headers not in the page cache: no build id read, and said. */
	f->build_id_len = 0;
	f->flags = KTP_FILE_UNCACHED;
	out[0] = '\0';
	record_fields(&ev, &sink, out);
	CHECK_STR(out, "build_id=;uncached=1;path=/bin/x;");
}
