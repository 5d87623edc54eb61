// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report: one document, schema "ktprof-report" (docs/report.md).
 * Field names carry their unit (_ns, _pct, _per_s). Built with json-c;
 * a failed allocation anywhere makes the whole document fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "report/json-build.h"
#include "report/render.h"

struct jctx {
	struct json_build b;
	const struct report *r;
	const struct report_view *v;
};

static json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static json_object *str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static json_object *latencies(struct jctx *j, const struct hist h[2])
{
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "wakeup", json_build_dist(&j->b, &h[SCHED_WAKEUP]));
	json_build_put(&j->b, o, "runqueue", json_build_dist(&j->b, &h[SCHED_RUNQUEUE]));
	return o;
}

/* A thread as others refer to it: pid, tgid, comm. */
static json_object *thread_ref(struct jctx *j, uint32_t t)
{
	json_object *o = json_object_new_object();
	const struct sched_thread *th;

	if (t == SCHED_IDLE) {
		json_build_put(&j->b, o, "pid", u64(0));
		json_build_put(&j->b, o, "comm", str("swapper"));
		return o;
	}
	th = &j->r->sched.threads[t];
	json_build_put(&j->b, o, "pid", u64(th->pid));
	json_build_put(&j->b, o, "tgid", u64(th->tgid));
	json_build_put(&j->b, o, "comm", str(th->comm));
	return o;
}

/* The types present, by name: {"sched_switch": 812, "lost": 2, ...}. */
static json_object *events_by_type(struct jctx *j)
{
	json_object *o = json_object_new_object();
	unsigned int i;

	for (i = 0; i < REPORT_EVENT_TYPES; i++) {
		const char *name = event_type_name(report_event_type(i));

		if (j->r->by_type[i] && name)
			json_build_put(&j->b, o, name, u64(j->r->by_type[i]));
	}
	return o;
}

static json_object *capture(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "path", str(r->path));
	json_build_put(&j->b, o, "kernel", str(r->have_meta ? r->meta.kernel : ""));
	json_build_put(&j->b, o, "machine", str(r->have_meta ? r->meta.machine : ""));
	json_build_put(&j->b, o, "cpus", u64(r->nr_cpus));
	json_build_put(&j->b, o, "session_start_ns", u64(r->session_start));
	json_build_put(&j->b, o, "session_stop_ns", u64(r->session_stop));
	json_build_put(&j->b, o, "events", u64(r->events));
	json_build_put(&j->b, o, "lost_records", u64(r->lost));
	json_build_put(&j->b, o, "samples", u64(r->samples));
	json_build_put(&j->b, o, "truncated", json_object_new_boolean(r->truncated));
	json_build_put(&j->b, o, "damaged", json_object_new_boolean(r->damaged));
	if (r->sched_ext[0].present || r->sched_ext[1].present) {
		json_object *x = json_object_new_object();
		int i;

		for (i = 0; i < 2; i++) {
			json_object *s = json_object_new_object();

			json_build_put(&j->b, s, "present", json_object_new_boolean(r->sched_ext[i].present));
			json_build_put(&j->b, s, "state", str(r->sched_ext[i].state));
			json_build_put(&j->b, s, "ops", str(r->sched_ext[i].ops));
			json_build_put(&j->b, s, "enable_seq", u64(r->sched_ext[i].enable_seq));
			json_build_put(&j->b, x, i ? "stop" : "start", s);
		}
		json_build_put(&j->b, o, "sched_ext", x);
	}
	json_build_put(&j->b, o, "problem", str(r->problem));
	json_build_put(&j->b, o, "events_by_type", events_by_type(j));
	return o;
}

static json_object *window(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "from_ns", u64(r->from));
	json_build_put(&j->b, o, "to_ns", u64(r->to));
	json_build_put(&j->b, o, "duration_ns", u64(r->window_ns));
	json_build_put(&j->b, o, "from_rel_ns", u64(r->session_start ? r->from - r->session_start : 0));
	json_build_put(&j->b, o, "to_rel_ns", u64(r->session_start ? r->to - r->session_start : 0));
	return o;
}

