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

#include "report/render.h"

struct jctx {
	const struct report *r;
	const struct report_view *v;
	int nomem;
};

/* Add @val to object @o under @key; a NULL @val marks the build failed. */
static void put(struct jctx *j, json_object *o, const char *key, json_object *val)
{
	if (!val || !o || json_object_object_add(o, key, val)) {
		j->nomem = 1;
		json_object_put(val);
	}
}

static void push(struct jctx *j, json_object *a, json_object *val)
{
	if (!val || !a || json_object_array_add(a, val)) {
		j->nomem = 1;
		json_object_put(val);
	}
}

static json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

/* A double printed with @decimals digits after the point. */
static json_object *num(double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_object_new_double_s(v, buf);
}

static json_object *str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static json_object *dist(struct jctx *j, const struct hist *h)
{
	json_object *o = json_object_new_object();

	put(j, o, "count", u64(h->count));
	put(j, o, "min_ns", u64(h->min));
	put(j, o, "mean_ns", num(hist_mean(h), 1));
	put(j, o, "p50_ns", u64(hist_percentile(h, 50)));
	put(j, o, "p90_ns", u64(hist_percentile(h, 90)));
	put(j, o, "p99_ns", u64(hist_percentile(h, 99)));
	put(j, o, "p99_9_ns", u64(hist_percentile(h, 99.9)));
	put(j, o, "max_ns", u64(h->max));
	put(j, o, "exact", json_object_new_boolean(hist_is_exact(h)));
	return o;
}

static json_object *latencies(struct jctx *j, const struct hist h[2])
{
	json_object *o = json_object_new_object();

	put(j, o, "wakeup", dist(j, &h[SCHED_WAKEUP]));
	put(j, o, "runqueue", dist(j, &h[SCHED_RUNQUEUE]));
	return o;
}

/* A thread as others refer to it: pid, tgid, comm. */
static json_object *thread_ref(struct jctx *j, uint32_t t)
{
	json_object *o = json_object_new_object();
	const struct sched_thread *th;

	if (t == SCHED_IDLE) {
		put(j, o, "pid", u64(0));
		put(j, o, "comm", str("swapper"));
		return o;
	}
	th = &j->r->sched.threads[t];
	put(j, o, "pid", u64(th->pid));
	put(j, o, "tgid", u64(th->tgid));
	put(j, o, "comm", str(th->comm));
	return o;
}

static json_object *capture(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object();

	put(j, o, "path", str(r->path));
	put(j, o, "kernel", str(r->have_meta ? r->meta.kernel : ""));
	put(j, o, "machine", str(r->have_meta ? r->meta.machine : ""));
	put(j, o, "cpus", u64(r->nr_cpus));
	put(j, o, "session_start_ns", u64(r->session_start));
	put(j, o, "session_stop_ns", u64(r->session_stop));
	put(j, o, "events", u64(r->events));
	put(j, o, "lost_records", u64(r->lost));
	put(j, o, "samples", u64(r->samples));
	put(j, o, "truncated", json_object_new_boolean(r->truncated));
	put(j, o, "damaged", json_object_new_boolean(r->damaged));
	if (r->sched_ext[0].present || r->sched_ext[1].present) {
		json_object *x = json_object_new_object();
		int i;

		for (i = 0; i < 2; i++) {
			json_object *s = json_object_new_object();

			put(j, s, "present", json_object_new_boolean(r->sched_ext[i].present));
			put(j, s, "state", str(r->sched_ext[i].state));
			put(j, s, "ops", str(r->sched_ext[i].ops));
			put(j, s, "enable_seq", u64(r->sched_ext[i].enable_seq));
			put(j, x, i ? "stop" : "start", s);
		}
		put(j, o, "sched_ext", x);
	}
	put(j, o, "problem", str(r->problem));
	return o;
}

static json_object *window(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object();

	put(j, o, "from_ns", u64(r->from));
	put(j, o, "to_ns", u64(r->to));
	put(j, o, "duration_ns", u64(r->window_ns));
	put(j, o, "from_rel_ns", u64(r->session_start ? r->from - r->session_start : 0));
	put(j, o, "to_rel_ns", u64(r->session_start ? r->to - r->session_start : 0));
	return o;
}

