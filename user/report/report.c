// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-read.h"
#include "decode/merge.h"
#include "report/report.h"
#include "symbols/symbolizer-capture.h"

#define REPORT_MAX_CPUS 8192	/* more in a capture's metadata is damage */

/* "0-3,6" into a per-CPU flag array; the count of flags or -EINVAL. */
static int parse_cpus(const char *list, uint8_t **out, uint32_t *len)
{
	const char *p = list;
	uint8_t *sel = calloc(REPORT_MAX_CPUS, 1);
	unsigned long a, b;
	char *end;

	if (!sel)
		return -ENOMEM;
	*len = 0;
	while (*p) {
		a = strtoul(p, &end, 10);
		if (end == p || a >= REPORT_MAX_CPUS)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a || b >= REPORT_MAX_CPUS)
				goto bad;
		}
		for (; a <= b; a++)
			sel[a] = 1;
		if (b + 1 > *len)
			*len = b + 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (!*len)
		goto bad;
	*out = sel;
	return 0;
bad:
	free(sel);
	return -EINVAL;
}

/* The window: [session start + from, session start + to), or all of it. */
static int set_window(struct report *r, struct error *err)
{
	const struct report_config *c = &r->cfg;

	r->from = r->session_start;
	r->to = UINT64_MAX;
	if (!c->have_from && !c->have_to)
		return 0;
	if (!r->have_meta || !r->meta.have_session)
		return error_set(err, -ERROR_NO_META,
				 "%s: --from/--to need the session's start time, and it has no session metadata",
				 r->path);
	if (c->have_from)
		r->from = r->session_start + c->from_rel;
	if (c->have_to)
		r->to = r->session_start + c->to_rel;
	return 0;
}

static int want_profile(const struct report *r)
{
	if (r->cfg.profile)
		return r->cfg.profile > 0;
	return r->have_meta && r->meta.samples[0] && strcmp(r->meta.samples, "none");
}

static int setup(struct report *r, struct input *in, struct error *err)
{
	const uint64_t over_ns[2] = {
		[SCHED_WAKEUP] = findings_threshold(&r->cfg.findings, RULE_WAKEUP) * 1e6,
		[SCHED_RUNQUEUE] = findings_threshold(&r->cfg.findings, RULE_RUNQUEUE) * 1e6,
	};
	struct sched *s = &r->sched;
	int ret;

	ret = input_topology(in, &r->topo);
	r->nr_topo = ret > 0 ? ret : 0;
	ret = sched_init(s, r->nr_cpus, r->session_start, r->from, r->to);
	if (ret)
		return error_set(err, ret, NULL);
	s->cpu_selected = r->cpu_selected;
	s->nr_cpu_selected = r->nr_cpu_selected;
	s->match_comm = r->cfg.comm;
	task_table_init(&r->tasks);
	if ((ret = analyze_cpu_init(&r->cpu, s)) ||
	    (ret = analyze_runtime_init(&r->runtime, s)) ||
	    (ret = analyze_states_init(&r->states, s)) ||
	    (ret = analyze_latency_init(&r->latency, s, over_ns)) ||
	    (ret = analyze_migrations_init(&r->migrations, s, r->topo, r->nr_topo)) ||
	    (ret = analyze_preempt_init(&r->preempt, s)) ||
	    (ret = analyze_wakers_init(&r->wakers, s)) ||
	    (ret = analyze_irq_init(&r->irq, s)))
		return error_set(err, ret, NULL);
	/* Samples need the FILE records first; the rest only kallsyms. */
	if (want_profile(r))
		r->sym = symbolizer_for_capture(r->path, in, r->cfg.symfs, err);
	else
		r->sym = symbolizer_for_kernel(in, NULL, err);
	if (!r->sym)
		return err->code;
	if (want_profile(r)) {
		r->profile = profile_new(r->sym, &r->tasks, r->cfg.source, 0);
		if (!r->profile)
			return error_set(err, -ENOMEM, NULL);
		profile_select(r->profile, r->cfg.pids, r->cfg.nr_pids, r->cfg.comm);
	}
	return 0;
}

unsigned int report_event_type(unsigned int i)
{
	return i < KTP_REC_NR_TYPES ? i : EVENT_LOST + (i - KTP_REC_NR_TYPES);
}

static void count_type(struct report *r, unsigned int type)
{
	if (type < KTP_REC_NR_TYPES)
		r->by_type[type]++;
	else if (type >= EVENT_LOST && type <= EVENT_GARBAGE)
		r->by_type[KTP_REC_NR_TYPES + type - EVENT_LOST]++;
}

