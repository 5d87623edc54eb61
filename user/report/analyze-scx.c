// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "report/analyze-scx.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/text.h"

/* --- The pass --- */

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_scx *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap_threads, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	a->nr_threads = t + 1;
	return 0;
}

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev, uint32_t next,
		      int involuntary)
{
	struct analyze_scx *a = ctx;

	(void)cpu, (void)ts, (void)next;
	if (prev < a->nr_threads)
		a->threads[prev].involuntary = involuntary;
}

static enum scx_dsq_kind dsq_kind(uint64_t id)
{
	if (!(id & RECORD_DSQ_BUILTIN))
		return SCX_DSQ_CUSTOM_KIND;
	if (id == RECORD_DSQ_LOCAL || (id & RECORD_DSQ_LOCAL_ON))
		return SCX_DSQ_LOCAL_KIND;
	if (id == RECORD_DSQ_GLOBAL)
		return SCX_DSQ_GLOBAL_KIND;
	return SCX_DSQ_OTHER_KIND;
}

/*
 * Several DSQs share an id (a local and a bypass DSQ per CPU, a global one
 * per node): the record's uid tells them apart, and the id is kept with it.
 */
static struct scx_dsq *dsq_get(struct analyze_scx *a, uint64_t id, uint32_t uid, uint32_t cpu)
{
	uint64_t key = record_dsq_key(id, uid);
	uintptr_t i = (uintptr_t)u64_map_get(&a->dsq_index, key);
	struct scx_dsq *d;

	if (i)
		return &a->dsqs[i - 1];
	if (array_reserve((void **)&a->dsqs, &a->cap_dsqs, a->nr_dsqs, sizeof(*a->dsqs), 16) ||
	    u64_map_put(&a->dsq_index, key, (void *)(uintptr_t)(a->nr_dsqs + 1)))
		return NULL;
	d = &a->dsqs[a->nr_dsqs++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->uid = uid;
	d->cpu = cpu;
	d->stride = 1;
	hist_init(&d->wait);
	return d;
}

/* Keep one point in d->stride; past the cap, every other one goes. */
static int dsq_point(struct scx_dsq *d, uint64_t ts)
{
	uint32_t i;

	if (d->skipped++ % d->stride)
		return 0;
	if (d->nr_points == SCX_MAX_POINTS) {
		for (i = 0; i < SCX_MAX_POINTS / 2; i++)
			d->points[i] = d->points[2 * i];
		d->nr_points = SCX_MAX_POINTS / 2;
		d->stride *= 2;
	}
	if (array_reserve((void **)&d->points, &d->cap_points, d->nr_points, sizeof(*d->points),
			  256))
		return -ENOMEM;
	d->points[d->nr_points++] = (struct scx_point){ ts, d->depth };
	return 0;
}

/* The kernel's count after a change: the area under the old one first. */
static int dsq_depth(struct scx_dsq *d, uint64_t ts, uint32_t nr, int insert)
{
	if (d->since) {
		d->area += (double)d->depth * (ts - d->last);
		if (nr != (insert ? d->depth + 1 : d->depth - 1))
			d->mismatches++;
	} else {
		d->since = ts;
	}
	d->last = ts;
	d->depth = nr;
	if (nr > d->max_depth)
		d->max_depth = nr;
	return dsq_point(d, ts);
}

static struct scx_thread *thread_of(struct analyze_scx *a, uint32_t pid)
{
	uint32_t t = sched_lookup_pid(&a->r->model->sched, pid);

