// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "report/render.h"
#include "report/report.h"
#include "report/spans.h"
#include "util/array.h"
#include "util/text.h"

/* An open span: its begin, its name, its thread's state times so far. */
struct span_open {
	uint64_t begin;
	char *name;
	uint64_t state_ns[SCHED_NR_STATES];
};

/* A thread's open spans, innermost last. */
struct span_stack {
	struct span_open *v;
	size_t n, cap;
};

void spans_init(struct spans *m, const struct sched *sched, const struct span_spec *pair)
{
	memset(m, 0, sizeof(*m));
	m->sched = sched;
	m->pair = pair;
	u64_map_init(&m->stacks);
	str_intern_init(&m->names);
}

static void who_fini(struct span_who *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		hist_fini(&w[i].d);
	free(w);
}

/* The hists of a map of them (key -> struct hist *), and the map. */
static void hists_fini(struct u64_map *hists)
{
	size_t i = 0;
	uint64_t key;
	void *v;

	while (u64_map_next(hists, &i, &key, &v)) {
		hist_fini(v);
		free(v);
	}
	u64_map_fini(hists);
}

static void name_fini(struct span_name *s)
{
	hist_fini(&s->d);
	hists_fini(&s->by_thread);
	who_fini(s->procs, s->nprocs);
	who_fini(s->threads, s->nthreads);
}

void spans_fini(struct spans *m)
{
	struct span_stack *st;
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
		name_fini(&m->by_name[k]);
	free(m->by_name);
	free(m->order);
	str_intern_fini(&m->names);
}

/* The key of a span's thread: its index, else its pid. */
static uint64_t thread_key(const struct spans *m, uint32_t pid)
{
	uint32_t t = sched_lookup_pid(m->sched, pid);

	return t < SCHED_NONE ? t : SPANS_NO_THREAD | pid;
}

static struct span_stack *stack_of(struct spans *m, uint64_t key, int create)
{
	struct span_stack *st = u64_map_get(&m->stacks, key);

	if (st || !create)
		return st;
	st = calloc(1, sizeof(*st));
	if (st && u64_map_put(&m->stacks, key, st)) {
		free(st);
		return NULL;
	}
	return st;
}

