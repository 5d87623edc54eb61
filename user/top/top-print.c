// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "report/json-build.h"
#include "top/top-print.h"
#include "util/units.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static double rel_s(const struct top_interval *iv, uint64_t ts)
{
	return ts > iv->session_start ? (ts - iv->session_start) / 1e9 : 0;
}

static const char *ns_text(uint64_t ns, char *buf, size_t len)
{
	return ns ? units_fmt_ns(ns, buf, len) : "-";
}

static void print_header(FILE *out, const struct top_interval *iv, const struct top_print_opts *o)
{
	uint32_t cpu;

	fprintf(out, "ktprof top: %s: interval %" PRIu64 " [%.6f s, %.6f s): %" PRIu64
		" events, %" PRIu64 " records lost (%" PRIu64 " in all)\n",
		o->source ? o->source : "", iv->index, rel_s(iv, iv->from), rel_s(iv, iv->to),
		iv->events, iv->lost, iv->lost_total);
	for (cpu = 0; cpu < iv->nr_cpus; cpu++)
		if (iv->cpus[cpu].lost)
			fprintf(out, "LOST cpu%u: %" PRIu64 " records\n", cpu, iv->cpus[cpu].lost);
}

static void print_cpus(FILE *out, const struct top_interval *iv)
{
	double secs = (iv->to - iv->from) / 1e9;
	char b[32];
	uint32_t cpu;

	fprintf(out, "\n  %-4s %6s %6s %6s %6s %9s %6s %5s %8s %9s\n", "cpu", "util%", "irq%",
		"soft%", "work%", "switch/s", "mig-in", "depth", "lost", "unknown");
	for (cpu = 0; cpu < iv->nr_cpus; cpu++) {
		const struct top_cpu *c = &iv->cpus[cpu];
		uint64_t known = c->busy_ns + c->idle_ns;
		char depth[16] = "-";

		if (c->depth >= 0)
			snprintf(depth, sizeof(depth), "%d", c->depth);
		fprintf(out, "  %-4u %6.1f %6.1f %6.1f %6.1f %9.0f %6u %5s %8" PRIu64 " %9s\n",
			cpu, pct(c->busy_ns, known), pct(c->hardirq_ns, known),
			pct(c->softirq_ns, known), pct(c->work_ns, known),
			secs > 0 ? c->switches / secs : 0, c->migrations_in, depth, c->lost,
			ns_text(c->unknown_ns, b, sizeof(b)));
	}
}

static void print_threads(FILE *out, const struct top_interval *iv, const struct top_print_opts *o)
{
	uint64_t len = iv->to - iv->from;
	char b[5][32];
	uint32_t i, shown = 0;

	fprintf(out, "\n  %7s %7s %-16s %6s %9s %5s %5s %4s %5s %9s %9s %9s %9s %4s\n", "pid",
		"tgid", "comm", "cpu%", "runtime", "vol", "invol", "mig", "wake", "wake-p99",
		"wake-max", "rq-p99", "rq-max", "cpu");
	for (i = 0; i < iv->nr_threads; i++) {
		const struct top_thread *t = &iv->threads[i];

		if (!top_thread_matches(t, o->filter))
			continue;
		if (o->max_threads && shown++ == o->max_threads)
			break;
		fprintf(out, "  %7u %7u %-16s %6.1f %9s %5u %5u %4u %5u %9s %9s %9s %9s ",
			t->pid, t->tgid, t->own ? "[ktprof]" : t->comm, pct(t->runtime_ns, len),
			units_fmt_ns(t->runtime_ns, b[0], sizeof(b[0])), t->voluntary,
			t->involuntary, t->migrations, t->wakeups,
			ns_text(t->wakeup_p99_ns, b[1], sizeof(b[1])),
			ns_text(t->wakeup_max_ns, b[2], sizeof(b[2])),
			ns_text(t->runqueue_p99_ns, b[3], sizeof(b[3])),
			ns_text(t->runqueue_max_ns, b[4], sizeof(b[4])));
		if (t->cpu >= 0)
			fprintf(out, "%4d\n", t->cpu);
		else
			fprintf(out, "%4s\n", "-");
	}
}

