// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-format.h"
#include "top/top-stats.h"
#include "util/array.h"

/* A thread's counts in the interval; @row: its index in out.threads + 1, 0: untouched. */
struct top_thread_acc {
	uint32_t row;
	int32_t cpu;
	uint64_t runtime_ns;
	uint32_t voluntary, involuntary, migrations;
};

struct top_latency {
	uint32_t t;
	uint32_t kind;
	uint64_t ns;
};

struct top_irq_acc {
	struct top_irq irq;
	uint64_t seen;		/* the interval it counts for, + 1 */
};

struct top_dsq_acc {
	struct top_dsq dsq;	/* its depth lasts from interval to interval */
	uint64_t seen;		/* the interval it changed in, + 1 */
};

static struct top_thread_acc *touch(struct top_stats *ts, uint32_t t)
{
	struct top_thread_acc *a;

	if (t >= ts->nr_acc)
		return NULL;
	a = &ts->acc[t];
	if (!a->row) {
		if (array_reserve((void **)&ts->touched, &ts->cap_touched, ts->nr_touched,
				  sizeof(*ts->touched), 64)) {
			ts->error = -ENOMEM;
			return NULL;
		}
		ts->touched[ts->nr_touched++] = t;
		a->row = ts->nr_touched;
		a->cpu = -1;
	}
	return a;
}

/* CPU @cpu's figures, made as CPUs appear; NULL past any CPU's number, or out of memory. */
static struct top_cpu *cpu_of(struct top_stats *ts, uint32_t cpu)
{
	uint32_t i;

	if (cpu < ts->nr_cpus)
		return &ts->cpus[cpu];
	if (cpu >= KTPC_MAX_CPUS)
		return NULL;
	if (array_reserve((void **)&ts->cpus, &ts->cap_cpus, cpu, sizeof(*ts->cpus), 8) ||
	    array_reserve((void **)&ts->last_ran, &ts->cap_last_ran, cpu, sizeof(*ts->last_ran), 8)) {
		ts->error = -ENOMEM;
		return NULL;
	}
	for (i = ts->nr_cpus; i <= cpu; i++) {
		ts->cpus[i].cpu = i;
		ts->last_ran[i] = SCHED_NONE;
	}
	ts->nr_cpus = cpu + 1;
	return &ts->cpus[cpu];
}

static int on_thread_new(void *ctx, uint32_t t)
{
	struct top_stats *ts = ctx;

	if (array_reserve((void **)&ts->acc, &ts->nr_acc, t, sizeof(*ts->acc), 256))
		return -ENOMEM;
	return 0;
}

static void on_cpu_time(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to)
{
	struct top_stats *ts = ctx;
	struct top_cpu *c = cpu_of(ts, cpu);
	struct top_thread_acc *a;

	if (!c)
		return;
	ts->last_ran[cpu] = t;
	if (t == SCHED_IDLE) {
		c->idle_ns += to - from;
		return;
	}
	c->busy_ns += to - from;
	a = touch(ts, t);
	if (a) {
		a->runtime_ns += to - from;
		a->cpu = cpu;
	}
}

static void on_gap(void *ctx, uint32_t cpu, enum sched_gap gap, uint64_t from, uint64_t to)
{
	struct top_stats *ts = ctx;
	struct top_cpu *c = cpu_of(ts, cpu);

	(void)gap;
	if (c)
		c->unknown_ns += to - from;
	/* Who ran there last is not known now. */
	if (c)
		ts->last_ran[cpu] = SCHED_NONE;
}

static void on_switch(void *ctx, uint32_t cpu, uint64_t ts_, uint32_t prev,
		      uint32_t next, int involuntary)
{
	struct top_stats *ts = ctx;
	struct top_cpu *c = cpu_of(ts, cpu);
	struct top_thread_acc *a;

	(void)ts_, (void)next;
	if (c)
		c->switches++;
	if (prev >= SCHED_NONE || !(a = touch(ts, prev)))
		return;
	if (involuntary)
		a->involuntary++;
	else
		a->voluntary++;
}

