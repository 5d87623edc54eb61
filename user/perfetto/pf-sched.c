// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler view: per-CPU FtraceEventBundles. Switches and wakings go
 * into compact_sched (structure of arrays, each array packed once per
 * bundle, timestamps delta-encoded, comms through a per-bundle intern
 * table); the other events are plain FtraceEvents. Also the system info,
 * the clock snapshot and the process tree (from task identity records),
 * so that Perfetto's scheduler and process views are complete.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "perfetto/convert.h"
#include "perfetto/pf-bundle.h"

#define TREE_BATCH 512
#define CLONE_THREAD_FLAG 0x00010000	/* the kernel's CLONE_THREAD */

struct pf_sched {
	struct convert_ctx *c;
	struct pf_bundle *bundles;	/* per CPU; arrays grow with its events */
	struct pb_buf scratch;		/* a bundle's packet */
	int wrote_header;
	/* Process tree entries waiting to be written. */
	Perfetto__Protos__ProcessTree__Thread *threads;
	Perfetto__Protos__ProcessTree__Process *procs;
	char **tree_strings;
	char *cmdlines[TREE_BATCH][1];	/* each process's cmdline: its comm */
	size_t nthreads, nprocs, nstrings;
	uint64_t tree_ts;
};

static void *xcalloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static void *sched_create(struct convert_ctx *c)
{
	struct pf_sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->c = c;
	s->bundles = xcalloc(c->nr_cpus, sizeof(*s->bundles));
	s->threads = xcalloc(TREE_BATCH, sizeof(*s->threads));
	s->procs = xcalloc(TREE_BATCH, sizeof(*s->procs));
	s->tree_strings = xcalloc(2 * TREE_BATCH, sizeof(*s->tree_strings));
	pb_init(&s->scratch, malloc(1 << 20), 1 << 20);
	if (!s->bundles || !s->threads || !s->procs || !s->tree_strings || !s->scratch.p) {
		free(s->bundles);
		free(s->threads);
		free(s->procs);
		free(s->tree_strings);
		free(s->scratch.p);
		free(s);
		return NULL;
	}
	return s;
}

/* Write CPU @cpu's bundle, growing the scratch buffer if it must. */
static int flush_cpu(struct pf_sched *s, uint32_t cpu)
{
	struct pf_bundle *b = &s->bundles[cpu];
	uint8_t *bigger;
	int ret;

	if (!b->plain || pf_bundle_empty(b))
		return 0;
	while ((ret = pf_bundle_encode(b, cpu, PF_SEQ_SYSTEM, &s->scratch)) == -EMSGSIZE) {
		bigger = realloc(s->scratch.p, 2 * s->scratch.cap);
		if (!bigger) {
			pf_bundle_reset(b);
			return -ENOMEM;
		}
		pb_init(&s->scratch, bigger, 2 * s->scratch.cap);
	}
	return pf_out_raw(s->c->out, s->scratch.p, s->scratch.len);
}

static int flush_tree(struct pf_sched *s)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Thread *tp[TREE_BATCH];
	Perfetto__Protos__ProcessTree__Process *pp[TREE_BATCH];
	size_t i;
	int ret;

	if (!s->nthreads && !s->nprocs)
		return 0;
	for (i = 0; i < s->nthreads; i++)
		tp[i] = &s->threads[i];
	for (i = 0; i < s->nprocs; i++)
		pp[i] = &s->procs[i];
	tree.n_threads = s->nthreads;
	tree.threads = tp;
	tree.n_processes = s->nprocs;
	tree.processes = pp;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
	pkt.process_tree = &tree;
	pkt.has_timestamp = 1;
	pkt.timestamp = s->tree_ts;
	pkt.has_trusted_packet_sequence_id = 1;
	pkt.trusted_packet_sequence_id = PF_SEQ_SYSTEM;
	ret = pf_out_packet(s->c->out, &pkt);
	for (i = 0; i < s->nstrings; i++)
		free(s->tree_strings[i]);
	s->nthreads = s->nprocs = s->nstrings = 0;
	return ret;
}