static const char *kind_name(enum sched_latency k)
{
	return k == SCHED_WAKEUP ? "wakeup" : "runqueue";
}

static void print_waits(FILE *out, const struct top_interval *iv)
{
	char b[32];
	uint32_t i;

	if (!iv->nr_waits)
		return;
	fprintf(out, "\n  worst waits: %7s %-16s %-8s %4s %10s %11s  %s\n", "pid", "comm", "kind",
		"cpu", "latency", "start", "ran before it");
	for (i = 0; i < iv->nr_waits; i++) {
		const struct top_wait *w = &iv->waits[i];

		fprintf(out, "  %12s %7u %-16s %-8s %4u %10s %9.6f s  ", "", w->pid, w->comm,
			kind_name(w->kind), w->cpu, units_fmt_ns(w->latency_ns, b, sizeof(b)),
			rel_s(iv, w->start));
		if (w->ran_pid == UINT32_MAX)
			fprintf(out, "?\n");
		else
			fprintf(out, "%u %s\n", w->ran_pid, w->ran_comm);
	}
}

static void print_irqs(FILE *out, const struct top_interval *iv)
{
	uint64_t len = (iv->to - iv->from) * (iv->nr_cpus ? iv->nr_cpus : 1);
	char b[32];
	uint32_t i;

	if (!iv->nr_irqs)
		return;
	fprintf(out, "\n  %-40s %8s %10s %7s\n", "interrupt", "count", "time", "%mach");
	for (i = 0; i < iv->nr_irqs; i++)
		fprintf(out, "  %-40s %8u %10s %7.2f\n", iv->irqs[i].name, iv->irqs[i].count,
			units_fmt_ns(iv->irqs[i].time_ns, b, sizeof(b)),
			pct(iv->irqs[i].time_ns, len));
}

static void print_scx(FILE *out, const struct top_interval *iv)
{
	const struct top_scx *x = &iv->scx;
	uint32_t i;

	if (!x->present && !iv->nr_dsqs)
		return;
	fprintf(out, "\n  sched_ext: %s, scheduler %s", x->state[0] ? x->state : "?",
		x->ops[0] ? x->ops : "none");
	if (x->enables || x->exits)
		fprintf(out, ", %u enabled, %u exited (kind %lld)", x->enables, x->exits,
			(long long)x->exit_kind);
	if (x->bypass >= 0)
		fprintf(out, ", bypass %s", x->bypass ? "on" : "off");
	fputc('\n', out);
	for (i = 0; i < x->nr_events; i++)
		fprintf(out, "  %-40s %+lld\n", x->events[i].name, (long long)x->events[i].grew);
	if (!iv->nr_dsqs)
		return;
	fprintf(out, "  %-20s %10s %5s %6s %6s %9s %9s\n", "dsq", "uid", "cpu", "depth", "max",
		"inserts", "removes");
	for (i = 0; i < iv->nr_dsqs; i++) {
		const struct top_dsq *d = &iv->dsqs[i];

		fprintf(out, "  %#-20llx %10u %5u %6u %6u %9llu %9llu\n", (unsigned long long)d->id,
			d->uid, d->cpu, d->depth, d->max_depth, (unsigned long long)d->inserts,
			(unsigned long long)d->removes);
	}
}

int top_print_text(FILE *out, struct top_interval *iv, const struct top_print_opts *o)
{
	top_interval_sort(iv, o->sort);
	print_header(out, iv, o);
	print_cpus(out, iv);
	print_threads(out, iv, o);
	print_waits(out, iv);
	print_irqs(out, iv);
	print_scx(out, iv);
	fputc('\n', out);
	return fflush(out) || ferror(out) ? -EIO : 0;
}

/* --- JSON --- */

