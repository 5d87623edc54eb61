// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture/input.h"
#include "decode/record.h"
#include "report/analyze-probes.h"
#include "report/diff.h"
#include "report/render.h"
#include "report/stack-text.h"
#include "util/array.h"
#include "util/text.h"

/* --- The pass --- */

static int count_key(struct u64_map *m, uint64_t key, uint64_t n)
{
	uintptr_t had = (uintptr_t)u64_map_get(m, key);

	return u64_map_put(m, key, (void *)(had + n));
}

/* A hit's thread: its index in the model, else (a pid it never saw) the pid. */
#define PROBES_NO_THREAD (1ull << 32)

static uint64_t hits_key(const struct analyze_probes *a, uint32_t pid)
{
	uint32_t t = sched_lookup_pid(&a->r->model->sched, pid);

	return t < SCHED_NONE ? t : PROBES_NO_THREAD | pid;
}

/* A thread key's thread id, and its process's. */
static uint32_t key_pid(const struct analyze_probes *a, uint64_t key)
{
	return key & PROBES_NO_THREAD ? (uint32_t)key :
	       sched_thread(&a->r->model->sched, (uint32_t)key)->pid;
}

static uint32_t key_tgid(const struct analyze_probes *a, uint64_t key)
{
	return key & PROBES_NO_THREAD ? (uint32_t)key :
	       sched_thread(&a->r->model->sched, (uint32_t)key)->tgid;
}

static int on_probe(struct analyze_probes *a, const struct event *ev)
{
	struct ktp_probe_hit h;
	struct probes_probe *p;
	const char *s;
	unsigned int i;
	uint32_t len;
	uint64_t v;
	int ret;

	memcpy(&h, ev->rec, sizeof(h));
	if (h.id >= a->table.n) {
		a->unknown++;
		return 0;
	}
	p = &a->probes[h.id];
	p->hits++;
	ret = count_key(&p->by_thread, hits_key(a, h.pid), 1);
	if (!ret && (ev->flags & KTP_PROBE_HIT_STACK)) {
		const struct stack_table *st = &a->r->model->stacks;

		ret = probe_stacks_add(&p->stacks, st,
				       stack_table_find(st, ev->cpu, record_stack_id(ev)),
				       key_tgid(a, hits_key(a, h.pid)));
	}
	for (i = 0; !ret && i < p->spec->nargs; i++) {
		/* A record short of an argument the list names: not a value. */
		if (record_probe_arg(ev, i, &v, &s, &len))
			continue;
		if ((p->spec->args[i].show == PROBE_SHOW_STRING) != (s != NULL))
			continue;
		ret = probe_values_add(&p->args[i], v, s, len);
	}
	return ret;
}

static int on_mark(struct analyze_probes *a, const struct event *ev)
{
	struct ktp_mark m;
	int ret;

	memcpy(&m, ev->rec, sizeof(m));
	a->marks++;
	ret = count_key(&a->marks_by_pid, m.pid, 1);
	return ret ? ret : spans_event(&a->spans, ev);
}

static int probes_event(void *ctx, const struct event *ev)
{
	struct analyze_probes *a = ctx;
	int ret = 0;
	unsigned int i;

	if (a->error)
		return 0;
	if (ev->type == KTP_REC_PROBE)
		ret = on_probe(a, ev);
	else if (ev->type == KTP_REC_MARK)
		ret = on_mark(a, ev);
	for (i = 0; !ret && ev->type == KTP_REC_PROBE && i < a->span_table.n; i++)
		ret = spans_event(&a->pairs[i], ev);
	a->error = ret;
	return 0;
}

static void probes_state_time(void *ctx, uint32_t t, enum sched_state state,
			      uint64_t from, uint64_t to)
{
	struct analyze_probes *a = ctx;
	unsigned int i;

	spans_state_time(&a->spans, t, state, from, to);
	for (i = 0; i < a->span_table.n; i++)
		spans_state_time(&a->pairs[i], t, state, from, to);
}

static const struct sched_ops probes_ops = {
	.state_time = probes_state_time,
	.event = probes_event,
	.event_types = SCHED_TYPE(KTP_REC_PROBE) | SCHED_TYPE(KTP_REC_MARK),
};

/* The module's counts at stop: "ID HITS MISSES" lines. */
static void module_counts(struct analyze_probes *a, const char *text)
{
	unsigned int id;

	for (id = 0; id < a->table.n; id++)
		a->probes[id].have_module = probe_stats_get(text, id, &a->probes[id].module_hits,
							    &a->probes[id].module_misses);
}

