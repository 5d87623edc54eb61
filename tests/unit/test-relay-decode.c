// SPDX-License-Identifier: GPL-2.0
#include "decode/relay-decode.h"
#include "decode/stream-writer.h"
#include "unit.h"

#define MAX_EVENTS 4096

struct decoded {
	struct event ev[MAX_EVENTS];
	uint64_t seqs[MAX_EVENTS];	/* selftest seq, or pid fields */
	unsigned int n;
	struct relay_decoder_stats stats;
};

/* Decode @len bytes fed @chunk at a time (0: all at once). */
static void decode(const void *buf, size_t len, size_t chunk, int cpu,
		   struct decoded *out)
{
	struct relay_decoder *d = relay_decoder_new(cpu);
	const uint8_t *p = buf;
	size_t off = 0;
	struct event ev;

	memset(out, 0, sizeof(*out));
	if (!chunk)
		chunk = len ? len : 1;
	for (;;) {
		while (relay_decoder_next(d, &ev) == 1 && out->n < MAX_EVENTS) {
			out->ev[out->n] = ev;
			if (ev.type == KTP_REC_SELFTEST) {
				struct ktp_selftest s;

				memcpy(&s, ev.rec, sizeof(s));
				out->seqs[out->n] = s.seq;
			}
			out->ev[out->n].rec = NULL;	/* not valid later */
			out->n++;
		}
		if (off >= len) {
			relay_decoder_set_eof(d);
			while (relay_decoder_next(d, &ev) == 1 && out->n < MAX_EVENTS) {
				out->ev[out->n] = ev;
				out->ev[out->n].rec = NULL;
				out->n++;
			}
			break;
		}
		relay_decoder_feed(d, p + off, off + chunk > len ? len - off : chunk);
		off += chunk;
	}
	out->stats = *relay_decoder_stats(d);
	relay_decoder_free(d);
}

static unsigned int count_type(const struct decoded *o, unsigned int type)
{
	unsigned int i, n = 0;

	for (i = 0; i < o->n; i++)
		n += o->ev[i].type == type;
	return n;
}

static uint64_t sum_lost(const struct decoded *o, unsigned int type)
{
	unsigned int i;
	uint64_t n = 0;

	for (i = 0; i < o->n; i++)
		if (o->ev[i].type == type)
			n += o->ev[i].lost;
	return n;
}

static struct decoded out, out2;

UNIT_TEST(basic_records_and_times)
{
	struct stream_writer w;

	stream_writer_init(&w, 3, 0, 1000);
	stream_writer_cpu_mark(&w, 1000, KTP_CPU_START, 42);
	stream_writer_switch(&w, 1500, 42, KTP_STATE_INTERRUPTIBLE, 0);
	stream_writer_waking(&w, 2000, 42, 3);
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.n, 4);
	CHECK_EQ(out.ev[0].type, KTP_REC_SUBBUF);
	CHECK_EQ(out.ev[1].type, KTP_REC_CPU);
	CHECK_EQ(out.ev[2].type, KTP_REC_SWITCH);
	CHECK_EQ(out.ev[2].ts, 1500);
	CHECK_EQ(out.ev[3].ts, 2000);
	CHECK_EQ(out.ev[3].cpu, 3);
	CHECK_EQ(out.stats.garbage_bytes, 0);
	CHECK_EQ(out.stats.truncated, 0);
	stream_writer_fini(&w);
}

UNIT_TEST(empty_stream)
{
	decode("", 0, 0, 0, &out);
	CHECK_EQ(out.n, 0);
	CHECK_EQ(out.stats.garbage_bytes, 0);
}

/* Any way of cutting the input into pieces decodes the same. */
UNIT_TEST(streaming_invariance)
{
	static const size_t chunks[] = { 1, 3, 7, 48, 4096 };
	struct stream_writer w;
	static uint64_t want[500];
	unsigned int i, j, k;
	uint64_t ts = 5;

	stream_writer_init(&w, 0, 256, ts);
	for (i = 0; i < 500; i++) {
		/* Some gaps need a TIME record (> 4.29 s). */
		ts += (i % 97 == 0) ? 5000000000ull : 10 + i;
		want[i] = ts;
		if (i % 3)
			stream_writer_selftest(&w, ts, i);
		else
			stream_writer_switch(&w, ts, i, 0, i + 1);
	}
	decode(w.buf, w.len, 0, 0, &out);
	CHECK(count_type(&out, KTP_REC_TIME) > 0);
	for (i = 0, j = 0; i < out.n; i++) {
		if (out.ev[i].type != KTP_REC_SELFTEST &&
		    out.ev[i].type != KTP_REC_SWITCH)
			continue;
		if (j < 500 && out.ev[i].ts != want[j])
			UNIT_FAIL("record %u at %llu, want %llu", j,
				  (unsigned long long)out.ev[i].ts,
				  (unsigned long long)want[j]);
		j++;
	}
	CHECK_EQ(j, 500);
	for (k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
		decode(w.buf, w.len, chunks[k], 0, &out2);
		CHECK_EQ(out2.n, out.n);
		for (i = 0; i < out.n && i < out2.n; i++) {
			if (out.ev[i].ts != out2.ev[i].ts ||
			    out.ev[i].type != out2.ev[i].type ||
			    out.seqs[i] != out2.seqs[i]) {
				UNIT_FAIL("chunk %zu: event %u differs", chunks[k], i);
				break;
			}
		}
	}
	stream_writer_fini(&w);
}

