// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/report.h"
#include "util/array.h"

static int open_model(struct report *r, const char *path, struct error *err)
{
	/*
	 * User frames (samples, -S user stacks) need every FILE record first;
	 * the rest only kallsyms.
	 */
	struct model_config mc = {
		.filter = r->cfg.filter, .sched = 1, .symfs = r->cfg.symfs, .tolerant = 1,
		.symbols = r->cfg.profile > 0 ? MODEL_SYMBOLS_ALL :
			r->cfg.profile < 0 ? MODEL_SYMBOLS_KERNEL : MODEL_SYMBOLS_SAMPLED,
	};

	r->model = model_open(path, &mc, err);
	return r->model ? 0 : err->code;
}

void *report_state(const struct report *r, const struct analyzer *a)
{
	unsigned int i;

	for (i = 0; i < nr_analyzers; i++)
		if (analyzers[i] == a)
			return r->state[i];
	return NULL;
}

unsigned int report_event_type(unsigned int i)
{
	return i < KTP_REC_NR_TYPES ? i : EVENT_LOST + (i - KTP_REC_NR_TYPES);
}

/* --- The report's own client: event counts, threads with known time --- */

struct report_seen {
	uint8_t *known;		/* per thread: any known time in the window */
	uint32_t n, cap;
};

static struct report_seen *seen_of(const struct report *r)
{
	return r->state[nr_analyzers];
}

static int on_thread_new(void *ctx, uint32_t t)
{
	struct report *r = ctx;
	struct report_seen *s = seen_of(r);

	if (array_reserve((void **)&s->known, &s->cap, t, 1, 1024))
		return -ENOMEM;
	s->n = t + 1;
	return 0;
}

static void on_state_time(void *ctx, uint32_t t, enum sched_state state, uint64_t from,
			  uint64_t to)
{
	struct report *r = ctx;

	(void)state, (void)from, (void)to;
	seen_of(r)->known[t] = 1;
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct report *r = ctx;

	(void)cpu, (void)from, (void)to;
	if (t != SCHED_IDLE)
		seen_of(r)->known[t] = 1;
}

static void count_type(struct report *r, unsigned int type)
{
	if (type < KTP_REC_NR_TYPES)
		r->by_type[type]++;
	else if (type >= EVENT_LOST && type <= EVENT_GARBAGE)
		r->by_type[KTP_REC_NR_TYPES + type - EVENT_LOST]++;
}

static int take_event(void *ctx, const struct event *ev)
{
	struct report *r = ctx;

	count_type(r, ev->type);
	if (ev->type == KTP_REC_SAMPLE && model_in_window(r->model, ev->ts))
		r->samples++;
	if (ev->type == KTP_REC_THROTTLE)
		r->throttled++;
	return 0;
}

static const struct sched_ops report_ops = {
	.thread_new = on_thread_new,
	.state_time = on_state_time,
	.cpu_time = on_cpu_time,
	.event = take_event,
};

/* --- The pass --- */

static int setup(struct report *r, struct error *err)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nr_analyzers; i++) {
		r->state[i] = calloc(1, analyzers[i]->size);
		if (!r->state[i])
			return error_set(err, -ENOMEM, NULL);
		ret = analyzers[i]->init ? analyzers[i]->init(r->state[i], r) : 0;
		if (ret)
			return error_set(err, ret, NULL);
	}
	r->state[nr_analyzers] = calloc(1, sizeof(struct report_seen));
	if (!r->state[nr_analyzers])
		return error_set(err, -ENOMEM, NULL);
	ret = model_add_client(r->model, &report_ops, r, 0);
	return ret ? error_set(err, ret, NULL) : 0;
}

/* --- After the pass --- */

static void select_threads(struct report *r)
{
	const struct sched *s = &r->model->sched;
	uint32_t t;

	for (t = 0; t < s->nr_threads; t++) {
		r->thread_selected[t] = model_thread_selected(r->model, t);
		if (r->thread_selected[t]) {
			r->process_selected[s->threads[t].process] = 1;
			r->process_threads[s->threads[t].process]++;
		}
	}
}

static int derive(struct report *r)
{
	const struct sched *s = &r->model->sched;
	unsigned int i, late;
	int ret;

	r->thread_selected = calloc(s->nr_threads + 1, 1);
	r->process_selected = calloc(s->nr_procs + 1, 1);
	r->process_threads = calloc(s->nr_procs + 1, sizeof(*r->process_threads));
	if (!r->thread_selected || !r->process_selected || !r->process_threads)
		return -ENOMEM;
	select_threads(r);
	analyze_cpu_totals(r);
	/* What the late ones judge (findings, outliers) is derived first. */
	for (late = 0; late < 2; late++)
		for (i = 0; i < nr_analyzers; i++)
			if (analyzers[i]->derive && !analyzers[i]->late == !late &&
			    (ret = analyzers[i]->derive(r->state[i], r)))
				return ret;
	return 0;
}