static int probes_init(void *state, struct report *r)
{
	struct analyze_probes *a = state;
	const char *list = input_probes(r->model->in);
	struct error err;
	unsigned int i, k;

	a->r = r;
	u64_map_init(&a->marks_by_pid);
	spans_init(&a->spans, &r->model->sched, NULL);
	/* A damaged list: the probes' records are counted as unknown. */
	if (list && probe_table_parse(list, &a->table, &err))
		memset(&a->table, 0, sizeof(a->table));
	/* A damaged span list (or probe list): no probe pairs. */
	if (span_table_parse(input_spans(r->model->in), &a->table, &a->span_table, &err))
		memset(&a->span_table, 0, sizeof(a->span_table));
	if (a->span_table.n) {
		a->pairs = calloc(a->span_table.n, sizeof(*a->pairs));
		if (!a->pairs)
			return -ENOMEM;
	}
	for (i = 0; i < a->span_table.n; i++)
		spans_init(&a->pairs[i], &r->model->sched, &a->span_table.spans[i]);
	if (a->table.n) {
		a->probes = calloc(a->table.n, sizeof(*a->probes));
		if (!a->probes)
			return -ENOMEM;
	}
	for (i = 0; i < a->table.n; i++) {
		a->probes[i].spec = &a->table.probes[i];
		u64_map_init(&a->probes[i].by_thread);
		probe_stacks_init(&a->probes[i].stacks);
		for (k = 0; k < a->table.probes[i].nargs; k++)
			probe_values_init(&a->probes[i].args[k], &a->table.probes[i].args[k]);
	}
	module_counts(a, input_probe_stats(r->model->in));
	return model_add_client(r->model, &probes_ops, a, MODEL_WINDOWED);
}

static void probes_fini(void *state)
{
	struct analyze_probes *a = state;
	unsigned int i, k;

	for (i = 0; a->probes && i < a->table.n; i++) {
		u64_map_fini(&a->probes[i].by_thread);
		probe_stacks_fini(&a->probes[i].stacks);
		for (k = 0; k < a->probes[i].spec->nargs; k++)
			probe_values_fini(&a->probes[i].args[k]);
	}
	free(a->probes);
	probe_table_fini(&a->table);
	u64_map_fini(&a->marks_by_pid);
	spans_fini(&a->spans);
	for (i = 0; a->pairs && i < a->span_table.n; i++)
		spans_fini(&a->pairs[i]);
	free(a->pairs);
	span_table_fini(&a->span_table);
}

/* --- After the pass --- */

/* A thread key's name; a process's (its leader's, else its first thread's). */
static const char *key_comm(const struct analyze_probes *a, uint64_t key)
{
	return key & PROBES_NO_THREAD ? "?" : report_thread_name(a->r, (uint32_t)key);
}

static const char *tgid_comm(const struct analyze_probes *a, uint64_t tgid)
{
	const struct sched *s = &a->r->model->sched;
	uint32_t p = sched_process_of(s, (uint32_t)tgid);

	return p < SCHED_NONE && s->procs[p].comm[0] ? s->procs[p].comm : "?";
}

struct probes_count {
	uint64_t order, key, n;
};