/* One thread (and its process, if it leads one) for the next tree packet. */
static int add_to_tree(struct pf_sched *s, uint64_t ts, uint32_t pid, uint32_t tgid,
		       uint32_t ppid, int kthread, const char *comm)
{
	Perfetto__Protos__ProcessTree__Thread *th;
	int ret;

	if (s->nthreads == TREE_BATCH || s->nprocs == TREE_BATCH) {
		ret = flush_tree(s);
		if (ret)
			return ret;
	}
	if (!s->nthreads && !s->nprocs)
		s->tree_ts = ts;
	th = &s->threads[s->nthreads++];
	perfetto__protos__process_tree__thread__init(th);
	th->has_tid = th->has_tgid = 1;
	th->tid = pid;
	th->tgid = tgid;
	th->name = s->tree_strings[s->nstrings++] = strdup(comm);
	if (pid == tgid) {
		Perfetto__Protos__ProcessTree__Process *p = &s->procs[s->nprocs++];

		perfetto__protos__process_tree__process__init(p);
		p->has_pid = p->has_ppid = 1;
		p->pid = pid;
		p->ppid = ppid;
		s->cmdlines[s->nprocs - 1][0] = th->name;
		p->cmdline = s->cmdlines[s->nprocs - 1];
		p->n_cmdline = 1;
		p->has_cmdline_is_comm = 1;
		p->cmdline_is_comm = 1;
		p->has_is_kthread = 1;
		p->is_kthread = kthread;
	}
	return th->name ? 0 : -ENOMEM;
}

/* SystemInfo and the ClockSnapshot, first in the trace. */
static int write_header(struct pf_sched *s)
{
	const struct meta *m = s->c->meta;
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__Utsname un = PERFETTO__PROTOS__UTSNAME__INIT;
	Perfetto__Protos__ClockSnapshot cs = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
	Perfetto__Protos__ClockSnapshot__Clock clocks[3], *cp[3];
	uint64_t values[3];
	static const uint32_t ids[3] = { PF_CLOCK_BOOTTIME, PF_CLOCK_MONOTONIC,
					 PF_CLOCK_REALTIME };
	int ret, i;

	un.sysname = "Linux";
	un.release = m && m->kernel[0] ? (char *)m->kernel : "unknown";
	un.machine = m && m->machine[0] ? (char *)m->machine : "x86_64";
	si.utsname = &un;
	si.has_num_cpus = 1;
	si.num_cpus = s->c->nr_cpus;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO;
	pkt.system_info = &si;
	pkt.has_trusted_packet_sequence_id = 1;
	pkt.trusted_packet_sequence_id = PF_SEQ_SYSTEM;
	ret = pf_out_packet(s->c->out, &pkt);
	if (ret || !m || !m->have_session)
		return ret;
	values[0] = m->clock_boot;
	values[1] = m->clock_mono;
	values[2] = m->clock_real;
	for (i = 0; i < 3; i++) {
		perfetto__protos__clock_snapshot__clock__init(&clocks[i]);
		clocks[i].has_clock_id = clocks[i].has_timestamp = 1;
		clocks[i].clock_id = ids[i];
		clocks[i].timestamp = values[i];
		cp[i] = &clocks[i];
	}
	cs.n_clocks = 3;
	cs.clocks = cp;
	cs.has_primary_trace_clock = 1;
	cs.primary_trace_clock = PF_CLOCK_BOOTTIME;
	pkt = (Perfetto__Protos__TracePacket)PERFETTO__PROTOS__TRACE_PACKET__INIT;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
	pkt.clock_snapshot = &cs;
	pkt.has_timestamp = 1;
	pkt.timestamp = m->clock_boot;
	pkt.has_trusted_packet_sequence_id = 1;
	pkt.trusted_packet_sequence_id = PF_SEQ_SYSTEM;
	return pf_out_packet(s->c->out, &pkt);
}

static char *comm_dup(const struct convert_ctx *c, uint32_t pid, uint32_t cpu)
{
	char buf[32];

	return strdup(convert_comm(c, pid, cpu, buf, sizeof(buf)));
}

static struct pf_plain *add_plain(struct pf_sched *s, const struct event *ev,
				  enum pf_plain_kind kind)
{
	return pf_bundle_plain(&s->bundles[ev->cpu], ev->ts,
			       convert_current(s->c, ev->cpu), kind);
}

/*
 * The plain events carry fork and newtask. The child joins the tree by the
 * TASK record the module writes with every fork, or here if that was lost.
 */