/* Junk before the first header (any alignment) is skipped and reported. */
UNIT_TEST(garbage_prefix)
{
	struct stream_writer w;
	static const char junk[13] = "not a stream";

	stream_writer_init(&w, 1, 0, 10);
	stream_writer_bytes(&w, junk, sizeof(junk));
	stream_writer_selftest(&w, 20, 0);
	stream_writer_selftest(&w, 30, 1);
	decode(w.buf, w.len, 5, 1, &out);
	CHECK_EQ(out.n, 4);
	CHECK_EQ(out.ev[0].type, EVENT_GARBAGE);
	CHECK_EQ(out.ev[0].lost, 13);
	CHECK_EQ(count_type(&out, KTP_REC_SELFTEST), 2);
	CHECK_EQ(out.stats.garbage_bytes, 13);
	stream_writer_fini(&w);
}

/* A record cut at the end is truncation, not garbage. */
UNIT_TEST(truncated_tail)
{
	struct stream_writer w;

	stream_writer_init(&w, 0, 0, 10);
	stream_writer_selftest(&w, 20, 0);
	stream_writer_selftest(&w, 30, 1);
	decode(w.buf, w.len - 5, 0, 0, &out);
	CHECK_EQ(count_type(&out, KTP_REC_SELFTEST), 1);
	CHECK_EQ(out.stats.truncated, 11);
	CHECK_EQ(out.stats.garbage_bytes, 0);
	stream_writer_fini(&w);
}

/* Drops reported by a later header become a LOST event before it. */
UNIT_TEST(loss_between_subbufs)
{
	struct stream_writer w;
	unsigned int i, lost_at = 0;

	stream_writer_init(&w, 0, 48 + 16 * 4, 0);
	for (i = 0; i < 4; i++)
		stream_writer_selftest(&w, 10 + i, i);
	stream_writer_drop(&w, 37);
	for (i = 4; i < 8; i++)
		stream_writer_selftest(&w, 100 + i, i);
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(count_type(&out, KTP_REC_SELFTEST), 8);
	CHECK_EQ(count_type(&out, EVENT_LOST), 1);
	CHECK_EQ(sum_lost(&out, EVENT_LOST), 37);
	CHECK_EQ(out.stats.lost, 37);
	for (i = 0; i < out.n; i++)
		if (out.ev[i].type == EVENT_LOST)
			lost_at = i;
	CHECK_EQ(out.ev[lost_at + 1].type, KTP_REC_SUBBUF);
	CHECK_EQ(out.ev[lost_at].ts, 104);
	stream_writer_fini(&w);
}

/* Drops after the last header are reported by the STOP mark. */
UNIT_TEST(tail_loss_in_stop_mark)
{
	struct stream_writer w;

	stream_writer_init(&w, 0, 0, 0);
	stream_writer_selftest(&w, 10, 0);
	stream_writer_drop(&w, 5);
	stream_writer_cpu_mark(&w, 20, KTP_CPU_STOP, 1);
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(out.n, 4);
	CHECK_EQ(out.ev[2].type, EVENT_LOST);
	CHECK_EQ(out.ev[2].lost, 5);
	CHECK_EQ(out.ev[3].type, KTP_REC_CPU);
	CHECK_EQ(out.stats.lost, 5);
	stream_writer_fini(&w);
}

