// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "capture/cgroup-cpu.h"
#include "report/analyze-cgroups.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/text.h"

#define NO_PARENT UINT32_MAX

static void figures_init(struct cgroup_figures *f)
{
	hist_init(&f->lat[0]);
	hist_init(&f->lat[1]);
}

static void figures_fini(struct cgroup_figures *f)
{
	hist_fini(&f->lat[0]);
	hist_fini(&f->lat[1]);
}

static int figures_add(struct cgroup_figures *dst, const struct cgroup_figures *src)
{
	dst->runtime_ns += src->runtime_ns;
	dst->threads += src->threads;
	return hist_merge(&dst->lat[0], &src->lat[0]) || hist_merge(&dst->lat[1], &src->lat[1]) ?
	       -ENOMEM : 0;
}

/* The result of cgroup @id, made at its first use. */
static struct cgroup_result *result_of(struct analyze_cgroups *a, uint64_t id)
{
	uintptr_t i = (uintptr_t)u64_map_get(&a->index, id);
	struct cgroup_result *c;

	if (i)
		return &a->v[i - 1];
	if (array_reserve((void **)&a->v, &a->cap, a->n, sizeof(*a->v), 16) ||
	    u64_map_put(&a->index, id, (void *)(uintptr_t)(a->n + 1))) {
		a->error = -ENOMEM;
		return NULL;
	}
	c = &a->v[a->n++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	figures_init(&c->own);
	figures_init(&c->tree);
	return c;
}

static uint64_t cgroup_of(const struct analyze_cgroups *a, uint32_t t)
{
	return t < a->r->model->sched.nr_threads ? a->r->model->sched.threads[t].cgroup : 0;
}

/* Window- and -C-clipped by the model; the model cuts a running thread's time at a move. */
static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct analyze_cgroups *a = ctx;
	struct cgroup_result *c;

	(void)cpu;
	if (t == SCHED_IDLE || !(c = result_of(a, cgroup_of(a, t))))
		return;
	c->own.runtime_ns += to - from;
}

static int on_latency(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		      uint64_t start, uint64_t end, const struct sched_waker *waker)
{
	struct analyze_cgroups *a = ctx;
	struct cgroup_result *c = result_of(a, cgroup_of(a, t));

	(void)cpu;
	(void)waker;
	return !c || hist_add(&c->own.lat[kind], end - start) ? -ENOMEM : 0;
}

static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_cgroups *a = ctx;

	if (ev->type == KTP_REC_CGROUP)
		a->records++;
	return a->error;
}

static const struct sched_ops cgroups_ops = {
	.cpu_time = on_cpu_time,
	.latency = on_latency,
	.event = on_event,
};

static int cgroups_init(void *state, struct report *r)
{
	struct analyze_cgroups *a = state;

	a->r = r;
	u64_map_init(&a->index);
	return model_add_client(r->model, &cgroups_ops, a, MODEL_WINDOWED);
}

static void cgroups_fini(void *state)
{
	struct analyze_cgroups *a = state;
	uint32_t i;

	for (i = 0; i < a->n; i++) {
		figures_fini(&a->v[i].own);
		figures_fini(&a->v[i].tree);
	}
	free(a->v);
	free(a->order);
	u64_map_fini(&a->index);
}

const struct analyze_cgroups *analyze_cgroups(const struct report *r)
{
	return report_state(r, &analyzer_cgroups);
}

/* --- The tree --- */

static uint32_t path_depth(const char *p)
{
	uint32_t d = 0;

	for (; p && *p; p++)
		d += *p == '/' && p[1];
	return d;
}

/* The result whose path is the @len bytes at @path, probed on from its hash. */
static uint32_t path_find(const struct analyze_cgroups *a, const struct u64_map *by_path,
			  const char *path, size_t len)
{
	uint64_t h = hash_fnv1a(path, len, HASH_FNV1A_SEED);
	uintptr_t i;

	while ((i = (uintptr_t)u64_map_get(by_path, h))) {
		const char *q = a->v[i - 1].path;

		if (strlen(q) == len && !memcmp(q, path, len))
			return (uint32_t)(i - 1);
		h++;
	}
	return NO_PARENT;
}