static int on_fork(struct pf_sched *s, const struct event *ev)
{
	struct convert_ctx *c = s->c;
	const struct task_info *parent, *child;
	struct pf_plain *p;
	struct ktp_fork r;

	memcpy(&r, ev->rec, sizeof(r));
	p = add_plain(s, ev, PLAIN_FORK);
	p->a = r.parent_pid;
	p->b = r.child_pid;
	p->s1 = comm_dup(c, r.parent_pid, ev->cpu);
	p->s2 = comm_dup(c, r.child_pid, ev->cpu);
	p = add_plain(s, ev, PLAIN_NEWTASK);
	p->a = r.child_pid;
	p->b = r.child_tgid != r.child_pid ? CLONE_THREAD_FLAG : 0;
	p->s1 = comm_dup(c, r.child_pid, ev->cpu);
	if (!p->s1)
		return -ENOMEM;
	child = task_table_get(&c->model->tasks, r.child_pid);
	if (child && child->described)
		return 0;
	parent = task_table_get(&c->model->tasks, r.parent_pid);
	return add_to_tree(s, ev->ts, r.child_pid, r.child_tgid,
			   parent ? parent->tgid : r.parent_pid, 0, p->s1);
}

/* Task identity: into the tree; a new name is also a task_rename event. */
static int on_task(struct pf_sched *s, const struct event *ev)
{
	const struct task_info *old;
	char comm[KTP_COMM_LEN + 1];
	struct pf_plain *p;
	struct ktp_task r;

	memcpy(&r, ev->rec, sizeof(r));
	memcpy(comm, r.comm, KTP_COMM_LEN);
	comm[KTP_COMM_LEN] = '\0';
	/* The task table already holds the new name; prev_comm is the old. */
	old = task_table_get(&s->c->model->tasks, r.pid);
	if ((r.flags & (KTP_TASK_RENAME | KTP_TASK_EXEC)) && old && old->renamed) {
		p = add_plain(s, ev, PLAIN_RENAME);
		p->a = r.pid;
		p->s1 = strndup(old->prev_comm, KTP_COMM_LEN);
		p->s2 = strdup(comm);
		if (!p->s1 || !p->s2)
			return -ENOMEM;
	}
	return add_to_tree(s, ev->ts, r.pid, r.tgid, r.ppid,
			   !!(r.flags & KTP_TASK_KTHREAD), comm);
}

/* The other plain events; 0 or -ENOMEM. */
static int on_plain(struct pf_sched *s, const struct event *ev)
{
	struct convert_ctx *c = s->c;
	struct pf_plain *p = NULL;

	switch (ev->type) {
	case KTP_REC_WAKING: {	/* KTP_WAKING_NEW only */
		struct ktp_waking r;

		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_WAKEUP_NEW);
		p->a = r.pid;
		p->b = record_prio(r.prio);
		p->c = r.target_cpu;
		p->s1 = comm_dup(c, r.pid, r.target_cpu);
		break;
	}
	case KTP_REC_MIGRATE: {
		struct ktp_migrate r;

		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_MIGRATE);
		p->a = r.pid;
		p->c = r.orig_cpu;
		p->d = r.dest_cpu;
		p->s1 = comm_dup(c, r.pid, ev->cpu);
		break;
	}
	case KTP_REC_EXEC: {
		struct ktp_exec r;

		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_EXEC);
		p->a = r.pid;
		p->b = r.old_pid;
		p->s1 = strdup((const char *)ev->rec + sizeof(r));
		break;
	}
	case KTP_REC_EXIT: {
		struct ktp_exit r;

		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_EXIT);
		p->a = r.pid;
		p->b = r.tgid;
		p->s1 = comm_dup(c, r.pid, ev->cpu);
		break;
	}
	case KTP_REC_FREE: {
		struct ktp_free r;

		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_FREE);
		p->a = r.pid;
		p->s1 = comm_dup(c, r.pid, ev->cpu);
		break;
	}
	case KTP_REC_IRQ_ENTRY:
	case KTP_REC_IRQ_EXIT: {
		struct ktp_irq r;

		memcpy(&r, ev->rec, sizeof(r));
		if (ev->type == KTP_REC_IRQ_EXIT) {
			p = add_plain(s, ev, PLAIN_IRQ_EXIT);
			p->a = r.irq;
			p->b = r.ret;
			return 0;
		}
		p = add_plain(s, ev, PLAIN_IRQ_ENTRY);
		p->a = r.irq;
		p->s1 = strdup(model_irq_name(c->model, r.irq) ?: "irq");
		break;
	}
	case KTP_REC_SOFTIRQ_ENTRY:
	case KTP_REC_SOFTIRQ_EXIT: {
		struct ktp_softirq r;

		memcpy(&r, ev->rec, sizeof(r));
		if (r.vec >= 10)
			return 0;	/* Perfetto knows 10 vectors */
		p = add_plain(s, ev, ev->type == KTP_REC_SOFTIRQ_ENTRY ?
			      PLAIN_SOFTIRQ_ENTRY : PLAIN_SOFTIRQ_EXIT);
		p->a = r.vec;
		return 0;
	}
	case KTP_REC_IDLE: {
		struct ktp_idle r;

		/* As the kernel's event: the state, 4294967295 for the exit. */
		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_CPU_IDLE);
		p->a = r.state;
		p->b = ev->cpu;
		return 0;
	}
	case KTP_REC_FREQ: {
		struct ktp_freq r;

		memcpy(&r, ev->rec, sizeof(r));
		p = add_plain(s, ev, PLAIN_CPU_FREQUENCY);
		p->a = r.khz;
		p->b = r.cpu;
		return 0;
	}
	default:
		return 0;
	}
	return p->s1 ? 0 : -ENOMEM;
}