static int on_latency(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		      uint64_t start, uint64_t end, const struct sched_waker *waker)
{
	struct top_stats *ts = ctx;
	struct top_wait *w;
	uint32_t i, ran;

	(void)waker;
	if (!touch(ts, t))
		return ts->error;
	if (array_reserve((void **)&ts->lat, &ts->cap_lat, ts->nr_lat, sizeof(*ts->lat), 256))
		return -ENOMEM;
	ts->lat[ts->nr_lat++] = (struct top_latency){ t, kind, end - start };
	/* Among the worst? They are kept longest first. */
	w = ts->waits;
	if (ts->nr_waits == TOP_WAITS && w[TOP_WAITS - 1].latency_ns >= end - start)
		return 0;
	i = ts->nr_waits < TOP_WAITS ? ts->nr_waits++ : TOP_WAITS - 1;
	for (; i && w[i - 1].latency_ns < end - start; i--)
		w[i] = w[i - 1];
	ran = cpu < ts->nr_cpus ? ts->last_ran[cpu] : SCHED_NONE;
	w[i] = (struct top_wait){ .kind = kind, .cpu = cpu, .start = start,
				  .latency_ns = end - start,
				  .pid = ts->m->sched.threads[t].pid,
				  .tgid = ts->m->sched.threads[t].tgid,
				  .ran_pid = ran == SCHED_IDLE ? 0 :
					ran < ts->m->sched.nr_threads ?
					ts->m->sched.threads[ran].pid : UINT32_MAX };
	memcpy(w[i].comm, ts->m->sched.threads[t].comm, KTP_COMM_LEN);
	if (ran < ts->m->sched.nr_threads)
		memcpy(w[i].ran_comm, ts->m->sched.threads[ran].comm, KTP_COMM_LEN);
	else
		snprintf(w[i].ran_comm, sizeof(w[i].ran_comm), "%s",
			 ran == SCHED_IDLE ? "<idle>" : "?");
	return 0;
}

static int on_migrate(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts_)
{
	struct top_stats *ts = ctx;
	struct top_thread_acc *a = touch(ts, t);
	struct top_cpu *c = cpu_of(ts, to);

	(void)from, (void)ts_;
	if (a)
		a->migrations++;
	if (c)
		c->migrations_in++;
	return ts->error;
}

static void irq_name(struct top_stats *ts, struct top_irq *q)
{
	char buf[MODEL_IRQ_LABEL_MAX];
	const char *s;

	switch (q->kind) {
	case SCHED_HARDIRQ:
		s = model_irq_label(ts->m, q->id, buf, sizeof(buf));
		snprintf(q->name, sizeof(q->name), "%s", s);
		break;
	case SCHED_SOFTIRQ:
		s = model_softirq_name(q->id);
		if (s)
			snprintf(q->name, sizeof(q->name), "softirq %s", s);
		else
			snprintf(q->name, sizeof(q->name), "softirq %llu", (unsigned long long)q->id);
		break;
	case SCHED_WORK:
		s = model_ksym(ts->m, q->id, buf, sizeof(buf));
		snprintf(q->name, sizeof(q->name), "work %s", s);
		break;
	}
}

static struct top_irq_acc *irq_of(struct top_stats *ts, enum sched_irq_kind kind, uint64_t id)
{
	void *v = u64_map_get(&ts->irq_index[kind], id);
	struct top_irq_acc *q;

	if (v)
		return &ts->irqs[(uintptr_t)v - 1];
	if (array_reserve((void **)&ts->irqs, &ts->cap_irqs, ts->nr_irqs, sizeof(*ts->irqs), 16) ||
	    u64_map_put(&ts->irq_index[kind], id, (void *)(uintptr_t)(ts->nr_irqs + 1)))
		return NULL;
	q = &ts->irqs[ts->nr_irqs++];
	memset(q, 0, sizeof(*q));
	q->irq.kind = kind;
	q->irq.id = id;
	irq_name(ts, &q->irq);
	return q;
}

static int on_irq(void *ctx, uint32_t cpu, const struct sched_irq *irq)
{
	struct top_stats *ts = ctx;
	struct top_cpu *c = cpu_of(ts, cpu);
	struct top_irq_acc *q;

	if (!c)
		return ts->error;
	q = irq_of(ts, irq->kind, irq->id);
	if (!q)
		return -ENOMEM;
	if (irq->kind == SCHED_HARDIRQ)
		c->hardirq_ns += irq->self;
	else if (irq->kind == SCHED_SOFTIRQ)
		c->softirq_ns += irq->self;
	else
		c->work_ns += irq->self;
	if (q->seen != ts->index + 1) {
		q->seen = ts->index + 1;
		q->irq.count = 0;
		q->irq.time_ns = 0;
	}
	q->irq.time_ns += irq->self;
	q->irq.count += irq->counted;
	return 0;
}