static int cmp_count(const void *x, const void *y)
{
	const struct probes_count *a = x, *b = y;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * The entries of @m (key -> count) by count into @top, the rest's in
 * *@other; among equal counts the smaller pid first (@threads: the keys
 * are thread keys, else pids or tgids).
 */
static int top_of_map(const struct analyze_probes *a, const struct u64_map *m, int threads,
		      struct probe_value *top, unsigned int *ntop, uint64_t *other)
{
	struct probes_count *v = NULL;
	size_t i = 0, n = 0, cap = 0;
	uint64_t key;
	void *val;

	while (u64_map_next(m, &i, &key, &val)) {
		if (array_reserve_n((void **)&v, &cap, n, sizeof(*v), 16)) {
			free(v);
			return -ENOMEM;
		}
		v[n++] = (struct probes_count){ threads ? key_pid(a, key) : key, key,
						(uintptr_t)val };
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_count);
	for (i = 0; i < n; i++)
		probe_value_top(top, ntop, other, (struct probe_value){ v[i].key, NULL, v[i].n });
	free(v);
	return 0;
}

/* A probe's hits by thread, and by process (its threads' summed). */
static int hits_derive(const struct analyze_probes *a, struct probes_probe *p)
{
	struct u64_map by_tgid;
	size_t i = 0;
	uint64_t key;
	void *val;
	int ret = 0;

	u64_map_init(&by_tgid);
	while (!ret && u64_map_next(&p->by_thread, &i, &key, &val))
		ret = count_key(&by_tgid, key_tgid(a, key), (uintptr_t)val);
	if (!ret)
		ret = top_of_map(a, &by_tgid, 0, p->procs, &p->nprocs, &p->other_procs);
	if (!ret)
		ret = top_of_map(a, &p->by_thread, 1, p->threads, &p->nthreads,
				 &p->other_threads);
	u64_map_fini(&by_tgid);
	return ret;
}

static int probes_derive(void *state, struct report *r)
{
	struct analyze_probes *a = state;
	uint64_t none = 0;
	unsigned int i, k;
	int ret = a->error;

	(void)r;
	if (!ret)
		ret = spans_finish(&a->spans);
	for (i = 0; !ret && i < a->span_table.n; i++)
		ret = spans_finish(&a->pairs[i]);
	for (i = 0; !ret && i < a->table.n; i++) {
		struct probes_probe *p = &a->probes[i];

		ret = hits_derive(a, p);
		if (!ret)
			ret = probe_stacks_derive(&p->stacks);
		for (k = 0; !ret && k < p->spec->nargs; k++)
			ret = probe_values_derive(&p->args[k]);
	}
	if (!ret)
		ret = top_of_map(a, &a->marks_by_pid, 0, a->mark_pids, &a->nmark_pids, &none);
	return ret;
}

const struct analyze_probes *analyze_probes(const struct report *r)
{
	return report_state(r, &analyzer_probes);
}

/* --- Output --- */

/* A most frequent value as its type shows it. */
static const char *value_str(const struct probe_arg *spec, const struct probe_value *v,
			     char *buf, size_t len)
{
	return v->s ? v->s : probe_value_str(spec, v->v, buf, len);
}

static void arg_text(FILE *out, const struct probe_values *a)
{
	const struct probe_arg *spec = a->spec;
	char b[5][40];
	unsigned int i;

	fprintf(out, "    %s (%s): %" PRIu64 " values", text_esc(spec->name),
		probe_value_type(spec), a->n);
	if (a->n && spec->show != PROBE_SHOW_STRING)
		fprintf(out, ", min %s p50 %s p99 %s max %s",
			probe_value_str(spec, a->min, b[0], sizeof(b[0])),
			probe_value_str(spec, a->p50, b[1], sizeof(b[1])),
			probe_value_str(spec, a->p99, b[2], sizeof(b[2])),
			probe_value_str(spec, a->max, b[3], sizeof(b[3])));
	fputc('\n', out);
	for (i = 0; i < a->ntop; i++)
		fprintf(out, "      %10" PRIu64 "  %s\n", a->top[i].count,
			text_esc(value_str(spec, &a->top[i], b[4], sizeof(b[4]))));
	if (a->other)
		fprintf(out, "      %10" PRIu64 "  (other values)\n", a->other);
}

/* "10 (comm) 3, 11 (comm) 1, others 4": a probe's busiest threads or processes. */
static void hits_text(FILE *out, const struct analyze_probes *a, const char *what,
		      const struct probe_value *v, unsigned int n, uint64_t other, int threads)
{
	unsigned int i;

	fprintf(out, "    by %s:", what);
	for (i = 0; i < n; i++)
		fprintf(out, " %" PRIu32 " (%s) %" PRIu64 "%s",
			threads ? key_pid(a, v[i].v) : (uint32_t)v[i].v,
			text_esc(threads ? key_comm(a, v[i].v) : tgid_comm(a, v[i].v)), v[i].count,
			i + 1 < n || other ? "," : "");
	if (other)
		fprintf(out, " others %" PRIu64, other);
	fputc('\n', out);
}

/* A probe's most frequent stacks, each with its hits and frames. */
static void stacks_text(FILE *out, const struct analyze_probes *a, const struct probe_stacks *s)
{
	unsigned int i;

	if (!s->with)
		return;
	fprintf(out, "    stacks: %" PRIu64 " hits took one", s->with);
	if (s->lost)
		fprintf(out, " (%" PRIu64 " whose STACK record was lost)", s->lost);
	fputc('\n', out);
	for (i = 0; i < s->ntop; i++) {
		fprintf(out, "      %" PRIu64 " hits", s->top[i].count);
		if (s->top[i].tgid)
			fprintf(out, " in %" PRIu32 " (%s)", s->top[i].tgid,
				text_esc(tgid_comm(a, s->top[i].tgid)));
		fprintf(out, ":\n");
		stack_text_write(out, a->r, s->top[i].stack, s->top[i].tgid, "        ");
	}
	if (s->other)
		fprintf(out, "      %" PRIu64 " hits of other stacks\n", s->other);
}

static void probe_text(FILE *out, const struct analyze_probes *a, const struct probes_probe *p)
{
	char spec[2048];
	unsigned int i;

	fprintf(out, "  %s: %s, %" PRIu64 " hits", text_esc(p->spec->name),
		probe_spec_kind(p->spec), p->hits);
	if (p->have_module)
		fprintf(out, " (the module counted %" PRIu64 " in the session, %" PRIu64 " missed)",
			p->module_hits, p->module_misses);
	fprintf(out, "\n    %s\n", text_esc(probe_spec_format(p->spec, spec, sizeof(spec))));
	hits_text(out, a, "process", p->procs, p->nprocs, p->other_procs, 0);
	hits_text(out, a, "thread", p->threads, p->nthreads, p->other_threads, 1);
	for (i = 0; i < p->spec->nargs; i++)
		arg_text(out, &p->args[i]);
	stacks_text(out, a, &p->stacks);
}


/* "spans of probes B to E (record --span)": a pair's heading. */
static const char *pair_what(const struct spans *p, char *buf, size_t len)
{
	snprintf(buf, len, "spans of probes %s to %s (record --span)", p->pair->begin,
		 p->pair->end);
	return buf;
}

static void probes_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_probes *a = analyze_probes(r);
	char what[3 * PROBE_NAME_MAX];
	unsigned int i;

	render_heading(out, "probes (record --probe) and markers");
	if (!a->table.n && !a->marks)
		fprintf(out, "  no probes and no markers in this capture\n");
	for (i = 0; i < a->table.n; i++)
		probe_text(out, a, &a->probes[i]);
	if (a->unknown)
		fprintf(out, "  %" PRIu64 " hits of probes the capture's list does not name\n",
			a->unknown);
	for (i = 0; i < a->span_table.n; i++)
		spans_text(out, r, &a->pairs[i], pair_what(&a->pairs[i], what, sizeof(what)), v->top);
	if (!a->marks)
		return;
	fprintf(out, "  markers: %" PRIu64 "; by writer:", a->marks);
	for (i = 0; i < a->nmark_pids; i++)
		fprintf(out, " %" PRIu64 " %" PRIu64 "%s", a->mark_pids[i].v, a->mark_pids[i].count,
			i + 1 < a->nmark_pids ? "," : "");
	fputc('\n', out);
	spans_text(out, r, &a->spans, "spans (begin and end markers)", v->top);
}