static int view_event(void *view, const struct event *ev)
{
	struct pf_sched *s = view;
	struct convert_ctx *c = s->c;
	struct pf_bundle *b;
	char buf[32];
	int ret;

	if (!s->wrote_header) {
		ret = write_header(s);
		if (ret)
			return ret;
		s->wrote_header = 1;
	}
	/* The tree goes out early, before the events that need it. */
	if (ev->type != KTP_REC_TASK && (s->nthreads || s->nprocs) &&
	    (ret = flush_tree(s)))
		return ret;
	if (ev->cpu >= c->nr_cpus)
		return 0;
	b = &s->bundles[ev->cpu];
	/* Room for two events (a fork is two). */
	if ((pf_bundle_full(b) || b->nplain + 2 > BUNDLE_EVENTS) &&
	    (ret = flush_cpu(s, ev->cpu)))
		return ret;
	if ((ret = pf_bundle_room(b, 2)))
		return ret;
	switch (ev->type) {
	case KTP_REC_TASK:
		return on_task(s, ev);
	case KTP_REC_SWITCH: {
		struct ktp_switch r;

		memcpy(&r, ev->rec, sizeof(r));
		return pf_bundle_switch(b, ev->ts, r.prev_state, r.next_pid,
					record_prio(r.next_prio),
					convert_comm(c, r.next_pid, ev->cpu, buf, sizeof(buf)));
	}
	case KTP_REC_WAKING: {
		struct ktp_waking r;

		memcpy(&r, ev->rec, sizeof(r));
		if (ev->flags & KTP_WAKING_NEW)
			return on_plain(s, ev);
		return pf_bundle_waking(b, ev->ts, r.pid, r.target_cpu, record_prio(r.prio),
					convert_comm(c, r.pid, r.target_cpu, buf, sizeof(buf)));
	}
	case KTP_REC_FORK:
		return on_fork(s, ev);
	case EVENT_LOST:
	case EVENT_GARBAGE:
		/* What comes next follows a gap: a bundle of its own says so. */
		ret = flush_cpu(s, ev->cpu);
		b->lost = 1;
		return ret;
	}
	return on_plain(s, ev);
}

static int view_finish(void *view)
{
	struct pf_sched *s = view;
	unsigned int i;
	int ret = 0;

	if (!s->wrote_header)
		ret = write_header(s);
	if (!ret)
		ret = flush_tree(s);
	for (i = 0; !ret && i < s->c->nr_cpus; i++)
		ret = flush_cpu(s, i);
	return ret;
}

static void sched_destroy(void *view)
{
	struct pf_sched *s = view;
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->c->nr_cpus; i++)
		pf_bundle_fini(&s->bundles[i]);
	for (i = 0; i < s->nstrings; i++)
		free(s->tree_strings[i]);
	free(s->bundles);
	free(s->threads);
	free(s->procs);
	free(s->tree_strings);
	free(s->scratch.p);
	free(s);
}

const struct convert_view pf_sched_view = {
	.name = "sched",
	.create = sched_create,
	.event = view_event,
	.finish = view_finish,
	.destroy = sched_destroy,
};