	return t < a->nr_threads ? &a->threads[t] : NULL;
}

static struct scx_phase *phase(struct analyze_scx *a)
{
	return &a->phases[a->nr_phases ? a->nr_phases - 1 : 0];
}

static int on_dsq(struct analyze_scx *a, const struct event *ev)
{
	struct ktp_scx_dsq r;
	struct scx_thread *th;
	struct scx_dsq *d;
	int insert = ev->flags & KTP_SCX_DSQ_INSERT;

	memcpy(&r, ev->rec, sizeof(r));
	d = dsq_get(a, r.dsq_id, r.dsq_uid, r.cpu);
	if (!d || dsq_depth(d, ev->ts, r.nr, insert))
		return -ENOMEM;
	th = thread_of(a, r.pid);
	if (insert) {
		d->inserts++;
		a->inserts[dsq_kind(r.dsq_id)]++;
		phase(a)->inserts++;
		if (th) {
			th->queued = d - a->dsqs + 1;
			th->queued_at = ev->ts;
		}
		return 0;
	}
	d->removes++;
	if (!th)
		return 0;
	/* Its insert was seen (not before the window): a time in the DSQ. */
	if (th->queued == (uint32_t)(d - a->dsqs + 1)) {
		uint64_t ns = ev->ts - th->queued_at;

		if (hist_add(&d->wait, ns) || hist_add(&a->wait, ns))
			return -ENOMEM;
		th->dsq_ns += ns;
		th->dsq_waits++;
	}
	th->queued = 0;
	th->from_dsq = 1;
	return 0;
}

static void on_task(struct analyze_scx *a, const struct event *ev)
{
	struct ktp_scx_task r;
	struct scx_thread *th;

	memcpy(&r, ev->rec, sizeof(r));
	th = thread_of(a, r.pid);
	if (!th)
		return;
	th->ext = 1;
	th->weight = r.weight;
	if (ev->flags == KTP_SCX_AT_SWITCH_IN) {
		th->switch_ins++;
		phase(a)->switch_ins++;
		if (!th->from_dsq)
			th->direct++;
		th->running = 1;
		th->slice_in = r.slice;
		/* SCX_SLICE_INF: runs until something else wants the CPU. */
		if (r.slice == UINT64_MAX) {
			th->inf_slices++;
		} else {
			th->granted += r.slice;
			th->granted_runs++;
		}
		th->run_since = ev->ts;
	} else if (ev->flags == KTP_SCX_AT_SWITCH_OUT) {
		uint64_t ran = ev->ts - th->run_since;

		th->from_dsq = 0;
		if (!th->running)
			return;
		th->running = 0;
		th->runs++;
		th->runtime_ns += ran;
		/*
		 * The slice used is the time run: the slice left at the
		 * switch is no measure, since a task put back on a queue
		 * before the switch may have been given a new one already.
		 * A run that was cut while runnable ended by its slice
		 * when it ran the slice it was given, else by preemption.
		 */
		th->used += ran;
		if (!th->involuntary)
			th->blocked++;
		else if (ran >= th->slice_in)
			th->expired++;
		else
			th->preempted++;
	}
}

static int on_transition(struct analyze_scx *a, const struct event *ev, int64_t value)
{
	struct scx_transition *t;

	if (array_reserve((void **)&a->transitions, &a->cap_transitions, a->nr_transitions,
			  sizeof(*t), 16))
		return -ENOMEM;
	t = &a->transitions[a->nr_transitions++];
	*t = (struct scx_transition){ ev->ts, ev->flags, value };
	/* A new phase begins here. */
	if (a->nr_phases < SCX_MAX_PHASES) {
		phase(a)->to = ev->ts;
		a->phases[a->nr_phases++] = (struct scx_phase){ .from = ev->ts };
	}
	return 0;
}

/*
 * Names are looked up by their hash, then compared as stored (cut to the
 * table's width): a name past it still finds its own row.
 */
static int on_event_count(struct analyze_scx *a, const char *name, int64_t delta)
{
	char key[sizeof(a->events[0].name)];
	uint64_t h;
	uintptr_t i;

	snprintf(key, sizeof(key), "%s", name);
	h = hash_fnv1a(key, strlen(key), HASH_FNV1A_SEED);
	for (i = (uintptr_t)u64_map_get(&a->event_index, h); i; i = 0) {
		if (!strcmp(a->events[i - 1].name, key)) {
			a->events[i - 1].delta += delta;
			return 0;
		}
	}
	/* A collision of two names' hashes: the later one is looked up linearly. */
	for (i = 0; i < a->nr_events; i++) {
		if (!strcmp(a->events[i].name, key)) {
			a->events[i].delta += delta;
			return 0;
		}
	}
	if (array_reserve((void **)&a->events, &a->cap_events, i, sizeof(*a->events), 16))
		return -ENOMEM;
	memcpy(a->events[i].name, key, sizeof(key));
	a->events[i].delta = delta;
	a->events[i].sysfs_delta = -1;
	a->nr_events++;
	if (!u64_map_get(&a->event_index, h) &&
	    u64_map_put(&a->event_index, h, (void *)(uintptr_t)(i + 1)))
		return -ENOMEM;
	return 0;
}

static int on_op(struct analyze_scx *a, const struct event *ev)
{
	struct ktp_scx_op r;
	const char *name = (const char *)ev->rec + sizeof(r);

	memcpy(&r, ev->rec, sizeof(r));
	if (ev->flags == KTP_SCX_OP_EVENT)
		return on_event_count(a, name, r.value);
	return on_transition(a, ev, r.value);
}

static int on_dump(struct analyze_scx *a, const struct event *ev)
{
	char *line;

	if (a->nr_dump == SCX_MAX_DUMP) {
		a->dump_dropped++;
		return 0;
	}
	line = strdup((const char *)ev->rec + sizeof(struct ktp_scx_dump));
	if (!line || array_reserve((void **)&a->dump, &a->cap_dump, a->nr_dump, sizeof(char *),
				   256)) {
		free(line);
		return -ENOMEM;
	}
	a->dump[a->nr_dump++] = line;
	return 0;
}

static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_scx *a = ctx;
	int ret = 0;

	if (ev->type < KTP_REC_SCX_TASK || ev->type > KTP_REC_SCX_DUMP || a->error)
		return 0;
	if (!a->records++ && !a->nr_phases)
		a->phases[a->nr_phases++] = (struct scx_phase){ .from = a->r->model->from };
	switch (ev->type) {
	case KTP_REC_SCX_TASK:
		on_task(a, ev);
		break;
	case KTP_REC_SCX_DSQ:
		ret = on_dsq(a, ev);
		break;
	case KTP_REC_SCX_OP:
		ret = on_op(a, ev);
		break;
	case KTP_REC_SCX_DUMP:
		ret = on_dump(a, ev);
		break;
	}
	if (ret)
		a->error = ret;
	return 0;
}

static const struct sched_ops scx_ops = {
	.thread_new = on_thread_new,
	.switch_out = on_switch,
	.event = on_event,
	.event_types = SCHED_TYPE(KTP_REC_SCX_TASK) | SCHED_TYPE(KTP_REC_SCX_DSQ) |
		       SCHED_TYPE(KTP_REC_SCX_OP) | SCHED_TYPE(KTP_REC_SCX_DUMP),
};

static int scx_init(void *state, struct report *r)
{
	struct analyze_scx *a = state;

	a->r = r;
	u64_map_init(&a->dsq_index);
	u64_map_init(&a->event_index);
	hist_init(&a->wait);
	return model_add_client(r->model, &scx_ops, a, MODEL_WINDOWED);
}

