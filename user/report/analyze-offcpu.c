// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "report/analyze-offcpu.h"
#include "report/analyze-wakers.h"
#include "report/diff.h"
#include "report/flame.h"
#include "report/render.h"
#include "report/stack-text.h"
#include "symbols/symbolizer.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/text.h"

/* Stacks shown per table in text and HTML, frames per stack. */
#define OFFCPU_STACKS 5

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_offcpu *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	a->threads[t].stack = STACK_NONE;
	a->threads[t].why = OFFCPU_BEFORE;
	a->n = t + 1;
	return 0;
}

/* A row's key: thread, stack or function (+ 1; 0 for none), why, state. */
static uint64_t row_key(uint32_t t, uint32_t what, uint8_t why, uint8_t state)
{
	return (uint64_t)t << 32 | (uint64_t)(what & 0x1fffffff) << 3 | (uint64_t)why << 1 |
	       state;
}

static struct offcpu_row *row_get(struct offcpu_rows *rows, uint32_t t, uint32_t what,
				  uint8_t why, uint8_t state)
{
	uint64_t key = row_key(t, what == STACK_NONE ? 0 : what + 1, why, state);
	uintptr_t i = (uintptr_t)u64_map_get(&rows->index, key);

	if (i)
		return &rows->v[i - 1];
	if (array_reserve((void **)&rows->v, &rows->cap, rows->n, sizeof(*rows->v), 256) ||
	    u64_map_put(&rows->index, key, (void *)(uintptr_t)(rows->n + 1)))
		return NULL;
	rows->v[rows->n] = (struct offcpu_row){ .t = t, .stack = what, .why = why,
						.state = state };
	return &rows->v[rows->n++];
}

/* The (sleeper, stack, waker, waker's stack) entry; hashed, probed on a collision. */
static struct offcpu_wake *wake_get(struct offcpu_wakes *w, const struct offcpu_wake *k)
{
	uint32_t key4[4] = { k->t, k->stack, k->waker, k->wstack };
	uint64_t h = hash_fnv1a(key4, sizeof(key4), HASH_FNV1A_SEED);
	uintptr_t i;

	while ((i = (uintptr_t)u64_map_get(&w->index, h))) {
		struct offcpu_wake *e = &w->v[i - 1];

		if (e->t == k->t && e->stack == k->stack && e->waker == k->waker &&
		    e->wstack == k->wstack)
			return e;
		h++;
	}
	if (array_reserve((void **)&w->v, &w->cap, w->n, sizeof(*w->v), 256) ||
	    u64_map_put(&w->index, h, (void *)(uintptr_t)(w->n + 1)))
		return NULL;
	w->v[w->n] = *k;
	w->v[w->n].ns = w->v[w->n].count = 0;
	return &w->v[w->n++];
}

/*
 * The end of thread @t's sleep: its time to its stack's rows, and with a
 * waker's stack @wstack (a waking with -S waker) to that join's. Returns
 * 0 or -ENOMEM.
 */
static int commit(struct analyze_offcpu *a, uint32_t t, int woken, uint32_t wstack)
{
	struct offcpu_thread *th = &a->threads[t];
	struct offcpu_row *row;
	struct offcpu_wake *w;
	uint8_t st;

	for (st = 0; st < 2; st++) {
		if (!th->pend_ns[st] && !th->pend_count[st])
			continue;
		row = row_get(&a->by_stack, t, th->stack, th->why, st);
		if (!row)
			return -ENOMEM;
		row->ns += th->pend_ns[st];
		row->count += th->pend_count[st];
	}
	if (woken && th->woken && th->pend_ns[0] + th->pend_ns[1]) {
		w = wake_get(&a->wakes, &(struct offcpu_wake){ .t = t, .stack = th->stack,
				.waker = th->waker, .wstack = wstack });
		if (!w)
			return -ENOMEM;
		w->ns += th->pend_ns[0] + th->pend_ns[1];
		w->count += th->pend_count[0] | th->pend_count[1];
	}
	memset(th->pend_ns, 0, sizeof(th->pend_ns));
	memset(th->pend_count, 0, sizeof(th->pend_count));
	th->woken = 0;
	return 0;
}

static uint32_t thread_of(struct analyze_offcpu *a, uint32_t pid)
{
	uint32_t t = sched_lookup_pid(&a->r->model->sched, pid);

	return t < a->n ? t : SCHED_NONE;
}

