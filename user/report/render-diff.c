// SPDX-License-Identifier: GPL-2.0
/*
 * The renderers of a diff: text (the verdict, then each entity's figures,
 * A beside B), JSON (schema "ktprof-diff", docs/diff.md) and HTML (the
 * report's page style, A and B overlaid on the same axes).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "report/json-doc.h"
#include "report/render-diff.h"
#include "report/svg.h"
#include "util/text.h"

#define W HTML_W
#define LEFT HTML_LEFT
#define RIGHT HTML_RIGHT
#define COLOR_A "#4e79a7"
#define COLOR_B "#e15759"

static const char *const entity_names[] = { "machine", "cpu", "process", "thread", "handler",
					    "cause", "blocked", "cgroup", "probe", "span" };
_Static_assert(sizeof(entity_names) / sizeof(entity_names[0]) == DIFF_NR_NAMED,
	       "a name per entity");

static const char *value_str(const struct diff_item *it, double v, char *buf, size_t len)
{
	if (it->kind == DIFF_DIST)
		return render_ns((uint64_t)(v > 0 ? v : 0), buf, len);
	if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(buf, len, "%.1f%%", v);
	else
		snprintf(buf, len, v >= 100 ? "%.0f%s" : "%.2f%s", v, it->unit);
	return buf;
}

static const char *change_str(const struct diff_item *it, char *buf, size_t len)
{
	if (!it->in_a || !it->in_b)
		snprintf(buf, len, it->in_b ? "new" : "gone");
	else if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(buf, len, "%+.1f pt", it->delta);
	else if (isnan(it->rel))
		snprintf(buf, len, it->delta ? "from 0" : "=");
	else
		snprintf(buf, len, "%+.1f%%", 100 * it->rel);
	return buf;
}

/*
 * Whether a view shows an item: the summary shows all; a section, the
 * figures of its analysis, and --cpu every figure of a CPU.
 */
static int shown(const struct report_view *v, const struct diff_item *it)
{
	if (v->summary || (v->sections & it->section))
		return 1;
	return it->entity == DIFF_CPU && (v->sections & analyzer_section("cpu"));
}

static const char *q_str(double q, char *buf, size_t len)
{
	if (q < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		snprintf(buf, len, "%.2g", q);
	return buf;
}

static const char *const test_names[] = { "shift", "tail p99", "tail p99.9" };

/*
 * A distribution's sentence, in the words of the test that names it: a
 * shift by the medians and the effect; a tail by the shares above A's
 * percentile and that percentile on each side.
 */
static void dist_sentence(const struct diff_item *it, const char *who, char *buf, size_t len)
{
	const struct diff_test *t = &it->test[it->named_by];
	char a[32], b[32], th[32], q[16];

	if (!it->significant) {
		snprintf(buf, len, "p99 %s of %s: %s -> %s, %s", it->metric, who,
			 value_str(it, it->a, a, sizeof(a)), value_str(it, it->b, b, sizeof(b)),
			 it->test[DIFF_SHIFT].tested ? "no significant change" :
			 "too few values to test");
		return;
	}
	value_str(it, diff_test_percentile(it, it->named_by, 0), a, sizeof(a));
	value_str(it, diff_test_percentile(it, it->named_by, 1), b, sizeof(b));
	q_str(t->q, q, sizeof(q));
	if (it->named_by == DIFF_SHIFT) {
		snprintf(buf, len, "%s of %s: %s in B overall, median %s -> %s "
			 "(shift effect %+.2f, q %s)", it->metric, who,
			 t->effect > 0 ? "higher" : "lower", a, b, t->effect, q);
		return;
	}
	snprintf(buf, len, "%s of %s: %s tail in B, %.1f%% of B above A's %s of %s "
		 "(A: %.1f%%); %s %s -> %s (q %s)", it->metric, who,
		 t->effect > 0 ? "longer" : "shorter",
		 100 * it->tail[it->named_by - DIFF_TAIL99].share2, test_names[it->named_by] + 5,
		 value_str(it, (double)it->tail[it->named_by - DIFF_TAIL99].threshold, th, sizeof(th)),
		 100 * it->tail[it->named_by - DIFF_TAIL99].share1, test_names[it->named_by] + 5,
		 a, b, q);
}

/* The verdict's sentence for item @it ("wakeup latency of ..."). */
static const char *diff_sentence(const struct diff_item *it, char *buf, size_t len)
{
	static const char *const kinds[] = { "", "", "process ", "thread group ", "", "", "",
					     "cgroup ", "probe ", "span " };
	char a[32], b[32], change[48], who[112];

	_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == DIFF_NR_NAMED, "a word per entity");

	if (!it->in_a || !it->in_b) {
		snprintf(buf, len, "%s in B: %s%s, %s %s%s", it->in_b ? "new" : "gone",
			 kinds[it->entity], it->name, it->metric,
			 value_str(it, it->in_b ? it->b : it->a, a, sizeof(a)),
			 it->in_b ? "" : " in A");
		return buf;
	}
	snprintf(who, sizeof(who), "%s%s", kinds[it->entity], it->name);
	if (it->kind == DIFF_DIST) {
		dist_sentence(it, who, buf, len);
		return buf;
	}
	if (!strcmp(it->unit, "%") || !strcmp(it->unit, "% of a CPU"))
		snprintf(change, sizeof(change), "%+.1f points", it->delta);
	else if (isnan(it->rel))
		snprintf(change, sizeof(change), "from none");
	else
		snprintf(change, sizeof(change), "%+.0f%%", 100 * it->rel);
	snprintf(buf, len, "%s of %s: %s -> %s (%s)", it->metric, who,
		 value_str(it, it->a, a, sizeof(a)), value_str(it, it->b, b, sizeof(b)), change);
	return buf;
}

