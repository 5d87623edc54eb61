// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report: one document, schema "ktprof-report" (docs/report.md),
 * described once by its field tables (json-doc.h): the capture, the
 * window, the CPUs, threads and processes (each with the fields of every
 * analysis), then the section of each analysis asked for. The writer and
 * the JSON Schema are both made from the tables. Field names carry their
 * unit (_ns, _pct, _per_s).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "report/analyze-cpu.h"
#include "report/analyze-runtime.h"
#include "report/render.h"

static const struct report *rep(const struct json_ctx *c)
{
	return c->doc;
}

/* --- A thread as others name it --- */

const struct json_field render_thread_ref[] = {
	{ .name = "pid", .type = JSON_INT }, { .name = "tgid", .type = JSON_INT, .flags = JSON_OPTIONAL }, { .name = "comm", .type = JSON_STR },
	JSON_END
};

json_object *render_thread_ref_of(struct json_ctx *c, uint32_t t)
{
	const struct sched_thread *th;
	json_object *o = json_object_new_object();

	if (t == SCHED_IDLE || t >= rep(c)->model->sched.nr_threads) {
		json_build_put(c->b, o, "pid", json_doc_u64(0));
		json_build_put(c->b, o, "comm", json_doc_str("swapper"));
		return o;
	}
	th = &rep(c)->model->sched.threads[t];
	json_build_put(c->b, o, "pid", json_doc_u64(th->pid));
	json_build_put(c->b, o, "tgid", json_doc_u64(th->tgid));
	json_build_put(c->b, o, "comm", json_doc_str(th->comm));
	return o;
}

/* --- The capture --- */

static json_object *get_capture(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = rep(c);
	const struct model *m = r->model;
	const char *n = f->name;

	if (!strcmp(n, "path"))
		return json_doc_str(m->path);
	if (!strcmp(n, "kernel"))
		return json_doc_str(m->have_meta ? m->meta.kernel : "");
	if (!strcmp(n, "machine"))
		return json_doc_str(m->have_meta ? m->meta.machine : "");
	if (!strcmp(n, "problem"))
		return json_doc_str(m->problem);
	if (!strcmp(n, "truncated"))
		return json_object_new_boolean(m->truncated);
	if (!strcmp(n, "damaged"))
		return json_object_new_boolean(m->damaged);
	return json_doc_u64(!strcmp(n, "cpus") ? r->nr_cpus :
			    !strcmp(n, "session_start_ns") ? m->session_start :
			    !strcmp(n, "session_stop_ns") ? m->session_stop :
			    !strcmp(n, "events") ? m->events :
			    !strcmp(n, "lost_records") ? m->lost : r->samples);
}

/* The types present, by name: {"sched_switch": 812, "lost": 2, ...}. */
static json_object *get_by_type(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = rep(c);
	json_object *o = json_object_new_object();
	unsigned int i;

	(void)f;
	for (i = 0; i < REPORT_EVENT_TYPES; i++) {
		const char *name = event_type_name(report_event_type(i));

		if (r->by_type[i] && name)
			json_build_put(c->b, o, name, json_doc_u64(r->by_type[i]));
	}
	return o;
}

static json_object *get_sched_ext_side(const struct json_field *f, struct json_ctx *c)
{
	const struct sched_ext *x = c->aux;

	if (!strcmp(f->name, "present"))
		return json_object_new_boolean(x->present);
	if (!strcmp(f->name, "enable_seq"))
		return json_doc_u64(x->enable_seq);
	return json_doc_str(!strcmp(f->name, "state") ? x->state : x->ops);
}

static const struct json_field sched_ext_side[] = {
	{ .name = "present", .type = JSON_BOOL, .get = get_sched_ext_side },
	{ .name = "state", .type = JSON_STR, .get = get_sched_ext_side },
	{ .name = "ops", .type = JSON_STR, .get = get_sched_ext_side },
	{ .name = "enable_seq", .type = JSON_INT, .get = get_sched_ext_side }, JSON_END
};

static json_object *get_side(const struct json_field *f, struct json_ctx *c)
{
	struct json_ctx e = *c;

	e.aux = &rep(c)->model->sched_ext[strcmp(f->name, "start") ? 1 : 0];
	return json_doc_object(sched_ext_side, &e);
}

