// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-runtime.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/text.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_runtime *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	hist_init(&a->threads[t].slices);
	a->n = t + 1;
	return 0;
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct analyze_runtime *a = ctx;
	struct runtime_result *r;

	(void)cpu;
	if (t == SCHED_IDLE)
		return;
	r = &a->threads[t];
	r->runtime_ns += to - from;
	if (hist_add(&r->slices, to - from))
		a->error = -ENOMEM;
}

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct analyze_runtime *a = ctx;

	(void)cpu, (void)ts, (void)next;
	if (prev >= SCHED_NONE)
		return;
	if (involuntary)
		a->threads[prev].involuntary++;
	else
		a->threads[prev].voluntary++;
}

static const struct sched_ops runtime_ops = {
	.thread_new = on_thread_new,
	.cpu_time = on_cpu_time,
	.switch_out = on_switch,
};

static int runtime_init(void *state, struct report *r)
{
	return model_add_client(r->model, &runtime_ops, state, 0);
}

static void runtime_fini(void *state)
{
	struct analyze_runtime *a = state;
	uint32_t i;

	for (i = 0; i < a->n; i++)
		hist_fini(&a->threads[i].slices);
	hist_fini(&a->slices);
	free(a->threads);
	free(a->procs);
}

const struct analyze_runtime *analyze_runtime(const struct report *r)
{
	return report_state(r, &analyzer_runtime);
}

int analyze_runtime_active(const struct report *r, uint32_t t)
{
	const struct runtime_result *x = &analyze_runtime(r)->threads[t];

	return x->runtime_ns || x->voluntary || x->involuntary;
}

/*
 * Per process, and over the threads that ran or switched: the sums of the
 * selected threads, the switches and slices of the machine.
 */
static int runtime_derive(void *state, struct report *r)
{
	struct analyze_runtime *a = state;
	const struct sched *s = &r->model->sched;
	uint32_t t;

	a->procs = calloc(s->nr_procs + 1, sizeof(*a->procs));
	if (!a->procs)
		return -ENOMEM;
	hist_init(&a->slices);
	for (t = 0; t < s->nr_threads; t++) {
		const struct runtime_result *x = &a->threads[t];
		struct runtime_result *p = &a->procs[s->threads[t].process];

		if (!r->thread_selected[t])
			continue;
		p->runtime_ns += x->runtime_ns;
		p->voluntary += x->voluntary;
		p->involuntary += x->involuntary;
		if (!analyze_runtime_active(r, t))
			continue;
		if (hist_merge(&a->slices, &x->slices))
			return -ENOMEM;
	}
	return 0;
}

int analyze_runtime_cmp(const struct report *r, uint32_t a, uint32_t b)
{
	const struct analyze_runtime *x = analyze_runtime(r);
	uint64_t p = x->threads[a].runtime_ns, q = x->threads[b].runtime_ns;

	return p < q ? 1 : p > q ? -1 : 0;
}

static int process_cmp(const struct report *r, uint32_t a, uint32_t b)
{
	const struct analyze_runtime *x = analyze_runtime(r);
	uint64_t p = x->procs[a].runtime_ns, q = x->procs[b].runtime_ns;

	return p < q ? 1 : p > q ? -1 : 0;
}

/* --- Text --- */

/* The rest of a thread's or process's row: runtime, shares, switches. */
static void row_text(FILE *out, const struct report *r, const struct runtime_result *x)
{
	char b[16];

	fprintf(out, " %9s %5.1f%% %5.1f%% %8" PRIu64 " %8" PRIu64 "\n",
		render_ns(x->runtime_ns, b, sizeof(b)), render_pct(x->runtime_ns, r->model->window_ns),
		render_pct(x->runtime_ns, r->known_ns), x->voluntary, x->involuntary);
}

static void threads_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_runtime *a = analyze_runtime(r);
	uint32_t n, i, *t = report_threads_sorted(r, &n, analyze_runtime_cmp);

	if (!t)
		return;
	fprintf(out, "threads: %u (top %u by runtime)\n", n,
		n < render_rows(v) ? n : render_rows(v));
	fprintf(out, "  %8s %8s %-16s %9s %6s %6s %8s %8s\n", "pid", "tgid", "comm", "runtime",
		"%cpu", "%mach", "vol", "invol");
	for (i = 0; i < n && i < render_rows(v); i++) {
		const struct sched_thread *th = &r->model->sched.threads[t[i]];

		fprintf(out, "  %8u %8u %-16s", th->pid, th->tgid,
			text_esc(report_thread_name(r, t[i])));
		row_text(out, r, &a->threads[t[i]]);
	}
	free(t);
}