static int span_begin(struct spans *m, uint64_t key, uint64_t ts, const char *text,
		      uint32_t len)
{
	struct span_stack *st = stack_of(m, key, 1);
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
static void add_current_state(const struct spans *m, uint64_t key, struct span_open *o,
			      uint64_t end)
{
	const struct sched_thread *th;
	uint64_t from, to = end;

	if (key & SPANS_NO_THREAD)
		return;
	th = sched_thread(m->sched, (uint32_t)key);
	from = th->state_since > o->begin ? th->state_since : o->begin;
	if (th->state != SCHED_UNKNOWN && from < to && sched_clip(m->sched, &from, &to))
		o->state_ns[th->state] += to - from;
}

/* The entry of span name @name, made at its first span. */
static int name_id(struct spans *m, const char *name, uint32_t *id)
{
	int is_new, ret;

	/* Room first: every interned name has its entry. */
	if (array_reserve((void **)&m->by_name, &m->cap, m->names.n, sizeof(*m->by_name), 8))
		return -ENOMEM;
	ret = str_intern(&m->names, name, id, &is_new);
	if (ret)
		return ret;
	if (is_new) {
		memset(&m->by_name[*id], 0, sizeof(m->by_name[*id]));
		hist_init(&m->by_name[*id].d);
		u64_map_init(&m->by_name[*id].by_thread);
	}
	return 0;
}

/* The durations under @key in @hists, made at its first. */
static struct hist *hist_of(struct u64_map *hists, uint64_t key)
{
	struct hist *h = u64_map_get(hists, key);

	if (h)
		return h;
	h = malloc(sizeof(*h));
	if (!h)
		return NULL;
	hist_init(h);
	if (u64_map_put(hists, key, h)) {
		free(h);
		return NULL;
	}
	return h;
}

/* Span @o of thread @key ended at @end. */
static int name_add(struct spans *m, uint64_t key, const struct span_open *o, uint64_t end)
{
	struct span_name *s;
	struct hist *h;
	uint32_t id;
	int ret, k;

	ret = name_id(m, o->name, &id);
	if (ret)
		return ret;
	s = &m->by_name[id];
	h = hist_of(&s->by_thread, key);
	if (!h)
		return -ENOMEM;
	for (k = 0; k < SCHED_NR_STATES; k++)
		s->state_ns[k] += o->state_ns[k];
	ret = hist_add(&s->d, end - o->begin);
	return ret ? ret : hist_add(h, end - o->begin);
}

/* An end: its thread's innermost open span is closed. */
static int span_end(struct spans *m, uint64_t key, uint64_t ts)
{
	struct span_stack *st = stack_of(m, key, 0);
	struct span_open o;
	int ret;

	if (!st || !st->n) {
		m->unmatched_end++;
		return 0;
	}
	o = st->v[--st->n];
	add_current_state(m, key, &o, ts);
	ret = name_add(m, key, &o, ts);
	free(o.name);
	return ret;
}

/* A marker: a begin opens a span named by its text, an end closes one. */
static int on_mark(struct spans *m, const struct event *ev)
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

/* A hit of the pair's begin probe opens a span, one of its end probe closes one. */
static int on_probe(struct spans *m, const struct event *ev)
{
	struct ktp_probe_hit h;
	uint64_t key;

	memcpy(&h, ev->rec, sizeof(h));
	if (h.id != m->pair->begin_id && h.id != m->pair->end_id)
		return 0;
	key = thread_key(m, h.pid);
	if (h.id == m->pair->end_id)
		return span_end(m, key, ev->ts);
	return span_begin(m, key, ev->ts, m->pair->name, strlen(m->pair->name));
}

int spans_event(struct spans *m, const struct event *ev)
{
	if (ev->type == KTP_REC_MARK && !m->pair)
		return on_mark(m, ev);
	if (ev->type == KTP_REC_PROBE && m->pair)
		return on_probe(m, ev);
	return 0;
}

void spans_state_time(struct spans *m, uint32_t t, enum sched_state state,
		      uint64_t from, uint64_t to)
{
	struct span_stack *st = stack_of(m, t, 0);
	size_t k;

	/* Nested spans each get the time: each is its own span. */
	for (k = 0; st && k < st->n; k++)
		if (to > st->v[k].begin)
			st->v[k].state_ns[state] += to - (from > st->v[k].begin ? from : st->v[k].begin);
}

uint32_t spans_key_pid(const struct sched *sched, uint64_t key)
{
	return key & SPANS_NO_THREAD ? (uint32_t)key : sched_thread(sched, (uint32_t)key)->pid;
}

uint32_t spans_key_tgid(const struct sched *sched, uint64_t key)
{
	return key & SPANS_NO_THREAD ? (uint32_t)key : sched_thread(sched, (uint32_t)key)->tgid;
}

/* A thread's or a process's spans, as listed: the most first, then the smaller id. */
struct who_order {
	uint64_t count, id, key;
	const struct hist *d;
};

static int cmp_who(const void *x, const void *y)
{
	const struct who_order *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * The entries of @hists (key -> struct hist *) with the most spans into
 * *@top (SPANS_TOP at most, copies), the others' spans in *@other; @threads:
 * the keys are thread keys, ordered by pid, else tgids.
 */
static int who_top(const struct spans *m, const struct u64_map *hists, int threads,
		   struct span_who **top, unsigned int *ntop, uint64_t *other)
{
	struct who_order *v = NULL;
	size_t i = 0, n = 0, cap = 0;
	uint64_t key;
	void *h;
	int ret = 0;

	while (u64_map_next(hists, &i, &key, &h)) {
		if (array_reserve_n((void **)&v, &cap, n, sizeof(*v), 16)) {
			free(v);
			return -ENOMEM;
		}
		v[n++] = (struct who_order){ ((const struct hist *)h)->count,
					     threads ? spans_key_pid(m->sched, key) : key, key, h };
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_who);
	*top = calloc(n < SPANS_TOP ? (n ? n : 1) : SPANS_TOP, sizeof(**top));
	if (!*top)
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		if (i >= SPANS_TOP) {
			*other += v[i].count;
			continue;
		}
		(*top)[i].key = v[i].key;
		hist_init(&(*top)[i].d);
		(*ntop)++;
		ret = hist_merge(&(*top)[i].d, v[i].d);
	}
	free(v);
	return ret;
}

/* A name's busiest threads, and its processes' spans (their threads' summed). */
static int who_derive(const struct spans *m, struct span_name *s)
{
	struct u64_map by_tgid;
	struct hist *h;
	size_t i = 0;
	uint64_t key;
	void *v;
	int ret = 0;

	u64_map_init(&by_tgid);
	while (!ret && u64_map_next(&s->by_thread, &i, &key, &v)) {
		h = hist_of(&by_tgid, spans_key_tgid(m->sched, key));
		ret = h ? hist_merge(h, v) : -ENOMEM;
	}
	if (!ret)
		ret = who_top(m, &by_tgid, 0, &s->procs, &s->nprocs, &s->other_procs);
	if (!ret)
		ret = who_top(m, &s->by_thread, 1, &s->threads, &s->nthreads, &s->other_threads);
	hists_fini(&by_tgid);
	return ret;
}

static int by_count(const void *x, const void *y, void *arg)
{
	const struct spans *m = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint64_t na = m->by_name[a].d.count, nb = m->by_name[b].d.count;

	if (na != nb)
		return na > nb ? -1 : 1;
	return strcmp(spans_name(m, a), spans_name(m, b));
}

int spans_finish(struct spans *m)
{
	size_t i = 0;
	uint64_t key;
	uint32_t k;
	void *v;

	/* A probe pair has its one name, spans or none. */
	if (m->pair && name_id(m, m->pair->name, &k))
		return -ENOMEM;
	m->unmatched_begin = 0;
	while (u64_map_next(&m->stacks, &i, &key, &v))
		m->unmatched_begin += ((struct span_stack *)v)->n;
	free(m->order);
	m->order = malloc((m->names.n ? m->names.n : 1) * sizeof(*m->order));
	if (!m->order)
		return -ENOMEM;
	for (k = 0; k < m->names.n; k++)
		m->order[k] = k;
	qsort_r(m->order, m->names.n, sizeof(*m->order), by_count, m);
	for (k = 0; k < m->names.n; k++) {
		int ret = who_derive(m, &m->by_name[k]);

		if (ret)
			return ret;
	}
	return 0;
}

/* --- Output --- */

/* The states a span's time is shown in, as the report's thread states. */
static const struct {
	enum sched_state state;
	const char *name;
} span_states[] = {
	{ SCHED_RUNNING, "running" },
	{ SCHED_RUNNABLE, "runnable" },
	{ SCHED_SLEEPING, "sleeping" },
	{ SCHED_BLOCKED, "blocked" },
	{ SCHED_OTHER, "other" },
};

#define NR_SPAN_STATES (sizeof(span_states) / sizeof(span_states[0]))

/* A thread key's name, a process's (its leader's, else its first thread's); "?": unknown. */
static const char *thread_comm(const struct report *r, uint64_t key)
{
	return key & SPANS_NO_THREAD ? "?" : report_thread_name(r, (uint32_t)key);
}

static const char *process_comm(const struct report *r, uint64_t tgid)
{
	const struct sched *s = &r->model->sched;
	uint32_t p = sched_process_of(s, (uint32_t)tgid);

	return p < SCHED_NONE && s->procs[p].comm[0] ? s->procs[p].comm : "?";
}

/* "by thread: 101 (w1) 2 (p50 300 ns, max 1.80 us), ..., others 3". */
static void who_text(FILE *out, const struct report *r, const char *what,
		     const struct span_who *w, unsigned int n, uint64_t other, int threads)
{
	const struct sched *s = &r->model->sched;
	char b[2][24];
	unsigned int i;

	fprintf(out, "      by %s:", what);
	for (i = 0; i < n; i++)
		fprintf(out, " %" PRIu32 " (%s) %" PRIu64 " (p50 %s, max %s)%s",
			threads ? spans_key_pid(s, w[i].key) : (uint32_t)w[i].key,
			text_esc(threads ? thread_comm(r, w[i].key) : process_comm(r, w[i].key)),
			w[i].d.count, render_ns(hist_percentile(&w[i].d, 50), b[0], sizeof(b[0])),
			render_ns(w[i].d.max, b[1], sizeof(b[1])), i + 1 < n || other ? "," : "");
	if (other)
		fprintf(out, " others %" PRIu64, other);
	fputc('\n', out);
}

void spans_text(FILE *out, const struct report *r, const struct spans *m, const char *what,
		unsigned int top)
{
	char b[4][24];
	uint32_t i;
	size_t k;

	fprintf(out, "  %s: %" PRIu64 " begins and %" PRIu64 " ends unmatched\n", what,
		m->unmatched_begin, m->unmatched_end);
	for (i = 0; i < spans_count(m) && i < top; i++) {
		const struct span_name *s = &m->by_name[m->order[i]];

		fprintf(out, "    %-24s %6" PRIu64 " spans, p50 %s, p99 %s, max %s;",
			text_esc(spans_name(m, m->order[i])), s->d.count,
			render_ns(hist_percentile(&s->d, 50), b[0], sizeof(b[0])),
			render_ns(hist_percentile(&s->d, 99), b[1], sizeof(b[1])),
			render_ns(s->d.max, b[2], sizeof(b[2])));
		for (k = 0; k < NR_SPAN_STATES; k++)
			fprintf(out, " %s %.1f%%", span_states[k].name,
				render_pct(s->state_ns[span_states[k].state], s->d.sum));
		fprintf(out, " of %s\n", render_ns(s->d.sum, b[3], sizeof(b[3])));
		if (!s->d.count)
			continue;
		who_text(out, r, "process", s->procs, s->nprocs, s->other_procs, 0);
		who_text(out, r, "thread", s->threads, s->nthreads, s->other_threads, 1);
	}
	if (spans_count(m) > top)
		fprintf(out, "    (%u more names)\n", spans_count(m) - top);
}

void spans_html(FILE *f, const struct spans *m, const char *what, unsigned int top)
{
	char b[4][24];
	uint32_t i;
	size_t k;

	fputs("<p>", f);
	html_esc(f, what);
	fprintf(f, ": %" PRIu64 " begins and %" PRIu64 " ends unmatched</p>\n",
		m->unmatched_begin, m->unmatched_end);
	if (!spans_count(m))
		return;
	fputs("<table><tr><th class=l>span</th><th>count</th><th>p50</th><th>p99</th>"
	      "<th>max</th><th>total</th>", f);
	for (k = 0; k < NR_SPAN_STATES; k++)
		fprintf(f, "<th>%s</th>", span_states[k].name);
	fputs("</tr>\n", f);
	for (i = 0; i < spans_count(m) && i < top; i++) {
		const struct span_name *s = &m->by_name[m->order[i]];

		fputs("<tr><td class=l>", f);
		html_esc(f, spans_name(m, m->order[i]));
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
			s->d.count, render_ns(hist_percentile(&s->d, 50), b[0], sizeof(b[0])),
			render_ns(hist_percentile(&s->d, 99), b[1], sizeof(b[1])),
			render_ns(s->d.max, b[2], sizeof(b[2])), render_ns(s->d.sum, b[3], sizeof(b[3])));
		for (k = 0; k < NR_SPAN_STATES; k++)
			fprintf(f, "<td>%.1f%%</td>",
				render_pct(s->state_ns[span_states[k].state], s->d.sum));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* --- JSON: a span name's object, its context's item the struct span_name --- */

static json_object *get_unknown(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(span_unknown_ns(c->item));
}

static json_object *get_duration(const struct json_field *f, struct json_ctx *c)
{
	const struct span_name *s = c->item;

	(void)f;
	return json_doc_dist(c, &s->d);
}

#define STATE_NS(n, s) { .name = n, .type = JSON_INT, \
	.off = offsetof(struct span_name, state_ns) + (s) * sizeof(uint64_t) }

static const struct json_field span_state_fields[] = {
	STATE_NS("running_ns", SCHED_RUNNING),
	STATE_NS("runnable_ns", SCHED_RUNNABLE),
	STATE_NS("sleeping_ns", SCHED_SLEEPING),
	STATE_NS("blocked_ns", SCHED_BLOCKED),
	STATE_NS("other_ns", SCHED_OTHER),
	{ .name = "unknown_ns", .type = JSON_INT, .get = get_unknown,
	  .description = "in no known state: unknown time, or a thread the capture does not show" },
	JSON_END
};

/*
 * A list inside a span name: its iterator's context starts at the name,
 * which the first call keeps in @c->aux for the others.
 */
static const struct span_name *parent(struct json_ctx *c, size_t pos)
{
	if (!pos)
		c->aux = c->item;
	return c->aux;
}

static int next_proc(struct json_ctx *c, size_t *pos)
{
	const struct span_name *s = parent(c, *pos);

	if (*pos >= s->nprocs)
		return 0;
	c->item = &s->procs[(*pos)++];
	return 1;
}

static int next_thread(struct json_ctx *c, size_t *pos)
{
	const struct span_name *s = parent(c, *pos);

	if (*pos >= s->nthreads)
		return 0;
	c->item = &s->threads[(*pos)++];
	return 1;
}

/* A name, or nothing when the model does not know it. */
static json_object *comm_or_none(const char *comm)
{
	return strcmp(comm, "?") ? json_doc_str(comm) : NULL;
}

/* A process's spans: key is its tgid. */
static json_object *get_proc(const struct json_field *f, struct json_ctx *c)
{
	const struct span_who *w = c->item;

	if (!strcmp(f->name, "comm"))
		return comm_or_none(process_comm(render_report(c), w->key));
	if (!strcmp(f->name, "tgid"))
		return json_doc_u64(w->key);
	return json_doc_dist(c, &w->d);
}

/* A thread's spans: key is its thread key. */
static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);
	const struct span_who *w = c->item;

	if (!strcmp(f->name, "comm"))
		return comm_or_none(thread_comm(r, w->key));
	if (!strcmp(f->name, "pid"))
		return json_doc_u64(spans_key_pid(&r->model->sched, w->key));
	if (!strcmp(f->name, "tgid"))
		return json_doc_u64(spans_key_tgid(&r->model->sched, w->key));
	return json_doc_dist(c, &w->d);
}