static json_object *excluded(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "wakeup_latencies", u64(r->sched.latency_excluded[SCHED_WAKEUP]));
	json_build_put(&j->b, o, "runqueue_latencies", u64(r->sched.latency_excluded[SCHED_RUNQUEUE]));
	json_build_put(&j->b, o, "inconsistent_records", u64(r->sched.inconsistent));
	return o;
}

static const struct report_cpu_stream *stream_of(const struct report *r, uint32_t cpu)
{
	unsigned int i;

	for (i = 0; i < r->nr_streams; i++)
		if (r->streams[i].cpu == cpu)
			return &r->streams[i];
	return NULL;
}

static json_object *one_cpu(struct jctx *j, uint32_t cpu)
{
	const struct report *r = j->r;
	const struct cpu_result *c = &r->cpu.cpus[cpu];
	const struct irq_cpu_result *q = cpu < r->irq.nr_cpus ? &r->irq.cpus[cpu] : NULL;
	const struct report_cpu_stream *st = stream_of(r, cpu);
	json_object *o = json_object_new_object(), *u = json_object_new_object();
	uint64_t known = c->busy_ns + c->idle_ns;

	json_build_put(&j->b, o, "cpu", u64(cpu));
	json_build_put(&j->b, o, "busy_ns", u64(c->busy_ns));
	json_build_put(&j->b, o, "idle_ns", u64(c->idle_ns));
	json_build_num(&j->b, o, "utilization_pct", pct(c->busy_ns, known), 3);
	json_build_put(&j->b, o, "hardirq_ns", u64(q ? q->ns[SCHED_HARDIRQ] : 0));
	json_build_put(&j->b, o, "softirq_ns", u64(q ? q->ns[SCHED_SOFTIRQ] : 0));
	json_build_put(&j->b, o, "work_ns", u64(q ? q->ns[SCHED_WORK] : 0));
	json_build_put(&j->b, o, "switches", u64(c->switches));
	json_build_num(&j->b, o, "switches_per_s", known ? c->switches / (known / 1e9) : 0, 3);
	json_build_put(&j->b, o, "migrations_in", u64(c->migrations_in));
	json_build_put(&j->b, o, "migrations_out", u64(c->migrations_out));
	json_build_put(&j->b, o, "ipi_sent", u64(q ? q->ipi_sent : 0));
	json_build_put(&j->b, o, "ipi_received", u64(q ? q->ipi_received : 0));
	json_build_put(&j->b, u, "nodata_ns", u64(c->gap_ns[SCHED_GAP_NODATA]));
	json_build_put(&j->b, u, "loss_ns", u64(c->gap_ns[SCHED_GAP_LOSS]));
	json_build_put(&j->b, u, "offline_ns", u64(c->gap_ns[SCHED_GAP_OFFLINE]));
	json_build_put(&j->b, o, "unknown", u);
	json_build_put(&j->b, o, "records", u64(st ? st->records : 0));
	json_build_put(&j->b, o, "lost_records", u64(st ? st->lost : 0));
	if (cpu < r->latency.nr_cpus)
		json_build_put(&j->b, o, "latency", latencies(j, r->latency.cpus[cpu].h));
	return o;
}

static json_object *cpus(struct jctx *j)
{
	json_object *a = json_object_new_array();
	uint32_t cpu;

	for (cpu = 0; cpu < j->r->cpu.nr_cpus; cpu++)
		if (report_cpu_shown(j->r, cpu))
			json_build_push(&j->b, a, one_cpu(j, cpu));
	return a;
}

static json_object *machine(struct jctx *j)
{
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "busy_ns", u64(j->r->busy_ns));
	json_build_put(&j->b, o, "known_ns", u64(j->r->known_ns));
	json_build_num(&j->b, o, "utilization_pct", pct(j->r->busy_ns, j->r->known_ns), 3);
	return o;
}

static json_object *states(struct jctx *j, uint32_t t)
{
	static const char *const names[SCHED_NR_STATES] = {
		[SCHED_RUNNING] = "running_ns", [SCHED_RUNNABLE] = "runnable_ns",
		[SCHED_SLEEPING] = "sleeping_ns", [SCHED_BLOCKED] = "blocked_ns",
		[SCHED_OTHER] = "other_ns",
	};
	const struct states_result *st = &j->r->states.threads[t];
	json_object *o = json_object_new_object();
	uint64_t known = 0;
	int k;

	for (k = SCHED_RUNNING; k < SCHED_DEAD; k++) {
		json_build_put(&j->b, o, names[k], u64(st->ns[k]));
		known += st->ns[k];
	}
	json_build_put(&j->b, o, "unknown_ns", u64(known < j->r->window_ns ? j->r->window_ns - known : 0));
	return o;
}