/* A damaged record: skip to the next sub-buffer, report what was skipped. */
UNIT_TEST(resync_after_damage)
{
	struct stream_writer w;
	struct ktp_hdr *h;
	unsigned int i;

	stream_writer_init(&w, 0, 48 + 16 * 4, 0);
	for (i = 0; i < 12; i++)
		stream_writer_selftest(&w, 10 + i, i);
	/* Second sub-buffer, second record: a size no record can have. */
	h = (struct ktp_hdr *)(w.buf + (48 + 64) + 48 + 16);
	h->size = 6;
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(out.stats.resyncs, 1);
	CHECK_EQ(out.stats.garbage_bytes, 48);
	CHECK_EQ(count_type(&out, KTP_REC_SELFTEST), 9);
	CHECK_EQ(count_type(&out, EVENT_GARBAGE), 1);
	CHECK_EQ(out.stats.subbufs, 3);
	stream_writer_fini(&w);
}

/*
 * Unknown record types (a newer minor ABI) are passed through by size;
 * from KTP_REC_SHORT up they are short records, which must be known.
 */
UNIT_TEST(unknown_type_skipped_by_size)
{
	struct stream_writer w;
	uint8_t rec[12] = { 0 };

	stream_writer_init(&w, 0, 0, 0);
	stream_writer_record(&w, rec, KTP_REC_SHORT - 1, 0, sizeof(rec), 5);
	stream_writer_selftest(&w, 6, 9);
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(out.n, 3);
	CHECK_EQ(out.ev[1].type, KTP_REC_SHORT - 1);
	CHECK_EQ(out.ev[1].size, 12);
	CHECK_EQ(out.seqs[2], 9);
	CHECK_EQ(out.stats.unknown, 1);
	stream_writer_fini(&w);
}

/* Another CPU's data in this CPU's stream is not trusted. */
UNIT_TEST(foreign_cpu_is_garbage)
{
	struct stream_writer w;

	stream_writer_init(&w, 1, 0, 0);
	stream_writer_selftest(&w, 5, 0);
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(count_type(&out, KTP_REC_SELFTEST), 0);
	CHECK_EQ(out.stats.garbage_bytes, w.len);
	stream_writer_fini(&w);
}

/* Sequence gaps (overwritten sub-buffers) are counted. */
UNIT_TEST(subbuf_sequence_gap)
{
	struct stream_writer w;
	unsigned int i;

	stream_writer_init(&w, 0, 48 + 16 * 2, 0);
	for (i = 0; i < 4; i++) {
		if (i == 2)
			stream_writer_skip_subbufs(&w, 3);
		stream_writer_selftest(&w, 10 + i, i);
		stream_writer_selftest(&w, 10 + i, i);
	}
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(out.stats.lost_subbufs, 3);
	CHECK_EQ(count_type(&out, KTP_REC_SELFTEST), 8);
	stream_writer_fini(&w);
}

/* Variable records whose contents disagree with their size are damage. */
UNIT_TEST(exec_without_terminator)
{
	struct stream_writer w;
	uint8_t rec[sizeof(struct ktp_exec) + 8] = { 0 };

	memcpy(rec + sizeof(struct ktp_exec), "12345678", 8);
	stream_writer_init(&w, 0, 0, 0);
	stream_writer_record(&w, rec, KTP_REC_EXEC, 0, sizeof(rec), 5);
	stream_writer_selftest(&w, 6, 1);
	decode(w.buf, w.len, 0, 0, &out);
	CHECK_EQ(count_type(&out, KTP_REC_EXEC), 0);
	CHECK_EQ(out.stats.resyncs, 1);
	CHECK(out.stats.garbage_bytes > 0);
	stream_writer_fini(&w);
}

UNIT_MAIN()

/* A stream of CPU @cpu begun at 1000 ns: its header and START mark, in ns. */
static void start_stream(struct stream_writer *w, uint16_t cpu)
{
	stream_writer_init(w, cpu, 0, 1000);
	stream_writer_cpu_mark(w, 1000, KTP_CPU_START, 42);
}

/* A record of @type with a raw delta (cycles, after a CLOCK record). */
static void raw_record(struct stream_writer *w, uint8_t type, uint32_t delta, uint64_t seq)
{
	struct ktp_selftest s = {
		.h = { .type = type, .size = sizeof(s), .ts_delta = delta },
		.seq = seq,
	};

	stream_writer_bytes(w, &s, sizeof(s));
}

static void raw_clock(struct stream_writer *w, uint64_t ts, uint64_t cycles, uint32_t mult,
		      uint32_t shift)
{
	struct ktp_clock c = {
		.h = { .type = KTP_REC_CLOCK, .size = sizeof(c) },
		.ts = ts, .cycles = cycles, .mult = mult, .shift = shift,
	};

	stream_writer_bytes(w, &c, sizeof(c));
}

/*
 * Records stamped with a 2 GHz counter (mult 2^31, shift 32: half a ns a
 * cycle), times by hand: the CLOCK pair is (1,000,000 ns, 5,000,000).
 */
