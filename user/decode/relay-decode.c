// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decode/relay-decode.h"

struct relay_decoder {
	uint8_t *buf;
	size_t cap, start, end;	/* unread bytes are buf[start, end) */
	int cpu;		/* -1 until known */
	int eof;
	int synced;		/* positioned after a valid sub-buffer header */
	uint64_t ts;		/* time of the last record */
	/*
	 * With @mult set, deltas count cycles of the counter, which read
	 * @anchor_cycles at boot time @anchor_ts (struct ktp_clock); @cycles
	 * is the last record's reading. 0: deltas count ns.
	 */
	uint32_t mult, shift;
	uint64_t anchor_ts, anchor_cycles, cycles;
	uint64_t lost;		/* cumulative loss of the last header */
	uint64_t subbuf_seq;
	uint64_t event_seq;
	uint64_t pending_garbage;	/* skipped bytes not yet reported */
	uint64_t session_id;
	int have_header;
	int deferred;		/* deferred_rec is the next event */
	uint8_t deferred_rec[sizeof(struct ktp_subbuf)];
	union {				/* the last short record, as a full one */
		struct ktp_hdr h;
		struct ktp_switch sw;
		struct ktp_waking wk;
	} expanded;
	struct relay_decoder_stats stats;
};

struct relay_decoder *relay_decoder_new(int cpu)
{
	struct relay_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->cpu = cpu;
	return d;
}

void relay_decoder_free(struct relay_decoder *d)
{
	if (!d)
		return;
	free(d->buf);
	free(d);
}

int relay_decoder_feed(struct relay_decoder *d, const void *buf, size_t len)
{
	size_t unread = d->end - d->start;

	if (!len)
		return 0;
	if (d->start && (d->start > d->cap / 2 || unread + len > d->cap)) {
		memmove(d->buf, d->buf + d->start, unread);
		d->start = 0;
		d->end = unread;
	}
	if (d->end + len > d->cap) {
		size_t cap = d->cap ? d->cap : 4096;	/* grows as needed: streams may be many */
		uint8_t *nb;

		while (cap < d->end + len)
			cap *= 2;
		nb = realloc(d->buf, cap);
		if (!nb)
			return -ENOMEM;
		d->buf = nb;
		d->cap = cap;
	}
	memcpy(d->buf + d->end, buf, len);
	d->end += len;
	return 0;
}

void relay_decoder_set_eof(struct relay_decoder *d)
{
	d->eof = 1;
}

const struct relay_decoder_stats *relay_decoder_stats(const struct relay_decoder *d)
{
	return &d->stats;
}

int relay_decoder_cpu(const struct relay_decoder *d)
{
	return d->cpu;
}

/* A plausible sub-buffer header at @p (at least 48 bytes available)? */
static int valid_subbuf(const struct relay_decoder *d, const uint8_t *p)
{
	struct ktp_subbuf sb;

	memcpy(&sb, p, sizeof(sb));
	return sb.h.type == KTP_REC_SUBBUF && sb.h.size == sizeof(sb) &&
	       sb.magic == KTP_SUBBUF_MAGIC && sb.abi_major == KTP_ABI_MAJOR &&
	       (d->cpu < 0 || sb.cpu == d->cpu);
}