static const struct json_field sched_ext[] = {
	{ .name = "start", .type = JSON_OBJ, .sub = sched_ext_side, .get = get_side },
	{ .name = "stop", .type = JSON_OBJ, .sub = sched_ext_side, .get = get_side }, JSON_END
};

static int has_sched_ext(const struct json_ctx *c)
{
	const struct model *m = rep(c)->model;

	return m->sched_ext[0].present || m->sched_ext[1].present;
}

#define CAP(n, t) { .name = n, .type = t, .get = get_capture }

static const struct json_field capture[] = {
	CAP("path", JSON_STR), CAP("kernel", JSON_STR), CAP("machine", JSON_STR),
	CAP("cpus", JSON_INT), CAP("session_start_ns", JSON_INT),
	CAP("session_stop_ns", JSON_INT), CAP("events", JSON_INT),
	CAP("lost_records", JSON_INT), CAP("samples", JSON_INT),
	CAP("truncated", JSON_BOOL), CAP("damaged", JSON_BOOL),
	{ .name = "sched_ext", .type = JSON_OBJ, .sub = sched_ext, .flags = JSON_OPTIONAL, .present = has_sched_ext },
	CAP("problem", JSON_STR),
	{ .name = "events_by_type", .type = JSON_COUNTS, .get = get_by_type }, JSON_END
};

/* --- The window, histograms, exclusions, the machine --- */

static json_object *get_window(const struct json_field *f, struct json_ctx *c)
{
	const struct model *m = rep(c)->model;
	const char *n = f->name;

	if (!strcmp(n, "from_rel_ns"))
		return json_doc_u64(m->session_start ? m->from - m->session_start : 0);
	if (!strcmp(n, "to_rel_ns"))
		return json_doc_u64(m->session_start ? m->to - m->session_start : 0);
	return json_doc_u64(!strcmp(n, "from_ns") ? m->from : !strcmp(n, "to_ns") ? m->to :
			    m->window_ns);
}

static const struct json_field window[] = {
	{ .name = "from_ns", .type = JSON_INT, .get = get_window }, { .name = "to_ns", .type = JSON_INT, .get = get_window },
	{ .name = "duration_ns", .type = JSON_INT, .get = get_window },
	{ .name = "from_rel_ns", .type = JSON_INT, .get = get_window }, { .name = "to_rel_ns", .type = JSON_INT, .get = get_window },
	JSON_END
};

static json_object *get_histograms(const struct json_field *f, struct json_ctx *c)
{
	if (!strcmp(f->name, "exact_up_to"))
		return json_doc_u64(HIST_EXACT);
	return json_doc_num(c, HIST_MAX_ERROR, 7);
}

static const struct json_field histograms[] = {
	{ .name = "exact_up_to", .type = JSON_INT, .get = get_histograms },
	{ .name = "max_relative_error", .type = JSON_NUM, .get = get_histograms }, JSON_END
};

static json_object *get_excluded(const struct json_field *f, struct json_ctx *c)
{
	const struct sched *s = &rep(c)->model->sched;

	return json_doc_u64(!strcmp(f->name, "inconsistent_records") ? s->inconsistent :
			    s->latency_excluded[strcmp(f->name, "wakeup_latencies") ?
						SCHED_RUNQUEUE : SCHED_WAKEUP]);
}

static const struct json_field excluded[] = {
	{ .name = "wakeup_latencies", .type = JSON_INT, .get = get_excluded },
	{ .name = "runqueue_latencies", .type = JSON_INT, .get = get_excluded },
	{ .name = "inconsistent_records", .type = JSON_INT, .get = get_excluded }, JSON_END
};

static json_object *get_machine(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = rep(c);

	if (!strcmp(f->name, "utilization_pct"))
		return json_doc_num(c, render_pct(r->busy_ns, r->known_ns), 3);
	return json_doc_u64(!strcmp(f->name, "busy_ns") ? r->busy_ns : r->known_ns);
}

static const struct json_field machine[] = {
	{ .name = "busy_ns", .type = JSON_INT, .get = get_machine }, { .name = "known_ns", .type = JSON_INT, .get = get_machine },
	{ .name = "utilization_pct", .type = JSON_NUM, .get = get_machine }, JSON_END
};

/* --- CPUs, threads, processes: each with every analysis's fields --- */