/* --- Text --- */

static void text_side(FILE *out, const char *label, const struct diff_run *x)
{
	char a[32];

	fprintf(out, "%s: %s, %s%s%u CPUs, window %s, %" PRIu64 " events, %" PRIu64
		" records lost\n", label, x->r->model->path, x->r->model->have_meta ? text_esc(x->r->model->meta.kernel) : "",
		x->r->model->have_meta ? ", " : "", x->cpus, render_ns(x->r->model->window_ns, a, sizeof(a)),
		x->r->model->events, x->r->model->lost);
}

static void text_dist(FILE *out, const struct diff_item *it)
{
	static const double ps[] = { 50, 90, 99, 99.9 };
	const struct hist *h[2] = { it->ha, it->hb };
	char b[16], q[16];
	int s, k;

	fprintf(out, "  %-22s %-16.16s", it->metric, text_esc(it->name));
	for (s = 0; s < 2; s++) {
		if (s)
			fprintf(out, "  %-22s %-16s", "", "");
		fprintf(out, " %s n %-7" PRIu64, s ? "B" : "A", h[s] ? h[s]->count : 0);
		for (k = 0; k < 4; k++)
			fprintf(out, " %8s", h[s] && h[s]->count ?
				render_ns(hist_percentile(h[s], ps[k]), b, sizeof(b)) : "-");
		fprintf(out, " %8s\n", h[s] && h[s]->count ? render_ns(h[s]->max, b, sizeof(b)) : "-");
	}
	if (!it->in_a || !it->in_b)
		return;
	fprintf(out, "  %-39s", "");
	for (k = 0; k < DIFF_NR_TESTS; k++) {
		const struct diff_test *t = &it->test[k];

		if (!t->tested)
			continue;
		fprintf(out, "%s %s", k ? ";" : "", test_names[k]);
		if (k == DIFF_SHIFT)
			fprintf(out, " %+.2f", t->effect);
		else
			fprintf(out, " %.1f%% -> %.1f%%", 100 * it->tail[k - 1].share1,
				100 * it->tail[k - 1].share2);
		fprintf(out, " q %s%s", q_str(t->q, q, sizeof(q)), t->significant ? " (significant)" : "");
	}
	fprintf(out, "%s\n", it->test[DIFF_SHIFT].tested ? "" : " too few values to test");
}

/*
 * Whether an entity's list shows item @it: per process, thread, handler
 * and cause the summary lists only those that changed most (a scalar
 * with a score, a significant distribution).
 */
static int listed(const struct report_view *v, enum diff_entity e, const struct diff_item *it)
{
	if (it->entity != e || !shown(v, it))
		return 0;
	if (it->kind == DIFF_SCALAR)
		return !(e >= DIFF_PROCESS && v->summary && !it->score);
	return e == DIFF_MACHINE || it->significant || !v->summary;
}

static void text_items(FILE *out, const struct diff *d, const struct report_view *v,
		       enum diff_entity e, const char *title)
{
	char a[32], b[32], c[32];
	unsigned int rows = 0, dists = 0;
	/* A cause's name is a thread group's and a cause's: wider. */
	int w = e == DIFF_CAUSE || e == DIFF_BLOCKED ? 56 : 16;
	size_t i;