static void scx_fini(void *state)
{
	struct analyze_scx *a = state;
	uint32_t i;

	for (i = 0; i < a->nr_dsqs; i++) {
		hist_fini(&a->dsqs[i].wait);
		free(a->dsqs[i].points);
	}
	for (i = 0; i < a->nr_dump; i++)
		free(a->dump[i]);
	free(a->dsqs);
	free(a->threads);
	free(a->transitions);
	free(a->events);
	free(a->dump);
	u64_map_fini(&a->dsq_index);
	u64_map_fini(&a->event_index);
	hist_fini(&a->wait);
}

/* DSQs by inserts, most first; then by id. */
static int dsq_cmp(const void *x, const void *y)
{
	const struct scx_dsq *p = x, *q = y;

	if (p->inserts != q->inserts)
		return p->inserts < q->inserts ? 1 : -1;
	if (p->id != q->id)
		return p->id < q->id ? -1 : 1;
	if (p->cpu != q->cpu)
		return p->cpu < q->cpu ? -1 : 1;
	return p->uid < q->uid ? -1 : p->uid > q->uid;
}

/*
 * The counters /sys/kernel/sched_ext/root/events had at the session's
 * start and stop (a scheduler loaded all along): their change beside the
 * tracepoint's sum, which a change between the reads and the session's
 * start or stop adds to; and those the tracepoint never saw change.
 */
static int sysfs_events(struct analyze_scx *a, const struct model *m)
{
	const struct sched_ext *start = &m->sched_ext[0], *stop = &m->sched_ext[1];
	const char *p;
	uint32_t i;

	/* The same scheduler at both reads: another's counters start anew. */
	if (!start->present || !stop->present || start->enable_seq != stop->enable_seq ||
	    strcmp(start->ops, stop->ops) || !start->ops[0])
		return 0;
	for (p = stop->events; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		char name[48];
		int64_t at_start, at_stop;
		size_t n = strcspn(p, " \n");

		if (!n || n >= sizeof(name))
			continue;
		memcpy(name, p, n);
		name[n] = '\0';
		at_start = sched_ext_event(start, name);
		at_stop = sched_ext_event(stop, name);
		if (at_start < 0 || at_stop < at_start)
			continue;
		if (at_stop == at_start && !a->records)
			continue;
		for (i = 0; i < a->nr_events && strcmp(a->events[i].name, name); i++)
			;
		if (i == a->nr_events && at_stop == at_start)
			continue;
		if (i == a->nr_events && on_event_count(a, name, 0))
			return -ENOMEM;
		a->events[i].sysfs_delta = at_stop - at_start;
	}
	return 0;
}

static int scx_derive(void *state, struct report *r)
{
	struct analyze_scx *a = state;
	uint32_t i;

	if (!a->error)
		a->error = sysfs_events(a, r->model);
	for (i = 0; i < a->nr_threads; i++)
		if (a->threads[i].ext && a->threads[i].runtime_ns) {
			a->ext_runtime += a->threads[i].runtime_ns;
			a->ext_weight += a->threads[i].weight;
		}
	if (a->nr_phases)
		phase(a)->to = r->model->to;
	/* Each DSQ's time-weighted depth runs to the window's end. */
	for (i = 0; i < a->nr_dsqs; i++) {
		struct scx_dsq *d = &a->dsqs[i];

		if (d->since && r->model->to > d->last)
			d->area += (double)d->depth * (r->model->to - d->last);
	}
	if (a->nr_dsqs)
		qsort(a->dsqs, a->nr_dsqs, sizeof(*a->dsqs), dsq_cmp);
	return a->error;
}

const struct analyze_scx *analyze_scx(const struct report *r)
{
	return report_state(r, &analyzer_scx);
}

/* --- Figures --- */

const char *analyze_scx_exit_name(int64_t kind)
{
	static const struct { int64_t kind; const char *name; } names[] = {
		{ 0, "NONE" }, { 1, "DONE" }, { 64, "UNREG" }, { 65, "UNREG_BPF" },
		{ 66, "UNREG_KERN" }, { 67, "SYSRQ" }, { 68, "PARENT" }, { 69, "PARENT_KILL" },
		{ 1024, "ERROR" }, { 1025, "ERROR_BPF" }, { 1026, "ERROR_STALL" },
		{ 1027, "ERROR_REENQ" }, { 1028, "ERROR_RESCUE" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].kind == kind)
			return names[i].name;
	return NULL;
}

static const char *transition_str(const struct scx_transition *t, char *buf, size_t len)
{
	const char *exit_name;

	switch (t->kind) {
	case KTP_SCX_OP_ENABLE:
		snprintf(buf, len, "enabling");
		break;
	case KTP_SCX_OP_BYPASS:
		snprintf(buf, len, "bypass %s", t->value ? "on" : "off");
		break;
	case KTP_SCX_OP_EXIT:
		exit_name = analyze_scx_exit_name(t->value);
		if (exit_name)
			snprintf(buf, len, "exit %s (%" PRId64 ")", exit_name, t->value);
		else
			snprintf(buf, len, "exit kind %" PRId64, t->value);
		break;
	default:
		snprintf(buf, len, "? %u", t->kind);
	}
	return buf;
}

static const char *dsq_str(const struct scx_dsq *d, char *buf, size_t len)
{
	return record_dsq_label(d->id, d->cpu, buf, len);
}


static uint64_t dsq_span(const struct analyze_scx *a, const struct scx_dsq *d)
{
	return d->since && a->r->model->to > d->since ? a->r->model->to - d->since : 0;
}

static double dsq_mean_depth(const struct analyze_scx *a, const struct scx_dsq *d)
{
	uint64_t span = dsq_span(a, d);

	return span ? d->area / span : 0;
}

