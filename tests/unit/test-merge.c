// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "decode/merge.h"
#include "decode/stream-writer.h"
#include "util/byte-queue.h"
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

/* Live inputs: byte queues filled between steps, and a watermark. */
struct live {
	struct stream_writer w[2];
	size_t end[2][8];		/* w[c].len after each event */
	size_t put[2];			/* bytes of w[c] queued so far */
	struct byte_queue q[2];
	struct merge *m;
};

/* Queue CPU @c's bytes up to the end of its event @i. */
static void live_feed(struct live *l, unsigned int c, unsigned int i)
{
	CHECK_EQ(byte_queue_put(&l->q[c], l->w[c].buf + l->put[c], l->end[c][i] - l->put[c]), 0);
	l->put[c] = l->end[c][i];
}

/* The timestamps merge_next() gives until it stops; its last return in *@ret. */
static unsigned int live_take(struct live *l, uint64_t *ts, unsigned int max, int *ret)
{
	struct event ev;
	unsigned int n = 0;

	while ((*ret = merge_next(l->m, &ev)) == 1)
		if (ev.type == KTP_REC_SELFTEST && n < max)
			ts[n++] = ev.ts;
	return n;
}

UNIT_TEST(live_inputs_wait_at_the_watermark)
{
	static const uint64_t at[2][4] = { { 10, 20, 30, 40 }, { 15, 25, 35, 45 } };
	struct live l;
	uint64_t ts[8];
	unsigned int c, i, n;
	int ret;

	memset(&l, 0, sizeof(l));
	l.m = merge_new();
	for (c = 0; c < 2; c++) {
		byte_queue_init(&l.q[c]);
		stream_writer_init(&l.w[c], c, 0, 1);
		for (i = 0; i < 4; i++) {
			stream_writer_selftest(&l.w[c], at[c][i], i);
			l.end[c][i] = l.w[c].len;
		}
		CHECK_EQ(merge_add(l.m, c, byte_queue_take, &l.q[c]), 0);
	}
	/* Nothing queued: every input waits. */
	merge_set_watermark(l.m, 5);
	CHECK_EQ(live_take(&l, ts, 8, &ret), 0);
	CHECK_EQ(ret, -EAGAIN);
	/* Every byte before 25 is in (and CPU 0's 30): 10, 15, 20, then CPU 1 waits. */
	live_feed(&l, 0, 2);
	live_feed(&l, 1, 0);
	merge_set_watermark(l.m, 25);
	n = live_take(&l, ts, 8, &ret);
	CHECK_EQ(ret, -EAGAIN);
	CHECK_EQ(n, 3);
	CHECK_EQ(ts[0], 10);
	CHECK_EQ(ts[1], 15);
	CHECK_EQ(ts[2], 20);
	/* CPU 1's 25 and 35 come: up to 40, 25 30 35; 40 is not in yet. */
	live_feed(&l, 1, 2);
	merge_set_watermark(l.m, 40);
	n = live_take(&l, ts, 8, &ret);
	CHECK_EQ(ret, -EAGAIN);
	CHECK_EQ(n, 3);
	CHECK_EQ(ts[0], 25);
	CHECK_EQ(ts[1], 30);
	CHECK_EQ(ts[2], 35);
	/* The rest, and the end once both are closed. */
	live_feed(&l, 0, 3);
	live_feed(&l, 1, 3);
	byte_queue_close(&l.q[0]);
	byte_queue_close(&l.q[1]);
	merge_set_watermark(l.m, UINT64_MAX);
	n = live_take(&l, ts, 8, &ret);
	CHECK_EQ(ret, 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(ts[0], 40);
	CHECK_EQ(ts[1], 45);
	merge_free(l.m);
	for (c = 0; c < 2; c++) {
		stream_writer_fini(&l.w[c]);
		byte_queue_fini(&l.q[c]);
	}
}

UNIT_TEST(byte_queue_order_and_end)
{
	struct byte_queue q;
	char big[100000], out[100000];
	size_t i, got = 0;
	ssize_t n;

	byte_queue_init(&q);
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7);
	CHECK_EQ(byte_queue_take(&q, out, 10), -EAGAIN);
	/* In pieces that make it grow and move, out in other pieces. */
	for (i = 0; i < sizeof(big); i += 999) {
		CHECK_EQ(byte_queue_put(&q, big + i, sizeof(big) - i < 999 ? sizeof(big) - i : 999), 0);
		n = byte_queue_take(&q, out + got, 500);
		CHECK(n > 0);
		got += n;
	}
	byte_queue_close(&q);
	CHECK_EQ(byte_queue_put(&q, big, 1), -EPIPE);
	while ((n = byte_queue_take(&q, out + got, 4096)) > 0)
		got += n;
	CHECK_EQ(n, 0);
	CHECK_EQ(got, sizeof(big));
	CHECK(!memcmp(big, out, sizeof(big)));
	byte_queue_fini(&q);
}

UNIT_MAIN()