/* DSQ (@id, @uid)'s figures; NULL out of memory. */
static struct top_dsq_acc *dsq_of(struct top_stats *ts, uint64_t id, uint32_t uid, uint32_t cpu)
{
	uint64_t key = (uint64_t)uid << 32 | (uint32_t)(id ^ id >> 32);
	void *v = u64_map_get(&ts->dsq_index, key);
	struct top_dsq_acc *d;

	if (v)
		return &ts->dsq[(uintptr_t)v - 1];
	if (array_reserve((void **)&ts->dsq, &ts->cap_dsq, ts->nr_dsq, sizeof(*ts->dsq), 16) ||
	    u64_map_put(&ts->dsq_index, key, (void *)(uintptr_t)(ts->nr_dsq + 1)))
		return NULL;
	d = &ts->dsq[ts->nr_dsq++];
	*d = (struct top_dsq_acc){ .dsq = { .id = id, .uid = uid, .cpu = cpu } };
	return d;
}

static int on_scx_dsq(struct top_stats *ts, const struct event *ev)
{
	struct ktp_scx_dsq r;
	struct top_dsq_acc *a;
	struct top_dsq *d;

	if (ev->size < sizeof(r))
		return 0;
	memcpy(&r, ev->rec, sizeof(r));
	a = dsq_of(ts, r.dsq_id, r.dsq_uid, r.cpu);
	if (!a)
		return -ENOMEM;
	d = &a->dsq;
	if (a->seen != ts->index + 1) {
		/* Its first change in the interval: the counts start again. */
		a->seen = ts->index + 1;
		d->inserts = d->removes = 0;
		d->max_depth = 0;
	}
	if (r.h.flags & KTP_SCX_DSQ_INSERT)
		d->inserts++;
	else
		d->removes++;
	d->depth = r.nr;
	if (r.nr > d->max_depth)
		d->max_depth = r.nr;
	return 0;
}

static void on_scx_op(struct top_stats *ts, const struct event *ev)
{
	struct top_scx *x = &ts->scx;
	size_t n = ev->size > sizeof(struct ktp_scx_op) ? ev->size - sizeof(struct ktp_scx_op) : 0;
	char name[sizeof(x->events[0].name)];
	struct ktp_scx_op r;
	uint32_t i;

	if (ev->size < sizeof(r))
		return;
	memcpy(&r, ev->rec, sizeof(r));
	switch (r.h.flags) {
	case KTP_SCX_OP_ENABLE:
		x->enables++;
		return;
	case KTP_SCX_OP_BYPASS:
		x->bypass = !!r.value;
		return;
	case KTP_SCX_OP_EXIT:
		x->exits++;
		x->exit_kind = r.value;
		return;
	case KTP_SCX_OP_EVENT:
		break;
	default:
		return;
	}
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, (const char *)ev->rec + sizeof(r), n);
	name[n] = '\0';
	for (i = 0; i < x->nr_events && strcmp(x->events[i].name, name); i++)
		;
	if (i == x->nr_events) {
		if (i == TOP_SCX_EVENTS)
			return;	/* more names than an interval shows */
		x->nr_events++;
		memcpy(x->events[i].name, name, sizeof(name));
		x->events[i].grew = 0;
	}
	x->events[i].grew += r.value;
}

static int on_event(void *ctx, const struct event *ev)
{
	struct top_stats *ts = ctx;
	struct top_cpu *c;

	ts->events++;
	if (ev->type == KTP_REC_SCX_DSQ)
		return on_scx_dsq(ts, ev);
	if (ev->type == KTP_REC_SCX_OP)
		on_scx_op(ts, ev);
	if (ev->type == EVENT_LOST) {
		ts->lost += ev->lost;
		ts->lost_total += ev->lost;
		c = cpu_of(ts, ev->cpu);
		if (c)
			c->lost += ev->lost;
	}
	return ts->error;
}

