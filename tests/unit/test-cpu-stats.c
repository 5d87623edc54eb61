// SPDX-License-Identifier: GPL-2.0
/*
 * The module's per-CPU counters as userspace meets them: the debugfs
 * "stats" text, the netlink attributes of GET_STATS and the capture's
 * Stats message. The keys and numbers spelled out here are the ones
 * modules, dump directories and captures already in the field use: they
 * are pinned so that no change to how the counters are declared moves them.
 */
#include <errno.h>
#include <unistd.h>

#include "capture/capture-meta.h"
#include "capture/capture-read.h"
#include "capture/cpu-stats.h"
#include "ktprof_abi.h"
#include "ktprof_capture.pb-c.h"
#include "unit.h"

/* Two CPUs of a 6.12 guest's stats file, as the module printed them. */
static const char text[] =
	"state=stopped\n"
	"session_id=14604530120498590578\n"
	"cpu=0 records=6050 bytes=248344 avg_bytes=41.04 subbufs=1 lost=7 nested=2 "
	"overwritten=3 samples=1608 throttled=4 unresolved=93 files_deferred=0\n"
	"cpu=0 dropped task=2 sched_switch=5\n"
	"cpu=1 records=3815 bytes=119196 avg_bytes=31.24 subbufs=2 lost=0 nested=0 "
	"overwritten=0 samples=1026 throttled=0 unresolved=11 files_deferred=1\n"
	"total records=9865 bytes=367540 avg_bytes=37.25 lost=7\n"
	"total written cpu=6 task=134 sched_switch=4406\n";

UNIT_TEST(parses_stats_text)
{
	struct cpu_stats *s;

	CHECK_EQ(cpu_stats_parse(text, &s), 2);
	CHECK_EQ(s[0].cpu, 0);
	CHECK_EQ(s[0].records, 6050);
	CHECK_EQ(s[0].bytes, 248344);
	CHECK_EQ(s[0].subbufs, 1);
	CHECK_EQ(s[0].lost, 7);
	CHECK_EQ(s[0].nested, 2);
	CHECK_EQ(s[0].overwritten, 3);
	CHECK_EQ(s[0].samples, 1608);
	CHECK_EQ(s[0].throttled, 4);
	CHECK_EQ(s[0].unresolved, 93);
	CHECK_EQ(s[0].files_deferred, 0);
	CHECK_EQ(s[0].dropped[KTP_REC_TASK], 2);
	CHECK_EQ(s[0].dropped[KTP_REC_SWITCH], 5);
	CHECK_EQ(s[1].cpu, 1);
	CHECK_EQ(s[1].records, 3815);
	CHECK_EQ(s[1].unresolved, 11);
	CHECK_EQ(s[1].files_deferred, 1);
	CHECK_EQ(s[1].dropped[KTP_REC_SWITCH], 0);
	free(s);
	CHECK_EQ(cpu_stats_parse("state=idle\n", &s), -EINVAL);
}