static int path_put(const struct analyze_cgroups *a, struct u64_map *by_path, uint32_t k)
{
	const char *p = a->v[k].path;
	uint64_t h = hash_fnv1a(p, strlen(p), HASH_FNV1A_SEED);

	while (u64_map_get(by_path, h))
		h++;
	return u64_map_put(by_path, h, (void *)(uintptr_t)(k + 1));
}

/* The nearest recorded ancestor of @c, by its path's parents, nearest first. */
static uint32_t parent_of(const struct analyze_cgroups *a, const struct cgroup_result *c,
			  const struct u64_map *by_path)
{
	size_t len = strlen(c->path);
	uint32_t k;

	while (len > 1) {
		while (len > 1 && c->path[len - 1] != '/')
			len--;
		if (len > 1)
			len--;		/* "/a/b" -> "/a"; "/a" -> "/" */
		k = path_find(a, by_path, c->path, len);
		if (k != NO_PARENT)
			return k;
	}
	return NO_PARENT;
}

struct rank {
	uint64_t key, id;
	uint32_t k;
};

static int by_key_desc(const void *x, const void *y)
{
	const struct rank *p = x, *q = y;

	if (p->key != q->key)
		return p->key < q->key ? 1 : -1;
	return p->id < q->id ? -1 : p->id > q->id;
}

/* Each result in @order by @key (depth, or subtree runtime), largest first. */
static int rank(struct analyze_cgroups *a, uint32_t *order, int by_depth)
{
	struct rank *v = malloc((a->n + 1) * sizeof(*v));
	uint32_t k;

	if (!v)
		return -ENOMEM;
	for (k = 0; k < a->n; k++)
		v[k] = (struct rank){ by_depth ? a->v[k].depth : a->v[k].tree.runtime_ns,
				      a->v[k].id, k };
	qsort(v, a->n, sizeof(*v), by_key_desc);
	for (k = 0; k < a->n; k++)
		order[k] = v[k].k;
	free(v);
	return 0;
}

/*
 * Paths from the capture's tables; each thread counted in the cgroup it
 * was last in; subtrees summed from the deepest up, each into its nearest
 * recorded ancestor.
 */
/* The cpu.stat table at one end of the session; empty when it has none. */
static void cpu_table(const struct report *r, int at_stop, struct cgroup_cpu_table *t)
{
	const char *text = input_cgroup_cpu(r->model->in, at_stop);

	if (!text || cgroup_cpu_parse(text, t))
		memset(t, 0, sizeof(*t));
}

/*
 * Each cgroup's cpu.stat, stop minus start: a figure read at both ends.
 * Counters only grow while a cgroup lives, and an id is never reused, so a
 * figure that went down is no delta: left out.
 */
static void kernel_figures(struct analyze_cgroups *a, const struct report *r)
{
	struct cgroup_cpu_table t[2];
	uint32_t k;

	cpu_table(r, 0, &t[0]);
	cpu_table(r, 1, &t[1]);
	for (k = 0; k < a->n; k++) {
		struct cgroup_kernel *kf = &a->v[k].kernel;
		const struct cgroup_cpu *s = cgroup_cpu_find(&t[0], a->v[k].id);
		const struct cgroup_cpu *e = cgroup_cpu_find(&t[1], a->v[k].id);

		if (!a->v[k].id || !s || !e)
			continue;
		kf->has = s->has & e->has;
		if ((kf->has & CGROUP_CPU_USAGE) && e->usage_us < s->usage_us)
			kf->has &= ~CGROUP_CPU_USAGE;
		if ((kf->has & CGROUP_CPU_BANDWIDTH) &&
		    (e->nr_periods < s->nr_periods || e->nr_throttled < s->nr_throttled ||
		     e->throttled_us < s->throttled_us))
			kf->has &= ~CGROUP_CPU_BANDWIDTH;
		if (kf->has & CGROUP_CPU_USAGE)
			kf->usage_ns = (e->usage_us - s->usage_us) * 1000;
		if (kf->has & CGROUP_CPU_BANDWIDTH) {
			kf->periods = e->nr_periods - s->nr_periods;
			kf->throttled = e->nr_throttled - s->nr_throttled;
			kf->throttled_ns = (e->throttled_us - s->throttled_us) * 1000;
		}
		a->kernel |= kf->has != 0;
	}
	cgroup_cpu_free(&t[0]);
	cgroup_cpu_free(&t[1]);
}

