// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/merge.h"

#define MERGE_READ_SIZE (256 * 1024)

struct merge_input {
	struct relay_decoder *dec;
	merge_read_fn read;
	void *ctx;
	int eof;
	int waiting;		/* its read said -EAGAIN: no head, not ended */
	struct event head;	/* the input's next event */
};

struct merge {
	struct merge_input *inputs;
	unsigned int n, cap;
	unsigned int *heap;	/* input indexes, ordered on their head */
	unsigned int heap_len;
	int started;
	int last;		/* input whose head was returned last, or -1 */
	void *readbuf;
	merge_gap_fn gap_fn;
	void *gap_ctx;
	int tolerant;		/* a damaged input ends, the others go on */
	unsigned int damaged;	/* inputs ended by damage */
	uint64_t watermark;	/* events from here on wait (merge_set_watermark) */
	unsigned int nr_waiting;	/* inputs waiting for bytes */
	int retry;		/* the waiting inputs may have bytes now */
};

struct merge *merge_new(void)
{
	struct merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->readbuf = malloc(MERGE_READ_SIZE);
	if (!m->readbuf) {
		free(m);
		return NULL;
	}
	m->last = -1;
	m->watermark = UINT64_MAX;
	return m;
}

void merge_free(struct merge *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		relay_decoder_free(m->inputs[i].dec);
	free(m->inputs);
	free(m->heap);
	free(m->readbuf);
	free(m);
}

int merge_add(struct merge *m, int cpu, merge_read_fn read, void *ctx)
{
	struct merge_input *in;

	if (m->started)
		return -EBUSY;
	if (m->n == m->cap) {
		unsigned int cap = m->cap ? m->cap * 2 : 8;
		struct merge_input *ni = realloc(m->inputs, cap * sizeof(*ni));
		unsigned int *nh;

		if (!ni)
			return -ENOMEM;
		m->inputs = ni;
		nh = realloc(m->heap, cap * sizeof(*nh));
		if (!nh)
			return -ENOMEM;
		m->heap = nh;
		m->cap = cap;
	}
	in = &m->inputs[m->n];
	in->dec = relay_decoder_new(cpu);
	if (!in->dec)
		return -ENOMEM;
	in->read = read;
	in->ctx = ctx;
	in->eof = 0;
	in->waiting = 0;
	m->n++;
	return 0;
}

void merge_set_tolerant(struct merge *m, int tolerant)
{
	m->tolerant = tolerant;
}

unsigned int merge_damaged(const struct merge *m)
{
	return m->damaged;
}

void merge_set_gap_fn(struct merge *m, merge_gap_fn fn, void *ctx)
{
	m->gap_fn = fn;
	m->gap_ctx = ctx;
}

unsigned int merge_nr_inputs(const struct merge *m)
{
	return m->n;
}

const struct relay_decoder *merge_decoder(const struct merge *m, unsigned int i)
{
	return i < m->n ? m->inputs[i].dec : NULL;
}

/* Load input @i's next event into its head: 1, 0 at its end, -errno. */
static int advance(struct merge *m, struct merge_input *in)
{
	for (;;) {
		ssize_t n;
		int ret = relay_decoder_next(in->dec, &in->head);

		if (ret > 0 && m->gap_fn && (in->head.type == EVENT_LOST ||
					     in->head.type == EVENT_GARBAGE))
			m->gap_fn(m->gap_ctx, &in->head);
		if (ret)
			return ret;
		if (in->eof)
			return 0;
		n = in->read(in->ctx, m->readbuf, MERGE_READ_SIZE);
		if (n == -EBADMSG && m->tolerant) {
			/* What this input holds after the damage is lost. */
			m->damaged++;
			n = 0;
		}
		if (n < 0)
			return (int)n;
		if (n == 0) {
			in->eof = 1;
			relay_decoder_set_eof(in->dec);
			continue;
		}
		ret = relay_decoder_feed(in->dec, m->readbuf, n);
		if (ret)
			return ret;
	}
}

/* Is @a a switch-out of the thread that @b switches in (not the idle pid 0)? */
static int hands_over(const struct event *a, const struct event *b)
{
	struct ktp_switch sa, sb;

	if (a->type != KTP_REC_SWITCH || b->type != KTP_REC_SWITCH)
		return 0;
	memcpy(&sa, a->rec, sizeof(sa));
	memcpy(&sb, b->rec, sizeof(sb));
	return sa.prev_pid && sa.prev_pid == sb.next_pid;
}

/*
 * At equal times: CPU number, then each CPU's own order. One exception on
 * two CPUs: a thread leaves one CPU before it enters another (a pull at
 * the instant of a preemption), which the clock cannot tell but the
 * scheduler guarantees; ordered by CPU, the switch-in would come first and
 * both records would look inconsistent. Rare, so kept out of line: the
 * heap's comparisons then inline to a compare of times.
 */