static const struct json_field proc_fields[] = {
	{ .name = "tgid", .type = JSON_INT, .get = get_proc },
	{ .name = "comm", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_proc },
	{ .name = "duration", .type = JSON_DIST, .get = get_proc,
	  .description = "its threads' spans of the name" },
	JSON_END
};

static const struct json_field thread_fields[] = {
	{ .name = "pid", .type = JSON_INT, .get = get_thread, .description = "thread id" },
	{ .name = "tgid", .type = JSON_INT, .get = get_thread },
	{ .name = "comm", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_thread },
	{ .name = "duration", .type = JSON_DIST, .get = get_thread },
	JSON_END
};

const struct json_field spans_name_fields[] = {
	{ .name = "duration", .type = JSON_DIST, .get = get_duration },
	{ .name = "states", .type = JSON_OBJ, .sub = span_state_fields,
	  .description = "its threads' time in each state while the spans were open, summed "
			 "(nested spans each count theirs)" },
	{ .name = "processes", .type = JSON_ARR, .sub = proc_fields, .next = next_proc,
	  .description = "the processes with the most spans, most first (ties: the smaller tgid)" },
	{ .name = "other_process_spans", .type = JSON_INT,
	  .off = offsetof(struct span_name, other_procs),
	  .description = "the spans of the processes not listed" },
	{ .name = "threads", .type = JSON_ARR, .sub = thread_fields, .next = next_thread,
	  .description = "the threads with the most spans, most first (ties: the smaller pid)" },
	{ .name = "other_thread_spans", .type = JSON_INT,
	  .off = offsetof(struct span_name, other_threads),
	  .description = "the spans of the threads not listed" },
	JSON_END
};
