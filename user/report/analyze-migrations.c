// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/analyze-migrations.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/text.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_migrations *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	a->n = t + 1;
	return 0;
}

static const struct topology_cpu *topo_of(const struct analyze_migrations *a, uint32_t cpu)
{
	if (cpu >= a->nr_topo || a->topo[cpu].llc < 0)
		return NULL;
	return &a->topo[cpu];
}

enum migration_class analyze_migrations_classify(const struct analyze_migrations *a,
						 uint32_t from, uint32_t to)
{
	const struct topology_cpu *x = topo_of(a, from), *y = topo_of(a, to);

	if (!x || !y)
		return MIGRATION_UNKNOWN;
	if (x->node != y->node)
		return MIGRATION_CROSS_NUMA;
	/* Cache ids are unique per level; the package check guards old kernels. */
	if (x->llc != y->llc || x->package != y->package)
		return MIGRATION_CROSS_LLC;
	return MIGRATION_SAME_LLC;
}

static int on_migrate(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts)
{
	struct analyze_migrations *a = ctx;
	enum migration_class c = analyze_migrations_classify(a, from, to);
	struct pair *p = pairs_get(&a->cpu_pairs, from, to);

	(void)ts;
	if (!p)
		return -ENOMEM;
	p->count++;
	a->threads[t].count[c]++;
	a->total.count[c]++;
	return 0;
}

static const struct sched_ops migrations_ops = {
	.thread_new = on_thread_new,
	.migrate = on_migrate,
};

static int migrations_init(void *state, struct report *r)
{
	struct analyze_migrations *a = state;
	const struct topology_cpu *topo = r->model->topo;
	unsigned int i, n = r->model->nr_topo;

	pairs_init(&a->cpu_pairs, 0);
	for (i = 0; topo && i < n; i++)
		if (topo[i].cpu < 65536 && topo[i].cpu >= a->nr_topo)
			a->nr_topo = topo[i].cpu + 1;
	if (a->nr_topo) {
		a->topo = malloc(a->nr_topo * sizeof(*a->topo));
		if (!a->topo)
			return -ENOMEM;
		for (i = 0; i < a->nr_topo; i++)
			a->topo[i] = (struct topology_cpu){ .cpu = i, .package = -1,
							    .core = -1, .llc = -1, .node = -1 };
		for (i = 0; i < n; i++)
			if (topo[i].cpu < a->nr_topo)
				a->topo[topo[i].cpu] = topo[i];
	}
	return model_add_client(r->model, &migrations_ops, a, 0);
}

static void migrations_fini(void *state)
{
	struct analyze_migrations *a = state;

	pairs_fini(&a->cpu_pairs);
	free(a->threads);
	free(a->procs);
	free(a->topo);
}

const struct analyze_migrations *analyze_migrations(const struct report *r)
{
	return report_state(r, &analyzer_migrations);
}

static uint64_t total(const struct migrations_result *m)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < MIGRATION_NR_CLASSES; k++)
		n += m->count[k];
	return n;
}

/* CPU pairs by count; per process, the selected threads' totals. */
static int migrations_derive(void *state, struct report *r)
{
	struct analyze_migrations *a = state;
	const struct sched *s = &r->model->sched;
	uint32_t t;

	pairs_sort(&a->cpu_pairs);
	a->procs = calloc(s->nr_procs + 1, sizeof(*a->procs));
	if (!a->procs)
		return -ENOMEM;
	for (t = 0; t < s->nr_threads; t++)
		if (r->thread_selected[t])
			a->procs[s->threads[t].process] += total(&a->threads[t]);
	return 0;
}

/* --- Text --- */

static const char *const class_names[MIGRATION_NR_CLASSES] = {
	"same LLC", "cross-LLC", "cross-NUMA", "unknown topology",
};