/* --- HTML --- */

static void hits_html(FILE *f, const struct analyze_probes *a, const struct probe_value *v,
		      unsigned int n, uint64_t other, int threads)
{
	unsigned int i;

	fputs("<td class=l>", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s%" PRIu32 " ", i ? ", " : "",
			threads ? key_pid(a, v[i].v) : (uint32_t)v[i].v);
		html_esc(f, threads ? key_comm(a, v[i].v) : tgid_comm(a, v[i].v));
		fprintf(f, " %" PRIu64, v[i].count);
	}
	if (other)
		fprintf(f, "%sothers %" PRIu64, n ? ", " : "", other);
	fputs("</td>", f);
}

static void args_html(FILE *f, const struct probes_probe *p)
{
	char b[5][40];
	unsigned int i, k;

	for (i = 0; i < p->spec->nargs; i++) {
		const struct probe_values *a = &p->args[i];
		int num = a->n && a->spec->show != PROBE_SHOW_STRING;

		fputs("<tr><td class=l>", f);
		html_esc(f, p->spec->name);
		fputs("</td><td class=l>", f);
		html_esc(f, a->spec->name);
		fprintf(f, "</td><td class=l>%s</td><td>%" PRIu64 "</td>", probe_value_type(a->spec),
			a->n);
		fprintf(f, "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=l>",
			num ? probe_value_str(a->spec, a->min, b[0], sizeof(b[0])) : "",
			num ? probe_value_str(a->spec, a->p50, b[1], sizeof(b[1])) : "",
			num ? probe_value_str(a->spec, a->p99, b[2], sizeof(b[2])) : "",
			num ? probe_value_str(a->spec, a->max, b[3], sizeof(b[3])) : "");
		for (k = 0; k < a->ntop; k++) {
			fputs(k ? ", " : "", f);
			html_esc(f, value_str(a->spec, &a->top[k], b[4], sizeof(b[4])));
			fprintf(f, " (%" PRIu64 ")", a->top[k].count);
		}
		if (a->other)
			fprintf(f, ", others (%" PRIu64 ")", a->other);
		fputs("</td></tr>\n", f);
	}
}

/* A probe's most frequent stacks: a row each, its frames a line each. */
static void stacks_html(FILE *f, const struct analyze_probes *a, const struct probes_probe *p)
{
	const struct probe_stacks *s = &p->stacks;
	char buf[512];
	unsigned int i, j;

	for (i = 0; i < s->ntop; i++) {
		const struct stack_entry *e = stack_table_get(&a->r->model->stacks, s->top[i].stack);

		fputs("<tr><td class=l>", f);
		html_esc(f, p->spec->name);
		fprintf(f, "</td><td>%" PRIu64 "</td><td class=l>", s->top[i].count);
		for (j = 0; j < (unsigned int)e->nr_kernel + e->nr_user; j++) {
			fputs("<div>", f);
			html_esc(f, stack_text_frame(a->r, s->top[i].stack, s->top[i].tgid, j, buf,
						     sizeof(buf)));
			fputs("</div>", f);
		}
		fputs("</td></tr>\n", f);
	}
}