static int cgroups_derive(void *state, struct report *r)
{
	struct analyze_cgroups *a = state;
	const struct sched *s = &r->model->sched;
	struct u64_map by_path;
	uint32_t t, k, *order;
	int ret = a->error;

	for (t = 0; !ret && t < s->nr_threads; t++) {
		struct cgroup_result *c;

		if (s->threads[t].state == SCHED_UNKNOWN && !s->threads[t].cgroup)
			continue;
		c = result_of(a, s->threads[t].cgroup);
		if (c)
			c->own.threads++;
		ret = a->error;
	}
	if (ret)
		return ret;
	u64_map_init(&by_path);
	for (k = 0; !ret && k < a->n; k++) {
		struct cgroup_result *c = &a->v[k];

		c->path = c->id ? model_cgroup_path(r->model, c->id) : NULL;
		c->depth = path_depth(c->path);
		c->parent = NO_PARENT;
		if (c->path)
			ret = path_put(a, &by_path, k);
	}
	for (k = 0; !ret && k < a->n; k++)
		if (a->v[k].path)
			a->v[k].parent = parent_of(a, &a->v[k], &by_path);
	u64_map_fini(&by_path);
	order = malloc((a->n + 1) * sizeof(*order));
	if (ret || !order || rank(a, order, 1)) {
		free(order);
		return ret ? ret : -ENOMEM;
	}
	for (k = 0; k < a->n; k++) {
		struct cgroup_result *c = &a->v[order[k]];

		if (figures_add(&c->tree, &c->own) ||
		    (c->parent != NO_PARENT && figures_add(&a->v[c->parent].tree, &c->tree))) {
			free(order);
			return -ENOMEM;
		}
	}
	a->order = order;
	kernel_figures(a, r);
	return rank(a, a->order, 0);
}

/* --- Text, HTML --- */

static const char *name_of(const struct cgroup_result *c, char *buf, size_t len)
{
	if (c->path)
		return c->path;
	if (!c->id)
		return "(not known)";
	snprintf(buf, len, "(id %" PRIu64 ")", c->id);
	return buf;
}

static const char *p99(const struct hist *h, char *buf, size_t len)
{
	return h->count ? render_ns(hist_percentile(h, 99), buf, len) : "-";
}

static const char *kernel_ns(const struct cgroup_result *c, unsigned int has, uint64_t ns,
			     char *buf, size_t len)
{
	return c->kernel.has & has ? render_ns(ns, buf, len) : "-";
}

static const char *kernel_count(const struct cgroup_result *c, uint64_t n, char *buf, size_t len)
{
	if (!(c->kernel.has & CGROUP_CPU_BANDWIDTH))
		return "-";
	snprintf(buf, len, "%" PRIu64, n);
	return buf;
}

/* The kernel's cpu.stat beside the capture's figures, for the cgroups shown. */
static void kernel_text(FILE *out, const struct analyze_cgroups *a, const struct report_view *v)
{
	char name[32], b[5][24];
	uint32_t k;

	fprintf(out, "\n  the kernel's cpu.stat, stop minus start of the session (usage: the subtree's "
		"CPU time;\n  throttled: CFS bandwidth periods that ran out of quota)\n");
	fprintf(out, "  %-36s %10s %10s %8s %9s %10s\n", "cgroup", "usage", "tree", "periods",
		"throttled", "thr. time");
	for (k = 0; k < a->n && k < render_rows(v); k++) {
		const struct cgroup_result *c = &a->v[a->order[k]];

		if (!c->kernel.has)
			continue;
		fprintf(out, "  %-36.36s %10s %10s %8s %9s %10s\n",
			text_esc(name_of(c, name, sizeof(name))),
			kernel_ns(c, CGROUP_CPU_USAGE, c->kernel.usage_ns, b[0], 24),
			render_ns(c->tree.runtime_ns, b[1], 24),
			kernel_count(c, c->kernel.periods, b[2], 24),
			kernel_count(c, c->kernel.throttled, b[3], 24),
			kernel_ns(c, CGROUP_CPU_BANDWIDTH, c->kernel.throttled_ns, b[4], 24));
	}
}

