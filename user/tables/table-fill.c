// SPDX-License-Identifier: GPL-2.0
/*
 * One model client that turns the scheduler's callbacks and the events
 * into rows. Rows of intervals the model gives in pieces (a thread's run
 * on a CPU, a state) are joined while they touch, so that a row is what a
 * reader means by one: a slice ends where the thread stopped running.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "model/event-json.h"
#include "model/model.h"
#include "tables/table-fill.h"
#include "tables/table-stacks.h"
#include "util/array.h"
#include "util/text.h"

#define NO_ID UINT32_MAX

/* A run or a state, kept open while the next piece continues it. */
struct fill_span {
	uint32_t key;		/* the thread (slices), the state (states) */
	int open;
	uint64_t from, to;
};

struct fill_thread {
	uint64_t runtime, switches, involuntary, migrations;
	struct fill_span state;
};

struct fill_cpu {
	uint64_t busy, idle, unknown;
	struct fill_span slice;
};

struct fill_switch {
	int pending;
	uint32_t cpu, prev, next;
	uint64_t ts;
	int involuntary;
};

struct table_filler {
	struct model *m;
	const struct table_sink *sink;
	int error;
	struct fill_thread *threads;
	uint32_t cap_threads;
	struct fill_cpu *cpus;
	uint32_t cap_cpus, nr_cpus;
	struct fill_switch sw;
	struct table_stacks stacks;
	uint32_t *model_stacks;		/* model stack index -> stack_id + 1 */
	uint32_t cap_model_stacks;
	uint64_t *frames;		/* a record's frames, aligned */
	uint32_t cap_frames;
	char *args;			/* a probe hit's arguments as JSON */
	size_t args_len;
	FILE *args_out;
};

static const char *const state_names[SCHED_NR_STATES] = {
	[SCHED_UNKNOWN] = "unknown", [SCHED_RUNNING] = "running",
	[SCHED_RUNNABLE] = "runnable", [SCHED_SLEEPING] = "sleeping",
	[SCHED_BLOCKED] = "blocked", [SCHED_OTHER] = "other", [SCHED_DEAD] = "dead",
};

static const char *const gap_names[SCHED_NR_GAPS] = {
	[SCHED_GAP_NODATA] = "nodata", [SCHED_GAP_LOSS] = "loss",
	[SCHED_GAP_OFFLINE] = "offline",
};

static const char *const waker_names[] = {
	[SCHED_WAKER_THREAD] = "thread", [SCHED_WAKER_IDLE] = "idle",
	[SCHED_WAKER_HARDIRQ] = "hardirq", [SCHED_WAKER_SOFTIRQ] = "softirq",
	[SCHED_WAKER_UNKNOWN] = "unknown",
};

static const char *const irq_kinds[] = {
	[SCHED_HARDIRQ] = "hardirq", [SCHED_SOFTIRQ] = "softirq", [SCHED_WORK] = "work",
};

#define ROW(f, t, ...) do {						\
	const struct table_value v_[] = { __VA_ARGS__ };		\
	emit((f), (t), v_, sizeof(v_) / sizeof(v_[0]));			\
} while (0)

/* A row to the sink; the first failure stops the pass (fail()). */
static void emit(struct table_filler *f, enum table_id t, const struct table_value *v,
		 unsigned int n)
{
	if (f->error)
		return;
	if (n != table_defs[t].nr_cols)
		f->error = -EINVAL;
	else
		f->error = f->sink->row(f->sink->ctx, t, v);
}

/* A thread index as a utid: NULL for the idle task and for none. */
static struct table_value utid(uint32_t t)
{
	return t == SCHED_IDLE || t == SCHED_NONE ? TV_NULL : TV_INT(t);
}

static struct fill_cpu *cpu_of(struct table_filler *f, uint32_t cpu)
{
	if (array_reserve((void **)&f->cpus, &f->cap_cpus, cpu, sizeof(*f->cpus), 8)) {
		f->error = -ENOMEM;
		return NULL;
	}
	if (cpu >= f->nr_cpus)
		f->nr_cpus = cpu + 1;
	return &f->cpus[cpu];
}

static void slice_flush(struct table_filler *f, uint32_t cpu)
{
	struct fill_span *s = &f->cpus[cpu].slice;

	if (s->open)
		ROW(f, TABLE_SLICES, TV_INT(s->key), TV_INT(cpu), TV_INT(s->from),
		    TV_INT(s->to - s->from));
	s->open = 0;
}