/* The probes' stacks, if any took one. */
static void stacks_table_html(FILE *f, const struct analyze_probes *a)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->table.n; i++)
		n += a->probes[i].stacks.ntop;
	if (!n)
		return;
	fputs("<table><tr><th class=l>probe</th><th>hits</th>"
	      "<th class=l>stack (leaf first)</th></tr>\n", f);
	for (i = 0; i < a->table.n; i++)
		stacks_html(f, a, &a->probes[i]);
	fputs("</table>\n", f);
}

static void probes_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_probes *a = analyze_probes(r);
	char what[3 * PROBE_NAME_MAX];
	unsigned int i;

	fputs("<h2 id=probes>probes and markers</h2>\n", f);
	if (!a->table.n && !a->marks) {
		fputs("<p>no probes and no markers in this capture</p>\n", f);
		return;
	}
	if (a->table.n) {
		fputs("<table><tr><th class=l>probe</th><th class=l>kind</th><th>hits</th>"
		      "<th>module hits</th><th>module misses</th><th class=l>by process</th>"
		      "<th class=l>by thread</th></tr>\n", f);
		for (i = 0; i < a->table.n; i++) {
			const struct probes_probe *p = &a->probes[i];

			fputs("<tr><td class=l>", f);
			html_esc(f, p->spec->name);
			fprintf(f, "</td><td class=l>%s</td><td>%" PRIu64 "</td>",
				probe_spec_kind(p->spec), p->hits);
			if (p->have_module)
				fprintf(f, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td>",
					p->module_hits, p->module_misses);
			else
				fputs("<td></td><td></td>", f);
			hits_html(f, a, p->procs, p->nprocs, p->other_procs, 0);
			hits_html(f, a, p->threads, p->nthreads, p->other_threads, 1);
			fputs("</tr>\n", f);
		}
		fputs("</table>\n<table><tr><th class=l>probe</th><th class=l>argument</th>"
		      "<th class=l>type</th><th>values</th><th>min</th><th>p50</th><th>p99</th>"
		      "<th>max</th><th class=l>most frequent (count)</th></tr>\n", f);
		for (i = 0; i < a->table.n; i++)
			args_html(f, &a->probes[i]);
		fputs("</table>\n", f);
		stacks_table_html(f, a);
	}
	if (a->unknown)
		fprintf(f, "<p>%" PRIu64 " hits of probes the capture's list does not name</p>\n",
			a->unknown);
	for (i = 0; i < a->span_table.n; i++)
		spans_html(f, &a->pairs[i], pair_what(&a->pairs[i], what, sizeof(what)), v->top);
	if (a->marks) {
		fprintf(f, "<p>%" PRIu64 " markers</p>\n", a->marks);
		spans_html(f, &a->spans, "spans of begin and end markers", v->top);
	}
}

/* --- JSON --- */

static const struct probes_probe *probe(const struct json_ctx *c)
{
	return c->item;
}

static json_object *typed(const struct probe_arg *spec, uint64_t v)
{
	if (spec->show == PROBE_SHOW_SIGNED)
		return json_object_new_int64(probe_arg_signed(spec, v));
	return json_doc_u64(v);
}

static json_object *get_probe(const struct json_field *f, struct json_ctx *c)
{
	const struct probes_probe *p = probe(c);
	char buf[2048];

	if (!strcmp(f->name, "name"))
		return json_doc_str(p->spec->name);
	if (!strcmp(f->name, "kind"))
		return json_doc_str(probe_spec_kind(p->spec));
	if (!strcmp(f->name, "spec"))
		return json_doc_str(probe_spec_format(p->spec, buf, sizeof(buf)));
	if (!strcmp(f->name, "hits"))
		return json_doc_u64(p->hits);
	if (!p->have_module)
		return NULL;
	return json_doc_u64(!strcmp(f->name, "module_hits") ? p->module_hits : p->module_misses);
}

static json_object *get_pid(const struct json_field *f, struct json_ctx *c)
{
	const struct probe_value *v = c->item;

	return json_doc_u64(!strcmp(f->name, "pid") ? v->v : v->count);
}

/*
 * A list inside an item: its iterator's context starts at the item, which
 * the first call keeps in @c->aux for the others (and the getters).
 */
static const void *parent(struct json_ctx *c, size_t pos)
{
	if (!pos)
		c->aux = c->item;
	return c->aux;
}

static int next_proc(struct json_ctx *c, size_t *pos)
{
	const struct probes_probe *p = parent(c, *pos);

	if (*pos >= p->nprocs)
		return 0;
	c->item = &p->procs[(*pos)++];
	return 1;
}

static int next_thread(struct json_ctx *c, size_t *pos)
{
	const struct probes_probe *p = parent(c, *pos);

	if (*pos >= p->nthreads)
		return 0;
	c->item = &p->threads[(*pos)++];
	return 1;
}