static int by_count(const struct report *r, uint32_t a, uint32_t b)
{
	const struct analyze_migrations *m = analyze_migrations(r);
	uint64_t x = total(&m->threads[a]), y = total(&m->threads[b]);

	return x < y ? 1 : x > y ? -1 : 0;
}

static void migrations_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_migrations *a = analyze_migrations(r);
	const struct migrations_result *tot = &a->total;
	const struct pairs *p = &a->cpu_pairs;
	uint32_t n, i, shown = 0, *t;

	render_heading(out, "migrations (sched_migrate_task, classified by the recorded topology)");
	fprintf(out, "  total %" PRIu64 ": %" PRIu64 " same LLC, %" PRIu64 " cross-LLC, %" PRIu64
		" cross-NUMA, %" PRIu64 " unknown topology\n", total(tot),
		tot->count[0], tot->count[1], tot->count[2], tot->count[3]);
	fprintf(out, "  %-12s %8s  %s\n", "CPU pair", "count", "class");
	for (i = 0; i < p->n && i < render_rows(v); i++) {
		char pair[32];

		snprintf(pair, sizeof(pair), "%u -> %u", p->v[i].a, p->v[i].b);
		fprintf(out, "  %-12s %8" PRIu64 "  %s\n", pair, p->v[i].count,
			class_names[analyze_migrations_classify(a, p->v[i].a, p->v[i].b)]);
	}
	t = report_threads_sorted(r, &n, by_count);
	fprintf(out, "  %8s %-16s %8s %8s %9s %10s\n", "pid", "comm", "total", "same", "cross-LLC",
		"cross-NUMA");
	for (i = 0; t && i < n && shown < render_rows(v); i++) {
		const struct migrations_result *m = &a->threads[t[i]];

		if (!total(m))
			break;
		fprintf(out, "  %8u %-16s %8" PRIu64 " %8" PRIu64 " %9" PRIu64 " %10" PRIu64 "\n",
			r->model->sched.threads[t[i]].pid, text_esc(report_thread_name(r, t[i])),
			total(m), m->count[0], m->count[1], m->count[2]);
		shown++;
	}
	free(t);
}

static void migrations_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct migrations_result *m = &analyze_migrations(r)->total;

	(void)v;
	fprintf(out, "\nmigrations: %" PRIu64 " (%" PRIu64 " same LLC, %" PRIu64 " cross-LLC, %"
		PRIu64 " cross-NUMA)\n", total(m), m->count[0], m->count[1], m->count[2]);
}

/* --- HTML --- */

static void migrations_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_migrations *a = analyze_migrations(r);
	const struct pairs *p = &a->cpu_pairs;
	const struct migrations_result *tot = &a->total;
	uint32_t n = 0, i;
	uint64_t max = 0;
	double cell, top = 30;
	char c[8], label[16];

	(void)v;
	fprintf(f, "<h2 id=migrations>Migrations</h2>\n<p>%" PRIu64 " same LLC, %" PRIu64
		" cross-LLC, %" PRIu64 " cross-NUMA, %" PRIu64 " unknown topology.</p>\n",
		tot->count[0], tot->count[1], tot->count[2], tot->count[3]);
	for (i = 0; i < p->n; i++) {
		n = p->v[i].a + 1 > n ? p->v[i].a + 1 : n;
		n = p->v[i].b + 1 > n ? p->v[i].b + 1 : n;
		max = p->v[i].count > max ? p->v[i].count : max;
	}
	if (!n || n > 512)
		return;
	cell = 500.0 / n;
	if (cell > 40)
		cell = 40;
	html_figure_open(f, "migration-matrix", HTML_W, (int)(top + n * cell + 70),
			 "migration matrix");
	for (i = 0; i < p->n; i++)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			"<title>%u -> %u: %" PRIu64 "</title></rect>\n", HTML_LEFT + p->v[i].b * cell,
			top + p->v[i].a * cell, cell, cell,
			svg_heat(log1p(p->v[i].count) / log1p(max), c), p->v[i].a, p->v[i].b,
			p->v[i].count);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#333\"/>\n", HTML_LEFT, top, n * cell, n * cell);
	for (i = 0; i < n && cell >= 10; i++) {
		snprintf(label, sizeof(label), "%u", i);
		svg_text(f, HTML_LEFT - 4, top + (i + 0.7) * cell, "end", "tick", label);
		svg_text(f, HTML_LEFT + (i + 0.5) * cell, top - 4, "middle", "tick", label);
	}
	svg_text(f, HTML_LEFT + n * cell / 2, top + n * cell + 18, "middle", "title",
		 "to CPU (columns); from CPU (rows)");
	for (i = 0; i <= 10; i++)
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\"/>\n",
			HTML_LEFT + (int)i * 20, top + n * cell + 32, svg_heat(i / 10.0, c));
	snprintf(label, sizeof(label), "%" PRIu64, max);
	svg_text(f, HTML_LEFT + 230, top + n * cell + 41, "start", "legend", "1 .. ");
	svg_text(f, HTML_LEFT + 258, top + n * cell + 41, "start", "legend", label);
	html_figure_close(f, "Migrations from CPU to CPU (log color scale).");
}

