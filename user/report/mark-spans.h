/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spans of begin and end markers (ktprof mark --begin/--end, "B TEXT" and
 * "E TEXT" written to the module's marker file): each thread has a stack
 * of open begins, and an end closes its thread's innermost one (spans
 * nest; the end's text is not compared: a span is named by its begin).
 * While a span is open, its thread's time in each scheduler state is added
 * up from the model's state_time; at the end, the time since the thread's
 * last change of state is in the state it is in. Per span name: the count,
 * the durations and the state times summed. `convert` pairs them the same
 * way (its thread view's span tracks).
 */
#ifndef KTPROF_MARK_SPANS_H
#define KTPROF_MARK_SPANS_H

#include <stdint.h>

#include "decode/event.h"
#include "model/sched.h"
#include "report/hist.h"
#include "util/str-intern.h"
#include "util/u64-map.h"

/* The spans of one name (its begins' text). */
struct mark_span_name {
	struct hist d;		/* durations, ns */
	uint64_t state_ns[SCHED_NR_STATES];	/* its threads' time in each state */
};

struct mark_spans {
	const struct sched *sched;
	struct u64_map stacks;	/* thread index (or MARK_SPANS_NO_THREAD | pid)
				 * -> its open spans, innermost last */
	struct str_intern names;
	struct mark_span_name *by_name;	/* by the name's id */
	uint32_t cap;
	uint32_t *order;	/* after mark_spans_finish(): the names' ids, the
				 * most spans first (ties: by name) */
	uint64_t unmatched_begin;	/* after mark_spans_finish() */
	uint64_t unmatched_end;
};

/* A marker of a pid the model has no thread for: its spans, without states. */
#define MARK_SPANS_NO_THREAD (1ull << 32)

void mark_spans_init(struct mark_spans *m, const struct sched *s);
void mark_spans_fini(struct mark_spans *m);

/* A MARK record: a begin opens a span, an end closes one. 0 or -ENOMEM. */
int mark_spans_mark(struct mark_spans *m, const struct event *ev);

/* The model's state_time: thread @t in @state during [from, to). */
void mark_spans_state_time(struct mark_spans *m, uint32_t t, enum sched_state state,
			   uint64_t from, uint64_t to);

/* After the pass: the begins still open are unmatched; the names ordered. 0 or -ENOMEM. */
int mark_spans_finish(struct mark_spans *m);

static inline uint32_t mark_spans_count(const struct mark_spans *m)
{
	return m->names.n;
}

static inline const char *mark_spans_name(const struct mark_spans *m, uint32_t id)
{
	return str_intern_get(&m->names, id);
}

/* The time of @s's spans in no known state: unknown time, or a thread not known. */
static inline uint64_t mark_span_unknown_ns(const struct mark_span_name *s)
{
	uint64_t known = 0;
	int k;

	for (k = 0; k < SCHED_NR_STATES; k++)
		if (k != SCHED_UNKNOWN)
			known += s->state_ns[k];
	return s->d.sum > known ? s->d.sum - known : 0;
}

#endif