static void state_flush(struct table_filler *f, uint32_t t)
{
	struct fill_span *s = &f->threads[t].state;

	if (s->open)
		ROW(f, TABLE_THREAD_STATES, TV_INT(t), TV_TEXT(state_names[s->key]),
		    TV_INT(s->from), TV_INT(s->to - s->from));
	s->open = 0;
}

/* Whether [from, to) of @key continues @s; if not, @s is to be flushed. */
static int span_extend(struct fill_span *s, uint32_t key, uint64_t from, uint64_t to)
{
	if (s->open && s->key == key && s->to == from) {
		s->to = to;
		return 1;
	}
	return 0;
}

static void span_start(struct fill_span *s, uint32_t key, uint64_t from, uint64_t to)
{
	*s = (struct fill_span){ .key = key, .open = 1, .from = from, .to = to };
}

static int on_thread_new(void *ctx, uint32_t t)
{
	struct table_filler *f = ctx;

	return array_reserve((void **)&f->threads, &f->cap_threads, t, sizeof(*f->threads),
			     1024) ? -ENOMEM : 0;
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct table_filler *f = ctx;
	struct fill_cpu *c = cpu_of(f, cpu);

	if (!c)
		return;
	if (t == SCHED_IDLE) {
		c->idle += to - from;
		slice_flush(f, cpu);
		return;
	}
	c->busy += to - from;
	f->threads[t].runtime += to - from;
	if (span_extend(&c->slice, t, from, to))
		return;
	slice_flush(f, cpu);
	span_start(&c->slice, t, from, to);
}

static void on_state_time(void *ctx, uint32_t t, enum sched_state state, uint64_t from,
			  uint64_t to)
{
	struct table_filler *f = ctx;
	struct fill_span *s = &f->threads[t].state;

	if (span_extend(s, state, from, to))
		return;
	state_flush(f, t);
	span_start(s, state, from, to);
}

/* The stack_id of the model's stack @s (a STACK record's), or NULL. */
static int frames_row(struct table_filler *f, uint32_t id, const uint64_t *frames,
		      uint16_t nk, uint16_t nu, uint32_t tgid);

static struct table_value model_stack(struct table_filler *f, uint32_t s, uint32_t tgid)
{
	const struct stack_entry *e;
	uint32_t id;
	int is_new;

	if (s == STACK_NONE)
		return TV_NULL;
	if (array_reserve((void **)&f->model_stacks, &f->cap_model_stacks, s,
			  sizeof(*f->model_stacks), 256)) {
		f->error = -ENOMEM;
		return TV_NULL;
	}
	if (f->model_stacks[s])
		return TV_INT(f->model_stacks[s] - 1);
	e = stack_table_get(&f->m->stacks, s);
	if (table_stacks_intern(&f->stacks, stack_table_frames(&f->m->stacks, s), e->nr_kernel,
				e->nr_user, tgid, &id, &is_new)) {
		f->error = -ENOMEM;
		return TV_NULL;
	}
	if (is_new)
		frames_row(f, id, stack_table_frames(&f->m->stacks, s), e->nr_kernel, e->nr_user,
			   tgid);
	/* A stack with user frames is per process: not cached by model index. */
	if (!e->nr_user)
		f->model_stacks[s] = id + 1;
	return TV_INT(id);
}

static void switch_flush(struct table_filler *f, struct table_value stack)
{
	struct fill_switch *w = &f->sw;

	if (!w->pending)
		return;
	w->pending = 0;
	ROW(f, TABLE_SWITCHES, TV_INT(w->ts), TV_INT(w->cpu), utid(w->prev), utid(w->next),
	    TV_INT(w->involuntary), stack);
}

/* Kept until the event itself comes (on_event()), which may carry a stack. */
static void on_switch_out(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev, uint32_t next,
			  int involuntary)
{
	struct table_filler *f = ctx;

	switch_flush(f, TV_NULL);
	f->sw = (struct fill_switch){ 1, cpu, prev, next, ts, involuntary };
	if (prev != SCHED_IDLE && prev != SCHED_NONE) {
		f->threads[prev].switches++;
		f->threads[prev].involuntary += !!involuntary;
	}
}