static const struct model_stream *stream_of(const struct report *r, uint32_t cpu)
{
	unsigned int i;

	for (i = 0; i < r->model->nr_streams; i++)
		if (r->model->streams[i].cpu == cpu)
			return &r->model->streams[i];
	return NULL;
}

static json_object *get_cpu_own(const struct json_field *f, struct json_ctx *c)
{
	const struct model_stream *st = stream_of(rep(c), c->id);

	if (!strcmp(f->name, "cpu"))
		return json_doc_u64(c->id);
	return json_doc_u64(!st ? 0 : !strcmp(f->name, "records") ? st->records : st->lost);
}

static int next_cpu(struct json_ctx *c, size_t *pos)
{
	const struct report *r = rep(c);
	const struct analyze_cpu *a = analyze_cpu(r);

	while (*pos < a->nr_cpus && !report_cpu_shown(r, *pos))
		(*pos)++;
	if (*pos >= a->nr_cpus)
		return 0;
	c->id = *pos;
	c->item = &a->cpus[(*pos)++];
	return 1;
}

static json_object *get_thread_own(const struct json_field *f, struct json_ctx *c)
{
	const struct sched_thread *th = &rep(c)->model->sched.threads[c->id];

	if (!strcmp(f->name, "comm"))
		return json_doc_str(th->comm);
	if (!strcmp(f->name, "kthread"))
		return json_object_new_boolean(th->kthread);
	return json_doc_u64(!strcmp(f->name, "pid") ? th->pid : th->tgid);
}

/* The threads by runtime, as the text report lists them. */
static int next_thread(struct json_ctx *c, size_t *pos)
{
	const uint32_t *order = c->aux;

	if (!*pos) {
		uint32_t n, *t = report_threads_sorted(rep(c), &n, analyze_runtime_cmp);

		if (!t) {
			c->b->nomem = 1;
			return 0;
		}
		t[n] = UINT32_MAX;	/* there is room for one more */
		c->aux = order = t;
	}
	if (order[*pos] == UINT32_MAX) {
		free((void *)order);
		return 0;
	}
	c->id = order[(*pos)++];
	return 1;
}

static json_object *get_process_own(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = rep(c);
	const struct sched_process *p = &r->model->sched.procs[c->id];

	if (!strcmp(f->name, "comm"))
		return json_doc_str(p->comm);
	return json_doc_u64(!strcmp(f->name, "tgid") ? p->tgid : r->process_threads[c->id]);
}

static int next_process(struct json_ctx *c, size_t *pos)
{
	const struct report *r = rep(c);

	while (*pos < r->model->sched.nr_procs &&
	       !(r->process_selected[*pos] && r->process_threads[*pos]))
		(*pos)++;
	if (*pos >= r->model->sched.nr_procs)
		return 0;
	c->id = (*pos)++;
	return 1;
}

#define MAX_FIELDS (REPORT_MAX_ANALYZERS + 8)

/*
 * The fields of a CPU, thread or process object: its own @own, then each
 * analysis's (all of them: an object is the same whichever section asked
 * for it). Made once.
 */
static const struct json_field *entity(struct json_field *v, const struct json_field *own,
				       enum report_entity e)
{
	unsigned int n = 0, i;

	if (v[0].name)
		return v;
	for (; own->name; own++)
		v[n++] = *own;
	for (i = 0; i < nr_analyzers; i++)
		if (analyzers[i]->fields[e])
			v[n++] = (struct json_field){ .name = "fields", .type = JSON_FIELDS, .sub = analyzers[i]->fields[e] };
	v[n] = (struct json_field)JSON_END;
	return v;
}

static const struct json_field cpu_own[] = {
	{ .name = "cpu", .type = JSON_INT, .get = get_cpu_own }, { .name = "records", .type = JSON_INT, .get = get_cpu_own },
	{ .name = "lost_records", .type = JSON_INT, .get = get_cpu_own }, JSON_END
};

static const struct json_field thread_own[] = {
	{ .name = "pid", .type = JSON_INT, .get = get_thread_own }, { .name = "tgid", .type = JSON_INT, .get = get_thread_own },
	{ .name = "comm", .type = JSON_STR, .get = get_thread_own }, { .name = "kthread", .type = JSON_BOOL, .get = get_thread_own },
	JSON_END
};

