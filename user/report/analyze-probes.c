// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture/input.h"
#include "decode/record.h"
#include "report/analyze-probes.h"
#include "report/render.h"
#include "util/array.h"
#include "util/text.h"

/* --- The pass --- */

static int count_pid(struct u64_map *m, uint32_t pid)
{
	uintptr_t n = (uintptr_t)u64_map_get(m, pid);

	return u64_map_put(m, pid, (void *)(n + 1));
}

static int arg_add(struct probes_arg *a, uint64_t v, const char *s, uint32_t len)
{
	char *copy = NULL;

	if (s) {
		copy = strndup(s, len);
		if (!copy || array_reserve_n((void **)&a->s, &a->cap, a->n, sizeof(*a->s), 64)) {
			free(copy);
			return -ENOMEM;
		}
		a->s[a->n++] = copy;
		return 0;
	}
	if (array_reserve_n((void **)&a->v, &a->cap, a->n, sizeof(*a->v), 64))
		return -ENOMEM;
	a->v[a->n++] = v;
	return 0;
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
	ret = count_pid(&p->by_pid, h.pid);
	for (i = 0; !ret && i < p->spec->nargs; i++) {
		/* A record short of an argument the list names: not a value. */
		if (record_probe_arg(ev, i, &v, &s, &len))
			continue;
		if ((p->spec->args[i].show == PROBE_SHOW_STRING) != (s != NULL))
			continue;
		ret = arg_add(&p->args[i], v, s, len);
	}
	return ret;
}

static struct probes_span *span_of(struct analyze_probes *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nspans; i++)
		if (!strcmp(a->spans[i].name, name))
			return &a->spans[i];
	if (array_reserve_n((void **)&a->spans, &a->spans_cap, a->nspans, sizeof(*a->spans), 8))
		return NULL;
	a->spans[a->nspans].name = strdup(name);
	if (!a->spans[a->nspans].name)
		return NULL;
	hist_init(&a->spans[a->nspans].d);
	return &a->spans[a->nspans++];
}

/* An end: the innermost open begin of the same text on the same thread. */
static int span_end(struct analyze_probes *a, uint32_t pid, const char *name, uint64_t ts)
{
	struct probes_span *sp;
	size_t i = a->nopen;
	int ret;

	while (i-- > 0)
		if (a->open[i].pid == pid && !strcmp(a->open[i].name, name))
			break;
	if (i == (size_t)-1) {
		a->unmatched_end++;
		return 0;
	}
	sp = span_of(a, name);
	ret = sp ? hist_add(&sp->d, ts - a->open[i].ts) : -ENOMEM;
	free(a->open[i].name);
	memmove(&a->open[i], &a->open[i + 1], (a->nopen - i - 1) * sizeof(*a->open));
	a->nopen--;
	return ret;
}

static int on_mark(struct analyze_probes *a, const struct event *ev)
{
	struct ktp_mark m;
	const char *text;
	uint32_t len;
	char *name;
	int ret;

	memcpy(&m, ev->rec, sizeof(m));
	a->marks++;
	ret = count_pid(&a->marks_by_pid, m.pid);
	if (ret || !(ev->flags & (KTP_MARK_BEGIN | KTP_MARK_END)))
		return ret;
	text = record_mark_text(ev, &len);
	name = strndup(text, len);
	if (!name)
		return -ENOMEM;
	if (ev->flags & KTP_MARK_END) {
		ret = span_end(a, m.pid, name, ev->ts);
		free(name);
		return ret;
	}
	if (array_reserve_n((void **)&a->open, &a->open_cap, a->nopen, sizeof(*a->open), 16)) {
		free(name);
		return -ENOMEM;
	}
	a->open[a->nopen++] = (struct probes_open){ m.pid, ev->ts, name };
	return 0;
}

static int probes_event(void *ctx, const struct event *ev)
{
	struct analyze_probes *a = ctx;
	int ret = 0;

	if (a->error)
		return 0;
	if (ev->type == KTP_REC_PROBE)
		ret = on_probe(a, ev);
	else if (ev->type == KTP_REC_MARK)
		ret = on_mark(a, ev);
	a->error = ret;
	return 0;
}

static const struct sched_ops probes_ops = {
	.event = probes_event,
};