static const struct sched_ops top_ops = {
	.thread_new = on_thread_new,
	.cpu_time = on_cpu_time,
	.gap = on_gap,
	.switch_out = on_switch,
	.latency = on_latency,
	.migrate = on_migrate,
	.irq = on_irq,
	.event = on_event,
};

int top_stats_init(struct top_stats *ts, struct model *m, uint32_t own_tgid)
{
	int k;

	memset(ts, 0, sizeof(*ts));
	for (k = 0; k < TOP_IRQ_KINDS; k++)
		u64_map_init(&ts->irq_index[k]);
	u64_map_init(&ts->dsq_index);
	ts->scx.bypass = -1;
	ts->m = m;
	ts->own_tgid = own_tgid;
	if (m->nr_cpus && !cpu_of(ts, m->nr_cpus - 1))
		return -ENOMEM;
	return model_add_client(m, &top_ops, ts, 0);
}

void top_stats_fini(struct top_stats *ts)
{
	int k;

	for (k = 0; k < TOP_IRQ_KINDS; k++)
		u64_map_fini(&ts->irq_index[k]);
	u64_map_fini(&ts->dsq_index);
	free(ts->dsq);
	free(ts->out.dsqs);
	free(ts->acc);
	free(ts->touched);
	free(ts->lat);
	free(ts->vals);
	free(ts->heap);
	free(ts->gstart);
	free(ts->cpus);
	free(ts->last_ran);
	free(ts->irqs);
	free(ts->out.cpus);
	free(ts->out.threads);
	free(ts->out.irqs);
	memset(ts, 0, sizeof(*ts));
}