UNIT_TEST(cycles_known_answers)
{
	struct stream_writer w;

	start_stream(&w, 1);
	raw_clock(&w, 1000000, 5000000, 1u << 31, 32);
	raw_record(&w, KTP_REC_SELFTEST, 2000, 1);	/* 5,002,000: 1,001,000 */
	raw_record(&w, KTP_REC_SELFTEST, 3, 2);		/* 5,002,003: 1,001,001.5 */
	/* A pair behind the last time: times hold until they pass it. */
	raw_clock(&w, 1000500, 5002003, 1u << 31, 32);
	raw_record(&w, KTP_REC_SELFTEST, 400, 3);	/* 1,000,700: held at 1,001,001 */
	raw_record(&w, KTP_REC_SELFTEST, 1000, 4);	/* 1,001,200 */
	/* A counter found unstable: ns from 3,000,000. */
	raw_clock(&w, 3000000, 0, 0, 0);
	raw_record(&w, KTP_REC_SELFTEST, 7, 5);		/* 3,000,007 */
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.n, 10);
	CHECK_EQ(out.ev[2].type, KTP_REC_CLOCK);
	CHECK_EQ(out.ev[2].ts, 1000000);
	CHECK_EQ(out.ev[3].ts, 1001000);
	CHECK_EQ(out.ev[4].ts, 1001001);
	CHECK_EQ(out.ev[5].ts, 1001001);
	CHECK_EQ(out.ev[6].ts, 1001001);
	CHECK_EQ(out.ev[7].ts, 1001200);
	CHECK_EQ(out.ev[9].ts, 3000007);
	CHECK_EQ(out.stats.garbage_bytes, 0);
	stream_writer_fini(&w);
}

/* A sub-buffer header ends the counter's stamps: its deltas are ns again. */
UNIT_TEST(cycles_end_at_subbuf)
{
	struct stream_writer w;

	start_stream(&w, 0);
	raw_clock(&w, 1000000, 5000000, 1u << 31, 32);
	raw_record(&w, KTP_REC_SELFTEST, 4000, 1);
	w.ts = 2000000;
	stream_writer_subbuf(&w);			/* header at 2,000,000 */
	raw_record(&w, KTP_REC_SELFTEST, 500, 2);	/* ns: 2,000,500 */
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.n, 6);
	CHECK_EQ(out.ev[4].type, KTP_REC_SUBBUF);
	CHECK_EQ(out.ev[4].ts, 2000000);
	CHECK_EQ(out.ev[5].ts, 2000500);
	stream_writer_fini(&w);
}

/* Hostile CLOCK records: a shift past 32 is damage; a huge span saturates. */
UNIT_TEST(cycles_hostile)
{
	struct stream_writer w;
	unsigned int i;

	start_stream(&w, 0);
	raw_clock(&w, 1000000, 5000000, 1, 200);
	decode(w.buf, w.len, 0, -1, &out);
	CHECK(out.stats.resyncs == 1);
	CHECK_EQ(count_type(&out, KTP_REC_CLOCK), 0);
	stream_writer_fini(&w);

	start_stream(&w, 0);
	raw_clock(&w, UINT64_MAX - 10, 0, UINT32_MAX, 0);
	for (i = 0; i < 4; i++)
		raw_record(&w, KTP_REC_SELFTEST, UINT32_MAX, i);
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.n, 7);
	CHECK_EQ(out.ev[6].ts, UINT64_MAX);
	stream_writer_fini(&w);
}

/* The time of the @n-th event of @type. */
static uint64_t nth_ts(const struct decoded *o, unsigned int type, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < o->n; i++)
		if (o->ev[i].type == type && !n--)
			return o->ev[i].ts;
	return UINT64_MAX;
}

/* A short switch (12 bytes) by hand, and what it stands for. */
static void raw_short_switch(struct stream_writer *w, uint32_t delta, uint64_t bits)
{
	struct ktp_switch_short s = { .hdr = KTP_SREC_SWITCH | delta << 8, .bits = bits };

	stream_writer_bytes(w, &s, sizeof(s));
}