/* Variable-size records: their contents must agree with their size. */
static int valid_variable(const struct ktp_hdr *h, const uint8_t *p)
{
	switch (h->type) {
	case KTP_REC_IPI_SEND:
		return h->size == sizeof(struct ktp_ipi) + h->flags * 8u;
	case KTP_REC_SWITCH:
		return !(h->flags & ~(KTP_SWITCH_COUNTERS | KTP_SWITCH_STACK)) &&
		       h->size == sizeof(struct ktp_switch) +
				  (h->flags & KTP_SWITCH_COUNTERS) * 8u +
				  (h->flags & KTP_SWITCH_STACK ? 4u : 0);
	case KTP_REC_WAKING:
		return h->size == sizeof(struct ktp_waking) +
				  (h->flags & KTP_WAKING_STACK ? 4u : 0);
	}
	if (!p)
		return 1;	/* not all here yet: checked when complete */
	if (h->type == KTP_REC_SAMPLE) {
		struct ktp_sample s;

		memcpy(&s, p, sizeof(s));
		return h->size == sizeof(s) + 8u * (s.nr_kernel + s.nr_user) &&
		       s.nr_kernel <= KTP_MAX_FRAMES && s.nr_user <= KTP_MAX_FRAMES;
	}
	if (h->type == KTP_REC_STACK) {
		struct ktp_stack s;

		memcpy(&s, p, sizeof(s));
		return h->size == sizeof(s) + 8u * (s.nr_kernel + s.nr_user) &&
		       s.nr_kernel <= KTP_MAX_FRAMES && s.nr_user <= KTP_MAX_FRAMES &&
		       s.id;
	}
	switch (h->type) {
	case KTP_REC_EXEC:
		return memchr(p + sizeof(struct ktp_exec), 0,
			      h->size - sizeof(struct ktp_exec)) != NULL;
	case KTP_REC_IRQ_NAME:
		return memchr(p + sizeof(struct ktp_irq_name), 0,
			      h->size - sizeof(struct ktp_irq_name)) != NULL;
	case KTP_REC_SCX_OP:
		return memchr(p + sizeof(struct ktp_scx_op), 0,
			      h->size - sizeof(struct ktp_scx_op)) != NULL;
	case KTP_REC_SCX_DUMP:
		return memchr(p + sizeof(struct ktp_scx_dump), 0,
			      h->size - sizeof(struct ktp_scx_dump)) != NULL;
	case KTP_REC_FILE:
		return memchr(p + sizeof(struct ktp_file), 0,
			      h->size - sizeof(struct ktp_file)) != NULL &&
		       p[offsetof(struct ktp_file, build_id_len)] <= KTP_BUILD_ID_MAX;
	case KTP_REC_AFFINITY: {
		struct ktp_affinity a;

		memcpy(&a, p, sizeof(a));
		return a.nr_bits && a.nr_allowed <= a.nr_bits &&
		       h->size == sizeof(a) + 4u * ((a.nr_bits + 31u) / 32);
	}
	case KTP_REC_PROBE: {
		struct ktp_probe_hit r;

		/* Each string's place is checked where it is read (record.c). */
		memcpy(&r, p, sizeof(r));
		return r.nargs <= KTP_PROBE_MAX_ARGS &&
		       h->size >= sizeof(r) + 8u * r.nargs +
				  (h->flags & KTP_PROBE_HIT_STACK ? 4u : 0u);
	}
	case KTP_REC_MARK: {
		struct ktp_mark m;

		memcpy(&m, p, sizeof(m));
		return m.len <= KTP_MARK_MAX && h->size >= sizeof(m) + m.len &&
		       h->size < sizeof(m) + m.len + 4u;
	}
	}
	return 1;
}

static uint32_t clock_shift(const uint8_t *p)
{
	uint32_t shift;

	memcpy(&shift, p + offsetof(struct ktp_clock, shift), sizeof(shift));
	return shift;
}

/*
 * Is the record at @p acceptable? Known types must have their exact (or
 * minimum) size; sizes are multiples of 4 and at least a header. @p is
 * NULL while the record is not complete in the buffer.
 */
static int valid_record(const struct ktp_hdr *h, const uint8_t *p)
{
	unsigned int want;

	if (h->size < sizeof(*h) || h->size % 4 || h->type == KTP_REC_INVALID)
		return 0;
	if (h->type >= KTP_REC_NR_TYPES)
		return 1;
	want = event_min_size(h->type);
	switch (h->type) {
	case KTP_REC_EXEC:
	case KTP_REC_IRQ_NAME:
	case KTP_REC_IPI_SEND:
	case KTP_REC_SWITCH:
	case KTP_REC_WAKING:
	case KTP_REC_SAMPLE:
	case KTP_REC_STACK:
	case KTP_REC_FILE:
	case KTP_REC_SCX_OP:
	case KTP_REC_SCX_DUMP:
	case KTP_REC_AFFINITY:
	case KTP_REC_PROBE:
	case KTP_REC_MARK:
		return h->size >= want && valid_variable(h, p);
	case KTP_REC_SUBBUF:
		return 0;	/* handled by the caller */
	case KTP_REC_CLOCK:
		/* A shift past 32 is no writer's: see ktp_clock_choose(). */
		return h->size == want && (!p || clock_shift(p) <= 32);
	}
	return h->size == want;
}