	for (i = 0; i < d->n; i++)
		rows += listed(v, e, &d->items[i]);
	if (!rows)
		return;
	fprintf(out, "\n%s\n  %-22s %-*s %12s %12s %12s\n", title, "metric", w, "", "A", "B",
		"change");
	rows = 0;
	for (i = 0; i < d->n; i++) {
		const struct diff_item *it = &d->items[i];

		if (it->kind != DIFF_SCALAR || !listed(v, e, it))
			continue;
		if (e != DIFF_MACHINE && e != DIFF_CPU && rows++ >= v->top * 4)
			break;
		fprintf(out, "  %-22s %-*.*s %12s %12s %12s\n", it->metric, w, w, text_esc(it->name),
			it->in_a ? value_str(it, it->a, a, sizeof(a)) : "-",
			it->in_b ? value_str(it, it->b, b, sizeof(b)) : "-", change_str(it, c, sizeof(c)));
	}
	for (i = 0; i < d->n; i++) {
		const struct diff_item *it = &d->items[i];

		if (it->kind != DIFF_DIST || !listed(v, e, it) ||
		    (e != DIFF_MACHINE && !it->significant && dists >= v->top))
			continue;
		if (!dists++)
			fprintf(out, "  %-22s %-16s %11s %8s %8s %8s %8s %8s\n", "distribution", "",
				"", "p50", "p90", "p99", "p99.9", "max");
		text_dist(out, it);
	}
}

int render_diff_text(const struct diff *d, const struct report_view *v, FILE *out)
{
	char line[512];
	size_t i;

	fprintf(out, "ktprof diff\n");
	text_side(out, "A", &d->a);
	text_side(out, "B", &d->b);
	fprintf(out, "compared as %s%s; distributions: a shift by the Mann-Whitney U test "
		"(|effect| >= %g), the tails above A's p99 and p99.9 by Fisher's exact test "
		"(a share doubled or halved); %zu tests, false discovery rate %g "
		"(Benjamini-Hochberg)\n",
		d->cfg.absolute ? "totals" : "rates per second of window (a CPU's: of its known time)",
		d->cfg.per_cpu ? ", machine totals per CPU" : "", diff_min_effect(&d->cfg),
		d->tests, diff_alpha(&d->cfg));
	fprintf(out, "\nverdict (the changes that matter most, ranked):\n");
	if (!d->nverdict)
		fprintf(out, "  no significant change\n");
	for (i = 0; i < d->nverdict; i++)
		fprintf(out, "  %zu. %s\n", i + 1,
			text_esc(diff_sentence(&d->items[d->verdict[i]], line, sizeof(line))));
	text_items(out, d, v, DIFF_MACHINE, "machine");
	text_items(out, d, v, DIFF_CPU, "CPUs");
	text_items(out, d, v, DIFF_PROCESS, "processes (by name)");
	text_items(out, d, v, DIFF_THREAD, "thread groups (process/thread name)");
	text_items(out, d, v, DIFF_HANDLER, "interrupt handlers (by name)");
	text_items(out, d, v, DIFF_CAUSE, "critical path (thread group: what its time went to)");
	text_items(out, d, v, DIFF_BLOCKED, "off-CPU (thread group: state and blocking function)");
	text_items(out, d, v, DIFF_CGROUP, "cgroups (by path, with descendants)");
	text_items(out, d, v, DIFF_PROBE, "probes (record --probe, by name)");
	text_items(out, d, v, DIFF_SPAN, "spans (probe pairs by name, markers by text)");
	return ferror(out) ? -EIO : 0;
}

/* --- JSON: the document's fields, which give its schema too --- */

static const struct diff *diff_of(const struct json_ctx *c)
{
	return c->doc;
}

static json_object *get_side(const struct json_field *f, struct json_ctx *c)
{
	const struct diff_run *x = c->aux;
	const struct model *m = x->r->model;
	const char *n = f->name;

	if (!strcmp(n, "path"))
		return json_doc_str(m->path);
	if (!strcmp(n, "kernel"))
		return json_doc_str(m->have_meta ? m->meta.kernel : "");
	return json_doc_u64(!strcmp(n, "cpus") ? x->cpus : !strcmp(n, "window_ns") ? m->window_ns :
			    !strcmp(n, "events") ? m->events : m->lost);
}