/* Thread @t's share of the ext threads' runtime, over its share of their weight. */
static double fair_ratio(const struct analyze_scx *a, uint32_t t)
{
	uint64_t run = a->ext_runtime, weight = a->ext_weight;

	if (!run || !weight || !a->threads[t].weight)
		return NAN;
	return ((double)a->threads[t].runtime_ns / run) / ((double)a->threads[t].weight / weight);
}

static const char *kind_names[SCX_NR_DSQ_KINDS] = { "local", "global", "custom", "other" };

/* --- Text --- */

static void text_header(FILE *out, const struct analyze_scx *a)
{
	const struct model *m = a->r->model;
	char x[128], y[128];
	uint64_t all = 0;
	unsigned int k;

	fprintf(out, "  scheduler at start: %s; at stop: %s\n",
		text_esc(sched_ext_str(&m->sched_ext[0], x, sizeof(x))),
		m->sched_ext[1].present ? text_esc(sched_ext_str(&m->sched_ext[1], y, sizeof(y))) :
					  "(not recorded)");
	if (m->meta.scx_hooks[0])
		fprintf(out, "  hooks: %s\n", text_esc(m->meta.scx_hooks));
	for (k = 0; k < SCX_NR_DSQ_KINDS; k++)
		all += a->inserts[k];
	fprintf(out, "  %" PRIu64 " DSQ inserts:", all);
	for (k = 0; k < SCX_NR_DSQ_KINDS; k++)
		fprintf(out, " %s %" PRIu64 " (%.1f%%)", kind_names[k], a->inserts[k],
			render_pct(a->inserts[k], all));
	fprintf(out, "\n");
}

static void text_phases(FILE *out, const struct analyze_scx *a)
{
	char when[32], d[32], what[64];
	uint32_t i;

	if (!a->nr_transitions)
		return;
	fprintf(out, "\n  transitions and the phases between them\n");
	fprintf(out, "  %12s  %s\n", "at", "what");
	for (i = 0; i < a->nr_transitions; i++)
		fprintf(out, "  %12s  %s\n",
			render_ns(a->transitions[i].ts - a->r->model->from, when, sizeof(when)),
			transition_str(&a->transitions[i], what, sizeof(what)));
	fprintf(out, "  %12s %12s %12s %10s\n", "from", "length", "ext switch-ins", "inserts");
	for (i = 0; i < a->nr_phases; i++)
		fprintf(out, "  %12s %12s %14" PRIu64 " %10" PRIu64 "\n",
			render_ns(a->phases[i].from - a->r->model->from, when, sizeof(when)),
			render_ns(a->phases[i].to - a->phases[i].from, d, sizeof(d)),
			a->phases[i].switch_ins, a->phases[i].inserts);
}

static void text_dsqs(FILE *out, const struct analyze_scx *a, unsigned int rows)
{
	char name[64], p50[32], p99[32], mx[32];
	uint32_t i;

	fprintf(out, "\n  %-24s %9s %9s %8s %6s %10s %10s %10s\n", "DSQ", "inserts", "removes",
		"depth", "max", "wait p50", "wait p99", "wait max");
	for (i = 0; i < a->nr_dsqs && i < rows; i++) {
		const struct scx_dsq *d = &a->dsqs[i];

		fprintf(out, "  %-24s %9" PRIu64 " %9" PRIu64 " %8.2f %6u %10s %10s %10s\n",
			dsq_str(d, name, sizeof(name)), d->inserts, d->removes,
			dsq_mean_depth(a, d), d->max_depth,
			render_ns(hist_percentile(&d->wait, 50), p50, sizeof(p50)),
			render_ns(hist_percentile(&d->wait, 99), p99, sizeof(p99)),
			render_ns(d->wait.max, mx, sizeof(mx)));
	}
	if (a->nr_dsqs > rows)
		fprintf(out, "  (%u more DSQs)\n", a->nr_dsqs - rows);
}