static void cgroups_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_cgroups *a = analyze_cgroups(r);
	char name[32], b[4][16];
	uint32_t k;

	render_heading(out, "cgroups (cgroup v2; every thread, in the cgroup it ran in; tree: "
		       "with its descendants)");
	if (!a->records) {
		fprintf(out, "  no cgroup records (a capture from before record ABI 1.5, or a "
			"kernel without cgroups)\n");
		return;
	}
	fprintf(out, "  %-36s %7s %10s %6s %10s %6s %9s %9s\n", "cgroup", "threads", "runtime",
		"cpu%", "tree", "cpu%", "wake p99", "rq p99");
	for (k = 0; k < a->n && k < render_rows(v); k++) {
		const struct cgroup_result *c = &a->v[a->order[k]];

		if (!c->tree.runtime_ns && !c->tree.lat[0].count && !c->tree.lat[1].count)
			break;
		fprintf(out, "  %-36.36s %7u %10s %6.1f %10s %6.1f %9s %9s\n",
			text_esc(name_of(c, name, sizeof(name))), c->own.threads,
			render_ns(c->own.runtime_ns, b[0], 16),
			render_pct(c->own.runtime_ns, r->known_ns),
			render_ns(c->tree.runtime_ns, b[1], 16),
			render_pct(c->tree.runtime_ns, r->known_ns),
			p99(&c->tree.lat[0], b[2], 16), p99(&c->tree.lat[1], b[3], 16));
	}
	if (a->kernel)
		kernel_text(out, a, v);
}

static void cgroups_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_cgroups *a = analyze_cgroups(r);

	(void)v;
	if (a->records)
		fprintf(out, "cgroups: %u with threads or time\n", a->n);
}

static void cgroups_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_cgroups *a = analyze_cgroups(r);
	char name[32], b[7][24];
	uint32_t k;

	fputs("<h2 id=cgroups>cgroups</h2>\n<table><tr><th class=l>cgroup</th><th>threads</th>"
	      "<th>runtime</th><th>cpu%</th><th>tree</th><th>cpu%</th><th>wakeup p99</th>"
	      "<th>runqueue p99</th><th>kernel usage</th><th>throttled</th><th>throttled time</th>"
	      "</tr>\n", f);
	for (k = 0; k < a->n && k < v->top; k++) {
		const struct cgroup_result *c = &a->v[a->order[k]];

		fputs("<tr><td class=l>", f);
		html_esc(f, name_of(c, name, sizeof(name)));
		fprintf(f, "</td><td>%u</td><td>%s</td><td>%.1f</td><td>%s</td><td>%.1f</td>"
			"<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			c->own.threads,
			render_ns(c->own.runtime_ns, b[0], 16),
			render_pct(c->own.runtime_ns, r->known_ns),
			render_ns(c->tree.runtime_ns, b[1], 16),
			render_pct(c->tree.runtime_ns, r->known_ns),
			p99(&c->tree.lat[0], b[2], 16), p99(&c->tree.lat[1], b[3], 16),
			kernel_ns(c, CGROUP_CPU_USAGE, c->kernel.usage_ns, b[4], 24),
			kernel_count(c, c->kernel.throttled, b[5], 24),
			kernel_ns(c, CGROUP_CPU_BANDWIDTH, c->kernel.throttled_ns, b[6], 24));
	}
	fputs("</table>\n", f);
}

/* --- JSON --- */