static const struct json_field side_fields[] = {
	{ .name = "path", .type = JSON_STR, .get = get_side },
	{ .name = "kernel", .type = JSON_STR, .get = get_side },
	{ .name = "cpus", .type = JSON_INT, .get = get_side },
	{ .name = "window_ns", .type = JSON_INT, .get = get_side },
	{ .name = "events", .type = JSON_INT, .get = get_side },
	{ .name = "lost_records", .type = JSON_INT, .get = get_side },
	JSON_END
};

static json_object *get_run(const struct json_field *f, struct json_ctx *c)
{
	struct json_ctx e = *c;

	e.aux = strcmp(f->name, "a") ? &diff_of(c)->b : &diff_of(c)->a;
	return json_doc_object(side_fields, &e);
}

static json_object *get_compare(const struct json_field *f, struct json_ctx *c)
{
	const struct diff_config *cfg = &diff_of(c)->cfg;
	const char *n = f->name;

	if (!strcmp(n, "rates"))
		return json_object_new_boolean(!cfg->absolute);
	if (!strcmp(n, "per_cpu"))
		return json_object_new_boolean(cfg->per_cpu);
	if (!strcmp(n, "test"))
		return json_doc_str("mann-whitney-u");
	if (!strcmp(n, "tail_test"))
		return json_doc_str("fisher-exact");
	if (!strcmp(n, "fdr"))
		return json_doc_str("benjamini-hochberg");
	if (!strcmp(n, "tests"))
		return json_doc_u64(diff_of(c)->tests);
	return json_doc_num(c, !strcmp(n, "alpha") ? diff_alpha(cfg) :
			    !strcmp(n, "min_effect") ? diff_min_effect(cfg) : DIFF_TAIL_MIN_EFFECT, 6);
}

static const struct json_field compare_fields[] = {
	{ .name = "rates", .type = JSON_BOOL, .get = get_compare },
	{ .name = "per_cpu", .type = JSON_BOOL, .get = get_compare },
	{ .name = "test", .type = JSON_STR, .get = get_compare,
	  .description = "the test of a distribution's shift" },
	{ .name = "tail_test", .type = JSON_STR, .get = get_compare,
	  .description = "the test of its tails" },
	{ .name = "fdr", .type = JSON_STR, .get = get_compare,
	  .description = "how p-values become q-values over all the tests" },
	{ .name = "tests", .type = JSON_INT, .get = get_compare,
	  .description = "the tests run" },
	{ .name = "alpha", .type = JSON_NUM, .get = get_compare,
	  .description = "the false discovery rate: q < alpha is significant" },
	{ .name = "min_effect", .type = JSON_NUM, .get = get_compare },
	{ .name = "tail_min_effect", .type = JSON_NUM, .get = get_compare },
	JSON_END
};