UNIT_TEST(short_switch_known_answers)
{
	struct stream_writer w;
	struct ktp_switch r;
	struct relay_decoder *d;
	struct event ev;
	int n = 0;

	start_stream(&w, 2);
	/* prev 4194303 (2^22 - 1), next 42, prios 139 and 0, state D (index 2) */
	raw_short_switch(&w, 500, 4194303ull | 42ull << 22 | 139ull << 44 | 0ull << 52 |
				  2ull << 60);
	/* preempted (R+, index 9) after 0xffffff ns */
	raw_short_switch(&w, 0xffffff, 42ull | 7ull << 22 | 120ull << 44 | 100ull << 52 |
				       9ull << 60);
	d = relay_decoder_new(-1);
	relay_decoder_feed(d, w.buf, w.len);
	relay_decoder_set_eof(d);
	while (relay_decoder_next(d, &ev) == 1) {
		if (ev.type != KTP_REC_SWITCH)
			continue;
		CHECK_EQ(ev.size, sizeof(r));
		memcpy(&r, ev.rec, sizeof(r));
		if (n++ == 0) {
			CHECK_EQ(ev.ts, 1500);
			CHECK_EQ(r.prev_pid, 4194303);
			CHECK_EQ(r.next_pid, 42);
			CHECK_EQ(r.prev_prio, 139);
			CHECK_EQ(r.next_prio, 0);
			CHECK_EQ(r.prev_state, KTP_STATE_UNINTERRUPTIBLE);
		} else {
			CHECK_EQ(ev.ts, 1500 + 0xffffff);
			CHECK_EQ(r.prev_pid, 42);
			CHECK_EQ(r.next_pid, 7);
			CHECK_EQ(r.prev_state, KTP_STATE_PREEMPTED);
			CHECK_EQ(r.next_prio, 100);
		}
	}
	CHECK_EQ(n, 2);
	CHECK_EQ(relay_decoder_stats(d)->garbage_bytes, 0);
	relay_decoder_free(d);
	stream_writer_fini(&w);
}

/* An unknown short type, a state index no writer makes, a cut record. */
UNIT_TEST(short_switch_hostile)
{
	struct stream_writer w;
	uint32_t unknown = (KTP_SREC_WAKING + 1) | 5u << 8;

	start_stream(&w, 0);
	stream_writer_bytes(&w, &unknown, sizeof(unknown));
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.stats.resyncs, 1);
	CHECK_EQ(count_type(&out, KTP_REC_SWITCH), 0);
	stream_writer_fini(&w);

	start_stream(&w, 0);
	raw_short_switch(&w, 5, 1ull | 2ull << 22 | 10ull << 60);
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.stats.resyncs, 1);
	CHECK_EQ(count_type(&out, KTP_REC_SWITCH), 0);
	stream_writer_fini(&w);

	/* A short waking with bits past the new flag set. */
	start_stream(&w, 0);
	{
		struct ktp_waking_short k = { .hdr = KTP_SREC_WAKING | 5u << 8,
					      .bits = 7ull | 1ull << 47 };

		stream_writer_bytes(&w, &k, sizeof(k));
	}
	decode(w.buf, w.len, 0, -1, &out);
	CHECK_EQ(out.stats.resyncs, 1);
	CHECK_EQ(count_type(&out, KTP_REC_WAKING), 0);
	stream_writer_fini(&w);

	start_stream(&w, 0);
	raw_short_switch(&w, 5, 1ull | 2ull << 22);
	decode(w.buf, w.len - 4, 0, -1, &out);
	CHECK_EQ(out.stats.truncated, 8);
	CHECK_EQ(count_type(&out, KTP_REC_SWITCH), 0);
	stream_writer_fini(&w);
}

/* The generator's short switches are the full ones they replace. */
UNIT_TEST(short_switch_writer_round_trip)
{
	struct stream_writer a, b;
	unsigned int i;

	stream_writer_init(&a, 0, 4096, 1000);
	stream_writer_init(&b, 0, 4096, 1000);
	stream_writer_use_cycles(&b);
	for (i = 0; i < 300; i++) {
		uint16_t state = i % 11 == 10 ? 0x3 : (i % 11 ? 1u << (i % 11 - 1) : 0);

		stream_writer_switch(&a, 2000 + i * 7919ull, i * 13, state, i * 17 + 1);
		stream_writer_switch(&b, 2000 + i * 7919ull, i * 13, state, i * 17 + 1);
	}
	CHECK(b.len < a.len);
	decode(a.buf, a.len, 0, -1, &out);
	decode(b.buf, b.len, 0, -1, &out2);
	CHECK_EQ(count_type(&out, KTP_REC_SWITCH), 300);
	CHECK_EQ(count_type(&out2, KTP_REC_SWITCH), 300);
	/* Each switch at the same time (the states that have no index, 0x3, stay full). */
	for (i = 0; i < 300; i++)
		CHECK_EQ(nth_ts(&out2, KTP_REC_SWITCH, i), nth_ts(&out, KTP_REC_SWITCH, i));
	stream_writer_fini(&a);
	stream_writer_fini(&b);
}