static json_object *migration_counts(struct jctx *j, const struct migrations_result *m)
{
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "same_llc", u64(m->count[MIGRATION_SAME_LLC]));
	json_build_put(&j->b, o, "cross_llc", u64(m->count[MIGRATION_CROSS_LLC]));
	json_build_put(&j->b, o, "cross_numa", u64(m->count[MIGRATION_CROSS_NUMA]));
	json_build_put(&j->b, o, "unknown_topology", u64(m->count[MIGRATION_UNKNOWN]));
	return o;
}

static json_object *one_thread(struct jctx *j, uint32_t t)
{
	const struct report *r = j->r;
	const struct sched_thread *th = &r->sched.threads[t];
	const struct runtime_result *rt = &r->runtime.threads[t];
	json_object *o = json_object_new_object();

	json_build_put(&j->b, o, "pid", u64(th->pid));
	json_build_put(&j->b, o, "tgid", u64(th->tgid));
	json_build_put(&j->b, o, "comm", str(th->comm));
	json_build_put(&j->b, o, "kthread", json_object_new_boolean(th->kthread));
	json_build_put(&j->b, o, "runtime_ns", u64(rt->runtime_ns));
	json_build_num(&j->b, o, "cpu_pct", pct(rt->runtime_ns, r->window_ns), 3);
	json_build_num(&j->b, o, "machine_pct", pct(rt->runtime_ns, r->known_ns), 3);
	json_build_put(&j->b, o, "voluntary_switches", u64(rt->voluntary));
	json_build_put(&j->b, o, "involuntary_switches", u64(rt->involuntary));
	json_build_put(&j->b, o, "slices", json_build_dist(&j->b, &rt->slices));
	json_build_put(&j->b, o, "states", states(j, t));
	json_build_put(&j->b, o, "latency", latencies(j, r->latency.threads[t].h));
	json_build_put(&j->b, o, "migrations", migration_counts(j, &r->migrations.threads[t]));
	return o;
}