struct report *report_run(const char *path, const struct report_config *cfg,
			  struct error *err)
{
	struct report *r = calloc(1, sizeof(*r));
	int ret;

	if (!r) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	r->cfg = *cfg;
	if (open_model(r, path, err) || setup(r, err) || model_run(r->model, err))
		goto fail;
	ret = derive(r);
	if (ret) {
		error_set(err, ret, NULL);
		goto fail;
	}
	return r;
fail:
	report_free(r);
	return NULL;
}

void report_free(struct report *r)
{
	struct report_seen *s;
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < nr_analyzers; i++) {
		if (r->state[i] && analyzers[i]->fini)
			analyzers[i]->fini(r->state[i]);
		free(r->state[i]);
	}
	s = r->state[nr_analyzers];
	if (s)
		free(s->known);
	free(s);
	model_close(r->model);
	free(r->thread_selected);
	free(r->process_selected);
	free(r->process_threads);
	free(r);
}

/* --- Names --- */

const char *report_thread_name(const struct report *r, uint32_t t)
{
	if (t == SCHED_IDLE)
		return "swapper";
	if (t >= r->model->sched.nr_threads)
		return "?";
	return r->model->sched.threads[t].comm[0] ? r->model->sched.threads[t].comm : "?";
}

const char *report_process_name(const struct report *r, uint32_t t)
{
	const struct sched_thread *th;
	const char *c;

	if (t >= r->model->sched.nr_threads)
		return report_thread_name(r, t);
	th = &r->model->sched.threads[t];
	/* A thread's process is known from its TASK or FORK record, or at
	 * the pass's end: none if that failed. */
	if (th->process == SCHED_NONE)
		return report_thread_name(r, t);
	c = r->model->sched.procs[th->process].comm;
	return c[0] ? c : report_thread_name(r, t);
}

/* A flame graph's process name (struct flame_opts.process; @ctx: the
 * report): the task table's, as the samples and stacks name a tgid. */
const char *report_flame_process(void *ctx, uint32_t tgid, char *buf, size_t len)
{
	const struct report *r = ctx;

	return task_table_comm(&r->model->tasks, tgid, buf, len);
}

const char *report_thread_key(const struct report *r, uint32_t t, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", report_process_name(r, t), report_thread_name(r, t));
	return buf;
}

const char *report_thread_label(const struct report *r, uint32_t t, char *buf, size_t len)
{
	if (t == SCHED_IDLE)
		return "swapper";
	snprintf(buf, len, "%s (%u)", report_thread_name(r, t),
		 t < r->model->sched.nr_threads ? r->model->sched.threads[t].pid : 0);
	return buf;
}

const char *report_ksym(const struct report *r, uint64_t addr, char *buf, size_t len)
{
	return model_ksym(r->model, addr, buf, len);
}

int report_cpu_shown(const struct report *r, uint32_t cpu)
{
	const struct analyze_cpu *c = analyze_cpu(r);

	return cpu < c->nr_cpus && c->cpus[cpu].seen && model_cpu_selected(r->model, cpu);
}

/* --- Orders --- */

struct sort_ctx {
	const struct report *r;
	int (*cmp)(const struct report *r, uint32_t a, uint32_t b);
};

static int by_cmp(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *sc = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = sc->cmp ? sc->cmp(sc->r, x, y) : 0;

	return c ? c : x < y ? -1 : x > y;
}

uint32_t *report_threads_sorted(const struct report *r, uint32_t *n,
				int (*cmp)(const struct report *r, uint32_t a, uint32_t b))
{
	const struct report_seen *s = seen_of(r);
	uint32_t *v = malloc((r->model->sched.nr_threads + 1) * sizeof(*v)), t;

	*n = 0;
	if (!v)
		return NULL;
	for (t = 0; t < r->model->sched.nr_threads; t++)
		if (r->thread_selected[t] && t < s->n && s->known[t])
			v[(*n)++] = t;
	qsort_r(v, *n, sizeof(*v), by_cmp, &(struct sort_ctx){ r, cmp });
	return v;
}

uint32_t *report_processes_sorted(const struct report *r, uint32_t *n,
				  int (*cmp)(const struct report *r, uint32_t a, uint32_t b))
{
	uint32_t *v = malloc((r->model->sched.nr_procs + 1) * sizeof(*v)), p;

	*n = 0;
	if (!v)
		return NULL;
	for (p = 0; p < r->model->sched.nr_procs; p++)
		if (r->process_selected[p] && r->process_threads[p])
			v[(*n)++] = p;
	qsort_r(v, *n, sizeof(*v), by_cmp, &(struct sort_ctx){ r, cmp });
	return v;
}