static int on_latency(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		      uint64_t start, uint64_t end, const struct sched_waker *w)
{
	struct table_filler *f = ctx;

	if (kind == SCHED_RUNQUEUE) {
		ROW(f, TABLE_RUNQUEUE_WAITS, TV_INT(t), TV_INT(cpu), TV_INT(start), TV_INT(end),
		    TV_INT(end - start));
		return f->error;
	}
	ROW(f, TABLE_WAKEUPS, TV_INT(t), TV_INT(cpu), TV_INT(start), TV_INT(end),
	    TV_INT(end - start),
	    TV_TEXT(w && w->kind <= SCHED_WAKER_UNKNOWN ? waker_names[w->kind] : "unknown"),
	    w && w->kind == SCHED_WAKER_THREAD ? TV_INT(w->id) : TV_NULL,
	    w && w->kind != SCHED_WAKER_THREAD && w->kind != SCHED_WAKER_UNKNOWN ?
	    TV_INT(w->id) : TV_NULL);
	return f->error;
}

static int on_migrate(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts)
{
	struct table_filler *f = ctx;

	f->threads[t].migrations++;
	ROW(f, TABLE_MIGRATIONS, TV_INT(t), TV_INT(ts), TV_INT(from), TV_INT(to));
	return f->error;
}

static int on_irq(void *ctx, uint32_t cpu, const struct sched_irq *irq)
{
	struct table_filler *f = ctx;
	char buf[MODEL_IRQ_LABEL_MAX + 64];
	const char *name;

	switch (irq->kind) {
	case SCHED_HARDIRQ:
		name = model_irq_name(f->m, irq->id);
		break;
	case SCHED_SOFTIRQ:
		name = model_softirq_name(irq->id);
		break;
	default:
		name = model_ksym(f->m, irq->id, buf, sizeof(buf));
		break;
	}
	ROW(f, TABLE_IRQS, TV_INT(cpu), TV_TEXT(irq_kinds[irq->kind]), TV_INT(irq->id),
	    TV_TEXT(name), TV_INT(irq->start), TV_INT(irq->end - irq->start), TV_INT(irq->self),
	    TV_INT(irq->counted));
	return f->error;
}

static void on_gap(void *ctx, uint32_t cpu, enum sched_gap gap, uint64_t from, uint64_t to)
{
	struct table_filler *f = ctx;
	struct fill_cpu *c = cpu_of(f, cpu);

	if (!c)
		return;
	c->unknown += to - from;
	slice_flush(f, cpu);
	ROW(f, TABLE_GAPS, TV_INT(cpu), TV_TEXT(gap_names[gap]), TV_INT(from),
	    TV_INT(to - from));
}

/* The frames of a new stack, leaf first, kernel then user. */
static int frames_row(struct table_filler *f, uint32_t id, const uint64_t *frames,
		      uint16_t nk, uint16_t nu, uint32_t tgid)
{
	char addr[24];
	unsigned int i;

	for (i = 0; i < (unsigned int)nk + nu; i++) {
		struct frame fr = { 0 };
		int kernel = i < nk;

		if (f->m->sym)
			symbolizer_frame(f->m->sym, tgid, frames[i], kernel, &fr);
		snprintf(addr, sizeof(addr), "0x%" PRIx64, frames[i]);
		ROW(f, TABLE_STACK_FRAMES, TV_INT(id), TV_INT(i), TV_INT(kernel), TV_TEXT(addr),
		    TV_TEXT(fr.resolved ? fr.func : NULL),
		    fr.resolved ? TV_INT(fr.offset) : TV_NULL, TV_TEXT(fr.object));
	}
	return f->error;
}

/* A record's @n frames after @skip bytes into f->frames (records may be unaligned). */
static const uint64_t *frames_of(struct table_filler *f, const struct event *ev, size_t skip,
				 unsigned int n)
{
	if (skip + (size_t)n * 8 > ev->size)
		return NULL;
	if (array_reserve((void **)&f->frames, &f->cap_frames, n, sizeof(*f->frames), 256)) {
		f->error = -ENOMEM;
		return NULL;
	}
	memcpy(f->frames, (const char *)ev->rec + skip, (size_t)n * 8);
	return f->frames;
}