static json_object *excluded(struct jctx *j)
{
	const struct report *r = j->r;
	json_object *o = json_object_new_object();

	put(j, o, "wakeup_latencies", u64(r->sched.latency_excluded[SCHED_WAKEUP]));
	put(j, o, "runqueue_latencies", u64(r->sched.latency_excluded[SCHED_RUNQUEUE]));
	put(j, o, "inconsistent_records", u64(r->sched.inconsistent));
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

	put(j, o, "cpu", u64(cpu));
	put(j, o, "busy_ns", u64(c->busy_ns));
	put(j, o, "idle_ns", u64(c->idle_ns));
	put(j, o, "utilization_pct", num(pct(c->busy_ns, known), 3));
	put(j, o, "hardirq_ns", u64(q ? q->ns[SCHED_HARDIRQ] : 0));
	put(j, o, "softirq_ns", u64(q ? q->ns[SCHED_SOFTIRQ] : 0));
	put(j, o, "work_ns", u64(q ? q->ns[SCHED_WORK] : 0));
	put(j, o, "switches", u64(c->switches));
	put(j, o, "switches_per_s", num(known ? c->switches / (known / 1e9) : 0, 3));
	put(j, o, "migrations_in", u64(c->migrations_in));
	put(j, o, "migrations_out", u64(c->migrations_out));
	put(j, o, "ipi_sent", u64(q ? q->ipi_sent : 0));
	put(j, o, "ipi_received", u64(q ? q->ipi_received : 0));
	put(j, u, "nodata_ns", u64(c->gap_ns[SCHED_GAP_NODATA]));
	put(j, u, "loss_ns", u64(c->gap_ns[SCHED_GAP_LOSS]));
	put(j, u, "offline_ns", u64(c->gap_ns[SCHED_GAP_OFFLINE]));
	put(j, o, "unknown", u);
	put(j, o, "records", u64(st ? st->records : 0));
	put(j, o, "lost_records", u64(st ? st->lost : 0));
	if (cpu < r->latency.nr_cpus)
		put(j, o, "latency", latencies(j, r->latency.cpus[cpu].h));
	return o;
}

static json_object *cpus(struct jctx *j)
{
	json_object *a = json_object_new_array();
	uint32_t cpu;

	for (cpu = 0; cpu < j->r->cpu.nr_cpus; cpu++)
		if (report_cpu_shown(j->r, cpu))
			push(j, a, one_cpu(j, cpu));
	return a;
}

static json_object *machine(struct jctx *j)
{
	json_object *o = json_object_new_object();

	put(j, o, "busy_ns", u64(j->r->busy_ns));
	put(j, o, "known_ns", u64(j->r->known_ns));
	put(j, o, "utilization_pct", num(pct(j->r->busy_ns, j->r->known_ns), 3));
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
		put(j, o, names[k], u64(st->ns[k]));
		known += st->ns[k];
	}
	put(j, o, "unknown_ns", u64(known < j->r->window_ns ? j->r->window_ns - known : 0));
	return o;
}

static json_object *migration_counts(struct jctx *j, const struct migrations_result *m)
{
	json_object *o = json_object_new_object();

	put(j, o, "same_llc", u64(m->count[MIGRATION_SAME_LLC]));
	put(j, o, "cross_llc", u64(m->count[MIGRATION_CROSS_LLC]));
	put(j, o, "cross_numa", u64(m->count[MIGRATION_CROSS_NUMA]));
	put(j, o, "unknown_topology", u64(m->count[MIGRATION_UNKNOWN]));
	return o;
}