/* --- JSON --- */

static json_object *get_class(const struct json_field *f, struct json_ctx *c)
{
	const struct migrations_result *m = c->aux;

	return json_doc_u64(m->count[f->off]);
}

static const struct json_field counts[] = {
	{ .name = "same_llc", .type = JSON_INT, .off = MIGRATION_SAME_LLC, .get = get_class },
	{ .name = "cross_llc", .type = JSON_INT, .off = MIGRATION_CROSS_LLC, .get = get_class },
	{ .name = "cross_numa", .type = JSON_INT, .off = MIGRATION_CROSS_NUMA, .get = get_class },
	{ .name = "unknown_topology", .type = JSON_INT, .off = MIGRATION_UNKNOWN, .get = get_class },
	JSON_END
};

static json_object *counts_of(struct json_ctx *c, const struct migrations_result *m)
{
	struct json_ctx k = *c;

	k.aux = m;
	return json_doc_object(counts, &k);
}

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return counts_of(c, &analyze_migrations(render_report(c))->threads[c->id]);
}

static json_object *get_process(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(analyze_migrations(render_report(c))->procs[c->id]);
}

static json_object *get_total(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return counts_of(c, &analyze_migrations(render_report(c))->total);
}

static const struct pair *pair(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_pair(const struct json_field *f, struct json_ctx *c)
{
	static const char *const classes[] = { "same_llc", "cross_llc", "cross_numa",
					       "unknown_topology" };
	const struct analyze_migrations *a = analyze_migrations(render_report(c));

	if (!strcmp(f->name, "class"))
		return json_doc_str(classes[analyze_migrations_classify(a, pair(c)->a, pair(c)->b)]);
	return json_doc_u64(!strcmp(f->name, "from") ? pair(c)->a : !strcmp(f->name, "to") ?
			    pair(c)->b : pair(c)->count);
}

static int next_pair(struct json_ctx *c, size_t *pos)
{
	const struct pairs *p = &analyze_migrations(render_report(c))->cpu_pairs;

	if (*pos >= p->n)
		return 0;
	c->item = &p->v[(*pos)++];
	return 1;
}

static const struct json_field pair_fields[] = {
	{ .name = "from", .type = JSON_INT, .get = get_pair }, { .name = "to", .type = JSON_INT, .get = get_pair },
	{ .name = "count", .type = JSON_INT, .get = get_pair }, { .name = "class", .type = JSON_STR, .get = get_pair },
	JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "total", .type = JSON_OBJ, .sub = counts, .def = "migration_counts", .get = get_total },
	{ .name = "cpu_pairs", .type = JSON_ARR, .sub = pair_fields, .flags = JSON_LIST, .next = next_pair },
	JSON_END
};