/* A switch-out: the stack its thread leaves with, if it sleeps. */
static int take_switch(struct analyze_offcpu *a, const struct event *ev)
{
	struct model *m = a->r->model;
	struct offcpu_thread *th;
	struct ktp_switch sw;
	uint32_t t, id;
	int ret;

	memcpy(&sw, ev->rec, sizeof(sw));
	t = thread_of(a, sw.prev_pid);
	if (t == SCHED_NONE)
		return 0;
	/* A sleep no waking ended (its waking lost) ends here. */
	if ((ret = commit(a, t, 0, STACK_NONE)))
		return ret;
	th = &a->threads[t];
	id = record_stack_id(ev);
	th->stack = stack_table_find(&m->stacks, ev->cpu, id);
	th->why = th->stack != STACK_NONE ? OFFCPU_HAS_STACK : id ? OFFCPU_LOST : OFFCPU_NO_STACK;
	th->counted = 0;
	if (id && model_in_window(m, ev->ts)) {
		a->switches_with_stack++;
		a->missing += th->why == OFFCPU_LOST;
	}
	return 0;
}

/* A waking: its sleep ends, joined to the waker's stack if it took one. */
static int take_waking(struct analyze_offcpu *a, const struct event *ev)
{
	uint32_t t, id = record_stack_id(ev);

	struct ktp_waking wk;

	memcpy(&wk, ev->rec, sizeof(wk));
	t = thread_of(a, wk.pid);
	if (t == SCHED_NONE)
		return 0;
	if (id && model_in_window(a->r->model, ev->ts))
		a->wakings_with_stack++;
	return commit(a, t, id != 0, stack_table_find(&a->r->model->stacks, ev->cpu, id));
}

static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_offcpu *a = ctx;

	if (ev->type == KTP_REC_SWITCH)
		return take_switch(a, ev);
	if (ev->type == KTP_REC_WAKING)
		return take_waking(a, ev);
	return 0;
}

static int on_waking(void *ctx, uint32_t cpu, uint64_t ts, uint32_t t,
		     const struct sched_waker *waker, int running, int new)
{
	struct analyze_offcpu *a = ctx;

	(void)cpu, (void)ts, (void)new;
	if (!running) {
		a->threads[t].waker = analyze_wakers_id(waker);
		a->threads[t].woken = 1;
	}
	return 0;
}

static void on_state_time(void *ctx, uint32_t t, enum sched_state state, uint64_t from,
			  uint64_t to)
{
	struct analyze_offcpu *a = ctx;
	struct offcpu_thread *th = &a->threads[t];
	uint8_t st = state == SCHED_BLOCKED;

	if (state != SCHED_SLEEPING && state != SCHED_BLOCKED)
		return;
	th->pend_ns[st] += to - from;
	/* A sleep cut by a gap comes in pieces: it is one sleep. */
	th->pend_count[st] |= !th->counted;
	th->counted = 1;
}

static const struct sched_ops offcpu_ops = {
	.thread_new = on_thread_new,
	.state_time = on_state_time,
	.waking = on_waking,
	.event = on_event,
	.event_types = SCHED_TYPE(KTP_REC_SWITCH) | SCHED_TYPE(KTP_REC_WAKING),
};

static int offcpu_init(void *state, struct report *r)
{
	struct analyze_offcpu *a = state;

	a->r = r;
	u64_map_init(&a->by_stack.index);
	u64_map_init(&a->by_func.index);
	u64_map_init(&a->wakes.index);
	str_intern_init(&a->funcs);
	return model_add_client(r->model, &offcpu_ops, a, 0);
}

static void rows_fini(struct offcpu_rows *rows)
{
	free(rows->v);
	u64_map_fini(&rows->index);
}

static void offcpu_fini(void *state)
{
	struct analyze_offcpu *a = state;

	free(a->threads);
	rows_fini(&a->by_stack);
	rows_fini(&a->by_func);
	free(a->wakes.v);
	u64_map_fini(&a->wakes.index);
	str_intern_fini(&a->funcs);
}

/* Sleeps with a stack first, then by time, largest first. */
static int by_ns(const void *x, const void *y)
{
	const struct offcpu_row *a = x, *b = y;

	if ((a->stack == STACK_NONE) != (b->stack == STACK_NONE))
		return a->stack == STACK_NONE ? 1 : -1;
	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	return a->state - b->state;
}

