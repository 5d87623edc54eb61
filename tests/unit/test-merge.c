// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "decode/merge.h"
#include "decode/stream-writer.h"
#include "unit.h"

struct mem_stream {
	const uint8_t *p;
	size_t len, off, step;
};

/* Small reads, to exercise refills between events. */
static ssize_t mem_read(void *ctx, void *buf, size_t len)
{
	struct mem_stream *s = ctx;
	size_t n = s->len - s->off;

	if (n > len)
		n = len;
	if (n > s->step)
		n = s->step;
	memcpy(buf, s->p + s->off, n);
	s->off += n;
	return n;
}

UNIT_TEST(global_time_order)
{
	struct stream_writer w[3];
	struct mem_stream ms[3];
	struct merge *m = merge_new();
	struct event ev;
	uint64_t last_ts = 0, seen = 0, per_cpu_next[3] = { 0 };
	unsigned int c, i;

	for (c = 0; c < 3; c++) {
		stream_writer_init(&w[c], c, 48 + 16 * 5, 0);
		for (i = 0; i < 200; i++)
			/* Interleaved, with ties across CPUs every 7th. */
			stream_writer_selftest(&w[c], i % 7 ? 10 * i + c : 10 * i, i);
		ms[c] = (struct mem_stream){ w[c].buf, w[c].len, 0, 37 + c };
		CHECK_EQ(merge_add(m, c, mem_read, &ms[c]), 0);
	}
	while (merge_next(m, &ev) == 1) {
		struct ktp_selftest s;

		if (ev.ts < last_ts)
			UNIT_FAIL("time went back: %llu after %llu",
				  (unsigned long long)ev.ts,
				  (unsigned long long)last_ts);
		last_ts = ev.ts;
		if (ev.type != KTP_REC_SELFTEST)
			continue;
		memcpy(&s, ev.rec, sizeof(s));
		/* Each CPU's own order is kept. */
		if (s.seq != per_cpu_next[ev.cpu])
			UNIT_FAIL("cpu %u: seq %llu, want %llu", ev.cpu,
				  (unsigned long long)s.seq,
				  (unsigned long long)per_cpu_next[ev.cpu]);
		per_cpu_next[ev.cpu] = s.seq + 1;
		seen++;
	}
	CHECK_EQ(seen, 600);
	merge_free(m);
	for (c = 0; c < 3; c++)
		stream_writer_fini(&w[c]);
}

UNIT_TEST(ties_ordered_by_cpu)
{
	struct stream_writer w[2];
	struct mem_stream ms[2];
	struct merge *m = merge_new();
	struct event ev;
	unsigned int c, last_cpu = 0;
	uint64_t last_ts = 0;

	for (c = 0; c < 2; c++) {
		stream_writer_init(&w[c], 1 - c, 0, 100);
		stream_writer_selftest(&w[c], 100, 0);
		ms[c] = (struct mem_stream){ w[c].buf, w[c].len, 0, 4096 };
		merge_add(m, 1 - c, mem_read, &ms[c]);
	}
	while (merge_next(m, &ev) == 1) {
		if (ev.ts == last_ts && ev.cpu < last_cpu)
			UNIT_FAIL("cpu %u after cpu %u at the same time", ev.cpu,
				  last_cpu);
		last_ts = ev.ts;
		last_cpu = ev.cpu;
	}
	merge_free(m);
	for (c = 0; c < 2; c++)
		stream_writer_fini(&w[c]);
}

static ssize_t failing_read(void *ctx, void *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return -EIO;
}

UNIT_TEST(read_error_is_returned)
{
	struct merge *m = merge_new();
	struct event ev;

	merge_add(m, 0, failing_read, NULL);
	CHECK_EQ(merge_next(m, &ev), -EIO);
	merge_free(m);
}

UNIT_MAIN()