static const struct diff_item *item_of(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_item(const struct json_field *f, struct json_ctx *c)
{
	const struct diff_item *it = item_of(c);
	const char *n = f->name;
	char line[512];

	if (!strcmp(n, "entity"))
		return json_doc_str(entity_names[it->entity]);
	if (!strcmp(n, "name"))
		return json_doc_str(it->name);
	if (!strcmp(n, "metric"))
		return json_doc_str(it->metric);
	if (!strcmp(n, "unit"))
		return json_doc_str(it->unit);
	if (!strcmp(n, "text"))
		return json_doc_str(diff_sentence(it, line, sizeof(line)));
	if (!strcmp(n, "in_a") || !strcmp(n, "in_b"))
		return json_object_new_boolean(n[3] == 'a' ? it->in_a : it->in_b);
	return json_doc_num(c, !strcmp(n, "a") ? it->a : !strcmp(n, "b") ? it->b :
			    !strcmp(n, "delta") ? it->delta : !strcmp(n, "relative") ? it->rel :
			    it->score, 6);
}

static json_object *get_item_dist(const struct json_field *f, struct json_ctx *c)
{
	const struct diff_item *it = item_of(c);

	if (it->kind != DIFF_DIST)
		return NULL;
	return json_doc_dist(c, f->name[0] == 'a' ? it->ha : it->hb);
}

static json_object *get_test(const struct json_field *f, struct json_ctx *c)
{
	const struct diff_item *it = item_of(c);
	const struct diff_test *t = &it->test[DIFF_SHIFT];
	const char *n = f->name;

	if (!strcmp(n, "test"))
		return json_doc_str("mann-whitney-u");
	if (!strcmp(n, "tested") || !strcmp(n, "significant"))
		return json_object_new_boolean(n[0] == 't' ? t->tested : t->significant);
	return json_doc_num(c, !strcmp(n, "u") ? it->mw.u : !strcmp(n, "z") ? it->mw.z :
			    !strcmp(n, "p") ? it->mw.p : !strcmp(n, "q") ? t->q : it->mw.effect, 6);
}

static const struct json_field test_fields[] = {
	{ .name = "test", .type = JSON_STR, .get = get_test },
	{ .name = "tested", .type = JSON_BOOL, .get = get_test },
	{ .name = "u", .type = JSON_NUM, .get = get_test },
	{ .name = "z", .type = JSON_NUM, .get = get_test },
	{ .name = "p", .type = JSON_NUM, .get = get_test },
	{ .name = "q", .type = JSON_NUM, .get = get_test },
	{ .name = "effect", .type = JSON_NUM, .get = get_test },
	{ .name = "significant", .type = JSON_BOOL, .get = get_test },
	JSON_END
};

/* c->aux: 0 for the tail above A's p99, 1 above its p99.9. */
static json_object *get_tail(const struct json_field *f, struct json_ctx *c)
{
	unsigned int k = (unsigned int)(uintptr_t)c->aux;
	const struct tail_test *t = &item_of(c)->tail[k];
	const struct diff_test *dt = &item_of(c)->test[DIFF_TAIL99 + k];
	const char *n = f->name;

	if (!strcmp(n, "test"))
		return json_doc_str("fisher-exact");
	if (!strcmp(n, "tested") || !strcmp(n, "significant"))
		return json_object_new_boolean(n[0] == 't' ? dt->tested : dt->significant);
	if (!strcmp(n, "threshold_ns") || !strcmp(n, "a_above") || !strcmp(n, "b_above"))
		return json_doc_u64(n[0] == 't' ? t->threshold : n[0] == 'a' ? t->k1 : t->k2);
	return json_doc_num(c, !strcmp(n, "a_share") ? t->share1 : !strcmp(n, "b_share") ? t->share2 :
			    !strcmp(n, "p") ? t->p : !strcmp(n, "q") ? dt->q : t->effect, 6);
}

static const struct json_field tail_fields[] = {
	{ .name = "test", .type = JSON_STR, .get = get_tail },
	{ .name = "tested", .type = JSON_BOOL, .get = get_tail },
	{ .name = "threshold_ns", .type = JSON_INT, .get = get_tail,
	  .description = "A's percentile, above which the tail lies" },
	{ .name = "a_above", .type = JSON_INT, .get = get_tail },
	{ .name = "b_above", .type = JSON_INT, .get = get_tail },
	{ .name = "a_share", .type = JSON_NUM, .get = get_tail },
	{ .name = "b_share", .type = JSON_NUM, .get = get_tail },
	{ .name = "p", .type = JSON_NUM, .get = get_tail },
	{ .name = "q", .type = JSON_NUM, .get = get_tail },
	{ .name = "effect", .type = JSON_NUM, .get = get_tail },
	{ .name = "significant", .type = JSON_BOOL, .get = get_tail },
	JSON_END
};

static json_object *get_tails(const struct json_field *f, struct json_ctx *c)
{
	struct json_ctx e = *c;

	e.aux = (void *)(uintptr_t)(strcmp(f->name, "p99") != 0);
	return json_doc_object(tail_fields, &e);
}

static const struct json_field tails_fields[] = {
	{ .name = "p99", .type = JSON_OBJ, .sub = tail_fields, .get = get_tails },
	{ .name = "p99_9", .type = JSON_OBJ, .sub = tail_fields, .get = get_tails },
	JSON_END
};

static int is_dist(const struct json_ctx *c)
{
	return item_of(c)->kind == DIFF_DIST;
}

#define ITEM(n, t) { .name = n, .type = t, .get = get_item }

static const struct json_field item_fields[] = {
	ITEM("entity", JSON_STR), ITEM("name", JSON_STR), ITEM("metric", JSON_STR),
	ITEM("unit", JSON_STR), ITEM("in_a", JSON_BOOL), ITEM("in_b", JSON_BOOL),
	ITEM("a", JSON_NUM), ITEM("b", JSON_NUM), ITEM("delta", JSON_NUM),
	ITEM("relative", JSON_NUM), ITEM("score", JSON_NUM), ITEM("text", JSON_STR),
	/* A distribution absent from one side is {}. */
	{ .name = "a_dist", .type = JSON_DIST, .flags = JSON_OPTIONAL | JSON_OPEN,
	  .get = get_item_dist },
	{ .name = "b_dist", .type = JSON_DIST, .flags = JSON_OPTIONAL | JSON_OPEN,
	  .get = get_item_dist },
	{ .name = "test", .type = JSON_OBJ, .sub = test_fields, .flags = JSON_OPTIONAL,
	  .present = is_dist },
	{ .name = "tails", .type = JSON_OBJ, .sub = tails_fields, .flags = JSON_OPTIONAL,
	  .present = is_dist },
	JSON_END
};

static int next_verdict(struct json_ctx *c, size_t *pos)
{
	const struct diff *d = diff_of(c);

	if (*pos >= d->nverdict)
		return 0;
	c->item = &d->items[d->verdict[(*pos)++]];
	return 1;
}

static int next_item(struct json_ctx *c, size_t *pos)
{
	const struct diff *d = diff_of(c);

	while (*pos < d->n && !shown(c->view, &d->items[*pos]))
		(*pos)++;
	if (*pos >= d->n)
		return 0;
	c->item = &d->items[(*pos)++];
	return 1;
}

static json_object *get_head(const struct json_field *f, struct json_ctx *c)
{
	(void)c;
	return json_doc_str(!strcmp(f->name, "schema") ? "ktprof-diff" : DIFF_JSON_VERSION);
}

static const struct json_field diff_doc[] = {
	{ .name = "schema", .type = JSON_STR, .description = "\"ktprof-diff\"", .get = get_head },
	{ .name = "version", .type = JSON_STR, .description = "MAJOR.MINOR of the document's schema",
	  .get = get_head },
	{ .name = "a", .type = JSON_OBJ, .sub = side_fields, .description = "capture A",
	  .get = get_run },
	{ .name = "b", .type = JSON_OBJ, .sub = side_fields, .description = "capture B",
	  .get = get_run },
	{ .name = "compare", .type = JSON_OBJ, .sub = compare_fields,
	  .description = "how they were compared" },
	{ .name = "verdict", .type = JSON_ARR, .sub = item_fields,
	  .description = "the changes that matter most, ranked", .def = "item",
	  .next = next_verdict },
	{ .name = "items", .type = JSON_ARR, .sub = item_fields, .flags = JSON_LIST,
	  .description = "every figure, A beside B", .def = "item", .next = next_item },
	JSON_END
};

const struct json_field *render_diff_json_fields(void)
{
	return diff_doc;
}

json_object *render_diff_json_schema(void)
{
	return json_doc_schema(diff_doc, 0);
}

json_object *render_diff_json_object(const struct diff *d, const struct report_view *v,
				      const struct json_cut *cut)
{
	struct json_build b = { 0 };
	struct json_ctx c = { .doc = d, .view = v, .b = &b, .cut = cut };
	json_object *doc = json_doc_object(diff_doc, &c);

	if (b.nomem) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

int render_diff_json(const struct diff *d, const struct report_view *v, FILE *out)
{
	struct json_build b = { 0 };
	struct json_ctx c = { .doc = d, .view = v, .b = &b };

	return json_doc_write(diff_doc, &c, out);
}

/* --- HTML --- */

static const char style[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
	"margin:0;background:#fafafa}main{max-width:960px;margin:0 auto;padding:16px 24px 48px;"
	"background:#fff}h1{font-size:22px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #ddd}table{border-collapse:collapse;font-size:13px}"
	"th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}th{background:#f3f4f6}"
	"td.l,th.l{text-align:left}figcaption{font-size:12px;color:#555}"
	".axis{stroke:#333}.grid{stroke:#e5e7eb}svg text{font:11px system-ui,sans-serif;fill:#333}"
	"svg text.title{font-size:12px}ol li{margin:4px 0}";

static void legend_ab(FILE *f, double x, double y)
{
	static const char *const labels[] = { "A", "B" };
	const char *colors[] = { COLOR_A, COLOR_B };

	svg_legend(f, x, y, labels, colors, 2);
}

/* Utilization of every CPU, A and B side by side. */
static void html_cpus(FILE *f, const struct diff *d)
{
	struct svg_axis y = { 0, 100, 0, svg_fmt_pct };
	double top = 30, bottom = 240, step;
	unsigned int n = 0, i = 0;
	char label[32];
	size_t k;

	for (k = 0; k < d->n; k++)
		n += d->items[k].entity == DIFF_CPU && !strcmp(d->items[k].metric, "utilization");
	if (!n)
		return;
	step = (double)(W - LEFT - RIGHT) / n;
	html_figure_open(f, "cpu-utilization", W, 300, "CPU utilization, A and B");
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "utilization");
	for (k = 0; k < d->n; k++) {
		const struct diff_item *it = &d->items[k];
		double x;
		int s;

		if (it->entity != DIFF_CPU || strcmp(it->metric, "utilization"))
			continue;
		x = LEFT + i++ * step;
		for (s = 0; s < 2; s++) {
			double v = s ? it->b : it->a, yy = svg_pos(&y, v, bottom, top);

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%s %s: %.1f%%</title></rect>\n",
				x + step * (0.1 + 0.4 * s), yy, step * 0.38, bottom - yy,
				s ? COLOR_B : COLOR_A, it->name, s ? "B" : "A", v);
		}
		if (n <= 32 || i % 8 == 1) {
			snprintf(label, sizeof(label), "%s", it->name + 4);
			svg_text(f, x + step / 2, bottom + 14, "middle", "tick", label);
		}
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT,
		bottom, W - RIGHT, bottom);
	svg_text(f, (LEFT + W - RIGHT) / 2, bottom + 32, "middle", "title", "CPU");
	legend_ab(f, LEFT, 15);
	html_figure_close(f, "Utilization of each CPU in A and in B.");
}

static void cdf(FILE *f, const struct hist *h, const struct svg_axis *x, const struct svg_axis *y,
		double top, double bottom, const char *color, const char *dash)
{
	uint64_t value, n, seen = 0;
	size_t pos = 0;
	double py = bottom;

	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s points=\"%d,%.1f ",
		color, dash, LEFT, bottom);
	while (hist_next(h, &pos, &value, &n)) {
		double px = svg_pos(x, value, LEFT, W - RIGHT);

		fprintf(f, "%.1f,%.1f ", px, py);
		seen += n;
		py = svg_pos(y, 100.0 * seen / h->count, bottom, top);
		fprintf(f, "%.1f,%.1f ", px, py);
	}
	fprintf(f, "%d,%.1f\"/>\n", W - RIGHT, py);
}