static void put_int(struct json_build *b, json_object *o, const char *key, int64_t v)
{
	json_build_put(b, o, key, json_object_new_int64(v));
}

/* Times: from a damaged capture, anything up to 2^64 - 1. */
static void put_u64(struct json_build *b, json_object *o, const char *key, uint64_t v)
{
	json_build_put(b, o, key, json_object_new_uint64(v));
}

static void put_str(struct json_build *b, json_object *o, const char *key, const char *v)
{
	json_build_put(b, o, key, json_object_new_string(v));
}

static json_object *cpu_json(struct json_build *b, const struct top_interval *iv,
			     const struct top_cpu *c)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	put_int(b, o, "cpu", c->cpu);
	put_u64(b, o, "busy_ns", c->busy_ns);
	put_u64(b, o, "idle_ns", c->idle_ns);
	put_u64(b, o, "unknown_ns", c->unknown_ns);
	json_build_num(b, o, "utilization_pct", pct(c->busy_ns, c->busy_ns + c->idle_ns), 2);
	put_u64(b, o, "hardirq_ns", c->hardirq_ns);
	put_u64(b, o, "softirq_ns", c->softirq_ns);
	put_u64(b, o, "work_ns", c->work_ns);
	put_int(b, o, "switches", c->switches);
	put_int(b, o, "migrations_in", c->migrations_in);
	if (c->depth >= 0)
		put_int(b, o, "runqueue_depth", c->depth);
	else
		json_object_object_add(o, "runqueue_depth", NULL);
	put_u64(b, o, "lost", c->lost);
	(void)iv;
	return o;
}

static json_object *thread_json(struct json_build *b, const struct top_interval *iv,
				const struct top_thread *t)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	put_int(b, o, "pid", t->pid);
	put_int(b, o, "tgid", t->tgid);
	put_str(b, o, "comm", t->comm);
	json_build_put(b, o, "recorder", json_object_new_boolean(t->own));
	json_build_put(b, o, "kthread", json_object_new_boolean(t->kthread));
	put_int(b, o, "cpu", t->cpu);
	put_u64(b, o, "runtime_ns", t->runtime_ns);
	json_build_num(b, o, "cpu_pct", pct(t->runtime_ns, iv->to - iv->from), 2);
	put_int(b, o, "voluntary_switches", t->voluntary);
	put_int(b, o, "involuntary_switches", t->involuntary);
	put_int(b, o, "migrations", t->migrations);
	put_int(b, o, "wakeups", t->wakeups);
	put_u64(b, o, "wakeup_p99_ns", t->wakeup_p99_ns);
	put_u64(b, o, "wakeup_max_ns", t->wakeup_max_ns);
	put_int(b, o, "runqueue_waits", t->runqueue_waits);
	put_u64(b, o, "runqueue_p99_ns", t->runqueue_p99_ns);
	put_u64(b, o, "runqueue_max_ns", t->runqueue_max_ns);
	return o;
}

static json_object *wait_json(struct json_build *b, const struct top_interval *iv,
			      const struct top_wait *w)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	put_str(b, o, "kind", kind_name(w->kind));
	put_int(b, o, "pid", w->pid);
	put_int(b, o, "tgid", w->tgid);
	put_str(b, o, "comm", w->comm);
	put_int(b, o, "cpu", w->cpu);
	put_u64(b, o, "start_ns", w->start > iv->session_start ? w->start - iv->session_start : 0);
	put_u64(b, o, "latency_ns", w->latency_ns);
	if (w->ran_pid == UINT32_MAX) {
		json_object_object_add(o, "ran_pid", NULL);
		json_object_object_add(o, "ran_comm", NULL);
	} else {
		put_int(b, o, "ran_pid", w->ran_pid);
		put_str(b, o, "ran_comm", w->ran_comm);
	}
	return o;
}

static json_object *irq_json(struct json_build *b, const struct top_irq *q)
{
	static const char *const kinds[] = { "hardirq", "softirq", "work" };
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	put_str(b, o, "kind", kinds[q->kind]);
	put_u64(b, o, "id", q->id);
	put_str(b, o, "name", q->name);
	put_int(b, o, "count", q->count);
	put_u64(b, o, "time_ns", q->time_ns);
	return o;
}