static int by_runtime(const struct report *r, uint32_t a, uint32_t b)
{
	uint64_t x = r->runtime.threads[a].runtime_ns, y = r->runtime.threads[b].runtime_ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

static json_object *threads(struct jctx *j)
{
	json_object *a = json_object_new_array();
	uint32_t n, i, *t = report_threads_sorted(j->r, &n, by_runtime);

	if (!t)
		j->b.nomem = 1;
	for (i = 0; t && i < n; i++)
		json_build_push(&j->b, a, one_thread(j, t[i]));
	free(t);
	return a;
}

static json_object *processes(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *a = json_object_new_array();
	uint32_t p;

	for (p = 0; p < r->sched.nr_procs; p++) {
		const struct process_result *pr = &r->procs[p];
		json_object *o;

		if (!r->process_selected[p] || !pr->threads)
			continue;
		o = json_object_new_object();
		json_build_put(&j->b, o, "tgid", u64(r->sched.procs[p].tgid));
		json_build_put(&j->b, o, "comm", str(r->sched.procs[p].comm));
		json_build_put(&j->b, o, "threads", u64(pr->threads));
		json_build_put(&j->b, o, "runtime_ns", u64(pr->runtime_ns));
		json_build_num(&j->b, o, "cpu_pct", pct(pr->runtime_ns, r->window_ns), 3);
		json_build_num(&j->b, o, "machine_pct", pct(pr->runtime_ns, r->known_ns), 3);
		json_build_put(&j->b, o, "voluntary_switches", u64(pr->voluntary));
		json_build_put(&j->b, o, "involuntary_switches", u64(pr->involuntary));
		json_build_put(&j->b, o, "migrations", u64(pr->migrations));
		json_build_put(&j->b, o, "latency", latencies(j, pr->latency));
		json_build_push(&j->b, a, o);
	}
	return a;
}

static json_object *migrations(struct jctx *j)
{
	static const char *const classes[] = { "same_llc", "cross_llc", "cross_numa",
					       "unknown_topology" };
	const struct analyze_migrations *m = &j->r->migrations;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint32_t i;

	json_build_put(&j->b, o, "total", migration_counts(j, &m->total));
	for (i = 0; i < m->cpu_pairs.n; i++) {
		json_object *p = json_object_new_object();

		json_build_put(&j->b, p, "from", u64(m->cpu_pairs.v[i].a));
		json_build_put(&j->b, p, "to", u64(m->cpu_pairs.v[i].b));
		json_build_put(&j->b, p, "count", u64(m->cpu_pairs.v[i].count));
		json_build_put(&j->b, p, "class", str(classes[analyze_migrations_classify(m, m->cpu_pairs.v[i].a,
								   m->cpu_pairs.v[i].b)]));
		json_build_push(&j->b, a, p);
	}
	json_build_put(&j->b, o, "cpu_pairs", a);
	return o;
}

static int pair_selected(const struct report *r, uint32_t a, uint32_t b)
{
	return (a < r->sched.nr_threads && r->thread_selected[a]) ||
	       (b < r->sched.nr_threads && r->thread_selected[b]);
}

static json_object *preemption(struct jctx *j)
{
	const struct pairs *p = &j->r->preempt.pairs;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint32_t i;

	json_build_put(&j->b, o, "total", u64(j->r->preempt.total));
	for (i = 0; i < p->n; i++) {
		json_object *e;

		if (!pair_selected(j->r, p->v[i].a, p->v[i].b))
			continue;
		e = json_object_new_object();
		json_build_put(&j->b, e, "preemptor", thread_ref(j, p->v[i].a));
		json_build_put(&j->b, e, "preempted", thread_ref(j, p->v[i].b));
		json_build_put(&j->b, e, "count", u64(p->v[i].count));
		json_build_push(&j->b, a, e);
	}
	json_build_put(&j->b, o, "pairs", a);
	return o;
}

static json_object *waker_ref(struct jctx *j, uint32_t id)
{
	static const char *const kinds[] = { "thread", "idle", "hardirq", "softirq", "unknown" };
	struct sched_waker w = analyze_wakers_waker(id);
	json_object *o;
	char name[96];

	if (w.kind == SCHED_WAKER_THREAD)
		o = thread_ref(j, w.id);
	else
		o = json_object_new_object();
	json_build_put(&j->b, o, "kind", str(kinds[w.kind < 5 ? w.kind : 4]));
	if (w.kind != SCHED_WAKER_THREAD && w.kind != SCHED_WAKER_UNKNOWN)
		json_build_put(&j->b, o, w.kind == SCHED_WAKER_IDLE ? "cpu" : w.kind == SCHED_WAKER_HARDIRQ ?
		    "irq" : "vector", u64(w.id));
	json_build_put(&j->b, o, "name", str(report_waker_name(j->r, id, name, sizeof(name))));
	return o;
}

static json_object *wakers(struct jctx *j)
{
	const struct pairs *p = &j->r->wakers.edges;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint32_t i;

	json_build_put(&j->b, o, "wakings", u64(j->r->wakers.wakings));
	json_build_put(&j->b, o, "wakings_of_running", u64(j->r->wakers.running));
	for (i = 0; i < p->n; i++) {
		const struct pair *e = &p->v[i];
		json_object *x, *l;

		if (e->b >= j->r->sched.nr_threads || !j->r->thread_selected[e->b])
			continue;
		x = json_object_new_object();
		l = json_object_new_object();
		json_build_put(&j->b, x, "waker", waker_ref(j, e->a));
		json_build_put(&j->b, x, "wakee", thread_ref(j, e->b));
		json_build_put(&j->b, x, "count", u64(e->count));
		json_build_put(&j->b, l, "count", u64(e->n));
		json_build_num(&j->b, l, "mean_ns", e->n ? (double)e->sum / e->n : 0, 1);
		json_build_put(&j->b, l, "max_ns", u64(e->max));
		json_build_put(&j->b, x, "latency", l);
		json_build_push(&j->b, a, x);
	}
	json_build_put(&j->b, o, "edges", a);
	return o;
}

static json_object *handlers(struct jctx *j)
{
	static const char *const kinds[] = { "hardirq", "softirq", "work" };
	const struct analyze_irq *q = &j->r->irq;
	json_object *a = json_object_new_array();
	char sym[128];
	uint32_t i;

	for (i = 0; i < q->nr_handlers; i++) {
		const struct irq_handler *h = &q->handlers[i];
		json_object *o = json_object_new_object();
		const char *name = h->kind == SCHED_HARDIRQ ? analyze_irq_name(q, h->id) :
			h->kind == SCHED_SOFTIRQ ? analyze_irq_softirq_name(h->id) :
			report_ksym(j->r, h->id, sym, sizeof(sym));

		json_build_put(&j->b, o, "kind", str(kinds[h->kind]));
		json_build_put(&j->b, o, h->kind == SCHED_HARDIRQ ? "irq" : h->kind == SCHED_SOFTIRQ ?
		    "vector" : "function", u64(h->id));
		json_build_put(&j->b, o, "name", str(name));
		json_build_put(&j->b, o, "self_ns", u64(h->self_ns));
		json_build_put(&j->b, o, "duration", json_build_dist(&j->b, &h->durations));
		json_build_push(&j->b, a, o);
	}
	return a;
}

static json_object *irq(struct jctx *j)
{
	const struct analyze_irq *q = &j->r->irq;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char sym[128];
	uint32_t i;

	json_build_put(&j->b, o, "handlers", handlers(j));
	for (i = 0; i < q->nr_ipis; i++) {
		json_object *p = json_object_new_object();

		json_build_put(&j->b, p, "function", str(q->ipis[i].callback ?
			report_ksym(j->r, q->ipis[i].callback, sym, sizeof(sym)) : "reschedule"));
		json_build_put(&j->b, p, "sent", u64(q->ipis[i].sent));
		json_build_put(&j->b, p, "targets", u64(q->ipis[i].targets));
		json_build_push(&j->b, a, p);
	}
	json_build_put(&j->b, o, "ipis", a);
	return o;
}

static json_object *subject(struct jctx *j, enum finding_subject s, uint32_t id)
{
	json_object *o;

	if (s == SUBJECT_THREAD) {
		o = thread_ref(j, id);
		json_build_put(&j->b, o, "kind", str("thread"));
		return o;
	}
	o = json_object_new_object();
	json_build_put(&j->b, o, "kind", str(s == SUBJECT_CPU ? "cpu" : "machine"));
	if (s == SUBJECT_CPU)
		json_build_put(&j->b, o, "cpu", u64(id));
	return o;
}

static json_object *findings(struct jctx *j)
{
	const struct findings *f = &j->r->findings;
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < f->n; i++) {
		const struct finding *x = &f->v[i];
		json_object *o = json_object_new_object();

		json_build_put(&j->b, o, "rule", str(findings_rules[x->rule].name));
		json_build_put(&j->b, o, "subject", subject(j, x->subject, x->id));
		json_build_num(&j->b, o, "value", x->value, 6);
		json_build_num(&j->b, o, "threshold", x->threshold, 6);
		json_build_put(&j->b, o, "unit", str(findings_rules[x->rule].unit));
		json_build_put(&j->b, o, "text", str(x->text));
		json_build_push(&j->b, a, o);
	}
	return a;
}