/* The stream is damaged here: skip to the next plausible header. */
static void desync(struct relay_decoder *d)
{
	d->synced = 0;
	d->stats.resyncs++;
}

static void skip_garbage(struct relay_decoder *d, size_t n)
{
	d->start += n;
	d->pending_garbage += n;
	d->stats.garbage_bytes += n;
}

static void fill_event(struct relay_decoder *d, struct event *ev,
		       const struct ktp_hdr *h, const void *p)
{
	ev->ts = d->ts;
	ev->cpu = d->cpu < 0 ? 0 : d->cpu;
	ev->type = h->type;
	ev->flags = h->flags;
	ev->size = h->size;
	ev->rec = p;
	ev->lost = 0;
	ev->seq = d->event_seq++;
}

static void synth_event(struct relay_decoder *d, struct event *ev,
			uint16_t type, uint64_t count, uint64_t since)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts = d->ts;
	ev->since = since;
	ev->cpu = d->cpu < 0 ? 0 : d->cpu;
	ev->type = type;
	ev->lost = count;
	ev->seq = d->event_seq++;
}

/*
 * Take the sub-buffer header at @p: new time base and loss accounting.
 * Returns the records lost since the previous header, or -1 if the header
 * cannot follow the previous one (stale or foreign data).
 */
static int64_t take_subbuf(struct relay_decoder *d, const uint8_t *p)
{
	struct ktp_subbuf sb;
	uint64_t lost;

	memcpy(&sb, p, sizeof(sb));
	if (d->have_header) {
		if (sb.seq <= d->subbuf_seq || sb.lost < d->lost ||
		    sb.session_id != d->session_id)
			return -1;
		d->stats.lost_subbufs += sb.seq - d->subbuf_seq - 1;
		lost = sb.lost - d->lost;
	} else {
		/* Sub-buffers before the first one seen are missing. */
		d->stats.lost_subbufs += sb.seq;
		lost = sb.lost;
		d->session_id = sb.session_id;
	}
	d->cpu = sb.cpu;
	d->have_header = 1;
	d->subbuf_seq = sb.seq;
	d->lost = sb.lost;
	d->mult = 0;	/* ns until a CLOCK record */
	if (sb.ts > d->ts)
		d->ts = sb.ts;
	d->stats.subbufs++;
	d->stats.lost += lost;
	return lost;
}

/*
 * A STOP or OFFLINE mark carries the CPU's final loss count, which covers
 * records dropped after the last sub-buffer header.
 */
static uint64_t mark_loss(struct relay_decoder *d, const uint8_t *p)
{
	struct ktp_cpu_mark m;
	uint64_t lost;

	memcpy(&m, p, sizeof(m));
	if ((m.reason != KTP_CPU_STOP && m.reason != KTP_CPU_OFFLINE) ||
	    m.lost <= d->lost)
		return 0;
	lost = m.lost - d->lost;
	d->lost = m.lost;
	d->stats.lost += lost;
	return lost;
}

/*
 * Return an EVENT_LOST event now and the record at @p (copied) next; @since
 * is the time of the record before the loss.
 */
static int defer_after_loss(struct relay_decoder *d, struct event *ev,
			    const uint8_t *p, uint64_t lost, uint64_t since)
{
	struct ktp_hdr h;

	memcpy(&h, p, sizeof(h));
	memcpy(d->deferred_rec, p, h.size);
	d->deferred = 1;
	synth_event(d, ev, EVENT_LOST, lost, since);
	return 1;
}

/* At end of input, what is left is an incomplete record. */
static int end_of_input(struct relay_decoder *d)
{
	if (d->eof && d->end > d->start) {
		d->stats.truncated += d->end - d->start;
		d->start = d->end;
	}
	return 0;
}

/* A step that made progress without an event: take the next one. */
#define STEP_AGAIN (-1)

/*
 * An event owed from an earlier step: the record whose loss was just
 * reported, or the bytes skipped before decoding (re)started.
 */
static int owed_event(struct relay_decoder *d, struct event *ev)
{
	struct ktp_hdr h;

	if (d->deferred) {
		d->deferred = 0;
		memcpy(&h, d->deferred_rec, sizeof(h));
		fill_event(d, ev, &h, d->deferred_rec);
		return 1;
	}
	if (d->pending_garbage &&
	    (d->synced || (d->eof && d->end == d->start))) {
		synth_event(d, ev, EVENT_GARBAGE, d->pending_garbage, d->ts);
		d->pending_garbage = 0;
		return 1;
	}
	return 0;
}