/* The CDFs of one distribution item, A and B on the same axes. */
static void html_cdf(FILE *f, const struct diff_item *it, const char *name)
{
	struct svg_axis x = { 1e12, 1, 1, svg_fmt_ns }, y = { 0, 100, 0, svg_fmt_pct };
	const struct hist *h[2] = { it->ha, it->hb };
	double top = 30, bottom = 260;
	char title[160];
	int s;

	for (s = 0; s < 2; s++) {
		if (!h[s] || !h[s]->count)
			continue;
		if (h[s]->min < x.min)
			x.min = h[s]->min ? h[s]->min : 1;
		if (h[s]->max > x.max)
			x.max = h[s]->max;
	}
	if (x.min > x.max)
		return;
	svg_nice(&x);
	snprintf(title, sizeof(title), "%s of %s", it->metric, it->name);
	html_figure_open(f, name, W, 330, title);
	svg_y_axis(f, &y, bottom, top, LEFT, W - RIGHT, "share");
	svg_x_axis(f, &x, LEFT, W - RIGHT, bottom, top, "latency (log scale)");
	for (s = 0; s < 2; s++)
		if (h[s] && h[s]->count)
			cdf(f, h[s], &x, &y, top, bottom, s ? COLOR_B : COLOR_A,
			    s ? " stroke-dasharray=\"6 3\"" : "");
	legend_ab(f, LEFT, 15);
	snprintf(title, sizeof(title), "Cumulative distribution of the %s of %s: A (solid) "
		 "and B (dashed).", it->metric, it->name);
	html_figure_close(f, title);
}

