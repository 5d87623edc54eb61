// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "report/mark-spans.h"
#include "util/array.h"

/* An open span: its begin, its name, its thread's state times so far. */
struct mark_open {
	uint64_t begin;
	char *name;
	uint64_t state_ns[SCHED_NR_STATES];
};

/* A thread's open spans, innermost last. */
struct mark_stack {
	struct mark_open *v;
	size_t n, cap;
};

void mark_spans_init(struct mark_spans *m, const struct sched *s)
{
	memset(m, 0, sizeof(*m));
	m->sched = s;
	u64_map_init(&m->stacks);
	str_intern_init(&m->names);
}

void mark_spans_fini(struct mark_spans *m)
{
	struct mark_stack *st;
	size_t i = 0, k;
	uint64_t key;
	void *v;

	while (u64_map_next(&m->stacks, &i, &key, &v)) {
		st = v;
		for (k = 0; k < st->n; k++)
			free(st->v[k].name);
		free(st->v);
		free(st);
	}
	u64_map_fini(&m->stacks);
	for (k = 0; k < m->names.n; k++)
		hist_fini(&m->by_name[k].d);
	free(m->by_name);
	free(m->order);
	str_intern_fini(&m->names);
}

/* The key of the thread that wrote a marker: its index, else its pid. */
static uint64_t thread_key(const struct mark_spans *m, uint32_t pid)
{
	uint32_t t = sched_lookup_pid(m->sched, pid);

	return t < SCHED_NONE ? t : MARK_SPANS_NO_THREAD | pid;
}

static struct mark_stack *stack_of(struct mark_spans *m, uint64_t key, int create)
{
	struct mark_stack *st = u64_map_get(&m->stacks, key);

	if (st || !create)
		return st;
	st = calloc(1, sizeof(*st));
	if (st && u64_map_put(&m->stacks, key, st)) {
		free(st);
		return NULL;
	}
	return st;
}

static int span_begin(struct mark_spans *m, uint64_t key, uint64_t ts, const char *text,
		      uint32_t len)
{
	struct mark_stack *st = stack_of(m, key, 1);
	char *name = strndup(text, len);

	if (!st || !name || array_reserve_n((void **)&st->v, &st->cap, st->n, sizeof(*st->v), 4)) {
		free(name);
		return -ENOMEM;
	}
	memset(&st->v[st->n], 0, sizeof(st->v[0]));
	st->v[st->n].begin = ts;
	st->v[st->n++].name = name;
	return 0;
}

/*
 * The thread's time since its last change of state, up to @end: the model
 * tells it at the next change, after the span closed.
 */
static void add_current_state(const struct mark_spans *m, uint64_t key, struct mark_open *o,
			      uint64_t end)
{
	const struct sched_thread *th;
	uint64_t from, to = end;

	if (key & MARK_SPANS_NO_THREAD)
		return;
	th = sched_thread(m->sched, (uint32_t)key);
	from = th->state_since > o->begin ? th->state_since : o->begin;
	if (th->state != SCHED_UNKNOWN && from < to && sched_clip(m->sched, &from, &to))
		o->state_ns[th->state] += to - from;
}

static int name_add(struct mark_spans *m, const struct mark_open *o, uint64_t end)
{
	struct mark_span_name *s;
	uint32_t id;
	int is_new, ret, k;

	/* Room first: every interned name has its entry. */
	if (array_reserve((void **)&m->by_name, &m->cap, m->names.n, sizeof(*m->by_name), 8))
		return -ENOMEM;
	ret = str_intern(&m->names, o->name, &id, &is_new);
	if (ret)
		return ret;
	if (is_new) {
		memset(&m->by_name[id], 0, sizeof(m->by_name[id]));
		hist_init(&m->by_name[id].d);
	}
	s = &m->by_name[id];
	for (k = 0; k < SCHED_NR_STATES; k++)
		s->state_ns[k] += o->state_ns[k];
	return hist_add(&s->d, end - o->begin);
}

/* An end: its thread's innermost open span is closed. */
static int span_end(struct mark_spans *m, uint64_t key, uint64_t ts)
{
	struct mark_stack *st = stack_of(m, key, 0);
	struct mark_open o;
	int ret;

	if (!st || !st->n) {
		m->unmatched_end++;
		return 0;
	}
	o = st->v[--st->n];
	add_current_state(m, key, &o, ts);
	ret = name_add(m, &o, ts);
	free(o.name);
	return ret;
}

int mark_spans_mark(struct mark_spans *m, const struct event *ev)
{
	struct ktp_mark r;
	const char *text;
	uint64_t key;
	uint32_t len;

	if (!(ev->flags & (KTP_MARK_BEGIN | KTP_MARK_END)))
		return 0;
	memcpy(&r, ev->rec, sizeof(r));
	key = thread_key(m, r.pid);
	if (ev->flags & KTP_MARK_END)
		return span_end(m, key, ev->ts);
	text = record_mark_text(ev, &len);
	return span_begin(m, key, ev->ts, text, len);
}

void mark_spans_state_time(struct mark_spans *m, uint32_t t, enum sched_state state,
			   uint64_t from, uint64_t to)
{
	struct mark_stack *st = stack_of(m, t, 0);
	size_t k;

	/* Nested spans each get the time: each is its own span. */
	for (k = 0; st && k < st->n; k++)
		if (to > st->v[k].begin)
			st->v[k].state_ns[state] += to - (from > st->v[k].begin ? from : st->v[k].begin);
}

static int by_count(const void *x, const void *y, void *arg)
{
	const struct mark_spans *m = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint64_t na = m->by_name[a].d.count, nb = m->by_name[b].d.count;

	if (na != nb)
		return na > nb ? -1 : 1;
	return strcmp(mark_spans_name(m, a), mark_spans_name(m, b));
}

int mark_spans_finish(struct mark_spans *m)
{
	size_t i = 0;
	uint64_t key;
	uint32_t k;
	void *v;

	m->unmatched_begin = 0;
	while (u64_map_next(&m->stacks, &i, &key, &v))
		m->unmatched_begin += ((struct mark_stack *)v)->n;
	free(m->order);
	m->order = malloc((m->names.n ? m->names.n : 1) * sizeof(*m->order));
	if (!m->order)
		return -ENOMEM;
	for (k = 0; k < m->names.n; k++)
		m->order[k] = k;
	qsort_r(m->order, m->names.n, sizeof(*m->order), by_count, m);
	return 0;
}