/* Ext threads by runtime, most first: indexes into @out, their count. */
static int by_runtime(const void *x, const void *y, void *arg)
{
	const struct scx_thread *t = arg;
	uint64_t p = t[*(const uint32_t *)x].runtime_ns, q = t[*(const uint32_t *)y].runtime_ns;

	if (p != q)
		return p < q ? 1 : -1;
	return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

static uint32_t ext_threads(const struct analyze_scx *a, uint32_t *out)
{
	uint32_t i, n = 0;

	for (i = 0; i < a->nr_threads; i++)
		if (a->threads[i].ext && report_thread_selected(a->r, i))
			out[n++] = i;
	qsort_r(out, n, sizeof(*out), by_runtime, a->threads);
	return n;
}

static void text_threads(FILE *out, const struct analyze_scx *a, unsigned int rows)
{
	uint32_t *order = calloc(a->nr_threads ? a->nr_threads : 1, sizeof(*order));
	char run[32], gr[32], us[32], dq[32];
	uint32_t i, n;

	if (!order)
		return;
	n = ext_threads(a, order);
	fprintf(out, "\n  %-26s %9s %6s %8s %10s %10s %7s %7s %7s %9s %6s\n", "thread", "runtime",
		"weight", "runs", "slice", "used", "expired", "preempt", "blocked", "in DSQ", "fair");
	for (i = 0; i < n && i < rows; i++) {
		const struct scx_thread *th = &a->threads[order[i]];
		char label[64];
		double f = fair_ratio(a, order[i]);

		fprintf(out, "  %-26s %9s %6u %8" PRIu64 " %10s %10s %7" PRIu64 " %7" PRIu64
			" %7" PRIu64 " %9s ",
			text_esc(report_thread_label(a->r, order[i], label, sizeof(label))),
			render_ns(th->runtime_ns, run, sizeof(run)), th->weight, th->runs,
			th->granted_runs ? render_ns(th->granted / th->granted_runs, gr, sizeof(gr)) :
			th->inf_slices ? "inf" : "-",
			render_ns(th->runs ? th->used / th->runs : 0, us, sizeof(us)), th->expired,
			th->preempted, th->blocked,
			render_ns(th->dsq_waits ? th->dsq_ns / th->dsq_waits : 0, dq, sizeof(dq)));
		if (isnan(f))
			fprintf(out, "%6s\n", "-");
		else
			fprintf(out, "%6.2f\n", f);
	}
	free(order);
}

static void text_events(FILE *out, const struct analyze_scx *a)
{
	uint32_t i;

	if (!a->nr_events)
		return;
	fprintf(out, "\n  event counters' changes: in the window (sched_ext_event), and in\n"
		"  /sys/kernel/sched_ext/root/events from start to stop\n");
	for (i = 0; i < a->nr_events; i++) {
		fprintf(out, "  %-36s %12" PRId64, text_esc(a->events[i].name), a->events[i].delta);
		if (a->events[i].sysfs_delta >= 0)
			fprintf(out, " %12" PRId64, a->events[i].sysfs_delta);
		fprintf(out, "\n");
	}
}

static void text_dump(FILE *out, const struct analyze_scx *a)
{
	uint32_t i;

	if (!a->nr_dump)
		return;
	fprintf(out, "\n  debug dump (%u line%s%s)\n", a->nr_dump, a->nr_dump == 1 ? "" : "s",
		a->dump_dropped ? ", more dropped" : "");
	for (i = 0; i < a->nr_dump; i++)
		fprintf(out, "  | %s\n", text_esc(a->dump[i]));
}

static void scx_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_scx *a = analyze_scx(r);

	render_heading(out, "sched_ext (the BPF scheduler's dispatch queues, slices, transitions)");
	if (!a->records) {
		fprintf(out, "  no sched_ext records (%s)\n",
			!(r->model->meta.events & KTP_EV_SCX) ?
			(r->model->meta.events_unavailable & KTP_EV_SCX ?
			 "this kernel has no sched_ext" : "not recorded: record -e scx") :
			"no BPF scheduler ran in the window");
		return;
	}
	text_header(out, a);
	text_phases(out, a);
	text_dsqs(out, a, render_rows(v));
	text_threads(out, a, render_rows(v));
	text_events(out, a);
	if (!v->summary)
		text_dump(out, a);
}

static void scx_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_scx *a = analyze_scx(r);
	char p99[32];
	uint32_t i;

	(void)v;
	if (!a->records)
		return;
	fprintf(out, "sched_ext: %u DSQs, time in DSQ p99 %s", a->nr_dsqs,
		render_ns(hist_percentile(&a->wait, 99), p99, sizeof(p99)));
	for (i = 0; i < a->nr_transitions; i++)
		if (a->transitions[i].kind == KTP_SCX_OP_EXIT)
			fprintf(out, "; the scheduler exited (%s)",
				analyze_scx_exit_name(a->transitions[i].value) ?
				analyze_scx_exit_name(a->transitions[i].value) : "?");
	if (a->nr_dump)
		fprintf(out, "; a debug dump of %u lines", a->nr_dump);
	fprintf(out, "\n");
}

/* --- HTML --- */

static void html_depth_plot(FILE *f, const struct analyze_scx *a, const struct scx_dsq *d,
			    const char *name)
{
	struct svg_axis x = { .min = 0, .max = (a->r->model->to - a->r->model->from) / 1e9 };
	struct svg_axis y = { .min = 0, .max = d->max_depth ? d->max_depth : 1,
			      .fmt = svg_fmt_count };
	const int h = 140, top = 10, bottom = h - 30;
	uint32_t i;

	svg_nice(&y);
	html_figure_open(f, "dsq-depth", HTML_W, h, name);
	svg_y_axis(f, &y, bottom, top, HTML_LEFT, HTML_W - HTML_RIGHT, "tasks");
	fputs("<polyline fill=none stroke=\"#1f77b4\" points=\"", f);
	for (i = 0; i < d->nr_points; i++) {
		double px = svg_pos(&x, (d->points[i].ts - a->r->model->from) / 1e9, HTML_LEFT,
				    HTML_W - HTML_RIGHT);
		double py = svg_pos(&y, d->points[i].depth, bottom, top);

		fprintf(f, "%.1f,%.1f ", px, py);
	}
	fputs("\"/>\n", f);
	html_figure_close(f, "depth over the window (tasks in the DSQ, after each change)");
}