static int wake_by_ns(const void *x, const void *y)
{
	const struct offcpu_wake *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	if (a->waker != b->waker)
		return a->waker < b->waker ? -1 : 1;
	return a->wstack < b->wstack ? -1 : a->wstack > b->wstack;
}

static const char *why_name(uint8_t why)
{
	static const char *const names[] = {
		[OFFCPU_BEFORE] = "[asleep since before the capture]",
		[OFFCPU_NO_STACK] = "[no stack]",
		[OFFCPU_LOST] = "[stack lost]",
	};

	return why < sizeof(names) / sizeof(names[0]) && names[why] ? names[why] : "?";
}

/* The blocking function of each row's stack, interned, and the rows by function. */
static int by_function(struct analyze_offcpu *a, struct report *r)
{
	uint32_t *func_of, i, kept = 0;
	char buf[256];
	int ret = 0;

	func_of = calloc(r->model->stacks.n + 1, sizeof(*func_of));
	if (!func_of)
		return -ENOMEM;
	for (i = 0; i < a->by_stack.n && !ret; i++) {
		struct offcpu_row *s = &a->by_stack.v[i], *f;

		if (!report_thread_selected(r, s->t))
			continue;
		if (s->stack == STACK_NONE) {
			ret = str_intern(&a->funcs, why_name(s->why), &s->func, NULL);
		} else if (!func_of[s->stack]) {
			ret = str_intern(&a->funcs, model_blocking_function(r->model, s->stack,
									    buf, sizeof(buf)),
					 &s->func, NULL);
			func_of[s->stack] = s->func + 1;
		} else {
			s->func = func_of[s->stack] - 1;
		}
		f = ret ? NULL : row_get(&a->by_func, s->t, s->func, 0, s->state);
		if (!f) {
			ret = -ENOMEM;
			break;
		}
		f->func = s->func;
		f->stack = s->stack;
		f->why = s->why;
		f->ns += s->ns;
		f->count += s->count;
		a->ns[s->state] += s->ns;
		a->by_stack.v[kept++] = *s;
	}
	free(func_of);
	a->by_stack.n = kept;
	return ret;
}

/*
 * After the pass: the sleeps still open, each stack's blocking function,
 * the rows by function, sorted; only the selected threads' are kept.
 */
static int offcpu_derive(void *state, struct report *r)
{
	struct analyze_offcpu *a = state;
	uint32_t i, kept = 0;
	int ret = 0;

	for (i = 0; i < a->n && !ret; i++)
		ret = commit(a, i, 0, STACK_NONE);
	if (!ret)
		ret = by_function(a, r);
	for (i = 0; i < a->wakes.n; i++)
		if (report_thread_selected(r, a->wakes.v[i].t))
			a->wakes.v[kept++] = a->wakes.v[i];
	a->wakes.n = kept;
	/* The indexes are of no use once sorted. */
	u64_map_fini(&a->by_stack.index);
	u64_map_fini(&a->by_func.index);
	u64_map_fini(&a->wakes.index);
	if (a->by_stack.n)
		qsort(a->by_stack.v, a->by_stack.n, sizeof(*a->by_stack.v), by_ns);
	if (a->by_func.n)
		qsort(a->by_func.v, a->by_func.n, sizeof(*a->by_func.v), by_ns);
	if (a->wakes.n)
		qsort(a->wakes.v, a->wakes.n, sizeof(*a->wakes.v), wake_by_ns);
	return ret;
}

const struct analyze_offcpu *analyze_offcpu(const struct report *r)
{
	return report_state(r, &analyzer_offcpu);
}

static const char *state_name(uint8_t state)
{
	return state == OFFCPU_D ? "D" : "S";
}

static const char *func_name(const struct analyze_offcpu *a, const struct offcpu_row *row)
{
	return str_intern_get(&a->funcs, row->func);
}

/* The process whose address space thread @t's user frames are in. */
static uint32_t pid_of(const struct report *r, uint32_t t)
{
	return r->model->sched.threads[t].tgid;
}

static const char *frame_name(const struct report *r, const struct offcpu_row *row,
			      unsigned int i, char *buf, size_t len)
{
	return stack_text_frame(r, row->stack, pid_of(r, row->t), i, buf, len);
}