/* The module's counts at stop: "ID HITS MISSES" lines. */
static void module_counts(struct analyze_probes *a, const char *text)
{
	uint64_t hits, missed;
	unsigned int id;

	while (text && *text) {
		if (sscanf(text, "%u %" SCNu64 " %" SCNu64, &id, &hits, &missed) == 3 &&
		    id < a->table.n) {
			a->probes[id].have_module = 1;
			a->probes[id].module_hits = hits;
			a->probes[id].module_misses = missed;
		}
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
}

static int probes_init(void *state, struct report *r)
{
	struct analyze_probes *a = state;
	const char *list = input_probes(r->model->in);
	struct error err;
	unsigned int i;

	a->r = r;
	u64_map_init(&a->marks_by_pid);
	/* A damaged list: the probes' records are counted as unknown. */
	if (list && probe_table_parse(list, &a->table, &err))
		memset(&a->table, 0, sizeof(a->table));
	if (a->table.n) {
		a->probes = calloc(a->table.n, sizeof(*a->probes));
		if (!a->probes)
			return -ENOMEM;
	}
	for (i = 0; i < a->table.n; i++) {
		a->probes[i].spec = &a->table.probes[i];
		u64_map_init(&a->probes[i].by_pid);
	}
	module_counts(a, input_probe_stats(r->model->in));
	return model_add_client(r->model, &probes_ops, a, MODEL_WINDOWED);
}

static void arg_free(struct probes_arg *a)
{
	size_t i;

	for (i = 0; a->s && i < a->n; i++)
		free(a->s[i]);
	free(a->s);
	free(a->v);
	for (i = 0; i < a->ntop; i++)
		free(a->top[i].s);
}

static void probes_fini(void *state)
{
	struct analyze_probes *a = state;
	unsigned int i, k;
	size_t j;

	for (i = 0; a->probes && i < a->table.n; i++) {
		u64_map_fini(&a->probes[i].by_pid);
		for (k = 0; k < KTP_PROBE_MAX_ARGS; k++)
			arg_free(&a->probes[i].args[k]);
	}
	free(a->probes);
	probe_table_fini(&a->table);
	u64_map_fini(&a->marks_by_pid);
	for (j = 0; j < a->nspans; j++) {
		free(a->spans[j].name);
		hist_fini(&a->spans[j].d);
	}
	free(a->spans);
	for (j = 0; j < a->nopen; j++)
		free(a->open[j].name);
	free(a->open);
}

/* --- After the pass --- */

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The argument whose values qsort() compares (qsort has no context). */
static const struct probe_arg *sort_arg;

static int cmp_s64(const void *x, const void *y)
{
	int64_t a = probe_arg_signed(sort_arg, *(const uint64_t *)x);
	int64_t b = probe_arg_signed(sort_arg, *(const uint64_t *)y);

	return a < b ? -1 : a > b;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Keep @v (count @n) among the PROBES_TOP largest counts of @top. */
static void top_add(struct probes_value *top, unsigned int *ntop, uint64_t *other,
		    struct probes_value v)
{
	unsigned int i;

	if (*ntop == PROBES_TOP && top[PROBES_TOP - 1].count >= v.count) {
		*other += v.count;
		free(v.s);
		return;
	}
	if (*ntop == PROBES_TOP) {
		*other += top[PROBES_TOP - 1].count;
		free(top[PROBES_TOP - 1].s);
		(*ntop)--;
	}
	/* After the equal counts: the first seen (smallest value) first. */
	for (i = *ntop; i > 0 && top[i - 1].count < v.count; i--)
		top[i] = top[i - 1];
	top[i] = v;
	(*ntop)++;
}

/* Nearest rank, as hist_percentile(): rank ceil(p/100 * n). */
static uint64_t rank(const uint64_t *v, size_t n, unsigned int p)
{
	size_t k = (n * p + 99) / 100;

	return v[k ? k - 1 : 0];
}

static int arg_derive(struct probes_arg *a, const struct probe_arg *spec)
{
	size_t i, j;

	if (!a->n)
		return 0;
	if (spec->show == PROBE_SHOW_STRING) {
		qsort(a->s, a->n, sizeof(*a->s), cmp_str);
		for (i = 0; i < a->n; i = j) {
			char *s;

			for (j = i; j < a->n && !strcmp(a->s[j], a->s[i]); j++)
				;
			s = strdup(a->s[i]);
			if (!s)
				return -ENOMEM;
			top_add(a->top, &a->ntop, &a->other,
				(struct probes_value){ 0, s, j - i });
		}
		return 0;
	}
	sort_arg = spec;
	qsort(a->v, a->n, sizeof(*a->v), spec->show == PROBE_SHOW_SIGNED ? cmp_s64 : cmp_u64);
	a->min = a->v[0];
	a->max = a->v[a->n - 1];
	a->p50 = rank(a->v, a->n, 50);
	a->p99 = rank(a->v, a->n, 99);
	for (i = 0; i < a->n; i = j) {
		for (j = i; j < a->n && a->v[j] == a->v[i]; j++)
			;
		top_add(a->top, &a->ntop, &a->other, (struct probes_value){ a->v[i], NULL, j - i });
	}
	return 0;
}

/* The pids of @m by count, ascending pid first among equals. */
static int pids_derive(struct u64_map *m, struct probes_value *top, unsigned int *ntop,
		       uint64_t *other)
{
	uint64_t *keys = NULL, key;
	size_t i = 0, n = 0, cap = 0;
	void *val;

	while (u64_map_next(m, &i, &key, &val)) {
		if (array_reserve_n((void **)&keys, &cap, n, sizeof(*keys), 16)) {
			free(keys);
			return -ENOMEM;
		}
		keys[n++] = key;
	}
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_u64);
	for (i = 0; i < n; i++)
		top_add(top, ntop, other, (struct probes_value){
			keys[i], NULL, (uintptr_t)u64_map_get(m, keys[i]) });
	free(keys);
	return 0;
}

static int probes_derive(void *state, struct report *r)
{
	struct analyze_probes *a = state;
	uint64_t none = 0;
	unsigned int i, k;
	int ret = a->error;

	(void)r;
	/* A begin never ended in the window. */
	a->unmatched_begin = a->nopen;
	for (i = 0; !ret && i < a->table.n; i++) {
		struct probes_probe *p = &a->probes[i];

		ret = pids_derive(&p->by_pid, p->pids, &p->npids, &p->other_pids);
		for (k = 0; !ret && k < p->spec->nargs; k++)
			ret = arg_derive(&p->args[k], &p->spec->args[k]);
	}
	if (!ret)
		ret = pids_derive(&a->marks_by_pid, a->mark_pids, &a->nmark_pids, &none);
	return ret;
}

const struct analyze_probes *analyze_probes(const struct report *r)
{
	return report_state(r, &analyzer_probes);
}

/* --- Output --- */

/* @v as the argument's type shows it. */
static const char *value_str(const struct probe_arg *spec, const struct probes_value *v,
			     char *buf, size_t len)
{
	if (v->s)
		return v->s;
	if (spec->show == PROBE_SHOW_SIGNED)
		snprintf(buf, len, "%" PRId64, probe_arg_signed(spec, v->v));
	else if (spec->show == PROBE_SHOW_HEX)
		snprintf(buf, len, "0x%" PRIx64, v->v);
	else
		snprintf(buf, len, "%" PRIu64, v->v);
	return buf;
}

static const char *number_str(const struct probe_arg *spec, uint64_t v, char *buf, size_t len)
{
	struct probes_value pv = { v, NULL, 0 };

	return value_str(spec, &pv, buf, len);
}

static void arg_text(FILE *out, const struct probe_arg *spec, const struct probes_arg *a)
{
	char b[5][40];
	unsigned int i;

	fprintf(out, "    %s (%s): %zu values", text_esc(spec->name),
		spec->show == PROBE_SHOW_STRING ? "string" : spec->show == PROBE_SHOW_SIGNED ?
		"signed" : spec->show == PROBE_SHOW_HEX ? "hex" : "unsigned", a->n);
	if (a->n && spec->show != PROBE_SHOW_STRING)
		fprintf(out, ", min %s p50 %s p99 %s max %s",
			number_str(spec, a->min, b[0], sizeof(b[0])),
			number_str(spec, a->p50, b[1], sizeof(b[1])),
			number_str(spec, a->p99, b[2], sizeof(b[2])),
			number_str(spec, a->max, b[3], sizeof(b[3])));
	fputc('\n', out);
	for (i = 0; i < a->ntop; i++)
		fprintf(out, "      %10" PRIu64 "  %s\n", a->top[i].count,
			text_esc(value_str(spec, &a->top[i], b[4], sizeof(b[4]))));
	if (a->other)
		fprintf(out, "      %10" PRIu64 "  (other values)\n", a->other);
}

static void probe_text(FILE *out, const struct report *r, const struct probes_probe *p)
{
	char spec[2048];
	unsigned int i;

	fprintf(out, "  %s: %s, %" PRIu64 " hits", text_esc(p->spec->name),
		probe_kind_name(p->spec->kind), p->hits);
	if (p->have_module)
		fprintf(out, " (the module counted %" PRIu64 " in the session, %" PRIu64 " missed)",
			p->module_hits, p->module_misses);
	fprintf(out, "\n    %s\n    by process id:", text_esc(probe_spec_format(p->spec, spec,
									  sizeof(spec))));
	for (i = 0; i < p->npids; i++) {
		uint32_t t = sched_lookup_pid(&r->model->sched, p->pids[i].v);

		fprintf(out, " %" PRIu64 " (%s) %" PRIu64 "%s", p->pids[i].v,
			t < SCHED_NONE ? text_esc(report_thread_name(r, t)) : "?",
			p->pids[i].count, i + 1 < p->npids || p->other_pids ? "," : "");
	}
	if (p->other_pids)
		fprintf(out, " others %" PRIu64, p->other_pids);
	fputc('\n', out);
	for (i = 0; i < p->spec->nargs; i++)
		arg_text(out, &p->spec->args[i], &p->args[i]);
}

static void probes_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_probes *a = analyze_probes(r);
	unsigned int i;
	size_t j;

	(void)v;
	render_heading(out, "probes (record --probe) and markers");
	if (!a->table.n && !a->marks)
		fprintf(out, "  no probes and no markers in this capture\n");
	for (i = 0; i < a->table.n; i++)
		probe_text(out, r, &a->probes[i]);
	if (a->unknown)
		fprintf(out, "  %" PRIu64 " hits of probes the capture's list does not name\n",
			a->unknown);
	if (!a->marks)
		return;
	fprintf(out, "  markers: %" PRIu64 "; by writer:", a->marks);
	for (i = 0; i < a->nmark_pids; i++)
		fprintf(out, " %" PRIu64 " %" PRIu64 "%s", a->mark_pids[i].v, a->mark_pids[i].count,
			i + 1 < a->nmark_pids ? "," : "");
	fprintf(out, "\n  spans (begin and end markers): %" PRIu64 " begins and %" PRIu64
		" ends unmatched\n", a->unmatched_begin, a->unmatched_end);
	for (j = 0; j < a->nspans; j++) {
		const struct hist *h = &a->spans[j].d;

		fprintf(out, "    %-24s %6" PRIu64 " spans, p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
			text_esc(a->spans[j].name), h->count, hist_percentile(h, 50) / 1e6,
			hist_percentile(h, 99) / 1e6, h->max / 1e6);
	}
}

