// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/stream-writer.h"

/* @n zeroed bytes at the end of the stream, or NULL (w->err set). */
static void *grow(struct stream_writer *w, size_t n)
{
	uint8_t *buf;
	void *p;

	if (w->err)
		return NULL;
	if (n > SIZE_MAX / 2 - w->len) {
		w->err = -ENOMEM;
		return NULL;
	}
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;

		while (cap < w->len + n)
			cap *= 2;
		buf = realloc(w->buf, cap);
		if (!buf) {
			w->err = -ENOMEM;
			return NULL;
		}
		w->buf = buf;
		w->cap = cap;
	}
	p = w->buf + w->len;
	memset(p, 0, n);
	w->len += n;
	return p;
}

void stream_writer_init(struct stream_writer *w, uint16_t cpu, size_t subbuf_size,
			uint64_t start_ts)
{
	memset(w, 0, sizeof(*w));
	w->cpu = cpu;
	w->subbuf_size = subbuf_size;
	w->ts = start_ts;
	w->session_id = 0x5e5510;
}

void stream_writer_fini(struct stream_writer *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}

int stream_writer_error(const struct stream_writer *w)
{
	return w->err;
}

void stream_writer_use_cycles(struct stream_writer *w)
{
	w->cycles = 1;
	w->anchored = 0;
}

int stream_writer_subbuf(struct stream_writer *w)
{
	struct ktp_subbuf sb = {
		.h = { .type = KTP_REC_SUBBUF, .size = sizeof(sb) },
		.magic = KTP_SUBBUF_MAGIC,
		.cpu = w->cpu,
		.abi_major = KTP_ABI_MAJOR,
		.abi_minor = KTP_ABI_MINOR,
		.seq = w->seq,
		.lost = w->lost,
		.ts = w->ts,
		.session_id = w->session_id,
	};
	void *p = grow(w, sizeof(sb));

	if (!p)
		return w->err;
	w->seq++;
	memcpy(p, &sb, sizeof(sb));
	w->subbuf_used = sizeof(sb);
	w->anchored = 0;
	return 0;
}

/* Append the @size bytes at @rec, a record at @ts of the current sub-buffer. */
static int append(struct stream_writer *w, const void *rec, size_t size, uint64_t ts)
{
	void *p = grow(w, size);

	if (!p)
		return w->err;
	memcpy(p, rec, size);
	w->ts = ts;
	w->subbuf_used += size;
	w->records++;
	return 0;
}

/* The 2 GHz counter's reading at @ts: ns = cycles * 2^31 >> 32. */
#define CYCLES_MULT (1u << 31)
#define CYCLES_SHIFT 32

/* Does a record at @ts need a CLOCK record first (cycles mode)? */
static int needs_clock(const struct stream_writer *w, uint64_t ts)
{
	return !w->anchored || ts < w->ts ||
	       ts - w->anchor > (uint64_t)KTP_CLOCK_SPAN_US * 1000;
}

/* A CLOCK record at @ts; the deltas that follow count cycles from it. */
static int write_clock(struct stream_writer *w, uint64_t ts)
{
	struct ktp_clock c = {
		.h = { .type = KTP_REC_CLOCK, .size = sizeof(c) },
		.ts = ts,
		.cycles = 2 * ts,
		.mult = CYCLES_MULT,
		.shift = CYCLES_SHIFT,
	};

	w->anchor = ts;
	w->anchored = 1;
	return append(w, &c, sizeof(c), ts);
}

/* The time before the record at @ts, in ns or cycles: a TIME or CLOCK. */
static int write_stamp(struct stream_writer *w, uint64_t ts)
{
	if (w->cycles)
		return needs_clock(w, ts) ? write_clock(w, ts) : 0;
	/* A delta too large, or a time going back: an absolute TIME record. */
	if (ts - w->ts > UINT32_MAX) {
		struct ktp_time t = {
			.h = { .type = KTP_REC_TIME, .size = sizeof(t) },
			.ts = ts,
		};

		return append(w, &t, sizeof(t), ts);
	}
	return 0;
}

void stream_writer_drop(struct stream_writer *w, uint64_t n)
{
	w->lost += n;
}

void stream_writer_skip_subbufs(struct stream_writer *w, uint64_t n)
{
	w->seq += n;
}

/*
 * The short form of the switch at @rec (a struct ktp_switch without
 * counters or stack), as the module writes it: its word into @bits; 0 if
 * it has none.
 */
static int short_switch(const void *rec, uint8_t type, uint8_t flags, uint16_t size,
			uint64_t *bits)
{
	struct ktp_switch r;
	unsigned int state = 0;

	if (type != KTP_REC_SWITCH || flags || size != sizeof(r))
		return 0;
	memcpy(&r, rec, sizeof(r));
	if ((r.prev_pid | r.next_pid) >> KTP_SSW_PID_BITS ||
	    (r.prev_state & (r.prev_state - 1)) ||
	    r.prev_state > 1u << (KTP_SSW_STATE_MAX - 1))
		return 0;
	if (r.prev_state)
		state = __builtin_ctz(r.prev_state) + 1;
	*bits = (uint64_t)r.prev_pid | (uint64_t)r.next_pid << KTP_SSW_NEXT_PID_SHIFT |
		  (uint64_t)r.prev_prio << KTP_SSW_PREV_PRIO_SHIFT |
		  (uint64_t)r.next_prio << KTP_SSW_NEXT_PRIO_SHIFT |
		  (uint64_t)state << KTP_SSW_STATE_SHIFT;
	return 1;
}