/* Every counter of the list, under its own key, whatever else the line holds. */
UNIT_TEST(parses_every_counter)
{
	char line[1024] = "cpu=3";
	struct cpu_stats *s;
	uint64_t v = 100;
	size_t n;

#define KEY(NAME, NR, name, help)					\
	n = strlen(line);						\
	snprintf(line + n, sizeof(line) - n, " %s=%" PRIu64, #name, v++);
	KTP_CPU_STATS(KEY)
#undef KEY
	n = strlen(line);
	snprintf(line + n, sizeof(line) - n, " avg_bytes=1.50 future=7\n");
	CHECK_EQ(cpu_stats_parse(line, &s), 1);
	CHECK_EQ(s[0].cpu, 3);
	v = 100;
#define SAME(NAME, NR, name, help) CHECK_EQ(s[0].name, v++);
	KTP_CPU_STATS(SAME)
#undef SAME
	free(s);
}

/* Attribute numbers of KTP_A_CPU_STATS: modules and recorders in the field. */
UNIT_TEST(netlink_attributes_keep_their_numbers)
{
	CHECK_EQ(KTP_CA_CPU, 1);
	CHECK_EQ(KTP_CA_RECORDS, 2);
	CHECK_EQ(KTP_CA_BYTES, 3);
	CHECK_EQ(KTP_CA_LOST, 4);
	CHECK_EQ(KTP_CA_SUBBUFS, 5);
	CHECK_EQ(KTP_CA_NESTED, 6);
	CHECK_EQ(KTP_CA_OVERWRITTEN, 7);
	CHECK_EQ(KTP_CA_DROPPED, 8);
	CHECK_EQ(KTP_CA_PAD, 9);
	CHECK_EQ(KTP_CA_SAMPLES, 10);
	CHECK_EQ(KTP_CA_THROTTLED, 11);
	CHECK_EQ(KTP_CA_UNRESOLVED, 12);
	CHECK_EQ(KTP_CA_FILES_DEFERRED, 13);
	CHECK_EQ(KTP_CA_STACK_CACHED, 14);
	CHECK_EQ(KTP_CA_STACK_MISMATCH, 15);
	CHECK_EQ(KTP_CA_MAX, 15);
}

/*
 * The attributes the counter list makes: each its own number (the switch
 * would not compile with one twice), all below __KTP_CA_MAX, and no gap.
 */
static int attribute_known(int a)
{
	switch (a) {
	case KTP_CA_UNSPEC:
	case KTP_CA_CPU:
	case KTP_CA_DROPPED:
	case KTP_CA_PAD:
#define CASE(NAME, NR, name, help) case KTP_CA_##NAME:
	KTP_CPU_STATS(CASE)
#undef CASE
		return 1;
	}
	return 0;
}

UNIT_TEST(counters_fill_the_attribute_space)
{
	int a, n = 0;

#define COUNT(NAME, NR, name, help) n++;
	KTP_CPU_STATS(COUNT)
#undef COUNT
	CHECK_EQ(__KTP_CA_MAX, 4 + n);
	for (a = 0; a < __KTP_CA_MAX; a++)
		if (!attribute_known(a))
			UNIT_FAIL("attribute %d is nobody's", a);
}

/* Field numbers of ktprof.CpuStats: captures written by every version. */
UNIT_TEST(capture_fields_keep_their_numbers)
{
	static const struct {
		const char *name;
		unsigned int id;
	} want[] = {
		{ "cpu", 1 }, { "records", 2 }, { "bytes", 3 }, { "lost", 4 },
		{ "subbufs", 5 }, { "nested", 6 }, { "overwritten", 7 },
		{ "samples", 8 }, { "throttled", 9 }, { "dropped", 10 },
		{ "bytes_read", 11 }, { "unresolved", 12 }, { "files_deferred", 13 },
		{ "stack_cached", 14 }, { "stack_mismatch", 15 },
	};
	const ProtobufCMessageDescriptor *d = &ktprof__cpu_stats__descriptor;
	size_t i;

	CHECK_EQ(d->n_fields, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const ProtobufCFieldDescriptor *f =
			protobuf_c_message_descriptor_get_field_by_name(d, want[i].name);

		if (!f) {
			UNIT_FAIL("no field %s", want[i].name);
			continue;
		}
		CHECK_EQ(f->id, want[i].id);
	}
}

/* A Stats section as every ktprof so far wrote it: one CPU, each value its field number. */
static const uint8_t old_stats[] = {
	0x0a, 28,	/* Stats.cpus (1, LEN): a CpuStats of 28 bytes */
	0x08, 1,	/* cpu (1) */
	0x10, 2,	/* records (2) */
	0x18, 3,	/* bytes (3) */
	0x20, 4,	/* lost (4) */
	0x28, 5,	/* subbufs (5) */
	0x30, 6,	/* nested (6) */
	0x38, 7,	/* overwritten (7) */
	0x40, 8,	/* samples (8) */
	0x48, 9,	/* throttled (9) */
	0x50, 10,	/* dropped (10), [0] */
	0x50, 11,	/* dropped (10), [1] */
	0x58, 11,	/* bytes_read (11): not a module counter */
	0x60, 12,	/* unresolved (12) */
	0x68, 13,	/* files_deferred (13) */
};

UNIT_TEST(reads_stats_of_old_captures)
{
	struct cpu_stats *s;

	CHECK_EQ(cpu_stats_unpack(old_stats, sizeof(old_stats), &s), 1);
	CHECK_EQ(s[0].cpu, 1);
	CHECK_EQ(s[0].records, 2);
	CHECK_EQ(s[0].bytes, 3);
	CHECK_EQ(s[0].lost, 4);
	CHECK_EQ(s[0].subbufs, 5);
	CHECK_EQ(s[0].nested, 6);
	CHECK_EQ(s[0].overwritten, 7);
	CHECK_EQ(s[0].samples, 8);
	CHECK_EQ(s[0].throttled, 9);
	CHECK_EQ(s[0].dropped[0], 10);
	CHECK_EQ(s[0].dropped[1], 11);
	CHECK_EQ(s[0].dropped[2], 0);
	CHECK_EQ(s[0].unresolved, 12);
	CHECK_EQ(s[0].files_deferred, 13);
	free(s);
	/* Before unresolved and files_deferred: their counts are 0. */
	{
		uint8_t older[sizeof(old_stats) - 4];

		memcpy(older, old_stats, sizeof(older));
		older[1] -= 4;
		CHECK_EQ(cpu_stats_unpack(older, sizeof(older), &s), 1);
		CHECK_EQ(s[0].throttled, 9);
		CHECK_EQ(s[0].unresolved, 0);
		CHECK_EQ(s[0].files_deferred, 0);
		free(s);
	}
	CHECK_EQ(cpu_stats_unpack("\x0a\x05\x08", 3, &s), -EBADMSG);
}

/* What the recorder and import store, a reader gets back: every counter. */
UNIT_TEST(stats_round_trip_through_a_capture)
{
	struct meta m = { .abi_major = KTP_ABI_MAJOR, .abi_minor = KTP_ABI_MINOR,
			  .kernel = "unit", .machine = "x86_64", .nr_cpus = 8 };
	struct capture_meta_info info = { .meta = &m, .recorder = "unit test" };
	char path[] = "/tmp/ktprof-unit-stats.XXXXXX";
	struct cpu_stats in[2] = { { .cpu = 0 }, { .cpu = 7 } }, *out = NULL;
	uint64_t v = 1000, bytes_read[2] = { 5, 6 };
	struct capture_writer *w;
	struct capture_reader *r;
	struct error err;
	unsigned int i;
	size_t len;
	void *buf;
	int fd;

	for (i = 0; i < 2; i++) {
#define SET(NAME, NR, name, help) in[i].name = v++;
		KTP_CPU_STATS(SET)
#undef SET
		in[i].dropped[KTP_REC_SWITCH] = v++;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	w = capture_writer_open(path, 0);
	CHECK(w);
	if (!w)
		return;
	CHECK_EQ(capture_meta_write(w, &info), 0);
	CHECK_EQ(capture_meta_write_stats(w, in, 2, bytes_read), 0);
	CHECK_EQ(capture_writer_close(w), 0);
	error_clear(&err);
	r = capture_reader_open(path, &err);
	unlink(path);
	CHECK(r);
	if (!r)
		return;
	buf = capture_reader_section(r, KTPC_STATS, &len);
	CHECK(buf);
	CHECK_EQ(buf ? cpu_stats_unpack(buf, len, &out) : -1, 2);
	for (i = 0; out && i < 2; i++) {
		CHECK_EQ(out[i].cpu, in[i].cpu);
#define SAME(NAME, NR, name, help) CHECK_EQ(out[i].name, in[i].name);
		KTP_CPU_STATS(SAME)
#undef SAME
		CHECK(!memcmp(out[i].dropped, in[i].dropped, sizeof(in[i].dropped)));
	}
	free(out);
	free(buf);
	capture_reader_close(r);
}

UNIT_MAIN()