static void scx_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_scx *a = analyze_scx(r);
	char name[64], p50[32], p99[32], what[64], when[32];
	uint32_t i;

	fputs("<h2 id=scx>sched_ext</h2>\n", f);
	if (!a->records) {
		fputs("<p>No sched_ext records.</p>\n", f);
		return;
	}
	if (a->nr_transitions) {
		fputs("<table><tr><th>at</th><th class=l>transition</th></tr>\n", f);
		for (i = 0; i < a->nr_transitions; i++)
			fprintf(f, "<tr><td>%s</td><td class=l>%s</td></tr>\n",
				render_ns(a->transitions[i].ts - r->model->from, when, sizeof(when)),
				transition_str(&a->transitions[i], what, sizeof(what)));
		fputs("</table>\n", f);
	}
	fputs("<table><tr><th class=l>DSQ</th><th>inserts</th><th>mean depth</th><th>max</th>"
	      "<th>wait p50</th><th>wait p99</th></tr>\n", f);
	for (i = 0; i < a->nr_dsqs && i < v->top; i++) {
		const struct scx_dsq *d = &a->dsqs[i];

		fprintf(f, "<tr><td class=l>");
		html_esc(f, dsq_str(d, name, sizeof(name)));
		fprintf(f, "</td><td>%" PRIu64 "</td><td>%.2f</td><td>%u</td><td>%s</td><td>%s</td></tr>\n",
			d->inserts, dsq_mean_depth(a, d), d->max_depth,
			render_ns(hist_percentile(&d->wait, 50), p50, sizeof(p50)),
			render_ns(hist_percentile(&d->wait, 99), p99, sizeof(p99)));
	}
	fputs("</table>\n", f);
	for (i = 0; i < a->nr_dsqs && i < 4; i++)
		if (a->dsqs[i].nr_points)
			html_depth_plot(f, a, &a->dsqs[i], dsq_str(&a->dsqs[i], name, sizeof(name)));
	if (a->nr_dump) {
		/* The page's own elements only: a block that keeps the lines. */
		fprintf(f, "<p>Debug dump, %u line%s:</p>\n<div style=\"white-space:pre;"
			"font-family:monospace\">", a->nr_dump, a->nr_dump == 1 ? "" : "s");
		for (i = 0; i < a->nr_dump; i++) {
			html_esc(f, a->dump[i]);
			fputc('\n', f);
		}
		fputs("</div>\n", f);
	}
}

/* --- JSON --- */

static const struct analyze_scx *scx_of(const struct json_ctx *c)
{
	return analyze_scx(render_report(c));
}

static int next_dsq(struct json_ctx *c, size_t *pos)
{
	const struct analyze_scx *a = scx_of(c);

	if (*pos >= a->nr_dsqs)
		return 0;
	c->item = &a->dsqs[(*pos)++];
	return 1;
}

static json_object *get_dsq(const struct json_field *f, struct json_ctx *c)
{
	const struct scx_dsq *d = c->item;
	const struct analyze_scx *a = scx_of(c);
	char buf[64];

	if (!strcmp(f->name, "dsq"))
		return json_doc_str(dsq_str(d, buf, sizeof(buf)));
	if (!strcmp(f->name, "id")) {
		snprintf(buf, sizeof(buf), "%#" PRIx64, d->id);
		return json_doc_str(buf);
	}
	if (!strcmp(f->name, "kind"))
		return json_doc_str(kind_names[dsq_kind(d->id)]);
	if (!strcmp(f->name, "cpu"))
		return record_dsq_per_cpu(d->id) ? json_doc_u64(d->cpu) : NULL;
	if (!strcmp(f->name, "mean_depth"))
		return json_doc_num(c, dsq_mean_depth(a, d), 3);
	if (!strcmp(f->name, "wait_ns"))
		return json_doc_dist(c, &d->wait);
	switch (f->off) {
	case 0: return json_doc_u64(d->inserts);
	case 1: return json_doc_u64(d->removes);
	case 2: return json_doc_u64(d->max_depth);
	default: return json_doc_u64(d->mismatches);
	}
}

static int next_thread(struct json_ctx *c, size_t *pos)
{
	const struct analyze_scx *a = scx_of(c);

	while (*pos < a->nr_threads && (!a->threads[*pos].ext ||
					 !report_thread_selected(a->r, *pos)))
		(*pos)++;
	if (*pos >= a->nr_threads)
		return 0;
	c->id = *pos;
	c->item = &a->threads[(*pos)++];
	return 1;
}

static json_object *get_thread(const struct json_field *f, struct json_ctx *c)
{
	const struct scx_thread *th = c->item;
	const uint64_t v[] = { th->runtime_ns, th->weight, th->switch_ins, th->direct, th->runs,
			       th->granted, th->used, th->expired, th->preempted, th->blocked,
			       th->dsq_ns, th->dsq_waits, th->inf_slices };

	if (!strcmp(f->name, "thread"))
		return render_thread_ref_of(c, c->id);
	if (!strcmp(f->name, "fair_ratio"))
		return json_doc_num(c, fair_ratio(scx_of(c), c->id), 3);
	return json_doc_u64(v[f->off]);
}

static int next_transition(struct json_ctx *c, size_t *pos)
{
	const struct analyze_scx *a = scx_of(c);

	if (*pos >= a->nr_transitions)
		return 0;
	c->item = &a->transitions[(*pos)++];
	return 1;
}

static json_object *get_transition(const struct json_field *f, struct json_ctx *c)
{
	const struct scx_transition *t = c->item;
	const char *exit_name;
	char buf[64];

	if (!strcmp(f->name, "ts_ns"))
		return json_doc_u64(t->ts - render_report(c)->model->from);
	if (!strcmp(f->name, "what")) {
		static const char *const kinds[] = { "?", "enable", "bypass", "exit" };

		return json_doc_str(t->kind < 4 ? kinds[t->kind] : "?");
	}
	if (!strcmp(f->name, "exit_kind")) {
		if (t->kind != KTP_SCX_OP_EXIT)
			return NULL;
		exit_name = analyze_scx_exit_name(t->value);
		if (!exit_name) {
			snprintf(buf, sizeof(buf), "%" PRId64, t->value);
			exit_name = buf;
		}
		return json_doc_str(exit_name);
	}
	return json_doc_u64(t->value < 0 ? 0 : (uint64_t)t->value);
}

static int next_phase(struct json_ctx *c, size_t *pos)
{
	const struct analyze_scx *a = scx_of(c);

	if (*pos >= a->nr_phases)
		return 0;
	c->item = &a->phases[(*pos)++];
	return 1;
}