static void processes_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_runtime *a = analyze_runtime(r);
	uint32_t n, i, *p = report_processes_sorted(r, &n, process_cmp);

	if (!p)
		return;
	fprintf(out, "processes: %u (top %u by runtime)\n", n,
		n < render_rows(v) ? n : render_rows(v));
	fprintf(out, "  %8s %-16s %7s %9s %6s %6s %8s %8s\n", "tgid", "comm", "threads",
		"runtime", "%cpu", "%mach", "vol", "invol");
	for (i = 0; i < n && i < render_rows(v); i++) {
		fprintf(out, "  %8u %-16s %7u", r->model->sched.procs[p[i]].tgid,
			text_esc(r->model->sched.procs[p[i]].comm), r->process_threads[p[i]]);
		row_text(out, r, &a->procs[p[i]]);
	}
	free(p);
}

static void runtime_text(FILE *out, const struct report *r, const struct report_view *v)
{
	render_heading(out, "runtime (%cpu: of one CPU over the window; %mach: of all CPUs' known time)");
	threads_text(out, r, v);
	processes_text(out, r, v);
}

static void runtime_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_runtime *a = analyze_runtime(r);
	uint32_t n, i, *t = report_threads_sorted(r, &n, analyze_runtime_cmp);
	char b[16];

	(void)v;
	if (!t)
		return;
	fprintf(out, "\nthreads: %u; the busiest:\n", n);
	for (i = 0; i < n && i < SUMMARY_ROWS; i++) {
		const struct runtime_result *rt = &a->threads[t[i]];

		fprintf(out, "  %-16s %8u  %9s  %5.1f%% of a CPU  %6" PRIu64 " vol %6" PRIu64
			" invol\n", text_esc(report_thread_name(r, t[i])),
			r->model->sched.threads[t[i]].pid, render_ns(rt->runtime_ns, b, sizeof(b)),
			render_pct(rt->runtime_ns, r->model->window_ns), rt->voluntary,
			rt->involuntary);
	}
	free(t);
}

/* --- HTML --- */

static void runtime_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_runtime *a = analyze_runtime(r);
	uint32_t n, i, *t = report_threads_sorted(r, &n, analyze_runtime_cmp);
	uint64_t top = n && t ? a->threads[t[0]].runtime_ns : 0;
	char b[16];

	fputs("<h2 id=runtime>Runtime</h2>\n<table><tr><th>pid</th><th>tgid</th>"
	      "<th class=l>comm</th><th>runtime</th><th class=l></th><th>% CPU</th>"
	      "<th>% machine</th><th>voluntary</th><th>involuntary</th></tr>\n", f);
	for (i = 0; t && i < n && i < v->top; i++) {
		const struct runtime_result *rt = &a->threads[t[i]];
		const struct sched_thread *th = &r->model->sched.threads[t[i]];

		fprintf(f, "<tr><td>%u</td><td>%u</td><td class=l>", th->pid, th->tgid);
		html_esc(f, th->comm);
		fprintf(f, "</td><td>%s</td><td class=l><span class=bar style=\"width:%.0fpx\">"
			"</span></td><td>%.1f%%</td><td>%.1f%%</td><td>%" PRIu64 "</td><td>%" PRIu64
			"</td></tr>\n", render_ns(rt->runtime_ns, b, sizeof(b)),
			top ? 120.0 * rt->runtime_ns / top : 0,
			render_pct(rt->runtime_ns, r->model->window_ns),
			render_pct(rt->runtime_ns, r->known_ns), rt->voluntary, rt->involuntary);
	}
	fputs("</table>\n<p class=note>% CPU: of one CPU over the window; % machine: of all "
	      "CPUs' known time.</p>\n", f);
	free(t);
}

/* --- JSON: a thread's and a process's --- */

static const struct runtime_result *of_thread(const struct json_ctx *c)
{
	return &analyze_runtime(render_report(c))->threads[c->id];
}

static const struct runtime_result *of_process(const struct json_ctx *c)
{
	return &analyze_runtime(render_report(c))->procs[c->id];
}