static void sample_row(struct table_filler *f, const struct event *ev)
{
	struct ktp_sample s;
	const uint64_t *frames;
	struct table_value stack = TV_NULL;
	uint32_t id, t;
	int is_new;

	memcpy(&s, ev->rec, sizeof(s));
	frames = frames_of(f, ev, sizeof(s), (unsigned int)s.nr_kernel + s.nr_user);
	if (frames && s.nr_kernel + s.nr_user) {
		if (table_stacks_intern(&f->stacks, frames, s.nr_kernel, s.nr_user, s.pid, &id,
					&is_new)) {
			f->error = -ENOMEM;
			return;
		}
		if (is_new)
			frames_row(f, id, frames, s.nr_kernel, s.nr_user, s.pid);
		stack = TV_INT(id);
	}
	t = s.tid ? sched_lookup_pid(&f->m->sched, s.tid) : SCHED_IDLE;
	ROW(f, TABLE_SAMPLES, TV_INT(s.ts), TV_INT(ev->cpu), utid(t), TV_INT(s.tid),
	    TV_INT(s.pid), TV_INT(s.source), TV_INT(!!(ev->flags & KTP_SAMPLE_USER)), stack);
}

/* --- A probe hit's arguments, a JSON object --- */

static void args_key(FILE *out, const char *key)
{
	fputc(ftell(out) > 1 ? ',' : ' ', out);
	fputc('"', out);
	text_json_fputs(key, out);
	fputs("\":", out);
}

static void args_u64(void *ctx, const char *key, uint64_t v)
{
	if (!event_record_own_key(key)) {
		args_key(ctx, key);
		fprintf(ctx, "%" PRIu64, v);
	}
}

static void args_s64(void *ctx, const char *key, int64_t v)
{
	if (!event_record_own_key(key)) {
		args_key(ctx, key);
		fprintf(ctx, "%" PRId64, v);
	}
}

static void args_hex(void *ctx, const char *key, uint64_t v)
{
	if (!event_record_own_key(key)) {
		args_key(ctx, key);
		fprintf(ctx, "\"0x%" PRIx64 "\"", v);
	}
}

static void args_str(void *ctx, const char *key, const char *v)
{
	if (!event_record_own_key(key)) {
		args_key(ctx, key);
		fputc('"', ctx);
		text_json_fputs(v, ctx);
		fputc('"', ctx);
	}
}

static const struct record_sink args_sink = { args_u64, args_s64, args_hex, args_str };

static const char *probe_args(struct table_filler *f, const struct event *ev)
{
	if (!f->args_out) {
		f->args_out = open_memstream(&f->args, &f->args_len);
		if (!f->args_out) {
			f->error = -ENOMEM;
			return NULL;
		}
	}
	rewind(f->args_out);
	fputc('{', f->args_out);
	event_record_fields(ev, &f->m->probes, &args_sink, f->args_out);
	fputs(ftell(f->args_out) > 1 ? " }" : "}", f->args_out);
	fputc('\0', f->args_out);
	if (fflush(f->args_out)) {
		f->error = -ENOMEM;
		return NULL;
	}
	return f->args;
}

static void probe_row(struct table_filler *f, const struct event *ev)
{
	struct ktp_probe_hit h;
	const struct probe_spec *spec;
	const char *args;
	char idbuf[16];
	uint32_t t;

	memcpy(&h, ev->rec, sizeof(h));
	spec = probe_table_get(&f->m->probes, h.id);
	t = sched_lookup_pid(&f->m->sched, h.pid);
	args = probe_args(f, ev);
	if (!args)
		return;
	snprintf(idbuf, sizeof(idbuf), "%u", h.id);
	ROW(f, TABLE_PROBE_HITS, TV_INT(ev->ts), TV_INT(ev->cpu), utid(t), TV_INT(h.pid),
	    TV_TEXT(spec ? spec->name : idbuf), TV_TEXT(args),
	    record_stack_id(ev) ? model_stack(f, stack_table_find(&f->m->stacks, ev->cpu,
								 record_stack_id(ev)),
					      t != SCHED_NONE ?
					      f->m->sched.threads[t].tgid : h.pid) : TV_NULL);
}

static void mark_row(struct table_filler *f, const struct event *ev)
{
	char text[KTP_MARK_MAX + 1];
	const char *s;
	struct ktp_mark k;
	uint32_t len;

	memcpy(&k, ev->rec, sizeof(k));
	s = record_mark_text(ev, &len);
	if (!s)
		return;
	if (len > KTP_MARK_MAX)
		len = KTP_MARK_MAX;
	memcpy(text, s, len);
	text[len] = '\0';
	ROW(f, TABLE_MARKERS, TV_INT(ev->ts), TV_INT(ev->cpu),
	    utid(sched_lookup_pid(&f->m->sched, k.pid)), TV_INT(k.pid),
	    TV_TEXT(ev->flags & KTP_MARK_BEGIN ? "begin" : ev->flags & KTP_MARK_END ? "end" :
		    "instant"), TV_TEXT(text));
}