/* What the profile needs of each event, beside the scheduler model. */
static int take_event(struct report *r, const struct event *ev)
{
	int ret;

	r->events++;
	count_type(r, ev->type);
	if (ev->type == KTP_REC_SAMPLE) {
		const struct ktp_sample *smp = ev->rec;

		if (!sched_in_window(&r->sched, ev->ts))
			return 0;
		(void)smp;
		r->samples++;
		if (r->profile && (ret = profile_on_event(r->profile, ev)))
			return ret;
		return 0;
	}
	if (ev->type == KTP_REC_THROTTLE)
		r->throttled++;
	if (ev->type == KTP_REC_TASK || ev->type == KTP_REC_FORK || ev->type == KTP_REC_EXEC) {
		ret = task_table_on_event(&r->tasks, ev);
		if (ret)
			return ret;
	}
	if (r->profile && (ev->type == KTP_REC_MAP || ev->type == KTP_REC_FILE ||
			   ev->type == KTP_REC_FORK))
		return symbolizer_on_event(r->sym, ev);
	return 0;
}

static int scan(struct report *r, struct input *in, struct error *err)
{
	struct merge *m = merge_new();
	struct event ev;
	unsigned int i;
	int ret;

	if (!m)
		return error_set(err, -ENOMEM, NULL);
	merge_set_gap_fn(m, sched_gap_ahead, &r->sched);
	merge_set_tolerant(m, 1);
	ret = input_add_streams(in, m);
	while (!ret && (ret = merge_next(m, &ev)) > 0) {
		ret = sched_event(&r->sched, &ev);
		if (!ret)
			ret = take_event(r, &ev);
	}
	if (!ret && merge_damaged(m)) {
		/* Damage: each damaged stream ends there; a warning says so. */
		snprintf(r->problem, sizeof(r->problem), "%s", input_problem(in));
		r->damaged = 1;
	}
	if (ret < 0) {
		merge_free(m);
		return error_set(err, ret, "reading %s: %s", r->path,
				 ret == -EBADMSG ? input_problem(in) : error_str(ret));
	}
	r->streams = calloc(merge_nr_inputs(m) + 1, sizeof(*r->streams));
	for (i = 0; r->streams && i < merge_nr_inputs(m); i++) {
		const struct relay_decoder *d = merge_decoder(m, i);
		const struct relay_decoder_stats *st = relay_decoder_stats(d);

		r->streams[i] = (struct report_cpu_stream){
			.cpu = relay_decoder_cpu(d) < 0 ? 0 : relay_decoder_cpu(d),
			.records = st->records - st->subbufs, .lost = st->lost,
			.lost_subbufs = st->lost_subbufs, .garbage_bytes = st->garbage_bytes,
		};
		r->lost += st->lost;
	}
	r->nr_streams = r->streams ? merge_nr_inputs(m) : 0;
	merge_free(m);
	return r->streams ? 0 : error_set(err, -ENOMEM, NULL);
}

/* --- After the pass --- */

static int comm_matches(const struct report *r, uint32_t t)
{
	return r->sched.procs[r->sched.threads[t].process].comm_matched;
}

static void select_threads(struct report *r)
{
	const struct sched *s = &r->sched;
	uint32_t t, i;

	for (t = 0; t < s->nr_threads; t++) {
		const struct sched_thread *th = &s->threads[t];
		int sel = !r->cfg.nr_pids && !r->cfg.comm;

		for (i = 0; i < r->cfg.nr_pids && !sel; i++)
			sel = th->tgid == r->cfg.pids[i];
		if (!sel && r->cfg.comm)
			sel = comm_matches(r, t);
		r->thread_selected[t] = sel;
		if (sel)
			r->process_selected[th->process] = 1;
	}
}

static int sum_processes(struct report *r)
{
	const struct sched *s = &r->sched;
	uint32_t t;
	int k;

	for (t = 0; t < s->nr_threads; t++) {
		const struct runtime_result *rt = &r->runtime.threads[t];
		const struct migrations_result *mg = &r->migrations.threads[t];
		struct process_result *p = &r->procs[s->threads[t].process];

		if (!r->thread_selected[t])
			continue;
		p->threads++;
		p->runtime_ns += rt->runtime_ns;
		p->voluntary += rt->voluntary;
		p->involuntary += rt->involuntary;
		for (k = 0; k < MIGRATION_NR_CLASSES; k++)
			p->migrations += mg->count[k];
		for (k = 0; k < 2; k++)
			if (hist_merge(&p->latency[k], &r->latency.threads[t].h[k]) ||
			    hist_merge(&r->overall.h[k], &r->latency.threads[t].h[k]))
				return -ENOMEM;
	}
	return 0;
}