/* --- JSON --- */

struct arg_item {
	const struct probe_arg *spec;
	const struct probes_arg *a;
};

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
		return json_doc_str(probe_kind_name(p->spec->kind));
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
	const struct probes_value *v = c->item;

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

static int next_probe_pid(struct json_ctx *c, size_t *pos)
{
	const struct probes_probe *p = parent(c, *pos);

	if (*pos >= p->npids)
		return 0;
	c->item = &p->pids[(*pos)++];
	return 1;
}

static const struct json_field pid_fields[] = {
	{ .name = "pid", .type = JSON_INT, .get = get_pid },
	{ .name = "hits", .type = JSON_INT, .get = get_pid },
	JSON_END
};

static const struct arg_item *arg(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_arg(const struct json_field *f, struct json_ctx *c)
{
	const struct arg_item *x = arg(c);
	const struct probe_arg *spec = x->spec;

	if (!strcmp(f->name, "name"))
		return json_doc_str(spec->name);
	if (!strcmp(f->name, "type"))
		return json_doc_str(spec->show == PROBE_SHOW_STRING ? "string" :
				    spec->show == PROBE_SHOW_SIGNED ? "signed" :
				    spec->show == PROBE_SHOW_HEX ? "hex" : "unsigned");
	if (!strcmp(f->name, "count"))
		return json_doc_u64(x->a->n);
	if (!strcmp(f->name, "other"))
		return json_doc_u64(x->a->other);
	if (spec->show == PROBE_SHOW_STRING || !x->a->n)
		return NULL;
	if (!strcmp(f->name, "min"))
		return typed(spec, x->a->min);
	if (!strcmp(f->name, "p50"))
		return typed(spec, x->a->p50);
	if (!strcmp(f->name, "p99"))
		return typed(spec, x->a->p99);
	return typed(spec, x->a->max);
}

static json_object *get_value(const struct json_field *f, struct json_ctx *c)
{
	const struct probes_value *v = c->item;
	const struct probe_arg *spec = ((const struct arg_item *)c->aux)->spec;

	if (!strcmp(f->name, "count"))
		return json_doc_u64(v->count);
	return v->s ? json_doc_str(v->s) : typed(spec, v->v);
}

static int next_value(struct json_ctx *c, size_t *pos)
{
	const struct arg_item *x = parent(c, *pos);

	if (*pos >= x->a->ntop)
		return 0;
	c->item = &x->a->top[(*pos)++];
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

/* Each argument's item lives in the iterator's slot, one at a time. */
static struct arg_item arg_slot;

static int next_arg(struct json_ctx *c, size_t *pos)
{
	const struct probes_probe *p = parent(c, *pos);

	if (*pos >= p->spec->nargs)
		return 0;
	arg_slot = (struct arg_item){ &p->spec->args[*pos], &p->args[*pos] };
	(*pos)++;
	c->item = &arg_slot;
	return 1;
}

static const struct json_field probe_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_probe },
	{ .name = "kind", .type = JSON_STR, .get = get_probe,
	  .description = "kprobe, kretprobe, uprobe or uretprobe" },
	{ .name = "spec", .type = JSON_STR, .get = get_probe },
	{ .name = "hits", .type = JSON_INT, .get = get_probe, .description = "in the window" },
	{ .name = "module_hits", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_probe,
	  .description = "the module's count over the session" },
	{ .name = "module_misses", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_probe },
	{ .name = "processes", .type = JSON_ARR, .sub = pid_fields, .next = next_probe_pid,
	  .description = "the top pids by hits" },
	{ .name = "other_hits", .type = JSON_INT, .off = offsetof(struct probes_probe, other_pids) },
	{ .name = "args", .type = JSON_ARR, .sub = arg_fields, .next = next_arg },
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
	const struct probes_span *s = c->item;

	if (!strcmp(f->name, "name"))
		return json_doc_str(s->name);
	return json_doc_dist(c, &s->d);
}

