// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-runtime.h"
#include "report/analyze-states.h"
#include "report/render.h"
#include "util/text.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_states *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	a->n = t + 1;
	return 0;
}

static void on_state_time(void *ctx, uint32_t t, enum sched_state state,
			  uint64_t from, uint64_t to)
{
	struct analyze_states *a = ctx;

	a->threads[t].ns[state] += to - from;
}

static const struct sched_ops states_ops = {
	.thread_new = on_thread_new,
	.state_time = on_state_time,
};

static int states_init(void *state, struct report *r)
{
	return model_add_client(r->model, &states_ops, state, 0);
}

static void states_fini(void *state)
{
	struct analyze_states *a = state;

	free(a->threads);
}

const struct analyze_states *analyze_states(const struct report *r)
{
	return report_state(r, &analyzer_states);
}

/* Known time of thread @t's states, and the window's rest: unknown. */
static uint64_t unknown_ns(const struct report *r, const struct states_result *st)
{
	uint64_t known = 0;
	int k;

	for (k = SCHED_RUNNING; k < SCHED_DEAD; k++)
		known += st->ns[k];
	return known < r->model->window_ns ? r->model->window_ns - known : 0;
}

static void states_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_states *a = analyze_states(r);
	uint32_t n, i, *t = report_threads_sorted(r, &n, analyze_runtime_cmp);
	uint64_t w = r->model->window_ns;

	if (!t)
		return;
	render_heading(out, "task states (% of the window; unknown: not born yet, exited, or not observed)");
	fprintf(out, "  %8s %-16s %7s %8s %8s %8s %6s %7s\n", "pid", "comm", "running",
		"runnable", "sleep-S", "block-D", "other", "unknown");
	for (i = 0; i < n && i < render_rows(v); i++) {
		const struct states_result *st = &a->threads[t[i]];

		fprintf(out, "  %8u %-16s %6.1f%% %7.1f%% %7.1f%% %7.1f%% %5.1f%% %6.1f%%\n",
			r->model->sched.threads[t[i]].pid, text_esc(report_thread_name(r, t[i])),
			render_pct(st->ns[SCHED_RUNNING], w), render_pct(st->ns[SCHED_RUNNABLE], w),
			render_pct(st->ns[SCHED_SLEEPING], w), render_pct(st->ns[SCHED_BLOCKED], w),
			render_pct(st->ns[SCHED_OTHER], w), render_pct(unknown_ns(r, st), w));
	}
	free(t);
}

static void states_html(FILE *f, const struct report *r, const struct report_view *v)
{
	static const char *const labels[] = { "running", "runnable", "sleeping (S)",
					      "blocked (D)", "other", "unknown" };
	const struct analyze_states *a = analyze_states(r);
	const char *colors[] = { svg_color(4), svg_color(2), svg_color(0), svg_color(5),
				 svg_color(6), "#d1d5db" };
	uint32_t n, i, *t = report_threads_sorted(r, &n, analyze_runtime_cmp), rows;
	struct svg_axis x = { 0, 100, 0, svg_fmt_pct };
	uint64_t w = r->model->window_ns;
	double top = 30, row = 18;
	char label[64];
	int k;

	fputs("<h2 id=states>Task states</h2>\n", f);
	rows = n < v->top ? n : v->top;
	if (!t || !rows) {
		free(t);
		return;
	}
	html_figure_open(f, "task-states", HTML_W, (int)(top + rows * row + 50), "task states");
	for (i = 0; i < rows; i++) {
		const struct states_result *st = &a->threads[t[i]];
		uint64_t ns[6] = { st->ns[SCHED_RUNNING], st->ns[SCHED_RUNNABLE],
				   st->ns[SCHED_SLEEPING], st->ns[SCHED_BLOCKED],
				   st->ns[SCHED_OTHER], unknown_ns(r, st) };
		double xx = 160, y = top + i * row, wdt;

		svg_text(f, 155, y + 12, "end", "tick",
			 report_thread_label(r, t[i], label, sizeof(label)));
		for (k = 0; k < 6; k++) {
			wdt = render_pct(ns[k], w) / 100 * (HTML_W - HTML_RIGHT - 160);
			if (wdt < 0.2)
				continue;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
				"<title>%s %.1f%%</title></rect>\n", xx, y, wdt, row - 3, colors[k],
				labels[k], render_pct(ns[k], w));
			xx += wdt;
		}
	}
	svg_x_axis(f, &x, 160, HTML_W - HTML_RIGHT, top + rows * row, top + rows * row,
		   "share of the window");
	svg_legend(f, 160, 15, labels, colors, 6);
	html_figure_close(f, "Time each thread spent in each state (threads with the most runtime).");
	free(t);
}

static json_object *get_state(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);
	const struct states_result *st = &analyze_states(r)->threads[c->id];

	if (f->off == SCHED_UNKNOWN)
		return json_doc_u64(unknown_ns(r, st));
	return json_doc_u64(st->ns[f->off]);
}

static const struct json_field states_fields[] = {
	{ .name = "running_ns", .type = JSON_INT, .off = SCHED_RUNNING, .get = get_state },
	{ .name = "runnable_ns", .type = JSON_INT, .off = SCHED_RUNNABLE, .get = get_state },
	{ .name = "sleeping_ns", .type = JSON_INT, .off = SCHED_SLEEPING, .get = get_state },
	{ .name = "blocked_ns", .type = JSON_INT, .off = SCHED_BLOCKED, .get = get_state },
	{ .name = "other_ns", .type = JSON_INT, .off = SCHED_OTHER, .get = get_state },
	{ .name = "unknown_ns", .type = JSON_INT, .off = SCHED_UNKNOWN, .get = get_state },
	JSON_END
};

static const struct json_field thread_fields[] = {
	{ .name = "states", .type = JSON_OBJ, .sub = states_fields }, JSON_END
};

const struct analyzer analyzer_states = {
	.name = "states",
	.help = "time running, runnable, sleeping (S), blocked (D),\nother, per thread",
	.size = sizeof(struct analyze_states),
	.init = states_init,
	.fini = states_fini,
	.text = states_text,
	.html = states_html,
	.nav = "states",
	.fields = { [ENTITY_THREAD] = thread_fields },
	.tool = {
		"analyze_task_states", "Task states",
		"Per thread: time running, runnable, sleeping (S), blocked (D), other and unknown.",
		ARGS_ANALYSIS, 1u << KTP_REC_SWITCH, NULL,
	},
};