static json_object *get_phase(const struct json_field *f, struct json_ctx *c)
{
	const struct scx_phase *p = c->item;
	uint64_t from = render_report(c)->model->from;

	switch (f->off) {
	case 0: return json_doc_u64(p->from - from);
	case 1: return json_doc_u64(p->to - p->from);
	case 2: return json_doc_u64(p->switch_ins);
	default: return json_doc_u64(p->inserts);
	}
}

static int next_event(struct json_ctx *c, size_t *pos)
{
	const struct analyze_scx *a = scx_of(c);

	if (*pos >= a->nr_events)
		return 0;
	c->item = &a->events[(*pos)++];
	return 1;
}

static json_object *get_event(const struct json_field *f, struct json_ctx *c)
{
	const struct scx_event_sum *e = c->item;

	if (!strcmp(f->name, "name"))
		return json_doc_str(e->name);
	if (!strcmp(f->name, "sysfs_delta"))
		return e->sysfs_delta < 0 ? NULL : json_object_new_int64(e->sysfs_delta);
	return json_object_new_int64(e->delta);
}

static json_object *get_section(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_scx *a = scx_of(c);
	const struct model *m = render_report(c)->model;
	json_object *arr;
	char buf[128];
	uint32_t i;

	if (!strcmp(f->name, "dump")) {
		arr = json_object_new_array();
		for (i = 0; i < a->nr_dump; i++)
			json_build_push(c->b, arr, json_doc_str(a->dump[i]));
		return arr;
	}
	if (!strcmp(f->name, "scheduler_start"))
		return json_doc_str(sched_ext_str(&m->sched_ext[0], buf, sizeof(buf)));
	if (!strcmp(f->name, "scheduler_stop"))
		return m->sched_ext[1].present ?
		       json_doc_str(sched_ext_str(&m->sched_ext[1], buf, sizeof(buf))) : NULL;
	if (!strcmp(f->name, "hooks"))
		return json_doc_str(m->meta.scx_hooks);
	if (!strcmp(f->name, "wait_ns"))
		return json_doc_dist(c, &a->wait);
	if (!strcmp(f->name, "records"))
		return json_doc_u64(a->records);
	return json_doc_u64(a->inserts[f->off]);
}

static const struct json_field dsq_fields[] = {
	{ .name = "dsq", .type = JSON_STR, .get = get_dsq,
	  .description = "the DSQ: its id's name (global, local, or the scheduler's number), "
			 "a local DSQ with its CPU (local:1)" },
	{ .name = "id", .type = JSON_STR, .get = get_dsq, .description = "the kernel's DSQ id, hex" },
	{ .name = "kind", .type = JSON_STR, .get = get_dsq, .description = "local, global, custom, other" },
	{ .name = "cpu", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_dsq },
	{ .name = "inserts", .type = JSON_INT, .off = 0, .get = get_dsq },
	{ .name = "removes", .type = JSON_INT, .off = 1, .get = get_dsq },
	{ .name = "mean_depth", .type = JSON_NUM, .get = get_dsq,
	  .description = "tasks in the DSQ, averaged over time from its first change" },
	{ .name = "max_depth", .type = JSON_INT, .off = 2, .get = get_dsq },
	{ .name = "depth_mismatches", .type = JSON_INT, .off = 3, .get = get_dsq,
	  .description = "changes after which the kernel's count was not the previous one +/- 1 "
			 "(a change not seen: 0 when every path was hooked and nothing lost)" },
	{ .name = "wait_ns", .type = JSON_DIST, .flags = JSON_OPEN, .get = get_dsq,
	  .description = "time from a task's insert to its removal" },
	JSON_END
};

static const struct json_field thread_fields[] = {
	{ .name = "thread", .type = JSON_OBJ, .sub = render_thread_ref, .def = "thread_ref", .get = get_thread },
	{ .name = "runtime_ns", .type = JSON_INT, .off = 0, .get = get_thread },
	{ .name = "weight", .type = JSON_INT, .off = 1, .get = get_thread },
	{ .name = "switch_ins", .type = JSON_INT, .off = 2, .get = get_thread },
	{ .name = "switch_ins_not_from_dsq", .type = JSON_INT, .off = 3, .get = get_thread },
	{ .name = "runs", .type = JSON_INT, .off = 4, .get = get_thread },
	{ .name = "slice_granted_ns", .type = JSON_INT, .off = 5, .get = get_thread,
	  .description = "sum of the slices it had at its switch-ins, infinite ones left out" },
	{ .name = "slices_infinite", .type = JSON_INT, .off = 12, .get = get_thread,
	  .description = "switch-ins with SCX_SLICE_INF" },
	{ .name = "slice_used_ns", .type = JSON_INT, .off = 6, .get = get_thread },
	{ .name = "expired", .type = JSON_INT, .off = 7, .get = get_thread },
	{ .name = "preempted", .type = JSON_INT, .off = 8, .get = get_thread },
	{ .name = "blocked", .type = JSON_INT, .off = 9, .get = get_thread },
	{ .name = "dsq_ns", .type = JSON_INT, .off = 10, .get = get_thread },
	{ .name = "dsq_waits", .type = JSON_INT, .off = 11, .get = get_thread },
	{ .name = "fair_ratio", .type = JSON_NUM, .get = get_thread,
	  .description = "its share of the ext threads' runtime over its share of their weight" },
	JSON_END
};

static const struct json_field transition_fields[] = {
	{ .name = "ts_ns", .type = JSON_INT, .get = get_transition },
	{ .name = "what", .type = JSON_STR, .get = get_transition },
	{ .name = "value", .type = JSON_INT, .get = get_transition },
	{ .name = "exit_kind", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_transition },
	JSON_END
};