/* The pid whose address space a waker's user frames are in (0: none). */
static uint32_t waker_pid(const struct report *r, uint32_t waker)
{
	struct sched_waker w = analyze_wakers_waker(waker);

	return w.kind == SCHED_WAKER_THREAD && w.id < r->model->sched.nr_threads ?
	       pid_of(r, w.id) : 0;
}

/* --- Text --- */

static void text_functions(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	char who[64], ns[16];
	uint32_t i;

	fprintf(out, "  %-24s %5s %10s %7s  %s\n", "thread", "state", "time", "sleeps",
		"blocking function");
	for (i = 0; i < a->by_func.n && i < render_rows(v); i++) {
		const struct offcpu_row *row = &a->by_func.v[i];

		fprintf(out, "  %-24.24s %5s %10s %7" PRIu64 "  %s\n",
			report_thread_label(r, row->t, who, sizeof(who)), state_name(row->state),
			render_ns(row->ns, ns, sizeof(ns)), row->count,
			text_esc(func_name(a, row)));
	}
}

static void text_stacks(FILE *out, const struct report *r)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	char who[64], ns[16];
	uint32_t i;

	for (i = 0; i < a->by_stack.n && i < OFFCPU_STACKS; i++) {
		const struct offcpu_row *row = &a->by_stack.v[i];

		if (row->stack == STACK_NONE)
			break;
		fprintf(out, "\n  %s %s %s, %" PRIu64 " sleeps, in %s:\n",
			report_thread_label(r, row->t, who, sizeof(who)), state_name(row->state),
			render_ns(row->ns, ns, sizeof(ns)), row->count,
			text_esc(func_name(a, row)));
		stack_text_write(out, r, row->stack, pid_of(r, row->t), "      ");
	}
}

/* The blocked stacks joined to their wakers' (offwaketime). */
static void text_wakes(FILE *out, const struct report *r)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	char who[64], waker[96], ns[16];
	uint32_t i;

	for (i = 0; i < a->wakes.n && i < OFFCPU_STACKS; i++) {
		const struct offcpu_wake *w = &a->wakes.v[i];

		fprintf(out, "\n  %s %s, %" PRIu64 " sleeps, woken by %s:\n",
			report_thread_label(r, w->t, who, sizeof(who)),
			render_ns(w->ns, ns, sizeof(ns)), w->count,
			text_esc(analyze_wakers_name(r, w->waker, waker, sizeof(waker))));
		stack_text_write(out, r, w->stack, pid_of(r, w->t), "      ");
		fputs("      -- woken from --\n", out);
		stack_text_write(out, r, w->wstack, waker_pid(r, w->waker), "      ");
	}
}

static void offcpu_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	char s[16], d[16];

	render_heading(out, "off-CPU (time asleep, S, and blocked, D, by where the thread left its CPU)");
	if (!a->switches_with_stack) {
		fputs("  no stacks at the switch in this capture (record with -S offcpu)\n", out);
		return;
	}
	fprintf(out, "  asleep %s, blocked %s; %" PRIu64 " switch-outs with a stack",
		render_ns(a->ns[OFFCPU_S], s, sizeof(s)), render_ns(a->ns[OFFCPU_D], d, sizeof(d)),
		a->switches_with_stack);
	if (a->missing)
		fprintf(out, ", %" PRIu64 " of them naming a stack the capture lost", a->missing);
	fputc('\n', out);
	text_functions(out, r, v);
	if (v->summary)
		return;
	text_stacks(out, r);
	if (a->wakings_with_stack) {
		render_heading(out, "off-CPU and waker stacks (a sleep's stack, and its waker's at the waking)");
		text_wakes(out, r);
	}
}

static void offcpu_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	const struct offcpu_row *row = a->by_func.n ? &a->by_func.v[0] : NULL;
	char who[64], ns[16];

	(void)v;
	if (row && a->switches_with_stack)
		fprintf(out, "off-CPU: most in %s, %s %s (%s)\n", text_esc(func_name(a, row)),
			report_thread_label(r, row->t, who, sizeof(who)),
			render_ns(row->ns, ns, sizeof(ns)), state_name(row->state));
}

/* --- HTML --- */

#define OFFCPU_FLAME_DEPTH 80

static const char *ns_text(uint64_t ns, char *buf, size_t len)
{
	return render_ns(ns, buf, len);
}