static const struct json_field process_own[] = {
	{ .name = "tgid", .type = JSON_INT, .get = get_process_own }, { .name = "comm", .type = JSON_STR, .get = get_process_own },
	{ .name = "threads", .type = JSON_INT, .get = get_process_own }, JSON_END
};

/* --- The document --- */

/* The sections of analyses that add fields to objects of @e. */
static unsigned int adding(enum report_entity e)
{
	unsigned int i, bits = 0;

	for (i = 0; i < nr_analyzers; i++)
		if (analyzers[i]->fields[e])
			bits |= 1u << i;
	return bits;
}

static json_object *get_head(const struct json_field *f, struct json_ctx *c)
{
	(void)c;
	return json_doc_str(!strcmp(f->name, "schema") ? "ktprof-report" : REPORT_JSON_VERSION);
}

const struct json_field *render_json_fields(unsigned int sections)
{
	static struct json_field cpu[MAX_FIELDS], thread[MAX_FIELDS], process[MAX_FIELDS];
	static struct json_field doc[MAX_FIELDS + REPORT_MAX_ANALYZERS];
	unsigned int n = 0, i;

	doc[n++] = (struct json_field){ .name = "schema", .type = JSON_STR, .sub = NULL, .flags = 0, .description = "\"ktprof-report\"", .get = get_head };
	doc[n++] = (struct json_field){ .name = "version", .type = JSON_STR, .sub = NULL, .flags = 0, .description = "MAJOR.MINOR of the document's schema", .get = get_head };
	doc[n++] = (struct json_field){ .name = "capture", .type = JSON_OBJ, .sub = capture, .flags = 0, .description = "the capture: kernel, CPUs, session, events" };
	doc[n++] = (struct json_field){ .name = "window", .type = JSON_OBJ, .sub = window, .flags = 0, .description = "the time analysed, CLOCK_BOOTTIME ns (_rel_ns: from the session's start)" };
	doc[n++] = (struct json_field){ .name = "histograms", .type = JSON_OBJ, .sub = histograms, .flags = 0, .description = "distributions keep every value up to exact_up_to, then log-linear buckets" };
	doc[n++] = (struct json_field){ .name = "excluded", .type = JSON_OBJ, .sub = excluded, .flags = 0, .description = "latencies left out because they overlap time the capture lost" };
	if (sections & adding(ENTITY_CPU))
		doc[n++] = (struct json_field){ .name = "cpus", .type = JSON_ARR, .sub = entity(cpu, cpu_own, ENTITY_CPU), .flags = 0, .description = "per CPU, within its known time", .next = next_cpu };
	doc[n++] = (struct json_field){ .name = "machine", .type = JSON_OBJ, .sub = machine, .flags = 0, .description = "all CPUs together" };
	if (sections & adding(ENTITY_THREAD)) {
		doc[n++] = (struct json_field){ .name = "threads", .type = JSON_ARR, .sub = entity(thread, thread_own, ENTITY_THREAD), .flags = JSON_LIST, .description = "per thread, by runtime", .next = next_thread };
		doc[n++] = (struct json_field){ .name = "processes", .type = JSON_ARR, .sub = entity(process, process_own, ENTITY_PROCESS), .flags = JSON_LIST, .description = "per process (thread group)", .next = next_process, .order = "runtime_ns" };
	}
	for (i = 0; i < nr_analyzers; i++)
		if ((sections & (1u << i)) && analyzers[i]->doc)
			doc[n++] = (struct json_field){ .name = "fields", .type = JSON_FIELDS, .sub = analyzers[i]->doc };
	doc[n] = (struct json_field)JSON_END;
	return doc;
}

json_object *render_json_object(const struct report *r, const struct report_view *v,
				 const struct json_cut *cut)
{
	struct json_build b = { 0 };
	struct json_ctx c = { .doc = r, .view = v, .b = &b, .cut = cut };
	json_object *doc = json_doc_object(render_json_fields(v->sections), &c);

	if (b.nomem) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

json_object *render_json_schema(unsigned int sections)
{
	return json_doc_schema(render_json_fields(sections), 0);
}

int render_json(const struct report *r, const struct report_view *v, FILE *out)
{
	struct json_build b = { 0 };
	struct json_ctx c = { .doc = r, .view = v, .b = &b };

	return json_doc_write(render_json_fields(v->sections), &c, out);
}