/* Runtime of the processes that changed most, A and B. */
static void html_runtime(FILE *f, const struct diff *d, unsigned int top_n)
{
	struct svg_axis x = { 0, 1, 0, svg_fmt_pct };
	const struct diff_item *rows[64];
	unsigned int n = 0, i;
	double top = 30, row = 26;
	size_t k;

	for (k = 0; k < d->n && n < top_n && n < 64; k++) {
		const struct diff_item *it = &d->items[k];

		if (it->entity != DIFF_PROCESS || strcmp(it->metric, "runtime") ||
		    strcmp(it->unit, "% of a CPU") || fmax(it->a, it->b) < 0.5)
			continue;
		rows[n++] = it;
		x.max = fmax(x.max, fmax(it->a, it->b));
	}
	if (!n)
		return;
	svg_nice(&x);
	html_figure_open(f, "runtime", W, (int)(top + n * row + 50), "runtime per process, A and B");
	for (i = 0; i < n; i++) {
		double y = top + i * row;
		int s;

		svg_text(f, 215, y + 15, "end", "tick", rows[i]->name);
		for (s = 0; s < 2; s++)
			fprintf(f, "<rect x=\"220\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"/>\n", y + s * 11, svg_pos(&x, s ? rows[i]->b : rows[i]->a,
				220, W - RIGHT) - 220, 10.0, s ? COLOR_B : COLOR_A);
	}
	svg_x_axis(f, &x, 220, W - RIGHT, top + n * row, top + n * row, "% of one CPU");
	legend_ab(f, 220, 15);
	html_figure_close(f, "Runtime of each process (by name) in A and B, as a share of one CPU.");
}