/* Row @row's frames, root first, interned into @names for the tree. */
static int flame_row(struct flame *t, struct str_intern *names, const struct report *r,
		     const struct offcpu_row *row)
{
	const char *frames[2 * KTP_MAX_FRAMES + 1];
	const struct stack_entry *e = stack_table_get(&r->model->stacks, row->stack);
	uint32_t n = 0, id;
	char buf[512];
	int j;

	if (str_intern(names, report_thread_name(r, row->t), &id, NULL))
		return -ENOMEM;
	frames[n++] = str_intern_get(names, id);
	for (j = e->nr_kernel + e->nr_user - 1; j >= 0; j--) {
		if (str_intern(names, stack_text_frame(r, row->stack, pid_of(r, row->t), j, buf,
						  sizeof(buf)), &id, NULL))
			return -ENOMEM;
		frames[n++] = str_intern_get(names, id);
	}
	return flame_add(t, r->model->sched.threads[row->t].tgid, frames, n, row->ns);
}

static void offcpu_flame(FILE *f, const struct report *r)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	const struct flame_style style = {
		.process = report_flame_process, .ctx = (void *)r, .weight = ns_text,
		.id = "offcpu-flame", .label = "flame graph of the time off CPU",
		.axis = "width: share of the time asleep and blocked; bottom row: processes, "
			"then threads; up: callees (hover for names)",
		.caption = "Off-CPU flame graph: each box is a function in the stacks threads "
			   "left their CPU with, as wide as the time they were asleep or "
			   "blocked under it (sleeps with a stack).",
	};
	struct str_intern names;
	struct flame t;
	uint32_t i;
	int ret = 0;

	flame_init(&t, OFFCPU_FLAME_DEPTH);
	str_intern_init(&names);
	for (i = 0; i < a->by_stack.n && !ret; i++)
		if (a->by_stack.v[i].stack != STACK_NONE && a->by_stack.v[i].ns)
			ret = flame_row(&t, &names, r, &a->by_stack.v[i]);
	if (!ret)
		flame_html(f, &t, &style);
	flame_fini(&t);
	str_intern_fini(&names);
}

static void offcpu_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	char who[64], ns[2][16];
	uint32_t i;

	fputs("<h2 id=offcpu>Off-CPU</h2>\n", f);
	if (!a->switches_with_stack) {
		fputs("<p>No stacks at the switch in this capture (record with -S offcpu).</p>\n", f);
		return;
	}
	fprintf(f, "<p>Asleep (S) %s, blocked (D) %s; %" PRIu64 " switch-outs with a stack.</p>\n",
		render_ns(a->ns[OFFCPU_S], ns[0], sizeof(ns[0])),
		render_ns(a->ns[OFFCPU_D], ns[1], sizeof(ns[1])), a->switches_with_stack);
	offcpu_flame(f, r);
	fputs("<table><tr><th>thread</th><th>state</th><th>time</th><th>sleeps</th>"
	      "<th>blocking function</th></tr>\n", f);
	for (i = 0; i < a->by_func.n && i < v->top; i++) {
		const struct offcpu_row *row = &a->by_func.v[i];

		fputs("<tr><td>", f);
		html_esc(f, report_thread_label(r, row->t, who, sizeof(who)));
		fprintf(f, "</td><td>%s</td><td>%s</td><td>%" PRIu64 "</td><td>", state_name(row->state),
			render_ns(row->ns, ns[0], sizeof(ns[0])), row->count);
		html_esc(f, func_name(a, row));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* --- Folded --- */

/* Frames root first: user outermost to innermost, then kernel likewise. */
static void folded_row(FILE *out, const struct report *r, const struct offcpu_row *row)
{
	const struct stack_entry *e;
	char buf[512];
	int j;

	fputs(text_esc(report_thread_name(r, row->t)), out);
	if (row->stack != STACK_NONE) {
		e = stack_table_get(&r->model->stacks, row->stack);
		for (j = e->nr_kernel + e->nr_user - 1; j >= e->nr_kernel; j--)
			fprintf(out, ";%s", frame_name(r, row, j, buf, sizeof(buf)));
		for (j = e->nr_kernel - 1; j >= 0; j--)
			fprintf(out, ";%s", frame_name(r, row, j, buf, sizeof(buf)));
	} else {
		fputs(";[no stack]", out);
	}
	fprintf(out, " %" PRIu64 "\n", row->ns);
}

void analyze_offcpu_write_folded(const struct report *r, FILE *out)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	uint32_t i;

	for (i = 0; a && i < a->by_stack.n; i++)
		if (a->by_stack.v[i].ns)
			folded_row(out, r, &a->by_stack.v[i]);
}