static json_object *share(struct json_ctx *c, const struct json_field *f, uint64_t ns)
{
	const struct report *r = render_report(c);

	return json_doc_num(c, render_pct(ns, !strcmp(f->name, "cpu_pct") ? r->model->window_ns :
					  r->known_ns), 3);
}

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	const struct runtime_result *x = of_thread(c);

	if (f->type == JSON_NUM)
		return share(c, f, x->runtime_ns);
	if (f->type == JSON_DIST)
		return json_doc_dist(c, &x->slices);
	return json_doc_u64(*(const uint64_t *)((const char *)x + f->off));
}

static json_object *get_process(const struct json_field *f, struct json_ctx *c)
{
	const struct runtime_result *x = of_process(c);

	if (f->type == JSON_NUM)
		return share(c, f, x->runtime_ns);
	return json_doc_u64(*(const uint64_t *)((const char *)x + f->off));
}

#define RT(n, m, g) { .name = n, .type = JSON_INT, .off = offsetof(struct runtime_result, m), .get = g }

static const struct json_field thread_fields[] = {
	RT("runtime_ns", runtime_ns, get_thread),
	{ .name = "cpu_pct", .type = JSON_NUM, .get = get_thread },
	{ .name = "machine_pct", .type = JSON_NUM, .get = get_thread },
	RT("voluntary_switches", voluntary, get_thread),
	RT("involuntary_switches", involuntary, get_thread),
	{ .name = "slices", .type = JSON_DIST, .get = get_thread },
	JSON_END
};

static const struct json_field process_fields[] = {
	RT("runtime_ns", runtime_ns, get_process),
	{ .name = "cpu_pct", .type = JSON_NUM, .get = get_process },
	{ .name = "machine_pct", .type = JSON_NUM, .get = get_process },
	RT("voluntary_switches", voluntary, get_process),
	RT("involuntary_switches", involuntary, get_process),
	JSON_END
};

/* --- diff --- */

static const struct hist *machine_slices(const struct report *r, uint32_t id)
{
	(void)id;
	return &analyze_runtime(r)->slices;
}

static double thread_runtime(const struct report *r, uint32_t t)
{
	return analyze_runtime(r)->threads[t].runtime_ns;
}

static double thread_voluntary(const struct report *r, uint32_t t)
{
	return analyze_runtime(r)->threads[t].voluntary;
}

static double thread_involuntary(const struct report *r, uint32_t t)
{
	return analyze_runtime(r)->threads[t].involuntary;
}

static const struct hist *thread_slices(const struct report *r, uint32_t t)
{
	return &analyze_runtime(r)->threads[t].slices;
}

#define GROUPS (DIFF_GROUP_THREAD | DIFF_GROUP_PROCESS)

static const struct diff_metric runtime_metrics[] = {
	{ .name = "slice length", .entity = DIFF_MACHINE, .kind = METRIC_DIST, .dist = machine_slices },
	{ .name = "runtime", .entity = DIFF_THREADS, .kind = METRIC_RUNTIME, .groups = GROUPS, .value = thread_runtime },
	{ .name = "voluntary switches", .entity = DIFF_THREADS, .kind = METRIC_COUNT, .groups = GROUPS, .value = thread_voluntary },
	{ .name = "involuntary switches", .entity = DIFF_THREADS, .kind = METRIC_COUNT, .groups = GROUPS, .value = thread_involuntary },
	{ .name = "slice length", .entity = DIFF_THREADS, .kind = METRIC_DIST, .groups = DIFF_GROUP_THREAD, .dist = thread_slices },
	{ NULL }
};

const struct analyzer analyzer_runtime = {
	.name = "runtime",
	.help = "per thread and process: runtime, % of a CPU and\nof the machine, voluntary/involuntary switches",
	.size = sizeof(struct analyze_runtime),
	.init = runtime_init,
	.fini = runtime_fini,
	.derive = runtime_derive,
	.text = runtime_text,
	.summary = runtime_summary,
	.html = runtime_html,
	.nav = "runtime",
	.fields = { [ENTITY_THREAD] = thread_fields, [ENTITY_PROCESS] = process_fields },
	.metrics = runtime_metrics,
	.tool = {
		"analyze_process_runtime", "Runtime per thread and process",
		"Per thread and per process, by runtime: runtime, % of one CPU and of the machine, "
		"voluntary and involuntary switches, slice lengths.",
		ARGS_ANALYSIS, 1u << KTP_REC_SWITCH, NULL,
	},
};