static json_object *one_thread(struct jctx *j, uint32_t t)
{
	const struct report *r = j->r;
	const struct sched_thread *th = &r->sched.threads[t];
	const struct runtime_result *rt = &r->runtime.threads[t];
	json_object *o = json_object_new_object();

	put(j, o, "pid", u64(th->pid));
	put(j, o, "tgid", u64(th->tgid));
	put(j, o, "comm", str(th->comm));
	put(j, o, "kthread", json_object_new_boolean(th->kthread));
	put(j, o, "runtime_ns", u64(rt->runtime_ns));
	put(j, o, "cpu_pct", num(pct(rt->runtime_ns, r->window_ns), 3));
	put(j, o, "machine_pct", num(pct(rt->runtime_ns, r->known_ns), 3));
	put(j, o, "voluntary_switches", u64(rt->voluntary));
	put(j, o, "involuntary_switches", u64(rt->involuntary));
	put(j, o, "slices", dist(j, &rt->slices));
	put(j, o, "states", states(j, t));
	put(j, o, "latency", latencies(j, r->latency.threads[t].h));
	put(j, o, "migrations", migration_counts(j, &r->migrations.threads[t]));
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
		j->nomem = 1;
	for (i = 0; t && i < n; i++)
		push(j, a, one_thread(j, t[i]));
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
		put(j, o, "tgid", u64(r->sched.procs[p].tgid));
		put(j, o, "comm", str(r->sched.procs[p].comm));
		put(j, o, "threads", u64(pr->threads));
		put(j, o, "runtime_ns", u64(pr->runtime_ns));
		put(j, o, "cpu_pct", num(pct(pr->runtime_ns, r->window_ns), 3));
		put(j, o, "machine_pct", num(pct(pr->runtime_ns, r->known_ns), 3));
		put(j, o, "voluntary_switches", u64(pr->voluntary));
		put(j, o, "involuntary_switches", u64(pr->involuntary));
		put(j, o, "migrations", u64(pr->migrations));
		put(j, o, "latency", latencies(j, pr->latency));
		push(j, a, o);
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

	put(j, o, "total", migration_counts(j, &m->total));
	for (i = 0; i < m->cpu_pairs.n; i++) {
		json_object *p = json_object_new_object();

		put(j, p, "from", u64(m->cpu_pairs.v[i].a));
		put(j, p, "to", u64(m->cpu_pairs.v[i].b));
		put(j, p, "count", u64(m->cpu_pairs.v[i].count));
		put(j, p, "class", str(classes[migration_classify(m, m->cpu_pairs.v[i].a,
								   m->cpu_pairs.v[i].b)]));
		push(j, a, p);
	}
	put(j, o, "cpu_pairs", a);
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

	put(j, o, "total", u64(j->r->preempt.total));
	for (i = 0; i < p->n; i++) {
		json_object *e;

		if (!pair_selected(j->r, p->v[i].a, p->v[i].b))
			continue;
		e = json_object_new_object();
		put(j, e, "preemptor", thread_ref(j, p->v[i].a));
		put(j, e, "preempted", thread_ref(j, p->v[i].b));
		put(j, e, "count", u64(p->v[i].count));
		push(j, a, e);
	}
	put(j, o, "pairs", a);
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
	put(j, o, "kind", str(kinds[w.kind < 5 ? w.kind : 4]));
	if (w.kind != SCHED_WAKER_THREAD && w.kind != SCHED_WAKER_UNKNOWN)
		put(j, o, w.kind == SCHED_WAKER_IDLE ? "cpu" : w.kind == SCHED_WAKER_HARDIRQ ?
		    "irq" : "vector", u64(w.id));
	put(j, o, "name", str(report_waker_name(j->r, id, name, sizeof(name))));
	return o;
}

static json_object *wakers(struct jctx *j)
{
	const struct pairs *p = &j->r->wakers.edges;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	uint32_t i;

	put(j, o, "wakings", u64(j->r->wakers.wakings));
	put(j, o, "wakings_of_running", u64(j->r->wakers.running));
	for (i = 0; i < p->n; i++) {
		const struct pair *e = &p->v[i];
		json_object *x, *l;

		if (e->b >= j->r->sched.nr_threads || !j->r->thread_selected[e->b])
			continue;
		x = json_object_new_object();
		l = json_object_new_object();
		put(j, x, "waker", waker_ref(j, e->a));
		put(j, x, "wakee", thread_ref(j, e->b));
		put(j, x, "count", u64(e->count));
		put(j, l, "count", u64(e->n));
		put(j, l, "mean_ns", num(e->n ? (double)e->sum / e->n : 0, 1));
		put(j, l, "max_ns", u64(e->max));
		put(j, x, "latency", l);
		push(j, a, x);
	}
	put(j, o, "edges", a);
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
			h->kind == SCHED_SOFTIRQ ? softirq_name(h->id) :
			report_ksym(j->r, h->id, sym, sizeof(sym));

		put(j, o, "kind", str(kinds[h->kind]));
		put(j, o, h->kind == SCHED_HARDIRQ ? "irq" : h->kind == SCHED_SOFTIRQ ?
		    "vector" : "function", u64(h->id));
		put(j, o, "name", str(name));
		put(j, o, "self_ns", u64(h->self_ns));
		put(j, o, "duration", dist(j, &h->durations));
		push(j, a, o);
	}
	return a;
}

static json_object *irq(struct jctx *j)
{
	const struct analyze_irq *q = &j->r->irq;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char sym[128];
	uint32_t i;

	put(j, o, "handlers", handlers(j));
	for (i = 0; i < q->nr_ipis; i++) {
		json_object *p = json_object_new_object();

		put(j, p, "function", str(q->ipis[i].callback ?
			report_ksym(j->r, q->ipis[i].callback, sym, sizeof(sym)) : "reschedule"));
		put(j, p, "sent", u64(q->ipis[i].sent));
		put(j, p, "targets", u64(q->ipis[i].targets));
		push(j, a, p);
	}
	put(j, o, "ipis", a);
	return o;
}