/* --- JSON --- */

static const struct offcpu_row *row_of(const struct json_ctx *c)
{
	return c->item;
}

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return render_thread_ref_of(c, row_of(c)->t);
}

static json_object *get_row(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_offcpu *a = analyze_offcpu(render_report(c));
	const struct offcpu_row *row = row_of(c);

	if (!strcmp(f->name, "state"))
		return json_doc_str(state_name(row->state));
	if (!strcmp(f->name, "function"))
		return json_doc_str(func_name(a, row));
	return json_doc_u64(f->off ? row->count : row->ns);
}

static json_object *get_frames(const struct json_field *f, struct json_ctx *c)
{
	const struct offcpu_row *row = row_of(c);

	return stack_text_json(c, f->off & 1, row->stack, pid_of(render_report(c), row->t));
}

static const struct offcpu_wake *wake_of(const struct json_ctx *c)
{
	return c->item;
}

/* off: 0/1 the sleeper's kernel/user frames, 2/3 the waker's. */
static json_object *get_wake_frames(const struct json_field *f, struct json_ctx *c)
{
	const struct offcpu_wake *w = wake_of(c);
	const struct report *r = render_report(c);

	if (f->off & 2)
		return stack_text_json(c, f->off & 1, w->wstack, waker_pid(r, w->waker));
	return stack_text_json(c, f->off & 1, w->stack, pid_of(r, w->t));
}

static json_object *get_wake(const struct json_field *f, struct json_ctx *c)
{
	const struct offcpu_wake *w = wake_of(c);
	struct report *r = (struct report *)render_report(c);
	char buf[256];

	if (!strcmp(f->name, "thread"))
		return render_thread_ref_of(c, w->t);
	if (!strcmp(f->name, "function"))
		return json_doc_str(model_blocking_function(r->model, w->stack, buf, sizeof(buf)));
	if (!strcmp(f->name, "waker"))
		return json_doc_str(analyze_wakers_name(r, w->waker, buf, sizeof(buf)));
	return json_doc_u64(f->off ? w->count : w->ns);
}

static int next_row(struct json_ctx *c, size_t *pos, const struct offcpu_rows *rows)
{
	if (*pos >= rows->n)
		return 0;
	c->item = &rows->v[(*pos)++];
	return 1;
}

static int next_func(struct json_ctx *c, size_t *pos)
{
	return next_row(c, pos, &analyze_offcpu(render_report(c))->by_func);
}

static int next_stack(struct json_ctx *c, size_t *pos)
{
	return next_row(c, pos, &analyze_offcpu(render_report(c))->by_stack);
}

static int next_wake(struct json_ctx *c, size_t *pos)
{
	const struct offcpu_wakes *w = &analyze_offcpu(render_report(c))->wakes;

	if (*pos >= w->n)
		return 0;
	c->item = &w->v[(*pos)++];
	return 1;
}

static json_object *get_total(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_offcpu *a = analyze_offcpu(render_report(c));

	switch (f->off) {
	case 0: return json_doc_u64(a->ns[OFFCPU_S]);
	case 1: return json_doc_u64(a->ns[OFFCPU_D]);
	case 2: return json_doc_u64(a->switches_with_stack);
	case 3: return json_doc_u64(a->missing);
	default: return json_doc_u64(a->wakings_with_stack);
	}
}

static const struct json_field func_fields[] = {
	{ .name = "thread", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_thread },
	{ .name = "state", .type = JSON_STR, .get = get_row },
	{ .name = "function", .type = JSON_STR, .get = get_row },
	{ .name = "ns", .type = JSON_INT, .get = get_row },
	{ .name = "sleeps", .type = JSON_INT, .off = 1, .get = get_row },
	JSON_END
};

static const struct json_field stack_fields[] = {
	{ .name = "thread", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_thread },
	{ .name = "state", .type = JSON_STR, .get = get_row },
	{ .name = "function", .type = JSON_STR, .get = get_row },
	{ .name = "ns", .type = JSON_INT, .get = get_row },
	{ .name = "sleeps", .type = JSON_INT, .off = 1, .get = get_row },
	{ .name = "kframes", .type = JSON_STRS, .get = get_frames },
	{ .name = "uframes", .type = JSON_STRS, .off = 1, .get = get_frames },
	JSON_END
};