/* Sift @h[i] down in the min-heap @h of @n values. */
static void heap_down(uint64_t *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		uint64_t t;

		if (l < n && h[l] < h[m])
			m = l;
		if (r < n && h[r] < h[m])
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/*
 * The nearest-rank p99 of @v's @n values (the smallest with 99% of them
 * at or below it): the m-th largest, m = n - ceil(0.99 n) + 1, kept in a
 * min-heap of m as the values pass (at most n / 100 + 1 of them): time
 * n log m, whatever the values, where sorting every wait of an interval
 * was a third of the live analysis's time under a pipe flood.
 */
static uint64_t p99(const uint64_t *v, uint32_t n, uint64_t *heap)
{
	uint32_t m = n - (uint32_t)(((uint64_t)n * 99 + 99) / 100) + 1, i;

	for (i = 0; i < m; i++)
		heap[i] = v[i];
	for (i = m / 2; i--;)
		heap_down(heap, m, i);
	for (i = m; i < n; i++) {
		if (v[i] <= heap[0])
			continue;
		heap[0] = v[i];
		heap_down(heap, m, 0);
	}
	return heap[0];
}

/* Grow @ts's scratch arrays for @n latencies of @groups groups. */
static int reserve_scratch(struct top_stats *ts, uint32_t n, uint32_t groups)
{
	if (array_reserve((void **)&ts->vals, &ts->cap_vals, n, sizeof(*ts->vals), 256) ||
	    array_reserve((void **)&ts->heap, &ts->cap_heap, n / 100 + 2, sizeof(*ts->heap), 64) ||
	    array_reserve((void **)&ts->gstart, &ts->cap_g, groups + 1, sizeof(*ts->gstart), 64))
		return -ENOMEM;
	memset(ts->gstart, 0, (groups + 2) * sizeof(*ts->gstart));
	return 0;
}

/*
 * Each thread's latency counts, p99 and max: the interval's latencies put
 * in groups by thread and kind (a counting sort: the rows are known), then
 * each group's figures. Linear in the latencies.
 */
static int take_latencies(struct top_stats *ts)
{
	uint32_t groups = 2 * ts->nr_touched, i, g, n;
	struct top_thread *th;

	if (reserve_scratch(ts, ts->nr_lat, groups))
		return -ENOMEM;
	for (i = 0; i < ts->nr_lat; i++)
		ts->gstart[2 * (ts->acc[ts->lat[i].t].row - 1) + ts->lat[i].kind + 2]++;
	for (g = 0; g < groups; g++)
		ts->gstart[g + 2] += ts->gstart[g + 1];
	/* gstart[g + 1] is where group g's values go next; after, gstart[g] its start. */
	for (i = 0; i < ts->nr_lat; i++) {
		g = 2 * (ts->acc[ts->lat[i].t].row - 1) + ts->lat[i].kind;
		ts->vals[ts->gstart[g + 1]++] = ts->lat[i].ns;
	}
	for (g = 0; g < groups; g++) {
		const uint64_t *v = ts->vals + ts->gstart[g];
		uint64_t max = 0;

		n = ts->gstart[g + 1] - ts->gstart[g];
		if (!n)
			continue;
		for (i = 0; i < n; i++)
			if (v[i] > max)
				max = v[i];
		th = &ts->out.threads[g / 2];
		if (g % 2 == SCHED_WAKEUP) {
			th->wakeups = n;
			th->wakeup_p99_ns = p99(v, n, ts->heap);
			th->wakeup_max_ns = max;
		} else {
			th->runqueue_waits = n;
			th->runqueue_p99_ns = p99(v, n, ts->heap);
			th->runqueue_max_ns = max;
		}
	}
	ts->nr_lat = 0;
	return 0;
}

static void take_thread(struct top_stats *ts, uint32_t t, struct top_thread *th)
{
	const struct sched_thread *s = &ts->m->sched.threads[t];
	struct top_thread_acc *a = &ts->acc[t];

	memset(th, 0, sizeof(*th));
	th->t = t;
	th->pid = s->pid;
	th->tgid = s->tgid;
	memcpy(th->comm, s->comm, KTP_COMM_LEN);
	th->comm[KTP_COMM_LEN - 1] = '\0';
	th->kthread = s->kthread;
	th->own = ts->own_tgid && s->tgid == ts->own_tgid;
	th->cpu = a->cpu;
	th->runtime_ns = a->runtime_ns;
	th->voluntary = a->voluntary;
	th->involuntary = a->involuntary;
	th->migrations = a->migrations;
}

static int take_irqs(struct top_stats *ts)
{
	struct top_interval *o = &ts->out;
	uint32_t i, n = 0;

	free(o->irqs);
	o->irqs = calloc(ts->nr_irqs ? ts->nr_irqs : 1, sizeof(*o->irqs));
	if (!o->irqs)
		return -ENOMEM;
	for (i = 0; i < ts->nr_irqs; i++)
		if (ts->irqs[i].seen == ts->index + 1)
			o->irqs[n++] = ts->irqs[i].irq;
	o->nr_irqs = n;
	return 0;
}

static int dsq_cmp(const void *a, const void *b)
{
	const struct top_dsq *x = a, *y = b;

	if (x->max_depth != y->max_depth)
		return x->max_depth > y->max_depth ? -1 : 1;
	if (x->inserts != y->inserts)
		return x->inserts > y->inserts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id ? 1 : x->uid < y->uid ? -1 : x->uid > y->uid;
}

/* The DSQs that changed in the interval. */
static int take_dsqs(struct top_stats *ts)
{
	struct top_interval *o = &ts->out;
	uint32_t i, n = 0;

	free(o->dsqs);
	o->dsqs = calloc(ts->nr_dsq ? ts->nr_dsq : 1, sizeof(*o->dsqs));
	if (!o->dsqs)
		return -ENOMEM;
	for (i = 0; i < ts->nr_dsq; i++)
		if (ts->dsq[i].seen == ts->index + 1)
			o->dsqs[n++] = ts->dsq[i].dsq;
	if (n)
		qsort(o->dsqs, n, sizeof(*o->dsqs), dsq_cmp);
	o->nr_dsqs = n;
	return 0;
}

void top_stats_set_scx(struct top_stats *ts, const struct sched_ext *now)
{
	ts->scx.present = now->present;
	snprintf(ts->scx.state, sizeof(ts->scx.state), "%s", now->state);
	snprintf(ts->scx.ops, sizeof(ts->scx.ops), "%s", now->ops);
	ts->scx.enable_seq = now->enable_seq;
}

static int irq_cmp(const void *a, const void *b)
{
	const struct top_irq *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return x->kind != y->kind ? (int)x->kind - (int)y->kind : x->id < y->id ? -1 : x->id > y->id;
}

int top_stats_take(struct top_stats *ts, uint64_t from, uint64_t to,
		   struct top_interval **out)
{
	struct top_interval *o = &ts->out;
	uint32_t i, cpu;
	int depth;

	if (ts->error)
		return ts->error;
	free(o->threads);
	free(o->cpus);
	o->threads = calloc(ts->nr_touched ? ts->nr_touched : 1, sizeof(*o->threads));
	o->cpus = calloc(ts->nr_cpus ? ts->nr_cpus : 1, sizeof(*o->cpus));
	if (!o->threads || !o->cpus || take_irqs(ts) || take_dsqs(ts))
		return -ENOMEM;
	for (i = 0; i < ts->nr_touched; i++)
		take_thread(ts, ts->touched[i], &o->threads[i]);
	o->nr_threads = ts->nr_touched;
	if (take_latencies(ts))
		return -ENOMEM;
	qsort(o->irqs, o->nr_irqs, sizeof(*o->irqs), irq_cmp);
	for (cpu = 0; cpu < ts->nr_cpus; cpu++) {
		o->cpus[cpu] = ts->cpus[cpu];
		depth = cpu < ts->m->sched.nr_cpus ? sched_cpu_depth(&ts->m->sched, cpu) : -1;
		o->cpus[cpu].depth = depth;
		memset(&ts->cpus[cpu], 0, sizeof(ts->cpus[cpu]));
		ts->cpus[cpu].cpu = cpu;
	}
	o->nr_cpus = ts->nr_cpus;
	o->index = ts->index++;
	o->from = from;
	o->to = to;
	o->session_start = ts->m->session_start;
	o->events = ts->events;
	o->lost = ts->lost;
	o->lost_total = ts->lost_total;
	o->scx = ts->scx;
	/* The scheduler stays as set; its transitions and counters start again. */
	ts->scx.enables = ts->scx.exits = 0;
	ts->scx.exit_kind = 0;
	ts->scx.bypass = -1;
	ts->scx.nr_events = 0;
	memcpy(o->waits, ts->waits, sizeof(o->waits));
	o->nr_waits = ts->nr_waits;
	ts->nr_waits = 0;
	/* The next interval starts empty. */
	for (i = 0; i < ts->nr_touched; i++)
		memset(&ts->acc[ts->touched[i]], 0, sizeof(ts->acc[0]));
	ts->nr_touched = 0;
	ts->events = 0;
	ts->lost = 0;
	*out = o;
	return 0;
}

static const char *const sort_names[TOP_NR_SORTS] = {
	[TOP_SORT_RUNTIME] = "runtime", [TOP_SORT_WAKEUP] = "wakeup",
	[TOP_SORT_RUNQUEUE] = "runqueue", [TOP_SORT_SWITCHES] = "switches",
	[TOP_SORT_MIGRATIONS] = "migrations", [TOP_SORT_PID] = "pid",
};

const char *top_sort_name(enum top_sort s)
{
	return s < TOP_NR_SORTS ? sort_names[s] : "?";
}

int top_sort_of(const char *name)
{
	int i;

	for (i = 0; i < TOP_NR_SORTS; i++)
		if (!strcmp(name, sort_names[i]))
			return i;
	return -1;
}

/* The value a thread is sorted on, largest first. */
static uint64_t sort_key(const struct top_thread *t, enum top_sort s)
{
	switch (s) {
	case TOP_SORT_WAKEUP:
		return t->wakeup_p99_ns;
	case TOP_SORT_RUNQUEUE:
		return t->runqueue_p99_ns;
	case TOP_SORT_SWITCHES:
		return (uint64_t)t->voluntary + t->involuntary;
	case TOP_SORT_MIGRATIONS:
		return t->migrations;
	case TOP_SORT_PID:
		return 0;
	default:
		return t->runtime_ns;
	}
}

static int thread_cmp(const void *a, const void *b, void *ctx)
{
	const struct top_thread *x = a, *y = b;
	enum top_sort s = *(const enum top_sort *)ctx;
	uint64_t kx = sort_key(x, s), ky = sort_key(y, s);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

void top_interval_sort(struct top_interval *iv, enum top_sort s)
{
	qsort_r(iv->threads, iv->nr_threads, sizeof(*iv->threads), thread_cmp, &s);
}

int top_thread_matches(const struct top_thread *th, const char *filter)
{
	char *end;
	unsigned long v;

	if (!filter || !*filter)
		return 1;
	v = strtoul(filter, &end, 10);
	if (!*end && end != filter)
		return th->pid == v || th->tgid == v;
	return strstr(th->comm, filter) != NULL;
}