static json_object *outliers(struct jctx *j)
{
	const struct findings *f = &j->r->findings;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	json_build_put(&j->b, o, "method", str(j->r->cfg.findings.method == OUTLIER_MAD ? "mad" : "iqr"));
	for (i = 0; i < f->no; i++) {
		const struct outlier *x = &f->o[i];
		json_object *e = json_object_new_object();

		json_build_put(&j->b, e, "metric", str(x->metric));
		json_build_put(&j->b, e, "unit", str(x->unit));
		json_build_put(&j->b, e, "subject", subject(j, x->subject, x->id));
		json_build_num(&j->b, e, "value", x->value, 6);
		json_build_num(&j->b, e, "limit", x->limit, 6);
		json_build_num(&j->b, e, "score", x->score, 6);
		json_build_push(&j->b, a, e);
	}
	json_build_put(&j->b, o, "items", a);
	return o;
}

static json_object *symbols(struct jctx *j, int64_t tgid)
{
	json_object *a = json_object_new_array();
	struct profile_row *rows;
	unsigned int n = profile_rows(j->r->profile, tgid, &rows), i;

	for (i = 0; i < n && i < j->v->top; i++) {
		json_object *o = json_object_new_object();

		json_build_put(&j->b, o, "symbol", str(rows[i].symbol));
		json_build_put(&j->b, o, "self", u64(rows[i].self));
		json_build_put(&j->b, o, "total", u64(rows[i].total));
		json_build_push(&j->b, a, o);
	}
	free(rows);
	return a;
}