static void sum_cpus(struct report *r)
{
	uint32_t cpu;

	for (cpu = 0; cpu < r->cpu.nr_cpus; cpu++) {
		const struct cpu_result *c = &r->cpu.cpus[cpu];

		if (!c->seen)
			continue;
		r->busy_ns += c->busy_ns;
		r->known_ns += c->busy_ns + c->idle_ns;
		if (cpu + 1 > r->nr_cpus)
			r->nr_cpus = cpu + 1;
	}
}

static int derive(struct report *r)
{
	const struct sched *s = &r->sched;
	uint32_t p;

	r->thread_selected = calloc(s->nr_threads + 1, 1);
	r->process_selected = calloc(s->nr_procs + 1, 1);
	r->procs = calloc(s->nr_procs + 1, sizeof(*r->procs));
	if (!r->thread_selected || !r->process_selected || !r->procs)
		return -ENOMEM;
	for (p = 0; p < s->nr_procs; p++) {
		hist_init(&r->procs[p].latency[0]);
		hist_init(&r->procs[p].latency[1]);
	}
	hist_init(&r->overall.h[0]);
	hist_init(&r->overall.h[1]);
	select_threads(r);
	r->nr_cpus = 0;
	sum_cpus(r);
	if (sum_processes(r))
		return -ENOMEM;
	pairs_sort(&r->preempt.pairs);
	pairs_sort(&r->wakers.edges);
	pairs_sort(&r->migrations.cpu_pairs);
	return findings_run(&r->findings, r);
}

static void take_meta(struct report *r, struct input *in)
{
	const struct meta *m = input_meta(in);

	if (m) {
		r->meta = *m;
		r->have_meta = 1;
		r->session_start = m->have_session ? m->clock_boot : 0;
	}
	r->session_stop = input_stop_ns(in);
	r->sched_ext[0] = *input_sched_ext(in, 0);
	r->sched_ext[1] = *input_sched_ext(in, 1);
	r->nr_cpus = input_nr_cpus(in);
}

struct report *report_run(const char *path, const struct report_config *cfg,
			  struct error *err)
{
	struct report *r = calloc(1, sizeof(*r));
	struct input *in = NULL;
	uint64_t end;
	int ret;

	if (!r) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	r->cfg = *cfg;
	snprintf(r->path, sizeof(r->path), "%s", path);
	in = input_open(path, err);
	if (!in)
		goto fail;
	take_meta(r, in);
	if (r->nr_cpus > REPORT_MAX_CPUS) {
		error_set(err, -ERROR_TOO_LARGE, "%s claims %u CPUs: damaged metadata?",
			  path, r->nr_cpus);
		goto fail;
	}
	if (cfg->cpus && parse_cpus(cfg->cpus, &r->cpu_selected, &r->nr_cpu_selected)) {
		error_set(err, -EINVAL, "-C %s: want a CPU list such as 0-3,6", cfg->cpus);
		goto fail;
	}
	if (set_window(r, err) || setup(r, in, err) || scan(r, in, err))
		goto fail;
	/*
	 * The window ends where the module stopped (its STOP marks), else at
	 * the recorder's stop time or the last event, whichever is later.
	 */
	end = r->sched.stopped ? r->sched.stopped :
		r->session_stop > r->sched.end ? r->session_stop : r->sched.end;
	ret = sched_finish(&r->sched, end < r->to ? end : r->to);
	if (r->to > end)
		r->to = end;
	if (!r->from || r->from > r->to)
		r->from = r->cpu.t0 && r->cpu.t0 < r->to ? r->cpu.t0 : r->to;
	r->window_ns = r->to - r->from;
	if (input_capture(in) && !r->damaged) {
		const struct capture_status *st = capture_reader_status(input_capture(in));

		if (!st->complete) {
			r->truncated = 1;
			snprintf(r->problem, sizeof(r->problem), "%s", st->problem);
		}
	}
	if (ret || (ret = derive(r))) {
		error_set(err, ret, NULL);
		goto fail;
	}
	input_close(in);
	return r;
fail:
	input_close(in);
	report_free(r);
	return NULL;
}