int render_diff_html(const struct diff *d, const struct report_view *v, FILE *f)
{
	char line[512], name[32];
	unsigned int shown_cdfs = 0;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" HTML_CSP
	      "<title>ktprof diff</title>\n", f);
	fprintf(f, "<style>%s</style></head>\n<body><main>\n<h1>ktprof diff</h1>\n", style);
	fputs("<table><tr><th></th><th class=l>capture</th><th>CPUs</th><th>window</th></tr>", f);
	for (i = 0; i < 2; i++) {
		const struct diff_run *x = i ? &d->b : &d->a;

		fprintf(f, "<tr><th>%s</th><td class=l>", i ? "B" : "A");
		html_esc(f, x->r->model->path);
		fprintf(f, "</td><td>%u</td><td>%s</td></tr>", x->cpus,
			render_ns(x->r->model->window_ns, line, sizeof(line)));
	}
	fputs("</table>\n<h2>Verdict</h2>\n", f);
	if (!d->nverdict)
		fputs("<p>No significant change.</p>\n", f);
	fputs("<ol>", f);
	for (i = 0; i < d->nverdict; i++) {
		fputs("<li>", f);
		html_esc(f, diff_sentence(&d->items[d->verdict[i]], line, sizeof(line)));
		fputs("</li>\n", f);
	}
	fputs("</ol>\n<h2>CPUs</h2>\n", f);
	html_cpus(f, d);
	fputs("<h2>Latency</h2>\n", f);
	for (i = 0; i < d->n; i++)
		if (d->items[i].entity == DIFF_MACHINE && d->items[i].kind == DIFF_DIST &&
		    strstr(d->items[i].metric, "latency")) {
			snprintf(name, sizeof(name), "latency-cdf-%u", shown_cdfs++);
			html_cdf(f, &d->items[i], name);
		}
	/* And the distributions of the verdict. */
	for (i = 0; i < d->nverdict && shown_cdfs < 6; i++) {
		const struct diff_item *it = &d->items[d->verdict[i]];

		if (it->kind == DIFF_DIST && it->entity != DIFF_MACHINE) {
			snprintf(name, sizeof(name), "latency-cdf-%u", shown_cdfs++);
			html_cdf(f, it, name);
		}
	}
	fputs("<h2>Runtime</h2>\n", f);
	html_runtime(f, d, v->top);
	fputs("<h2>All figures</h2>\n<table><tr><th class=l>entity</th><th class=l>metric</th>"
	      "<th>A</th><th>B</th><th>change</th></tr>\n", f);
	for (i = 0; i < d->n; i++) {
		const struct diff_item *it = &d->items[i];
		char a[32], b[32], c[32];

		if (it->kind != DIFF_SCALAR || (it->entity >= DIFF_PROCESS && !it->score))
			continue;
		fputs("<tr><td class=l>", f);
		html_esc(f, it->name);
		fputs("</td><td class=l>", f);
		html_esc(f, it->metric);
		fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			it->in_a ? value_str(it, it->a, a, sizeof(a)) : "-",
			it->in_b ? value_str(it, it->b, b, sizeof(b)) : "-", change_str(it, c, sizeof(c)));
	}
	fputs("</table>\n<p>Distributions compared by the Mann-Whitney U test; definitions in "
	      "docs/diff.md.</p>\n</main></body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