/* A name, or nothing when the model does not know it. */
static json_object *comm_or_none(const char *comm)
{
	return strcmp(comm, "?") ? json_doc_str(comm) : NULL;
}

/* A process's hits: v is its tgid. */
static json_object *get_proc(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));
	const struct probe_value *v = c->item;

	if (!strcmp(f->name, "comm"))
		return comm_or_none(tgid_comm(a, v->v));
	return json_doc_u64(!strcmp(f->name, "tgid") ? v->v : v->count);
}

/* A thread's hits: v is its key. */
static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));
	const struct probe_value *v = c->item;

	if (!strcmp(f->name, "comm"))
		return comm_or_none(key_comm(a, v->v));
	if (!strcmp(f->name, "pid"))
		return json_doc_u64(key_pid(a, v->v));
	return json_doc_u64(!strcmp(f->name, "tgid") ? key_tgid(a, v->v) : v->count);
}

static const struct json_field proc_fields[] = {
	{ .name = "tgid", .type = JSON_INT, .get = get_proc },
	{ .name = "comm", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_proc },
	{ .name = "hits", .type = JSON_INT, .get = get_proc },
	JSON_END
};

static const struct json_field thread_fields[] = {
	{ .name = "pid", .type = JSON_INT, .get = get_thread, .description = "thread id" },
	{ .name = "tgid", .type = JSON_INT, .get = get_thread },
	{ .name = "comm", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_thread },
	{ .name = "hits", .type = JSON_INT, .get = get_thread },
	JSON_END
};

static json_object *get_arg(const struct json_field *f, struct json_ctx *c)
{
	const struct probe_values *a = c->item;
	const struct probe_arg *spec = a->spec;

	if (!strcmp(f->name, "name"))
		return json_doc_str(spec->name);
	if (!strcmp(f->name, "type"))
		return json_doc_str(probe_value_type(spec));
	if (!strcmp(f->name, "count"))
		return json_doc_u64(a->n);
	if (!strcmp(f->name, "other"))
		return json_doc_u64(a->other);
	if (spec->show == PROBE_SHOW_STRING || !a->n)
		return NULL;
	if (!strcmp(f->name, "min"))
		return typed(spec, a->min);
	if (!strcmp(f->name, "p50"))
		return typed(spec, a->p50);
	if (!strcmp(f->name, "p99"))
		return typed(spec, a->p99);
	return typed(spec, a->max);
}

static json_object *get_value(const struct json_field *f, struct json_ctx *c)
{
	const struct probe_value *v = c->item;
	const struct probe_values *a = c->aux;

	if (!strcmp(f->name, "count"))
		return json_doc_u64(v->count);
	return v->s ? json_doc_str(v->s) : typed(a->spec, v->v);
}

static int next_value(struct json_ctx *c, size_t *pos)
{
	const struct probe_values *a = parent(c, *pos);

	if (*pos >= a->ntop)
		return 0;
	c->item = &a->top[(*pos)++];
	return 1;
}

static const struct json_field value_fields[] = {
	{ .name = "value", .type = JSON_ANY, .get = get_value,
	  .description = "a number (signed types negative where so) or a string" },
	{ .name = "count", .type = JSON_INT, .get = get_value },
	JSON_END
};

static const struct json_field arg_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_arg },
	{ .name = "type", .type = JSON_STR, .get = get_arg,
	  .description = "unsigned, signed, hex or string" },
	{ .name = "count", .type = JSON_INT, .get = get_arg },
	{ .name = "min", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_arg },
	{ .name = "p50", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_arg },
	{ .name = "p99", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_arg },
	{ .name = "max", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_arg },
	{ .name = "top", .type = JSON_ARR, .sub = value_fields, .next = next_value },
	{ .name = "other", .type = JSON_INT, .get = get_arg },
	JSON_END
};

static int next_arg(struct json_ctx *c, size_t *pos)
{
	const struct probes_probe *p = parent(c, *pos);

	if (*pos >= p->spec->nargs)
		return 0;
	c->item = &p->args[(*pos)++];
	return 1;
}

static json_object *get_stack(const struct json_field *f, struct json_ctx *c)
{
	const struct probe_stack *s = c->item;

	if (!strcmp(f->name, "count"))
		return json_doc_u64(s->count);
	if (!strcmp(f->name, "tgid"))
		return s->tgid ? json_doc_u64(s->tgid) : NULL;
	return stack_text_json(c, f->off, s->stack, s->tgid);
}

static int next_stack(struct json_ctx *c, size_t *pos)
{
	const struct probes_probe *p = parent(c, *pos);

	if (*pos >= p->stacks.ntop)
		return 0;
	c->item = &p->stacks.top[(*pos)++];
	return 1;
}