static json_object *subject(struct jctx *j, enum finding_subject s, uint32_t id)
{
	json_object *o;

	if (s == SUBJECT_THREAD) {
		o = thread_ref(j, id);
		put(j, o, "kind", str("thread"));
		return o;
	}
	o = json_object_new_object();
	put(j, o, "kind", str(s == SUBJECT_CPU ? "cpu" : "machine"));
	if (s == SUBJECT_CPU)
		put(j, o, "cpu", u64(id));
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

		put(j, o, "rule", str(findings_rules[x->rule].name));
		put(j, o, "subject", subject(j, x->subject, x->id));
		put(j, o, "value", num(x->value, 6));
		put(j, o, "threshold", num(x->threshold, 6));
		put(j, o, "unit", str(findings_rules[x->rule].unit));
		put(j, o, "text", str(x->text));
		push(j, a, o);
	}
	return a;
}

static json_object *outliers(struct jctx *j)
{
	const struct findings *f = &j->r->findings;
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	put(j, o, "method", str(j->r->cfg.findings.method == OUTLIER_MAD ? "mad" : "iqr"));
	for (i = 0; i < f->no; i++) {
		const struct outlier *x = &f->o[i];
		json_object *e = json_object_new_object();

		put(j, e, "metric", str(x->metric));
		put(j, e, "unit", str(x->unit));
		put(j, e, "subject", subject(j, x->subject, x->id));
		put(j, e, "value", num(x->value, 6));
		put(j, e, "limit", num(x->limit, 6));
		put(j, e, "score", num(x->score, 6));
		push(j, a, e);
	}
	put(j, o, "items", a);
	return o;
}

static json_object *symbols(struct jctx *j, int64_t tgid)
{
	json_object *a = json_object_new_array();
	struct profile_row *rows;
	unsigned int n = profile_rows(j->r->profile, tgid, &rows), i;

	for (i = 0; i < n && i < j->v->top; i++) {
		json_object *o = json_object_new_object();

		put(j, o, "symbol", str(rows[i].symbol));
		put(j, o, "self", u64(rows[i].self));
		put(j, o, "total", u64(rows[i].total));
		push(j, a, o);
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

	put(j, o, "samples", u64(profile_samples(r->profile)));
	put(j, o, "sources", str(r->have_meta ? r->meta.samples : ""));
	put(j, o, "symbols", symbols(j, -1));
	n = profile_processes(r->profile, &pids, &samples);
	for (i = 0; i < n; i++) {
		json_object *p = json_object_new_object();

		put(j, p, "tgid", u64(pids[i]));
		put(j, p, "comm", str(task_table_comm(&r->tasks, pids[i], comm, sizeof(comm))));
		put(j, p, "samples", u64(samples[i]));
		put(j, p, "symbols", symbols(j, pids[i]));
		push(j, a, p);
	}
	free(pids);
	free(samples);
	put(j, o, "processes", a);
	return o;
}

json_object *render_json_object(const struct report *r, const struct report_view *v)
{
	struct jctx j = { .r = r, .v = v };
	unsigned int s = v->sections;
	json_object *doc = json_object_new_object(), *h = json_object_new_object();

	put(&j, doc, "schema", str("ktprof-report"));
	put(&j, doc, "version", str(REPORT_JSON_VERSION));
	put(&j, doc, "capture", capture(&j));
	put(&j, doc, "window", window(&j));
	put(&j, h, "exact_up_to", u64(HIST_EXACT));
	put(&j, h, "max_relative_error", num(HIST_MAX_ERROR, 7));
	put(&j, doc, "histograms", h);
	put(&j, doc, "excluded", excluded(&j));
	if (s & (SECTION_CPU | SECTION_LATENCY | SECTION_IRQ))
		put(&j, doc, "cpus", cpus(&j));
	put(&j, doc, "machine", machine(&j));
	if (s & (SECTION_RUNTIME | SECTION_LATENCY | SECTION_STATES | SECTION_MIGRATIONS)) {
		put(&j, doc, "threads", threads(&j));
		put(&j, doc, "processes", processes(&j));
	}
	if (s & SECTION_LATENCY)
		put(&j, doc, "latency", latencies(&j, r->overall.h));
	if (s & SECTION_MIGRATIONS)
		put(&j, doc, "migrations", migrations(&j));
	if (s & SECTION_PREEMPTION)
		put(&j, doc, "preemption", preemption(&j));
	if (s & SECTION_WAKERS)
		put(&j, doc, "wakers", wakers(&j));
	if (s & SECTION_IRQ)
		put(&j, doc, "irq", irq(&j));
	if (s & SECTION_FINDINGS)
		put(&j, doc, "findings", findings(&j));
	if (s & SECTION_OUTLIERS)
		put(&j, doc, "outliers", outliers(&j));
	if ((s & SECTION_PROFILE) && r->profile)
		put(&j, doc, "profile", profile(&j));
	if (j.nomem) {
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