static const struct json_field migrations_doc[] = {
	{ .name = "migrations", .type = JSON_OBJ, .sub = section_fields, .flags = 0, .description = "by cache and NUMA distance, per CPU pair" },
	JSON_END
};

static const struct json_field thread_fields[] = {
	{ .name = "migrations", .type = JSON_OBJ, .sub = counts, .def = "migration_counts", .get = get_thread },
	JSON_END
};

static const struct json_field process_fields[] = {
	{ .name = "migrations", .type = JSON_INT, .get = get_process }, JSON_END
};

/* --- Findings --- */

static int judge(struct findings *f, const struct report *r, double th)
{
	const struct analyze_migrations *a = analyze_migrations(r);
	double secs = r->model->window_ns / 1e9;
	char name[64];
	uint32_t t;

	for (t = 0; secs > 0 && t < r->model->sched.nr_threads; t++) {
		const struct migrations_result *m = &a->threads[t];
		uint64_t n = total(m);
		struct finding *x;
		double rate = n / secs;

		if (!r->thread_selected[t] || n < findings_min_samples(&r->cfg.findings) ||
		    rate <= th)
			continue;
		x = findings_add(f, SUBJECT_THREAD, t, rate, th);
		if (!x)
			return -ENOMEM;
		snprintf(name, sizeof(name), "%s (pid %u)", report_thread_name(r, t),
			 r->model->sched.threads[t].pid);
		snprintf(x->text, sizeof(x->text),
			 "thread %s migrated %" PRIu64 " times (%.1f/s > %g/s): %" PRIu64
			 " within an LLC, %" PRIu64 " across LLCs, %" PRIu64 " across NUMA nodes",
			 name, n, rate, th, m->count[MIGRATION_SAME_LLC],
			 m->count[MIGRATION_CROSS_LLC], m->count[MIGRATION_CROSS_NUMA]);
	}
	return 0;
}

static const struct findings_rule rules[] = {
	{ "migrations", "/s", 100, "a thread migrates more often than this", judge },
	{ NULL }
};

/* --- diff --- */

static double machine_count(const struct report *r, uint32_t id)
{
	const struct analyze_cpu *c = analyze_cpu(r);
	uint64_t n = 0;
	uint32_t cpu;

	(void)id;
	for (cpu = 0; cpu < c->nr_cpus; cpu++)
		if (report_cpu_shown(r, cpu))
			n += c->cpus[cpu].migrations_in;
	return n;
}

static double thread_count(const struct report *r, uint32_t t)
{
	return total(&analyze_migrations(r)->threads[t]);
}

static const struct diff_metric metrics[] = {
	{ .name = "migrations", .entity = DIFF_MACHINE, .kind = METRIC_COUNT, .value = machine_count },
	{ .name = "migrations", .entity = DIFF_THREADS, .kind = METRIC_COUNT, .groups = DIFF_GROUP_THREAD | DIFF_GROUP_PROCESS, .value = thread_count },
	{ NULL }
};

const struct analyzer analyzer_migrations = {
	.name = "migrations",
	.help = "same-LLC, cross-LLC and cross-NUMA\nmigrations per thread and CPU pair",
	.size = sizeof(struct analyze_migrations),
	.init = migrations_init,
	.fini = migrations_fini,
	.derive = migrations_derive,
	.text = migrations_text,
	.summary = migrations_summary,
	.html = migrations_html,
	.nav = "migrations",
	.doc = migrations_doc,
	.fields = { [ENTITY_THREAD] = thread_fields, [ENTITY_PROCESS] = process_fields },
	.rules = rules,
	.metrics = metrics,
	.tool = {
		"analyze_migrations", "Migrations",
		"Migrations by same-LLC, cross-LLC and cross-NUMA (from the recorded topology): in "
		"total, per CPU pair and per thread.",
		ARGS_ANALYSIS, 1u << KTP_REC_MIGRATE, NULL,
	},
};