static json_object *profile(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint64_t *samples;
	uint32_t *pids;
	unsigned int n, i;
	char comm[32];

	json_build_put(&j->b, o, "samples", u64(profile_samples(r->profile)));
	json_build_put(&j->b, o, "sources", str(r->have_meta ? r->meta.samples : ""));
	json_build_put(&j->b, o, "symbols", symbols(j, -1));
	n = profile_processes(r->profile, &pids, &samples);
	for (i = 0; i < n; i++) {
		json_object *p = json_object_new_object();

		json_build_put(&j->b, p, "tgid", u64(pids[i]));
		json_build_put(&j->b, p, "comm", str(task_table_comm(&r->tasks, pids[i], comm, sizeof(comm))));
		json_build_put(&j->b, p, "samples", u64(samples[i]));
		json_build_put(&j->b, p, "symbols", symbols(j, pids[i]));
		json_build_push(&j->b, a, p);
	}
	free(pids);
	free(samples);
	json_build_put(&j->b, o, "processes", a);
	return o;
}

json_object *render_json_object(const struct report *r, const struct report_view *v)
{
	struct jctx j = { .r = r, .v = v };
	unsigned int s = v->sections;
	json_object *doc = json_object_new_object(), *h = json_object_new_object();

	json_build_put(&j.b, doc, "schema", str("ktprof-report"));
	json_build_put(&j.b, doc, "version", str(REPORT_JSON_VERSION));
	json_build_put(&j.b, doc, "capture", capture(&j));
	json_build_put(&j.b, doc, "window", window(&j));
	json_build_put(&j.b, h, "exact_up_to", u64(HIST_EXACT));
	json_build_num(&j.b, h, "max_relative_error", HIST_MAX_ERROR, 7);
	json_build_put(&j.b, doc, "histograms", h);
	json_build_put(&j.b, doc, "excluded", excluded(&j));
	if (s & (SECTION_CPU | SECTION_LATENCY | SECTION_IRQ))
		json_build_put(&j.b, doc, "cpus", cpus(&j));
	json_build_put(&j.b, doc, "machine", machine(&j));
	if (s & (SECTION_RUNTIME | SECTION_LATENCY | SECTION_STATES | SECTION_MIGRATIONS)) {
		json_build_put(&j.b, doc, "threads", threads(&j));
		json_build_put(&j.b, doc, "processes", processes(&j));
	}
	if (s & SECTION_LATENCY)
		json_build_put(&j.b, doc, "latency", latencies(&j, r->overall.h));
	if (s & SECTION_MIGRATIONS)
		json_build_put(&j.b, doc, "migrations", migrations(&j));
	if (s & SECTION_PREEMPTION)
		json_build_put(&j.b, doc, "preemption", preemption(&j));
	if (s & SECTION_WAKERS)
		json_build_put(&j.b, doc, "wakers", wakers(&j));
	if (s & SECTION_IRQ)
		json_build_put(&j.b, doc, "irq", irq(&j));
	if (s & SECTION_FINDINGS)
		json_build_put(&j.b, doc, "findings", findings(&j));
	if (s & SECTION_OUTLIERS)
		json_build_put(&j.b, doc, "outliers", outliers(&j));
	if ((s & SECTION_PROFILE) && r->profile)
		json_build_put(&j.b, doc, "profile", profile(&j));
	if (j.b.nomem) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

int render_json(const struct report *r, const struct report_view *v, FILE *out)
{
	json_object *doc = render_json_object(r, v);
	const char *text;
	int ret = 0;

	if (!doc)
		return -ENOMEM;
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) < 0 || fputc('\n', out) < 0)
		ret = text ? -EIO : -ENOMEM;
	json_object_put(doc);
	return ret;
}