static void dsq_row(struct table_filler *f, const struct event *ev)
{
	struct ktp_scx_dsq d;
	char id[24];

	memcpy(&d, ev->rec, sizeof(d));
	snprintf(id, sizeof(id), "0x%" PRIx64, (uint64_t)d.dsq_id);
	ROW(f, TABLE_SCX_DSQ, TV_INT(ev->ts), TV_INT(ev->cpu),
	    utid(sched_lookup_pid(&f->m->sched, d.pid)), TV_INT(d.pid), TV_TEXT(id),
	    TV_INT(d.dsq_uid), TV_INT(d.nr), TV_INT(d.cpu));
}

static int on_event(void *ctx, const struct event *ev)
{
	struct table_filler *f = ctx;
	uint32_t id;

	switch (ev->type) {
	case KTP_REC_SWITCH:
		if (f->sw.pending && f->sw.ts == ev->ts && f->sw.cpu == ev->cpu) {
			id = record_stack_id(ev);
			switch_flush(f, id ? model_stack(f, stack_table_find(&f->m->stacks,
									   ev->cpu, id), 0) :
				     TV_NULL);
		}
		break;
	case KTP_REC_SAMPLE:
		if (ev->size >= sizeof(struct ktp_sample))
			sample_row(f, ev);
		break;
	case KTP_REC_PROBE:
		if (ev->size >= sizeof(struct ktp_probe_hit))
			probe_row(f, ev);
		break;
	case KTP_REC_MARK:
		if (ev->size >= sizeof(struct ktp_mark))
			mark_row(f, ev);
		break;
	case KTP_REC_SCX_DSQ:
		if (ev->size >= sizeof(struct ktp_scx_dsq))
			dsq_row(f, ev);
		break;
	}
	return f->error;
}

static const struct sched_ops filler_ops = {
	.thread_new = on_thread_new,
	.cpu_time = on_cpu_time,
	.state_time = on_state_time,
	.switch_out = on_switch_out,
	.latency = on_latency,
	.migrate = on_migrate,
	.irq = on_irq,
	.gap = on_gap,
	.event = on_event,
};

/* --- After the pass --- */

static void capture_row(struct table_filler *f, const char *name, const char *host)
{
	struct model *m = f->m;

	ROW(f, TABLE_CAPTURES, TV_TEXT(name), TV_TEXT(m->path), TV_TEXT(host),
	    TV_TEXT(m->have_meta ? m->meta.kernel : NULL),
	    TV_TEXT(m->have_meta ? m->meta.machine : NULL),
	    m->have_meta ? TV_INT(m->meta.session_id) : TV_NULL, TV_INT(m->session_start),
	    TV_INT(m->session_stop ? m->session_stop : m->sched.end),
	    m->have_meta ? TV_INT(m->meta.clock_real) : TV_NULL, TV_INT(m->nr_cpus),
	    TV_INT(m->events), TV_INT(m->lost), TV_INT(m->truncated || m->damaged));
}

static const struct topology_cpu *topo_of(const struct model *m, uint32_t cpu)
{
	unsigned int i;

	for (i = 0; i < m->nr_topo; i++)
		if (m->topo[i].cpu == cpu)
			return &m->topo[i];
	return NULL;
}

static struct table_value topo_value(const struct topology_cpu *c, int v)
{
	return c && v >= 0 ? TV_INT(v) : TV_NULL;
}

static void cpu_rows(struct table_filler *f)
{
	const struct model *m = f->m;
	uint32_t cpu, n = f->nr_cpus > m->nr_cpus ? f->nr_cpus : m->nr_cpus;
	unsigned int i;

	for (cpu = 0; cpu < n && !f->error; cpu++) {
		const struct topology_cpu *t = topo_of(m, cpu);
		const struct fill_cpu *c = cpu_of(f, cpu);
		uint64_t records = 0, lost = 0;

		if (!c)
			return;
		for (i = 0; i < m->nr_streams; i++)
			if (m->streams[i].cpu == cpu) {
				records = m->streams[i].records;
				lost = m->streams[i].lost;
			}
		ROW(f, TABLE_CPUS, TV_INT(cpu), topo_value(t, t ? t->package : -1),
		    topo_value(t, t ? t->core : -1), topo_value(t, t ? t->llc : -1),
		    topo_value(t, t ? t->node : -1), TV_INT(records), TV_INT(lost),
		    TV_INT(c->busy), TV_INT(c->idle), TV_INT(c->unknown));
	}
}