void report_free(struct report *r)
{
	uint32_t p;

	if (!r)
		return;
	if (r->procs) {
		for (p = 0; p < r->sched.nr_procs; p++) {
			hist_fini(&r->procs[p].latency[0]);
			hist_fini(&r->procs[p].latency[1]);
		}
	}
	hist_fini(&r->overall.h[0]);
	hist_fini(&r->overall.h[1]);
	findings_fini(&r->findings);
	analyze_cpu_fini(&r->cpu);
	analyze_runtime_fini(&r->runtime);
	analyze_states_fini(&r->states);
	analyze_latency_fini(&r->latency);
	analyze_migrations_fini(&r->migrations);
	analyze_preempt_fini(&r->preempt);
	analyze_wakers_fini(&r->wakers);
	analyze_irq_fini(&r->irq);
	sched_fini(&r->sched);
	profile_free(r->profile);
	symbolizer_free(r->sym);
	task_table_fini(&r->tasks);
	free(r->thread_selected);
	free(r->process_selected);
	free(r->procs);
	free(r->streams);
	free(r->topo);
	free(r->cpu_selected);
	free(r);
}

/* --- Names --- */

const char *report_thread_name(const struct report *r, uint32_t t)
{
	if (t == SCHED_IDLE)
		return "swapper";
	if (t >= r->sched.nr_threads)
		return "?";
	return r->sched.threads[t].comm[0] ? r->sched.threads[t].comm : "?";
}

const char *report_ksym(const struct report *r, uint64_t addr, char *buf, size_t len)
{
	struct frame f;

	symbolizer_frame(r->sym, 0, addr, 1, &f);
	if (f.resolved && !f.offset)
		return f.func;
	if (f.resolved)
		snprintf(buf, len, "%s+0x%" PRIx64, f.func, f.offset);
	else
		snprintf(buf, len, "0x%" PRIx64, addr);
	return buf;
}

const char *report_waker_name(const struct report *r, uint32_t waker_id,
			      char *buf, size_t len)
{
	struct sched_waker w = analyze_wakers_waker(waker_id);
	const char *name;

	switch (w.kind) {
	case SCHED_WAKER_THREAD:
		snprintf(buf, len, "%s (%u)", report_thread_name(r, w.id),
			 w.id < r->sched.nr_threads ? r->sched.threads[w.id].pid : 0);
		break;
	case SCHED_WAKER_IDLE:
		snprintf(buf, len, "swapper/%u", w.id);
		break;
	case SCHED_WAKER_HARDIRQ:
		name = analyze_irq_name(&r->irq, w.id);
		snprintf(buf, len, "irq %u%s%s", w.id, name ? " " : "", name ? name : "");
		break;
	case SCHED_WAKER_SOFTIRQ:
		name = analyze_irq_softirq_name(w.id);
		snprintf(buf, len, "softirq %s", name ? name : "?");
		break;
	default:
		snprintf(buf, len, "(unknown)");
		break;
	}
	return buf;
}

int report_cpu_shown(const struct report *r, uint32_t cpu)
{
	return cpu < r->cpu.nr_cpus && r->cpu.cpus[cpu].seen &&
	       (!r->cpu_selected || (cpu < r->nr_cpu_selected && r->cpu_selected[cpu]));
}

struct sort_ctx {
	const struct report *r;
	int (*cmp)(const struct report *r, uint32_t a, uint32_t b);
};

static int by_cmp(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *sc = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = sc->cmp(sc->r, x, y);

	return c ? c : x < y ? -1 : x > y;
}

uint32_t *report_threads_sorted(const struct report *r, uint32_t *n,
				int (*cmp)(const struct report *r, uint32_t a, uint32_t b))
{
	uint32_t *v = malloc((r->sched.nr_threads + 1) * sizeof(*v)), t;

	*n = 0;
	if (!v)
		return NULL;
	for (t = 0; t < r->sched.nr_threads; t++) {
		const struct states_result *st = &r->states.threads[t];
		uint64_t known = 0;
		int k;

		for (k = SCHED_RUNNING; k < SCHED_NR_STATES; k++)
			known += st->ns[k];
		if (r->thread_selected[t] && (known || r->runtime.threads[t].runtime_ns))
			v[(*n)++] = t;
	}
	qsort_r(v, *n, sizeof(*v), by_cmp, &(struct sort_ctx){ r, cmp });
	return v;
}