static json_object *get_figures(const struct json_field *f, struct json_ctx *c)
{
	const struct cgroup_figures *x = c->aux;
	const struct report *r = render_report(c);

	if (!strcmp(f->name, "runtime_ns"))
		return json_doc_u64(x->runtime_ns);
	if (!strcmp(f->name, "threads"))
		return json_doc_u64(x->threads);
	if (!strcmp(f->name, "machine_pct"))
		return json_doc_num(c, render_pct(x->runtime_ns, r->known_ns), 3);
	return json_doc_dist(c, &x->lat[f->off]);
}

static const struct json_field figure_fields[] = {
	{ .name = "threads", .type = JSON_INT, .get = get_figures,
	  .description = "threads whose last cgroup it is" },
	{ .name = "runtime_ns", .type = JSON_INT, .get = get_figures },
	{ .name = "machine_pct", .type = JSON_NUM, .get = get_figures,
	  .description = "of the shown CPUs' known time" },
	{ .name = "wakeup", .type = JSON_DIST, .off = 0, .get = get_figures },
	{ .name = "runqueue", .type = JSON_DIST, .off = 1, .get = get_figures },
	JSON_END
};

static json_object *get_kernel(const struct json_field *f, struct json_ctx *c)
{
	const struct cgroup_kernel *x = c->aux;

	if (!strcmp(f->name, "usage_ns"))
		return x->has & CGROUP_CPU_USAGE ? json_doc_u64(x->usage_ns) : NULL;
	if (!(x->has & CGROUP_CPU_BANDWIDTH))
		return NULL;
	if (!strcmp(f->name, "periods"))
		return json_doc_u64(x->periods);
	if (!strcmp(f->name, "throttled_periods"))
		return json_doc_u64(x->throttled);
	return json_doc_u64(x->throttled_ns);
}

static const struct json_field kernel_fields[] = {
	{ .name = "usage_ns", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_kernel,
	  .description = "cpu.stat usage_usec: the subtree's CPU time" },
	{ .name = "periods", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_kernel,
	  .description = "CFS bandwidth periods (cpu controller on)" },
	{ .name = "throttled_periods", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_kernel,
	  .description = "periods in which it ran out of quota" },
	{ .name = "throttled_ns", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_kernel,
	  .description = "time its runqueues spent throttled" },
	JSON_END
};

static int next_cgroup(struct json_ctx *c, size_t *pos)
{
	const struct analyze_cgroups *a = analyze_cgroups(render_report(c));

	if (*pos >= a->n)
		return 0;
	c->item = &a->v[a->order[(*pos)++]];
	return 1;
}

static json_object *get_cgroup(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_cgroups *a = analyze_cgroups(render_report(c));
	const struct cgroup_result *x = c->item;
	struct json_ctx k = *c;

	if (!strcmp(f->name, "id"))
		return json_doc_u64(x->id);
	if (!strcmp(f->name, "path"))
		return x->path ? json_doc_str(x->path) : NULL;
	if (!strcmp(f->name, "parent_id"))
		return x->parent != NO_PARENT ? json_doc_u64(a->v[x->parent].id) : NULL;
	if (!strcmp(f->name, "kernel")) {
		if (!x->kernel.has)
			return NULL;
		k.aux = (void *)&x->kernel;
		return json_doc_object(kernel_fields, &k);
	}
	k.aux = !strcmp(f->name, "own") ? &x->own : &x->tree;
	return json_doc_object(figure_fields, &k);
}

static const struct json_field cgroup_fields[] = {
	{ .name = "id", .type = JSON_INT, .get = get_cgroup,
	  .description = "cgroup v2 id (0: threads whose cgroup is not known)" },
	{ .name = "path", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_cgroup },
	{ .name = "parent_id", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cgroup,
	  .description = "the nearest recorded ancestor" },
	{ .name = "own", .type = JSON_OBJ, .sub = figure_fields, .def = "cgroup_figures",
	  .get = get_cgroup },
	{ .name = "tree", .type = JSON_OBJ, .sub = figure_fields, .def = "cgroup_figures",
	  .get = get_cgroup, .description = "with every recorded descendant" },
	{ .name = "kernel", .type = JSON_OBJ, .sub = kernel_fields, .flags = JSON_OPTIONAL,
	  .get = get_cgroup,
	  .description = "the kernel's cpu.stat, stop minus start of the session (whatever "
			 "the window)" },
	JSON_END
};