static void process_rows(struct table_filler *f)
{
	const struct sched *s = &f->m->sched;
	uint64_t *runtime = calloc(s->nr_procs + 1, sizeof(*runtime));
	uint32_t *threads = calloc(s->nr_procs + 1, sizeof(*threads));
	uint32_t t, p;

	if (!runtime || !threads) {
		f->error = -ENOMEM;
		goto out;
	}
	for (t = 0; t < s->nr_threads; t++) {
		p = s->threads[t].process;
		if (p < s->nr_procs) {
			runtime[p] += f->threads[t].runtime;
			threads[p]++;
		}
	}
	for (p = 0; p < s->nr_procs; p++)
		ROW(f, TABLE_PROCESSES, TV_INT(p), TV_INT(s->procs[p].tgid),
		    TV_TEXT(s->procs[p].comm), utid(s->procs[p].leader), TV_INT(threads[p]),
		    TV_INT(runtime[p]));
out:
	free(runtime);
	free(threads);
}

static void thread_rows(struct table_filler *f)
{
	const struct sched *s = &f->m->sched;
	uint32_t t;

	for (t = 0; t < s->nr_threads; t++) {
		const struct sched_thread *th = &s->threads[t];
		const struct fill_thread *x = &f->threads[t];

		ROW(f, TABLE_THREADS, TV_INT(t), TV_INT(th->pid), TV_INT(th->tgid),
		    th->process < s->nr_procs ? TV_INT(th->process) : TV_NULL, TV_TEXT(th->comm),
		    TV_INT(th->kthread),
		    TV_TEXT(th->cgroup ? model_cgroup_path(f->m, th->cgroup) : NULL),
		    TV_INT(x->runtime), TV_INT(x->switches), TV_INT(x->involuntary),
		    TV_INT(x->migrations));
	}
}

static void finish(struct table_filler *f, const char *name, const char *host)
{
	uint32_t i;

	switch_flush(f, TV_NULL);
	for (i = 0; i < f->nr_cpus; i++)
		slice_flush(f, i);
	for (i = 0; i < f->m->sched.nr_threads; i++)
		state_flush(f, i);
	capture_row(f, name, host);
	cpu_rows(f);
	process_rows(f);
	thread_rows(f);
}

/* HOST/SESSION_ID, or the file's name where there is no host or session. */
static void capture_name(const struct model *m, const char *host, char *buf, size_t len)
{
	const char *base = strrchr(m->path, '/');

	if (host && m->have_meta)
		snprintf(buf, len, "%s/%" PRIu64, host, m->meta.session_id);
	else
		snprintf(buf, len, "%s", base && base[1] ? base + 1 : m->path);
}

static void filler_fini(struct table_filler *f)
{
	if (f->args_out)
		fclose(f->args_out);
	free(f->args);
	free(f->threads);
	free(f->cpus);
	free(f->model_stacks);
	free(f->frames);
	table_stacks_fini(&f->stacks);
}

int table_fill(const char *path, const struct table_fill_config *cfg,
	       const struct table_sink *sink, struct error *err)
{
	struct model_config mc = { .filter = cfg->filter, .sched = 1, .symfs = cfg->symfs,
				   .symbols = cfg->symbols ? MODEL_SYMBOLS_SAMPLED :
				   MODEL_SYMBOLS_NONE };
	struct table_filler f = { .sink = sink };
	char name[600];
	const char *host;
	int ret;

	table_stacks_init(&f.stacks);
	f.m = model_open(path, &mc, err);
	if (!f.m)
		return err && err->code ? err->code : -EINVAL;
	host = input_hostname(f.m->in);
	capture_name(f.m, host, name, sizeof(name));
	ret = sink->capture ? sink->capture(sink->ctx, name) : 0;
	if (!ret)
		ret = model_add_client(f.m, &filler_ops, &f, MODEL_WINDOWED);
	if (!ret)
		ret = model_run(f.m, err);
	if (!ret && !f.error)
		finish(&f, name, host);
	if (!ret && f.error)
		ret = error_set(err, f.error, "%s: %s", path, error_str(f.error));
	if (!ret && (f.m->truncated || f.m->damaged)) {
		/* The rows are what was readable: the caller says so and goes on. */
		if (err)
			snprintf(err->msg, sizeof(err->msg), "%s: %s; the tables hold what was readable",
				 path, f.m->problem[0] ? f.m->problem : "the input ends early");
		ret = 1;
	}
	model_close(f.m);
	filler_fini(&f);
	return ret;
}