static const struct json_field stack_fields[] = {
	{ .name = "count", .type = JSON_INT, .get = get_stack, .description = "hits" },
	{ .name = "tgid", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_stack,
	  .description = "the process whose user frames they are (none: a kernel stack)" },
	{ .name = "kframes", .type = JSON_STRS, .get = get_stack, .description = "leaf first" },
	{ .name = "uframes", .type = JSON_STRS, .off = 1, .get = get_stack },
	JSON_END
};

static const struct json_field probe_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_probe },
	{ .name = "kind", .type = JSON_STR, .get = get_probe,
	  .description = "kprobe, kretprobe, uprobe, uretprobe or usdt" },
	{ .name = "spec", .type = JSON_STR, .get = get_probe },
	{ .name = "hits", .type = JSON_INT, .get = get_probe, .description = "in the window" },
	{ .name = "module_hits", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_probe,
	  .description = "the module's count over the session" },
	{ .name = "module_misses", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_probe },
	{ .name = "processes", .type = JSON_ARR, .sub = proc_fields, .next = next_proc,
	  .description = "the processes with the most hits, most first" },
	{ .name = "other_hits", .type = JSON_INT, .off = offsetof(struct probes_probe, other_procs),
	  .description = "the hits of the processes not listed" },
	{ .name = "threads", .type = JSON_ARR, .sub = thread_fields, .next = next_thread,
	  .description = "the threads with the most hits, most first" },
	{ .name = "other_thread_hits", .type = JSON_INT,
	  .off = offsetof(struct probes_probe, other_threads),
	  .description = "the hits of the threads not listed" },
	{ .name = "args", .type = JSON_ARR, .sub = arg_fields, .next = next_arg },
	{ .name = "stack_hits", .type = JSON_INT,
	  .off = offsetof(struct probes_probe, stacks.with),
	  .description = "hits that took a stack (record --probe ... stack)" },
	{ .name = "stack_lost", .type = JSON_INT,
	  .off = offsetof(struct probes_probe, stacks.lost),
	  .description = "of them, those whose STACK record the capture lacks" },
	{ .name = "stacks", .type = JSON_ARR, .sub = stack_fields, .next = next_stack,
	  .description = "the most frequent stacks, most hits first" },
	{ .name = "other_stack_hits", .type = JSON_INT,
	  .off = offsetof(struct probes_probe, stacks.other),
	  .description = "the hits of the stacks not listed" },
	JSON_END
};

static int next_probe(struct json_ctx *c, size_t *pos)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	if (*pos >= a->table.n)
		return 0;
	c->item = &a->probes[(*pos)++];
	return 1;
}

static json_object *get_span(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	(void)f;
	return json_doc_str(spans_name(&a->spans, (uint32_t)c->id));
}

static int next_span(struct json_ctx *c, size_t *pos)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	if (*pos >= spans_count(&a->spans))
		return 0;
	c->id = a->spans.order[(*pos)++];
	c->item = &a->spans.by_name[c->id];
	return 1;
}

static const struct json_field span_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_span, .description = "its begins' text" },
	{ .name = "fields", .type = JSON_FIELDS, .sub = spans_name_fields },
	JSON_END
};

/* A probe pair: c->id its index, c->item its one name's figures. */
static json_object *get_pair(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));
	const struct spans *p = &a->pairs[c->id];

	if (!strcmp(f->name, "name"))
		return json_doc_str(p->pair->name);
	if (!strcmp(f->name, "begin"))
		return json_doc_str(p->pair->begin);
	if (!strcmp(f->name, "end"))
		return json_doc_str(p->pair->end);
	if (!strcmp(f->name, "unmatched_begins"))
		return json_doc_u64(p->unmatched_begin);
	return json_doc_u64(p->unmatched_end);
}

static int next_pair(struct json_ctx *c, size_t *pos)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	if (*pos >= a->span_table.n)
		return 0;
	c->id = (*pos)++;
	c->item = &a->pairs[c->id].by_name[0];
	return 1;
}

static const struct json_field pair_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_pair },
	{ .name = "begin", .type = JSON_STR, .get = get_pair,
	  .description = "the probe whose hit begins a span" },
	{ .name = "end", .type = JSON_STR, .get = get_pair,
	  .description = "the probe whose hit ends its thread's innermost open span" },
	{ .name = "fields", .type = JSON_FIELDS, .sub = spans_name_fields },
	{ .name = "unmatched_begins", .type = JSON_INT, .get = get_pair },
	{ .name = "unmatched_ends", .type = JSON_INT, .get = get_pair },
	JSON_END
};

static int next_mark_pid(struct json_ctx *c, size_t *pos)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	if (*pos >= a->nmark_pids)
		return 0;
	c->item = &a->mark_pids[(*pos)++];
	return 1;
}

static const struct json_field mark_pid_fields[] = {
	{ .name = "pid", .type = JSON_INT, .get = get_pid },
	{ .name = "markers", .type = JSON_INT, .off = offsetof(struct probe_value, count) },
	JSON_END
};