/* Out of sync: only a sub-buffer header can (re)start decoding. */
static int sync_step(struct relay_decoder *d, const uint8_t *p, size_t avail)
{
	if (avail < sizeof(struct ktp_subbuf)) {
		if (!d->eof || !avail)
			return 0;
		skip_garbage(d, avail);
		return STEP_AGAIN;
	}
	/* Byte by byte: damage need not keep 4-byte alignment. */
	if (!valid_subbuf(d, p)) {
		skip_garbage(d, 1);
		return STEP_AGAIN;
	}
	d->synced = 1;
	return STEP_AGAIN;	/* report skipped bytes first */
}

/* A sub-buffer header: its loss count, then the header as an event. */
static int subbuf_step(struct relay_decoder *d, struct event *ev, const struct ktp_hdr *h,
		       const uint8_t *p, size_t avail)
{
	uint64_t before = d->ts;
	int64_t lost;

	if (avail < sizeof(struct ktp_subbuf))
		return end_of_input(d);
	if (!valid_subbuf(d, p)) {
		desync(d);
		return STEP_AGAIN;
	}
	lost = take_subbuf(d, p);
	if (lost < 0) {
		desync(d);
		skip_garbage(d, 1);
		return STEP_AGAIN;
	}
	d->start += sizeof(struct ktp_subbuf);
	d->stats.records++;
	if (lost > 0)
		return defer_after_loss(d, ev, p, lost, before);
	fill_event(d, ev, h, p);
	return 1;
}

/* A CLOCK record: deltas count the counter's cycles from here (or ns). */
static void take_clock(struct relay_decoder *d, const uint8_t *p)
{
	struct ktp_clock c;

	memcpy(&c, p, sizeof(c));
	d->mult = c.mult;
	d->shift = c.shift;
	d->anchor_ts = c.ts;
	d->anchor_cycles = c.cycles;
	d->cycles = c.cycles;
	if (c.ts > d->ts)
		d->ts = c.ts;
}

/* A record @delta cycles after the previous one: its boot time. */
static void advance_cycles(struct relay_decoder *d, uint32_t delta)
{
	unsigned __int128 ns;
	uint64_t t;

	d->cycles += delta;
	ns = (unsigned __int128)(d->cycles - d->anchor_cycles) * d->mult >> d->shift;
	t = ns > UINT64_MAX - d->anchor_ts ? UINT64_MAX : d->anchor_ts + (uint64_t)ns;
	/* Times never go back, whatever the rate's error at a new pair. */
	if (t > d->ts)
		d->ts = t;
}

/* The next record is @delta after the last (ns, or cycles: take_clock()). */
static void advance(struct relay_decoder *d, uint32_t delta)
{
	if (d->mult)
		advance_cycles(d, delta);
	else
		d->ts += delta;
}

/* A pid in a short record's word (both types). */
#define SHORT_PID_MASK ((1u << KTP_SSW_PID_BITS) - 1)

/*
 * A short switch as the full record it stands for; 0 if its state index is
 * none a writer makes (damage).
 */
static int expand_switch(struct relay_decoder *d, const uint8_t *p, uint32_t delta)
{
	struct ktp_switch_short s;
	unsigned int state;

	memcpy(&s, p, sizeof(s));
	state = s.bits >> KTP_SSW_STATE_SHIFT;
	if (state > KTP_SSW_STATE_MAX)
		return 0;
	d->expanded.sw = (struct ktp_switch){
		.h = { .type = KTP_REC_SWITCH, .size = sizeof(d->expanded.sw), .ts_delta = delta },
		.prev_pid = s.bits & SHORT_PID_MASK,
		.next_pid = (s.bits >> KTP_SSW_NEXT_PID_SHIFT) & SHORT_PID_MASK,
		.prev_state = state ? 1u << (state - 1) : 0,
		.prev_prio = s.bits >> KTP_SSW_PREV_PRIO_SHIFT,
		.next_prio = s.bits >> KTP_SSW_NEXT_PRIO_SHIFT,
	};
	return 1;
}