static const struct json_field phase_fields[] = {
	{ .name = "from_ns", .type = JSON_INT, .off = 0, .get = get_phase },
	{ .name = "length_ns", .type = JSON_INT, .off = 1, .get = get_phase },
	{ .name = "switch_ins", .type = JSON_INT, .off = 2, .get = get_phase },
	{ .name = "inserts", .type = JSON_INT, .off = 3, .get = get_phase },
	JSON_END
};

static const struct json_field event_fields[] = {
	{ .name = "name", .type = JSON_STR, .get = get_event },
	{ .name = "delta", .type = JSON_INT, .get = get_event,
	  .description = "the sched_ext_event tracepoint's sum in the window" },
	{ .name = "sysfs_delta", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_event,
	  .description = "root/events at the session's stop minus at its start (a scheduler "
			 "loaded at both)" },
	JSON_END
};

static const struct json_field section_fields[] = {
	{ .name = "records", .type = JSON_INT, .get = get_section },
	{ .name = "scheduler_start", .type = JSON_STR, .get = get_section },
	{ .name = "scheduler_stop", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_section },
	{ .name = "hooks", .type = JSON_STR, .get = get_section },
	{ .name = "inserts_local", .type = JSON_INT, .off = SCX_DSQ_LOCAL_KIND, .get = get_section },
	{ .name = "inserts_global", .type = JSON_INT, .off = SCX_DSQ_GLOBAL_KIND, .get = get_section },
	{ .name = "inserts_custom", .type = JSON_INT, .off = SCX_DSQ_CUSTOM_KIND, .get = get_section },
	{ .name = "inserts_other", .type = JSON_INT, .off = SCX_DSQ_OTHER_KIND, .get = get_section },
	{ .name = "wait_ns", .type = JSON_DIST, .flags = JSON_OPEN, .get = get_section },
	{ .name = "transitions", .type = JSON_ARR, .sub = transition_fields, .flags = JSON_LIST,
	  .next = next_transition },
	{ .name = "phases", .type = JSON_ARR, .sub = phase_fields, .flags = JSON_LIST,
	  .next = next_phase },
	{ .name = "dsqs", .type = JSON_ARR, .sub = dsq_fields, .flags = JSON_LIST,
	  .next = next_dsq, .order = "inserts" },
	{ .name = "threads", .type = JSON_ARR, .sub = thread_fields, .flags = JSON_LIST,
	  .next = next_thread, .order = "runtime_ns" },
	{ .name = "events", .type = JSON_ARR, .sub = event_fields, .flags = JSON_LIST,
	  .next = next_event },
	{ .name = "dump", .type = JSON_STRS, .get = get_section,
	  .description = "the debug dump's lines (sched_ext_dump), as the kernel wrote them" },
	JSON_END
};

static const struct json_field scx_doc[] = {
	{ .name = "scx", .type = JSON_OBJ, .sub = section_fields,
	  .description = "sched_ext: the BPF scheduler's transitions, dispatch queues, slices "
			 "(-e scx)" },
	JSON_END
};

/* --- diff --- */

static const struct hist *machine_wait(const struct report *r, uint32_t id)
{
	(void)id;
	return &analyze_scx(r)->wait;
}

static double thread_dsq_ns(const struct report *r, uint32_t t)
{
	const struct analyze_scx *a = analyze_scx(r);

	return t < a->nr_threads ? a->threads[t].dsq_ns : 0;
}

static double thread_expired(const struct report *r, uint32_t t)
{
	const struct analyze_scx *a = analyze_scx(r);

	return t < a->nr_threads ? a->threads[t].expired : 0;
}

static double thread_preempted(const struct report *r, uint32_t t)
{
	const struct analyze_scx *a = analyze_scx(r);

	return t < a->nr_threads ? a->threads[t].preempted : 0;
}

static const struct diff_metric scx_metrics[] = {
	{ .name = "time in DSQ", .entity = DIFF_MACHINE, .kind = METRIC_DIST, .dist = machine_wait },
	{ .name = "time in DSQs", .entity = DIFF_THREADS, .kind = METRIC_TIME,
	  .groups = DIFF_GROUP_THREAD, .value = thread_dsq_ns },
	{ .name = "slices expired", .entity = DIFF_THREADS, .kind = METRIC_COUNT,
	  .groups = DIFF_GROUP_THREAD, .value = thread_expired },
	{ .name = "runs preempted (scx)", .entity = DIFF_THREADS, .kind = METRIC_COUNT,
	  .groups = DIFF_GROUP_THREAD, .value = thread_preempted },
	{ NULL }
};

const struct analyzer analyzer_scx = {
	.name = "scx",
	.help = "sched_ext: transitions, dispatch queues (inserts, time in DSQ,\n"
		"depth), slices given and used, fairness, event counters, dump",
	.size = sizeof(struct analyze_scx),
	.init = scx_init,
	.fini = scx_fini,
	.derive = scx_derive,
	.text = scx_text,
	.summary = scx_summary,
	.html = scx_html,
	.nav = "sched_ext",
	.doc = scx_doc,
	.metrics = scx_metrics,
	.tool = {
		"analyze_dsq", "sched_ext dispatch queues",
		"The BPF scheduler's dispatch queues (DSQs), as scxtop names them: per DSQ inserts, "
		"time in the DSQ (p50, p99), mean and max depth; local vs global vs custom dispatch; "
		"per thread slices granted and used, expirations vs preemptions, fairness against "
		"weight; transitions (enable, bypass, exit kind), event counters and the debug dump.",
		ARGS_ANALYSIS, 1u << KTP_REC_SCX_DSQ, NULL,
	},
};