/* The short form of the waking at @rec (without a stack): its word into @bits; 0 if none. */
static int short_waking(const void *rec, uint8_t type, uint8_t flags, uint16_t size,
			uint64_t *bits)
{
	struct ktp_waking r;

	if (type != KTP_REC_WAKING || (flags & ~KTP_WAKING_NEW) || size != sizeof(r))
		return 0;
	memcpy(&r, rec, sizeof(r));
	if (r.pid >> KTP_SSW_PID_BITS)
		return 0;
	*bits = (uint64_t)r.pid | (uint64_t)r.target_cpu << KTP_SWK_CPU_SHIFT |
		  (uint64_t)r.prio << KTP_SWK_PRIO_SHIFT |
		  (uint64_t)!!(flags & KTP_WAKING_NEW) << KTP_SWK_NEW_BIT;
	return 1;
}

/*
 * The short form of the record at @rec, where the module writes one
 * (cycles mode: as a module of ABI 1.8): its type, its word into @bits; 0
 * if none. (Both short types are a header and a 64-bit word.)
 */
static unsigned int short_form(const struct stream_writer *w, const void *rec, uint8_t type,
			       uint8_t flags, uint16_t size, uint64_t *bits)
{
	if (!w->cycles)
		return 0;
	if (short_switch(rec, type, flags, size, bits))
		return KTP_SREC_SWITCH;
	if (short_waking(rec, type, flags, size, bits))
		return KTP_SREC_WAKING;
	return 0;
}

int stream_writer_record(struct stream_writer *w, void *rec, uint8_t type, uint8_t flags,
			 uint16_t size, uint64_t ts)
{
	struct ktp_hdr h = { .type = type, .flags = flags, .size = size };
	struct ktp_switch_short s;	/* a short record, of either type */
	unsigned int stype;
	uint64_t bits;

	if (w->err)
		return w->err;
	if (size < sizeof(h))
		return -EINVAL;
	if (!w->subbuf_used ||
	    (w->subbuf_size && w->subbuf_used + size > w->subbuf_size)) {
		w->ts = ts;
		if (stream_writer_subbuf(w))
			return w->err;
	}
	if (write_stamp(w, ts))
		return w->err;
	h.ts_delta = w->cycles ? 2 * (ts - w->ts) : ts - w->ts;
	memcpy(rec, &h, sizeof(h));
	stype = short_form(w, rec, type, flags, size, &bits);
	if (stype) {
		s.hdr = stype | h.ts_delta << 8;
		s.bits = bits;
		rec = &s;
		size = sizeof(s);
	}
	return append(w, rec, size, ts);
}

int stream_writer_cpu_mark(struct stream_writer *w, uint64_t ts, uint16_t reason,
			   uint32_t pid)
{
	struct ktp_cpu_mark m = {
		.pid = pid, .reason = reason, .prio = 120,
		.records = w->records, .lost = w->lost,
	};

	return stream_writer_record(w, &m, KTP_REC_CPU, 0, sizeof(m), ts);
}

int stream_writer_task(struct stream_writer *w, uint64_t ts, uint32_t pid,
		       uint32_t tgid, const char *comm)
{
	struct ktp_task t = { .pid = pid, .tgid = tgid, .ppid = 1, .prio = 120 };

	strncpy(t.comm, comm, KTP_COMM_LEN - 1);
	return stream_writer_record(w, &t, KTP_REC_TASK, 0, sizeof(t), ts);
}

int stream_writer_switch(struct stream_writer *w, uint64_t ts, uint32_t prev,
			 uint16_t prev_state, uint32_t next)
{
	struct ktp_switch s = {
		.prev_pid = prev, .next_pid = next, .prev_state = prev_state,
		.prev_prio = 120, .next_prio = 120,
	};

	return stream_writer_record(w, &s, KTP_REC_SWITCH, 0, sizeof(s), ts);
}

int stream_writer_waking(struct stream_writer *w, uint64_t ts, uint32_t pid,
			 uint16_t target_cpu)
{
	struct ktp_waking k = { .pid = pid, .target_cpu = target_cpu, .prio = 120 };

	return stream_writer_record(w, &k, KTP_REC_WAKING, 0, sizeof(k), ts);
}

int stream_writer_selftest(struct stream_writer *w, uint64_t ts, uint64_t seq)
{
	struct ktp_selftest s = { .seq = seq };

	return stream_writer_record(w, &s, KTP_REC_SELFTEST, 0, sizeof(s), ts);
}

int stream_writer_bytes(struct stream_writer *w, const void *p, size_t n)
{
	void *q = grow(w, n);

	if (!q)
		return w->err;
	memcpy(q, p, n);
	return 0;
}