static int next_span(struct json_ctx *c, size_t *pos)
{
	const struct analyze_probes *a = analyze_probes(render_report(c));

	if (*pos >= a->nspans)
		return 0;
	c->item = &a->spans[(*pos)++];
	return 1;
}

static const struct json_field span_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_span },
	{ .name = "duration", .type = JSON_DIST, .get = get_span },
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
	{ .name = "markers", .type = JSON_INT, .off = offsetof(struct probes_value, count) },
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
		return json_doc_u64(a->unmatched_begin);
	return json_doc_u64(a->unmatched_end);
}

static const struct json_field section_fields[] = {
	{ .name = "probes", .type = JSON_ARR, .sub = probe_fields, .next = next_probe },
	{ .name = "unknown_hits", .type = JSON_INT, .get = get_section },
	{ .name = "markers", .type = JSON_INT, .get = get_section },
	{ .name = "marker_writers", .type = JSON_ARR, .sub = mark_pid_fields, .next = next_mark_pid },
	{ .name = "spans", .type = JSON_ARR, .sub = span_fields, .next = next_span },
	{ .name = "unmatched_begins", .type = JSON_INT, .get = get_section },
	{ .name = "unmatched_ends", .type = JSON_INT, .get = get_section },
	JSON_END
};

static const struct json_field probes_doc[] = {
	{ .name = "probes", .type = JSON_OBJ, .sub = section_fields,
	  .description = "record --probe's probes (hits, processes, argument values) and the "
			 "markers (writers, spans)" },
	JSON_END
};

static int probes_applies(const struct report *r)
{
	const struct analyze_probes *a = analyze_probes(r);

	return a->table.n || a->marks;
}

const struct analyzer analyzer_probes = {
	.name = "probes",
	.help = "record --probe's hits, arguments and markers' spans",
	.size = sizeof(struct analyze_probes),
	.init = probes_init,
	.fini = probes_fini,
	.derive = probes_derive,
	.text = probes_text,
	.doc = probes_doc,
	.tool = {
		"analyze_probes", "Probes and markers",
		"record --probe's probes: hits per probe and process, each argument's values "
		"(numbers: min, p50, p99, max; the most frequent values); markers and the "
		"spans of begin/end markers with their durations.",
		ARGS_ANALYSIS, 0, NULL, probes_applies,
	},
};