static json_object *get_records(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(analyze_cgroups(render_report(c))->records);
}

static const struct json_field section_fields[] = {
	{ .name = "records", .type = JSON_INT, .get = get_records },
	{ .name = "items", .type = JSON_ARR, .sub = cgroup_fields, .flags = JSON_LIST,
	  .next = next_cgroup, .order = "tree.runtime_ns",
	  .description = "by the subtree's runtime, largest first" },
	JSON_END
};

static const struct json_field cgroups_doc[] = {
	{ .name = "cgroups", .type = JSON_OBJ, .sub = section_fields,
	  .description = "per cgroup v2: runtime and latency, own and with descendants" },
	JSON_END
};

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);
	uint64_t id = c->id < r->model->sched.nr_threads ? r->model->sched.threads[c->id].cgroup : 0;
	const char *path;

	if (!id)
		return NULL;
	if (!strcmp(f->name, "cgroup_id"))
		return json_doc_u64(id);
	path = model_cgroup_path(r->model, id);
	return path ? json_doc_str(path) : NULL;
}

static const struct json_field thread_fields[] = {
	{ .name = "cgroup_id", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_thread,
	  .description = "its cgroup v2 at the end" },
	{ .name = "cgroup", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_thread },
	JSON_END
};

/* --- diff: cgroups by path (ids differ between runs) --- */

static uint32_t diff_count(const struct report *r)
{
	return analyze_cgroups(r)->n;
}

static const char *diff_key(const struct report *r, uint32_t i, char *buf, size_t len)
{
	const struct cgroup_result *c = &analyze_cgroups(r)->v[i];

	if (!c->path)
		return NULL;
	snprintf(buf, len, "%s", c->path);
	return buf;
}

static double diff_runtime(const struct report *r, uint32_t i)
{
	return analyze_cgroups(r)->v[i].tree.runtime_ns;
}

static double diff_throttled(const struct report *r, uint32_t i)
{
	return analyze_cgroups(r)->v[i].kernel.throttled_ns;
}

static const struct hist *diff_wakeup(const struct report *r, uint32_t i)
{
	return &analyze_cgroups(r)->v[i].tree.lat[0];
}

static const struct hist *diff_runqueue(const struct report *r, uint32_t i)
{
	return &analyze_cgroups(r)->v[i].tree.lat[1];
}

static const struct diff_metric metrics[] = {
	{ .name = "runtime", .entity = DIFF_CGROUP, .kind = METRIC_RUNTIME,
	  .value = diff_runtime, .count = diff_count, .name_of = diff_key },
	{ .name = "wakeup latency", .entity = DIFF_CGROUP, .kind = METRIC_DIST,
	  .dist = diff_wakeup, .count = diff_count, .name_of = diff_key },
	{ .name = "runqueue latency", .entity = DIFF_CGROUP, .kind = METRIC_DIST,
	  .dist = diff_runqueue, .count = diff_count, .name_of = diff_key },
	{ .name = "throttled", .entity = DIFF_CGROUP, .kind = METRIC_TIME,
	  .value = diff_throttled, .count = diff_count, .name_of = diff_key },
	{ NULL }
};

const struct analyzer analyzer_cgroups = {
	.name = "cgroups",
	.help = "per cgroup v2: runtime, share, wakeup and runqueue\nlatency, own and with "
		"its descendants",
	.size = sizeof(struct analyze_cgroups),
	.init = cgroups_init,
	.fini = cgroups_fini,
	.derive = cgroups_derive,
	.text = cgroups_text,
	.summary = cgroups_summary,
	.html = cgroups_html,
	.nav = "cgroups",
	.doc = cgroups_doc,
	.fields = { [ENTITY_THREAD] = thread_fields },
	.metrics = metrics,
	.tool = {
		"analyze_cgroups", "cgroups",
		"Per cgroup v2 (tree-aware): runtime and share of the machine, threads, "
		"wakeup and runqueue latency, for its own threads and with its descendants.",
		ARGS_ANALYSIS, 1u << KTP_REC_SWITCH, NULL,
	},
};