/* A short waking as the full record; 0 if bits no writer sets are set. */
static int expand_waking(struct relay_decoder *d, const uint8_t *p, uint32_t delta)
{
	struct ktp_waking_short s;

	memcpy(&s, p, sizeof(s));
	if (s.bits >> (KTP_SWK_NEW_BIT + 1))
		return 0;
	d->expanded.wk = (struct ktp_waking){
		.h = { .type = KTP_REC_WAKING, .size = sizeof(d->expanded.wk), .ts_delta = delta,
		       .flags = s.bits >> KTP_SWK_NEW_BIT & 1 ? KTP_WAKING_NEW : 0 },
		.pid = s.bits & SHORT_PID_MASK,
		.target_cpu = s.bits >> KTP_SWK_CPU_SHIFT,
		.prio = s.bits >> KTP_SWK_PRIO_SHIFT,
	};
	return 1;
}

/*
 * A short record (KTP_REC_SHORT): its 4-byte header, its type's size; it
 * is given as the full record it stands for. An unknown type is damage.
 */
static int short_step(struct relay_decoder *d, struct event *ev, const uint8_t *p,
		      size_t avail)
{
	/* Both short types are 12 bytes. */
	const size_t size = sizeof(struct ktp_switch_short);
	_Static_assert(sizeof(struct ktp_switch_short) == sizeof(struct ktp_waking_short),
		       "short records of one size");
	uint32_t word;
	int ok;

	if (p[0] != KTP_SREC_SWITCH && p[0] != KTP_SREC_WAKING) {
		desync(d);
		return STEP_AGAIN;
	}
	if (avail < size)
		return end_of_input(d);
	memcpy(&word, p, sizeof(word));
	ok = p[0] == KTP_SREC_SWITCH ? expand_switch(d, p, word >> 8) :
				       expand_waking(d, p, word >> 8);
	if (!ok) {
		desync(d);
		return STEP_AGAIN;
	}
	advance(d, word >> 8);
	d->start += size;
	d->stats.records++;
	fill_event(d, ev, &d->expanded.h, (const uint8_t *)&d->expanded);
	return 1;
}

/* Any other record: the clock moves, a CPU mark may report a loss. */
static int record_step(struct relay_decoder *d, struct event *ev, const struct ktp_hdr *h,
		       const uint8_t *p, size_t avail)
{
	uint64_t before = d->ts, lost;

	if (!valid_record(h, h->size <= avail ? p : NULL)) {
		desync(d);
		return STEP_AGAIN;
	}
	if (h->size > avail)
		return end_of_input(d);
	if (h->type == KTP_REC_TIME) {
		struct ktp_time t;

		memcpy(&t, p, sizeof(t));
		if (t.ts > d->ts)
			d->ts = t.ts;
	} else if (h->type == KTP_REC_CLOCK) {
		take_clock(d, p);
	} else {
		advance(d, h->ts_delta);
	}
	if (h->type >= KTP_REC_NR_TYPES)
		d->stats.unknown++;
	d->start += h->size;
	d->stats.records++;
	if (h->type == KTP_REC_CPU) {
		lost = mark_loss(d, p);
		if (lost)
			return defer_after_loss(d, ev, p, lost, before);
	}
	fill_event(d, ev, h, p);
	return 1;
}

int relay_decoder_next(struct relay_decoder *d, struct event *ev)
{
	int ret;

	do {
		size_t avail = d->end - d->start;
		/* No buffer before the first bytes: NULL + 0 is undefined too. */
		const uint8_t *p = d->buf ? d->buf + d->start : NULL;
		struct ktp_hdr h;

		if (owed_event(d, ev))
			return 1;
		if (!d->synced) {
			ret = sync_step(d, p, avail);
			continue;
		}
		if (avail && p[0] & KTP_REC_SHORT) {
			ret = short_step(d, ev, p, avail);
			continue;
		}
		if (avail < sizeof(h))
			return end_of_input(d);
		memcpy(&h, p, sizeof(h));
		if (h.type == KTP_REC_SUBBUF)
			ret = subbuf_step(d, ev, &h, p, avail);
		else
			ret = record_step(d, ev, &h, p, avail);
	} while (ret == STEP_AGAIN);
	return ret;
}