static json_object *scx_json(struct json_build *b, const struct top_interval *iv)
{
	const struct top_scx *x = &iv->scx;
	json_object *o = json_object_new_object(), *a, *e;
	uint32_t i;

	if (!o)
		return NULL;
	json_build_put(b, o, "present", json_object_new_boolean(x->present));
	put_str(b, o, "state", x->state);
	put_str(b, o, "scheduler", x->ops);
	put_u64(b, o, "enable_seq", x->enable_seq);
	put_int(b, o, "enables", x->enables);
	put_int(b, o, "exits", x->exits);
	put_int(b, o, "exit_kind", x->exit_kind);
	if (x->bypass >= 0)
		json_build_put(b, o, "bypass", json_object_new_boolean(x->bypass));
	else
		json_object_object_add(o, "bypass", NULL);
	json_build_put(b, o, "events", a = json_object_new_object());
	for (i = 0; a && i < x->nr_events; i++)
		put_int(b, a, x->events[i].name, x->events[i].grew);
	json_build_put(b, o, "dsqs", a = json_object_new_array());
	for (i = 0; a && i < iv->nr_dsqs; i++) {
		const struct top_dsq *d = &iv->dsqs[i];

		json_build_push(b, a, e = json_object_new_object());
		if (!e)
			break;
		put_u64(b, e, "id", d->id);
		put_int(b, e, "uid", d->uid);
		put_int(b, e, "cpu", d->cpu);
		put_int(b, e, "depth", d->depth);
		put_int(b, e, "max_depth", d->max_depth);
		put_u64(b, e, "inserts", d->inserts);
		put_u64(b, e, "removes", d->removes);
	}
	return o;
}

static json_object *interval_json(struct json_build *b, struct top_interval *iv,
				  const struct top_print_opts *o)
{
	json_object *d = json_object_new_object(), *a;
	uint32_t i;

	if (!d)
		return NULL;
	put_u64(b, d, "interval", iv->index);
	put_u64(b, d, "from_ns", iv->from - iv->session_start);
	put_u64(b, d, "to_ns", iv->to - iv->session_start);
	put_u64(b, d, "events", iv->events);
	put_u64(b, d, "lost", iv->lost);
	put_u64(b, d, "lost_total", iv->lost_total);
	json_build_put(b, d, "cpus", a = json_object_new_array());
	for (i = 0; a && i < iv->nr_cpus; i++)
		json_build_push(b, a, cpu_json(b, iv, &iv->cpus[i]));
	json_build_put(b, d, "threads", a = json_object_new_array());
	for (i = 0; a && i < iv->nr_threads; i++)
		if (top_thread_matches(&iv->threads[i], o->filter))
			json_build_push(b, a, thread_json(b, iv, &iv->threads[i]));
	json_build_put(b, d, "waits", a = json_object_new_array());
	for (i = 0; a && i < iv->nr_waits; i++)
		json_build_push(b, a, wait_json(b, iv, &iv->waits[i]));
	json_build_put(b, d, "irqs", a = json_object_new_array());
	for (i = 0; a && i < iv->nr_irqs; i++)
		json_build_push(b, a, irq_json(b, &iv->irqs[i]));
	json_build_put(b, d, "sched_ext", scx_json(b, iv));
	return d;
}

int top_print_json(FILE *out, struct top_interval *iv, const struct top_print_opts *o)
{
	struct json_build b = { 0 };
	json_object *d;
	int ret = 0;

	top_interval_sort(iv, o->sort);
	d = interval_json(&b, iv, o);
	if (!d || b.nomem)
		ret = -ENOMEM;
	else if (fprintf(out, "%s\n", json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN)) < 0 ||
		 fflush(out))
		ret = -EIO;
	json_object_put(d);
	return ret;
}