static json_object *get_section(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	if (!strcmp(f->name, "unknown_hits"))
		return json_doc_u64(a->unknown);
	if (!strcmp(f->name, "markers"))
		return json_doc_u64(a->marks);
	if (!strcmp(f->name, "unmatched_begins"))
		return json_doc_u64(a->spans.unmatched_begin);
	return json_doc_u64(a->spans.unmatched_end);
}

static const struct json_field section_fields[] = {
	{ .name = "probes", .type = JSON_ARR, .sub = probe_fields, .next = next_probe },
	{ .name = "unknown_hits", .type = JSON_INT, .get = get_section },
	{ .name = "markers", .type = JSON_INT, .get = get_section },
	{ .name = "marker_writers", .type = JSON_ARR, .sub = mark_pid_fields, .next = next_mark_pid },
	{ .name = "spans", .type = JSON_ARR, .sub = span_fields, .flags = JSON_LIST,
	  .next = next_span, .order = "duration.count",
	  .description = "by name, the most spans first" },
	{ .name = "unmatched_begins", .type = JSON_INT, .get = get_section },
	{ .name = "unmatched_ends", .type = JSON_INT, .get = get_section },
	{ .name = "probe_spans", .type = JSON_ARR, .sub = pair_fields, .next = next_pair,
	  .description = "record --span's spans, one a pair of probes, as given" },
	JSON_END
};

static const struct json_field probes_doc[] = {
	{ .name = "probes", .type = JSON_OBJ, .sub = section_fields,
	  .description = "record --probe's probes (hits, processes, threads, argument values), "
			 "the markers (writers, spans) and the spans of probe pairs" },
	JSON_END
};

/* --- diff: each probe's hits, each span name's count and durations --- */

static uint32_t probe_count(const struct report *r)
{
	return analyze_probes(r)->table.n;
}

static const char *probe_key(const struct report *r, uint32_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s", analyze_probes(r)->table.probes[i].name);
	return buf;
}

static double probe_hits(const struct report *r, uint32_t i)
{
	return analyze_probes(r)->probes[i].hits;
}

/* Span names: each probe pair's (its one), then the markers'. */
static uint32_t span_count(const struct report *r)
{
	const struct analyze_probes *a = analyze_probes(r);

	return a->span_table.n + spans_count(&a->spans);
}

static const struct span_name *span_of(const struct report *r, uint32_t i)
{
	const struct analyze_probes *a = analyze_probes(r);

	return i < a->span_table.n ? &a->pairs[i].by_name[0] :
	       &a->spans.by_name[i - a->span_table.n];
}

/* A pair's name; "marker TEXT" (names hold no space: the two never meet). */
static const char *span_key(const struct report *r, uint32_t i, char *buf, size_t len)
{
	const struct analyze_probes *a = analyze_probes(r);

	if (i < a->span_table.n)
		snprintf(buf, len, "%s", a->span_table.spans[i].name);
	else
		snprintf(buf, len, "marker %s", spans_name(&a->spans, i - a->span_table.n));
	return buf;
}

static double span_spans(const struct report *r, uint32_t i)
{
	return span_of(r, i)->d.count;
}

static const struct hist *span_durations(const struct report *r, uint32_t i)
{
	return &span_of(r, i)->d;
}

static const struct diff_metric probes_metrics[] = {
	{ .name = "hits", .entity = DIFF_PROBE, .kind = METRIC_COUNT, .value = probe_hits,
	  .count = probe_count, .name_of = probe_key },
	{ .name = "spans", .entity = DIFF_SPAN, .kind = METRIC_COUNT, .value = span_spans,
	  .count = span_count, .name_of = span_key },
	{ .name = "duration", .entity = DIFF_SPAN, .kind = METRIC_DIST, .dist = span_durations,
	  .count = span_count, .name_of = span_key },
	{ NULL }
};

static int probes_applies(const struct report *r)
{
	const struct analyze_probes *a = analyze_probes(r);

	return a->table.n || a->marks;
}

const struct analyzer analyzer_probes = {
	.name = "probes",
	.help = "record --probe's hits, arguments, probe pairs' and markers' spans",
	.size = sizeof(struct analyze_probes),
	.init = probes_init,
	.fini = probes_fini,
	.derive = probes_derive,
	.text = probes_text,
	.html = probes_html,
	.nav = "probes",
	.doc = probes_doc,
	.metrics = probes_metrics,
	.tool = {
		"analyze_probes", "Probes and markers",
		"record --probe's probes: hits per probe, process and thread, each argument's "
		"values (numbers: min, p50, p99, max; the most frequent values); markers; the "
		"spans of begin/end markers and of record --span's probe pairs, with their "
		"durations (overall, by process and by thread) and their threads' time in each "
		"state (running, runnable, sleeping, blocked).",
		ARGS_ANALYSIS, 0, NULL, probes_applies,
	},
};