static const struct json_field wake_fields[] = {
	{ .name = "thread", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_wake },
	{ .name = "function", .type = JSON_STR, .get = get_wake },
	{ .name = "waker", .type = JSON_STR, .get = get_wake },
	{ .name = "ns", .type = JSON_INT, .get = get_wake },
	{ .name = "sleeps", .type = JSON_INT, .off = 1, .get = get_wake },
	{ .name = "kframes", .type = JSON_STRS, .off = 0, .get = get_wake_frames },
	{ .name = "uframes", .type = JSON_STRS, .off = 1, .get = get_wake_frames },
	{ .name = "waker_kframes", .type = JSON_STRS, .off = 2, .get = get_wake_frames },
	{ .name = "waker_uframes", .type = JSON_STRS, .off = 3, .get = get_wake_frames },
	JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "sleeping_ns", .type = JSON_INT, .off = 0, .get = get_total },
	{ .name = "blocked_ns", .type = JSON_INT, .off = 1, .get = get_total },
	{ .name = "switches_with_stack", .type = JSON_INT, .off = 2, .get = get_total },
	{ .name = "stacks_missing", .type = JSON_INT, .off = 3, .get = get_total },
	{ .name = "wakings_with_stack", .type = JSON_INT, .off = 4, .get = get_total },
	{ .name = "functions", .type = JSON_ARR, .sub = func_fields, .flags = JSON_LIST,
	  .next = next_func, .order = "ns" },
	{ .name = "stacks", .type = JSON_ARR, .sub = stack_fields, .flags = JSON_LIST,
	  .next = next_stack, .order = "ns" },
	{ .name = "woken", .type = JSON_ARR, .sub = wake_fields, .flags = JSON_LIST,
	  .next = next_wake, .order = "ns" },
	JSON_END
};

static const struct json_field offcpu_doc[] = {
	{ .name = "offcpu", .type = JSON_OBJ, .sub = section_fields,
	  .description = "time asleep (S) and blocked (D) by blocking function and by stack "
			 "(-S offcpu)" },
	JSON_END
};

/* --- diff --- */

static const struct offcpu_row *func_row(const struct report *r, uint32_t id)
{
	return &analyze_offcpu(r)->by_func.v[id];
}

static double diff_ns(const struct report *r, uint32_t id)
{
	return (double)func_row(r, id)->ns;
}

static uint32_t diff_rows(const struct report *r)
{
	return analyze_offcpu(r)->by_func.n;
}

/*
 * "app/reader: S pipe_read": the thread group, the state and the blocking
 * function, without pids. Sleeps with no stack are not compared: where
 * the window cuts them, not the program, decides their time.
 */
static const char *diff_key(const struct report *r, uint32_t id, char *buf, size_t len)
{
	const struct analyze_offcpu *a = analyze_offcpu(r);
	const struct offcpu_row *row = func_row(r, id);
	char who[80];

	if (row->stack == STACK_NONE)
		return NULL;
	snprintf(buf, len, "%s: %s %s", report_thread_key(r, row->t, who, sizeof(who)),
		 state_name(row->state), func_name(a, row));
	return buf;
}

/* As a share of the window, as a thread's runtime is (% of a CPU). */
static const struct diff_metric offcpu_metrics[] = {
	{ .name = "off-CPU", .entity = DIFF_BLOCKED, .kind = METRIC_RUNTIME,
	  .value = diff_ns, .count = diff_rows, .name_of = diff_key },
	{ 0 },
};

const struct analyzer analyzer_offcpu = {
	.name = "offcpu",
	.help = "time asleep (S) and blocked (D) per thread by blocking\n"
		"function and stack (record with -S offcpu)",
	.size = sizeof(struct analyze_offcpu),
	.init = offcpu_init,
	.fini = offcpu_fini,
	.derive = offcpu_derive,
	.text = offcpu_text,
	.summary = offcpu_summary,
	.html = offcpu_html,
	.nav = "off-CPU",
	.doc = offcpu_doc,
	.metrics = offcpu_metrics,
	.tool = {
		"analyze_offcpu", "Off-CPU time",
		"Where threads blocked: time asleep (S) and blocked (D) per thread by blocking "
		"function (the first kernel frame outside the scheduler) and by full off-CPU "
		"stack. Needs a capture recorded with -S offcpu.",
		ARGS_ANALYSIS, 1u << KTP_REC_STACK, NULL,
	},
};