static __attribute__((noinline)) int tie_before(const struct event *a, const struct event *b)
{
	if (a->cpu != b->cpu) {
		if (hands_over(a, b) && !hands_over(b, a))
			return 1;
		if (hands_over(b, a) && !hands_over(a, b))
			return 0;
		return a->cpu < b->cpu;
	}
	return a->seq < b->seq;
}

/* Time first, then tie_before(). */
static inline int before(const struct event *a, const struct event *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	return tie_before(a, b);
}

static int heap_less(const struct merge *m, unsigned int i, unsigned int j)
{
	return before(&m->inputs[m->heap[i]].head, &m->inputs[m->heap[j]].head);
}

static void heap_swap(struct merge *m, unsigned int i, unsigned int j)
{
	unsigned int t = m->heap[i];

	m->heap[i] = m->heap[j];
	m->heap[j] = t;
}

static void sift_down(struct merge *m, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, min = i;

		if (l < m->heap_len && heap_less(m, l, min))
			min = l;
		if (r < m->heap_len && heap_less(m, r, min))
			min = r;
		if (min == i)
			return;
		heap_swap(m, i, min);
		i = min;
	}
}

static void sift_up(struct merge *m, unsigned int i)
{
	while (i && heap_less(m, i, (i - 1) / 2)) {
		heap_swap(m, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* Input @i's head, just loaded by advance() with @ret: into the heap, or waiting. */
static int place(struct merge *m, unsigned int i, int ret)
{
	if (ret == -EAGAIN) {
		m->inputs[i].waiting = 1;
		m->nr_waiting++;
		return 0;
	}
	if (ret < 0)
		return ret;
	if (ret) {
		m->heap[m->heap_len++] = i;
		sift_up(m, m->heap_len - 1);
	}
	return 0;
}

static int start(struct merge *m)
{
	unsigned int i;
	int ret;

	m->started = 1;
	for (i = 0; i < m->n; i++) {
		ret = place(m, i, advance(m, &m->inputs[i]));
		if (ret)
			return ret;
	}
	return 0;
}

/* Every waiting input reads again: to the heap, ended, or still waiting. */
static int retry_waiting(struct merge *m)
{
	unsigned int i;
	int ret;

	m->retry = 0;
	for (i = 0; i < m->n && m->nr_waiting; i++) {
		if (!m->inputs[i].waiting)
			continue;
		m->inputs[i].waiting = 0;
		m->nr_waiting--;
		ret = place(m, i, advance(m, &m->inputs[i]));
		if (ret)
			return ret;
	}
	return 0;
}

/* The input returned last: its old head is spent; its next, or it leaves the heap. */
static int refill(struct merge *m)
{
	unsigned int i = m->last;
	int ret = advance(m, &m->inputs[i]);

	m->last = -1;
	if (ret > 0) {
		sift_down(m, 0);
		return 0;
	}
	if (ret < 0 && ret != -EAGAIN)
		return ret;
	m->heap[0] = m->heap[--m->heap_len];
	if (m->heap_len)
		sift_down(m, 0);
	return place(m, i, ret == -EAGAIN ? ret : 0);
}

void merge_set_watermark(struct merge *m, uint64_t ts)
{
	m->watermark = ts;
	m->retry = 1;
}

/* The heap ready: started, the input returned last refilled, waiting inputs retried. */
static int prepare(struct merge *m)
{
	int ret;

	if (!m->started)
		ret = start(m);
	else
		ret = m->last >= 0 ? refill(m) : 0;
	if (!ret && m->retry && m->nr_waiting)
		ret = retry_waiting(m);
	return ret;
}

int merge_peek(struct merge *m, uint64_t *ts)
{
	int ret = prepare(m);

	if (ret < 0)
		return ret;
	if (!m->heap_len || m->nr_waiting)
		return 0;
	*ts = m->inputs[m->heap[0]].head.ts;
	return 1;
}

int merge_next(struct merge *m, struct event *ev)
{
	int ret = prepare(m);

	if (ret < 0)
		return ret;
	/*
	 * A waiting input may yet have an event before the heap's first: that
	 * one may go only if it is before the watermark, below which every
	 * input's bytes were in (the caller's promise). At the watermark,
	 * every event waits.
	 */
	if (m->heap_len && m->watermark != UINT64_MAX &&
	    m->inputs[m->heap[0]].head.ts >= m->watermark) {
		m->retry = 1;
		return -EAGAIN;
	}
	if (!m->heap_len) {
		m->retry = 1;
		return m->nr_waiting ? -EAGAIN : 0;
	}
	m->last = m->heap[0];
	*ev = m->inputs[m->last].head;
	return 1;
}
