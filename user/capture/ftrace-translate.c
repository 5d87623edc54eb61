// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd's trace.dat into module records (capture/ftrace-translate.h,
 * which capture/tracedat.h runs in a child process). One
 * pass over the trace in time order (tracecmd_iterate_events()), each
 * event written at its time into its CPU's stream by the module's encoder
 * (decode/stream-writer.h); per task what its records need (its name,
 * its tgid when known), per CPU the work item running.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "capture/capture-format.h"
#include "capture/ftrace-translate.h"
#include "decode/stream-writer.h"
#include "ktprof_abi.h"
#include "util/array.h"
#include "util/infile.h"
#include "util/u64-map.h"

/*
 * Exported by libtracecmd 3.1.6 but declared in trace-cmd's private header
 * only (trace-cmd-private.h, not installed): the traced kernel's uname,
 * the trace clock and the kernel's per-CPU ring-buffer statistics.
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

#define TD_SUBBUF (1u << 20)	/* the streams' sub-buffer size */
#define TD_CLONE_THREAD 0x00010000ull	/* CLONE_THREAD */
#define TD_KTHREADD 2		/* the parent of every kernel thread */
#define TD_STATES 64		/* prev_state values remembered */
#define TD_MAX_FIELDS 7
#define TD_IPI_WORDS 255	/* h.flags holds the mask's u64 count */

enum td_kind {
	TD_SWITCH, TD_WAKING, TD_WAKEUP_NEW, TD_WAKEUP, TD_MIGRATE, TD_NEWTASK,
	TD_FORK, TD_EXEC, TD_EXIT, TD_FREE, TD_IRQ_ENTRY, TD_IRQ_EXIT,
	TD_SOFTIRQ_ENTRY, TD_SOFTIRQ_EXIT, TD_IPI_RAISE, TD_IPI_CPU, TD_IPI_MASK,
	TD_WQ_START, TD_WQ_END, TD_IDLE, TD_FREQ, TD_NR
};

static const struct {
	const char *sys, *name;
	const char *fields[TD_MAX_FIELDS];
} td_events[TD_NR] = {
	[TD_SWITCH] = { "sched", "sched_switch", { "prev_comm", "prev_pid", "prev_prio",
		"prev_state", "next_comm", "next_pid", "next_prio" } },
	[TD_WAKING] = { "sched", "sched_waking", { "comm", "pid", "prio", "target_cpu" } },
	[TD_WAKEUP_NEW] = { "sched", "sched_wakeup_new", { "comm", "pid", "prio", "target_cpu" } },
	[TD_WAKEUP] = { "sched", "sched_wakeup", { "comm", "pid", "prio", "target_cpu" } },
	[TD_MIGRATE] = { "sched", "sched_migrate_task", { "comm", "pid", "prio", "orig_cpu",
		"dest_cpu" } },
	[TD_NEWTASK] = { "task", "task_newtask", { "comm", "pid", "clone_flags" } },
	[TD_FORK] = { "sched", "sched_process_fork", { "parent_comm", "parent_pid",
		"child_comm", "child_pid" } },
	[TD_EXEC] = { "sched", "sched_process_exec", { "filename", "pid", "old_pid" } },
	[TD_EXIT] = { "sched", "sched_process_exit", { "comm", "pid", "prio" } },
	[TD_FREE] = { "sched", "sched_process_free", { "comm", "pid", "prio" } },
	[TD_IRQ_ENTRY] = { "irq", "irq_handler_entry", { "name", "irq" } },
	[TD_IRQ_EXIT] = { "irq", "irq_handler_exit", { "ret", "irq" } },
	[TD_SOFTIRQ_ENTRY] = { "irq", "softirq_entry", { "vec" } },
	[TD_SOFTIRQ_EXIT] = { "irq", "softirq_exit", { "vec" } },
	[TD_IPI_RAISE] = { "ipi", "ipi_raise", { "target_cpus" } },
	[TD_IPI_CPU] = { "ipi", "ipi_send_cpu", { "cpu", "callback" } },
	[TD_IPI_MASK] = { "ipi", "ipi_send_cpumask", { "cpumask", "callback" } },
	[TD_WQ_START] = { "workqueue", "workqueue_execute_start", { "work", "function" } },
	[TD_WQ_END] = { "workqueue", "workqueue_execute_end", { "work", "function" } },
	[TD_IDLE] = { "power", "cpu_idle", { "state", "cpu_id" } },
	[TD_FREQ] = { "power", "cpu_frequency", { "state", "cpu_id" } },
};

/*
 * x86's system vectors (irq_vectors:*), hardirqs without an irq number,
 * named as the module names them (kmod/probes.c): @irq is
 * KTP_IRQ_VECTOR_BASE + the vector.
 */
static const struct { const char *event, *name; } td_vectors[] = {
	{ "local_timer", "timer" }, { "reschedule", "reschedule" },
	{ "call_function", "call_function" },
	{ "call_function_single", "call_function_single" },
	{ "irq_work", "irq_work" }, { "x86_platform_ipi", "platform_ipi" },
	{ "error_apic", "error_apic" }, { "spurious_apic", "spurious_apic" },
	{ "thermal_apic", "thermal_apic" }, { "threshold_apic", "threshold_apic" },
	{ "deferred_error_apic", "deferred_error_apic" },
};
#define TD_NR_VECTORS (sizeof(td_vectors) / sizeof(td_vectors[0]))
/* kind_by_id holds a vector's entry as TD_NR + 2 * i, its exit + 1. */

/* What a task's records need. */
struct td_task {
	uint32_t pid, tgid, ppid;
	uint8_t described;	/* a TASK record names it */
	uint8_t tgid_known;
	uint8_t kthread;
	uint8_t clone_known, clone_thread;	/* task_newtask's word on it */
	uint8_t prio;
	char comm[KTP_COMM_LEN];
};

struct td_cpu {
	struct stream_writer w;
	int used;
	uint64_t switches;
	uint64_t work, work_fn;	/* the last work item started */
};

struct ftrace_translate {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	int ret;
	unsigned int nr_cpus;
	struct td_cpu *cpus;
	struct { struct tep_event *ev; struct tep_format_field *f[TD_MAX_FIELDS]; uint64_t n; }
		ev[TD_NR];
	struct u64_map kind_by_id;	/* event id -> kind + 1 */
	struct tep_format_field *vector[TD_NR_VECTORS][2];	/* "vector" fields */
	unsigned int nr_vector_events;
	struct td_task *tasks;
	uint32_t nr_tasks, cap_tasks;
	struct u64_map task_by_pid;	/* pid -> index + 1 */
	struct u64_map irq_names;	/* irq -> strdup'ed name */
	struct u64_map funcs;		/* addresses records name -> 1 */
	struct { uint64_t raw; uint16_t ktp; } states[TD_STATES];
	unsigned int nr_states;
	struct trace_seq seq;
	uint64_t first_ts, last_ts;
	uint64_t records, bad_cpu, bad_fields, missed, missed_unknown;
	struct meta meta;
	char *kallsyms;
	char *lacks;
	size_t lacks_len, lacks_cap;
	uint32_t *stream_cpus;
	unsigned int nr_streams;
};

/* --- Fields, read with bounds checked against the record --- */

static int field_num(const struct tep_record *r, struct tep_format_field *f, uint64_t *v)
{
	unsigned long long x;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > r->size ||
	    tep_read_number_field(f, r->data, &x))
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (x >> (8 * f->size - 1)) & 1)
		x |= ~0ull << (8 * f->size);	/* sign-extended */
	*v = x;
	return 0;
}

/* Where the bytes of @f are in @r: a fixed array or __data_loc/__rel_loc. */
static const uint8_t *field_bytes(struct ftrace_translate *td, const struct tep_record *r,
				  struct tep_format_field *f, unsigned int *len)
{
	unsigned long long loc;
	unsigned int off, n;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > r->size)
		return NULL;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (f->size != 4)
			return NULL;
		loc = tep_read_number(td->tep, (const uint8_t *)r->data + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off > (unsigned int)r->size || n > (unsigned int)r->size - off)
		return NULL;
	*len = n;
	return (const uint8_t *)r->data + off;
}

/* A string field into @buf (@cap bytes, NUL-terminated): its length, or -1. */
static int field_str(struct ftrace_translate *td, const struct tep_record *r,
		     struct tep_format_field *f, char *buf, size_t cap)
{
	unsigned int len, n = 0;
	const uint8_t *p = field_bytes(td, r, f, &len);

	if (!p)
		return -1;
	while (n < len && n + 1 < cap && p[n])
		n++;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

/* Field @i of the kind's list as a number; a missing one counts as bad. */
static int num(struct ftrace_translate *td, enum td_kind k, const struct tep_record *r,
	       unsigned int i, uint64_t *v)
{
	if (field_num(r, td->ev[k].f[i], v)) {
		td->bad_fields++;
		return -1;
	}
	return 0;
}

static uint8_t prio8(uint64_t prio)
{
	int64_t p = (int64_t)prio;

	return p < 0 ? KTP_PRIO_DL : p > 254 ? 254 : (uint8_t)p;
}

/* --- Streams --- */

static struct stream_writer *stream(struct ftrace_translate *td, uint32_t cpu, uint64_t ts)
{
	struct td_cpu *c = &td->cpus[cpu];

	if (!c->used) {
		stream_writer_init(&c->w, cpu, TD_SUBBUF, ts);
		c->used = 1;
	}
	return &c->w;
}

static int emit(struct ftrace_translate *td, uint32_t cpu, uint64_t ts, void *rec, uint8_t type,
		uint8_t flags, size_t size)
{
	struct stream_writer *w = stream(td, cpu, ts);

	/* A CPU's times never go back in its stream. */
	if (ts < w->ts)
		ts = w->ts;
	return stream_writer_record(w, rec, type, flags, size, ts);
}

/* --- Tasks --- */

static struct td_task *task_get(struct ftrace_translate *td, uint32_t pid)
{
	void *v = u64_map_get(&td->task_by_pid, pid);
	struct td_task *t;

	if (v)
		return &td->tasks[(uintptr_t)v - 1];
	if (array_reserve((void **)&td->tasks, &td->cap_tasks, td->nr_tasks,
			  sizeof(*td->tasks), 256))
		return NULL;
	t = &td->tasks[td->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tgid = pid;
	t->prio = 120;
	if (u64_map_put(&td->task_by_pid, pid, (void *)(uintptr_t)(td->nr_tasks + 1)))
		return NULL;
	td->nr_tasks++;
	return t;
}

static int task_rec(struct ftrace_translate *td, uint32_t cpu, uint64_t ts, const struct td_task *t,
		    uint16_t flags)
{
	struct ktp_task r = {
		.pid = t->pid, .tgid = t->tgid_known ? t->tgid : t->pid, .ppid = t->ppid,
		.flags = flags | (t->kthread ? KTP_TASK_KTHREAD : 0), .prio = t->prio,
	};

	memcpy(r.comm, t->comm, KTP_COMM_LEN);
	r.comm[KTP_COMM_LEN - 1] = '\0';
	return emit(td, cpu, ts, &r, KTP_REC_TASK, 0, sizeof(r));
}

/*
 * Task @pid is named @comm here (NULL or "": what the trace's saved
 * cmdlines say): a TASK record when it is new or its name changed.
 */
static int name_task(struct ftrace_translate *td, uint32_t cpu, uint64_t ts, uint32_t pid,
		     const char *comm, uint64_t prio)
{
	struct td_task *t;
	uint16_t flags;

	if (!pid)
		return 0;
	t = task_get(td, pid);
	if (!t)
		return -ENOMEM;
	if (!comm || !comm[0]) {
		comm = tep_data_comm_from_pid(td->tep, pid);
		if (!comm || !strcmp(comm, "<...>"))
			comm = "";
	}
	if (prio != UINT64_MAX)
		t->prio = prio8(prio);
	if (t->described && (!comm[0] || !strncmp(t->comm, comm, KTP_COMM_LEN - 1)))
		return 0;
	flags = t->described ? KTP_TASK_RENAME : 0;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->described = 1;
	if (t->pid == TD_KTHREADD)
		t->kthread = 1;
	return task_rec(td, cpu, ts, t, flags);
}

/* --- prev_state, as the kernel's format prints it --- */

static uint16_t state_letters(const char *s)
{
	uint16_t v = 0;

	for (; *s && *s != ' '; s++) {
		switch (*s) {
		case 'S': v |= KTP_STATE_INTERRUPTIBLE; break;
		case 'D': v |= KTP_STATE_UNINTERRUPTIBLE; break;
		case 'T': v |= KTP_STATE_STOPPED; break;
		case 't': v |= KTP_STATE_TRACED; break;
		case 'X': case 'x': v |= KTP_STATE_EXIT_DEAD; break;
		case 'Z': v |= KTP_STATE_EXIT_ZOMBIE; break;
		case 'P': v |= KTP_STATE_PARKED; break;
		case 'I': v |= KTP_STATE_IDLE; break;
		case '+': v |= KTP_STATE_PREEMPTED; break;
		default: break;	/* R, and K, W, N of kernels before 4.14 */
		}
	}
	return v;
}

/*
 * The KTP_STATE_* bits of a switch's prev_state. Kernels encode it in
 * different ways (raw task state bits with TASK_STATE_MAX for preemption
 * before 4.14, the task-report bits with TASK_REPORT_MAX after), and each
 * kernel's event format says how to print its own: the state is read
 * from libtraceevent's print of the event, once per distinct value.
 */
static uint16_t switch_state(struct ftrace_translate *td, struct tep_record *r, uint64_t raw)
{
	const char *p;
	uint16_t v;
	unsigned int i;

	for (i = 0; i < td->nr_states; i++)
		if (td->states[i].raw == raw)
			return td->states[i].ktp;
	trace_seq_reset(&td->seq);
	tep_print_event(td->tep, &td->seq, r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&td->seq);
	p = td->seq.buffer ? strstr(td->seq.buffer, "prev_state=") : NULL;
	/* No print format: the task-report bits of 4.14 and later. */
	v = p ? state_letters(p + strlen("prev_state=")) : raw & 0x1ff;
	if (td->nr_states < TD_STATES) {
		td->states[td->nr_states].raw = raw;
		td->states[td->nr_states++].ktp = v;
	}
	return v;
}

/* --- Events --- */

static int on_switch(struct ftrace_translate *td, struct tep_record *r, uint32_t cpu, uint64_t ts)
{
	char prev_comm[KTP_COMM_LEN], next_comm[KTP_COMM_LEN];
	uint64_t prev, pprio, state, next, nprio;
	struct ktp_switch s = { 0 };
	int ret;

	if (num(td, TD_SWITCH, r, 1, &prev) || num(td, TD_SWITCH, r, 3, &state) ||
	    num(td, TD_SWITCH, r, 5, &next))
		return 0;
	if (field_num(r, td->ev[TD_SWITCH].f[2], &pprio))
		pprio = UINT64_MAX;
	if (field_num(r, td->ev[TD_SWITCH].f[6], &nprio))
		nprio = UINT64_MAX;
	if (field_str(td, r, td->ev[TD_SWITCH].f[0], prev_comm, sizeof(prev_comm)) < 0)
		prev_comm[0] = '\0';
	if (field_str(td, r, td->ev[TD_SWITCH].f[4], next_comm, sizeof(next_comm)) < 0)
		next_comm[0] = '\0';
	ret = name_task(td, cpu, ts, prev, prev_comm, pprio);
	if (!ret)
		ret = name_task(td, cpu, ts, next, next_comm, nprio);
	if (ret)
		return ret;
	s.prev_pid = prev;
	s.next_pid = next;
	s.prev_state = switch_state(td, r, state);
	s.prev_prio = pprio == UINT64_MAX ? 120 : prio8(pprio);
	s.next_prio = nprio == UINT64_MAX ? 120 : prio8(nprio);
	td->cpus[cpu].switches++;
	return emit(td, cpu, ts, &s, KTP_REC_SWITCH, 0, sizeof(s));
}

static int on_waking(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		     uint64_t ts)
{
	uint64_t pid, prio = UINT64_MAX, target;
	char comm[KTP_COMM_LEN];
	int ret;

	if (num(td, k, r, 1, &pid) || num(td, k, r, 3, &target))
		return 0;
	field_num(r, td->ev[k].f[2], &prio);
	if (field_str(td, r, td->ev[k].f[0], comm, sizeof(comm)) < 0)
		comm[0] = '\0';
	ret = name_task(td, cpu, ts, pid, comm, prio);
	if (ret)
		return ret;
	if (k == TD_WAKEUP) {
		struct ktp_wakeup w = { .pid = pid, .target_cpu = target };

		return emit(td, cpu, ts, &w, KTP_REC_WAKEUP, 0, sizeof(w));
	} else {
		struct ktp_waking w = {
			.pid = pid, .target_cpu = target,
			.prio = prio == UINT64_MAX ? 120 : prio8(prio),
		};

		return emit(td, cpu, ts, &w, KTP_REC_WAKING,
			    k == TD_WAKEUP_NEW ? KTP_WAKING_NEW : 0, sizeof(w));
	}
}

static int on_migrate(struct ftrace_translate *td, struct tep_record *r, uint32_t cpu, uint64_t ts)
{
	uint64_t pid, prio = UINT64_MAX, orig, dest;
	char comm[KTP_COMM_LEN];
	struct ktp_migrate m = { 0 };
	int ret;

	if (num(td, TD_MIGRATE, r, 1, &pid) || num(td, TD_MIGRATE, r, 3, &orig) ||
	    num(td, TD_MIGRATE, r, 4, &dest))
		return 0;
	field_num(r, td->ev[TD_MIGRATE].f[2], &prio);
	if (field_str(td, r, td->ev[TD_MIGRATE].f[0], comm, sizeof(comm)) < 0)
		comm[0] = '\0';
	ret = name_task(td, cpu, ts, pid, comm, prio);
	if (ret)
		return ret;
	m.pid = pid;
	m.orig_cpu = orig;
	m.dest_cpu = dest;
	return emit(td, cpu, ts, &m, KTP_REC_MIGRATE, 0, sizeof(m));
}

/* task:task_newtask, just before the fork's event: whether it is a thread. */
static int on_newtask(struct ftrace_translate *td, struct tep_record *r)
{
	uint64_t pid, flags;
	struct td_task *t;

	if (num(td, TD_NEWTASK, r, 1, &pid) || num(td, TD_NEWTASK, r, 2, &flags))
		return 0;
	t = task_get(td, pid);
	if (!t)
		return -ENOMEM;
	t->clone_known = 1;
	t->clone_thread = !!(flags & TD_CLONE_THREAD);
	return 0;
}

static int on_fork(struct ftrace_translate *td, struct tep_record *r, uint32_t cpu, uint64_t ts)
{
	char pcomm[KTP_COMM_LEN], ccomm[KTP_COMM_LEN];
	uint64_t ppid, cpid;
	struct td_task *parent, *child;
	struct ktp_fork f = { 0 };
	int thread, ret;

	if (num(td, TD_FORK, r, 1, &ppid) || num(td, TD_FORK, r, 3, &cpid) || !cpid)
		return 0;
	if (field_str(td, r, td->ev[TD_FORK].f[0], pcomm, sizeof(pcomm)) < 0)
		pcomm[0] = '\0';
	if (field_str(td, r, td->ev[TD_FORK].f[2], ccomm, sizeof(ccomm)) < 0)
		ccomm[0] = '\0';
	ret = name_task(td, cpu, ts, ppid, pcomm, UINT64_MAX);
	if (ret)
		return ret;
	/* Both made before either is held: task_get() may move the tasks. */
	if (!task_get(td, cpid))
		return -ENOMEM;
	parent = ppid ? task_get(td, ppid) : NULL;
	child = task_get(td, cpid);
	if (!child || (ppid && !parent))
		return -ENOMEM;
	thread = child->clone_known ? child->clone_thread : -1;
	child->clone_known = 0;
	child->described = 1;
	snprintf(child->comm, sizeof(child->comm), "%s", ccomm[0] ? ccomm : pcomm);
	child->kthread = ppid == TD_KTHREADD || (parent && parent->kthread);
	child->prio = parent ? parent->prio : 120;
	child->tgid = cpid;
	child->tgid_known = thread == 0;
	if (thread == 1 && parent && parent->tgid_known) {
		child->tgid = parent->tgid;
		child->tgid_known = 1;
	}
	if (!parent)
		child->ppid = 0;
	else if (thread == 1)
		child->ppid = parent->ppid;
	else
		child->ppid = parent->tgid_known ? parent->tgid : parent->pid;
	ret = task_rec(td, cpu, ts, child, KTP_TASK_FORK);
	if (ret)
		return ret;
	f.parent_pid = ppid;
	f.child_pid = cpid;
	f.child_tgid = child->tgid_known ? child->tgid : cpid;
	return emit(td, cpu, ts, &f, KTP_REC_FORK, thread == 1 ? KTP_FORK_THREAD : 0, sizeof(f));
}

static int on_exec(struct ftrace_translate *td, struct tep_record *r, uint32_t cpu, uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_exec) + KTP_PATH_MAX + 4] = { 0 };
	struct ktp_exec *e = (struct ktp_exec *)buf;
	uint64_t pid, old_pid;
	const char *base;
	struct td_task *t;
	int len, ret;

	if (num(td, TD_EXEC, r, 1, &pid) || !pid)
		return 0;
	if (field_num(r, td->ev[TD_EXEC].f[2], &old_pid))
		old_pid = pid;
	len = field_str(td, r, td->ev[TD_EXEC].f[0], e->filename, KTP_PATH_MAX);
	if (len < 0)
		len = 0;
	t = task_get(td, pid);
	if (!t)
		return -ENOMEM;
	/* The kernel names the task after its file (__set_task_comm()). */
	base = strrchr(e->filename, '/');
	base = base ? base + 1 : e->filename;
	if (base[0]) {
		size_t n = strnlen(base, sizeof(t->comm) - 1);

		memset(t->comm, 0, sizeof(t->comm));
		memcpy(t->comm, base, n);
	}
	t->described = 1;
	t->tgid = pid;		/* after exec, the leader */
	t->tgid_known = 1;
	ret = task_rec(td, cpu, ts, t, KTP_TASK_EXEC);
	if (ret)
		return ret;
	e->pid = pid;
	e->old_pid = old_pid;
	return emit(td, cpu, ts, e, KTP_REC_EXEC, 0,
		    (sizeof(*e) + len + 1 + 3) & ~(size_t)3);
}

static int on_exit_free(struct ftrace_translate *td, enum td_kind k, struct tep_record *r,
			uint32_t cpu, uint64_t ts)
{
	uint64_t pid, prio = UINT64_MAX;
	char comm[KTP_COMM_LEN];
	struct td_task *t;
	int ret;

	if (num(td, k, r, 1, &pid) || !pid)
		return 0;
	field_num(r, td->ev[k].f[2], &prio);
	if (field_str(td, r, td->ev[k].f[0], comm, sizeof(comm)) < 0)
		comm[0] = '\0';
	if (k == TD_EXIT) {
		struct ktp_exit e = { .pid = pid, .tgid = pid };

		ret = name_task(td, cpu, ts, pid, comm, prio);
		if (ret)
			return ret;
		t = task_get(td, pid);
		if (!t)
			return -ENOMEM;
		if (t->tgid_known)
			e.tgid = t->tgid;
		return emit(td, cpu, ts, &e, KTP_REC_EXIT, 0, sizeof(e));
	} else {
		struct ktp_free f = { .pid = pid };

		ret = emit(td, cpu, ts, &f, KTP_REC_FREE, 0, sizeof(f));
		/* The pid may name another task from now on. */
		t = task_get(td, pid);
		if (!t)
			return -ENOMEM;
		t->described = t->tgid_known = t->clone_known = t->kthread = 0;
		t->tgid = pid;
		t->comm[0] = '\0';
		return ret;
	}
}

static int on_irq(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		  uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_irq_name) + KTP_IRQ_NAME_MAX + 4] = { 0 };
	struct ktp_irq_name *n = (struct ktp_irq_name *)buf;
	struct ktp_irq i = { 0 };
	uint64_t irq, ret = 0;
	char *old;
	int len;

	if (num(td, k, r, 1, &irq))
		return 0;
	i.irq = irq;
	if (k == TD_IRQ_EXIT) {
		field_num(r, td->ev[k].f[0], &ret);
		i.ret = ret;
		return emit(td, cpu, ts, &i, KTP_REC_IRQ_EXIT, 0, sizeof(i));
	}
	len = field_str(td, r, td->ev[k].f[0], n->name, KTP_IRQ_NAME_MAX);
	old = u64_map_get(&td->irq_names, i.irq);
	if (len > 0 && (!old || strcmp(old, n->name))) {
		char *copy = strdup(n->name);

		if (!copy || u64_map_put(&td->irq_names, i.irq, copy)) {
			free(copy);
			return -ENOMEM;
		}
		free(old);
		n->irq = i.irq;
		len = emit(td, cpu, ts, n, KTP_REC_IRQ_NAME, 0,
			   (sizeof(*n) + len + 1 + 3) & ~(size_t)3);
		if (len)
			return len;
	}
	return emit(td, cpu, ts, &i, KTP_REC_IRQ_ENTRY, 0, sizeof(i));
}

/* A system vector's entry or exit: its name once, then the record. */
static int on_vector(struct ftrace_translate *td, unsigned int i, int exit,
		     struct tep_record *r, uint32_t cpu, uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_irq_name) + KTP_IRQ_NAME_MAX + 4] = { 0 };
	struct ktp_irq_name *n = (struct ktp_irq_name *)buf;
	struct ktp_irq irq = { 0 };
	size_t len = strlen(td_vectors[i].name);
	uint64_t v;
	int ret;

	if (field_num(r, td->vector[i][exit], &v) || v >= KTP_IRQ_NR_VECTORS) {
		td->bad_fields++;
		return 0;
	}
	irq.irq = KTP_IRQ_VECTOR_BASE + v;
	if (!exit && !u64_map_get(&td->irq_names, irq.irq)) {
		char *copy = strdup(td_vectors[i].name);

		if (!copy || u64_map_put(&td->irq_names, irq.irq, copy)) {
			free(copy);
			return -ENOMEM;
		}
		n->irq = irq.irq;
		memcpy(n->name, td_vectors[i].name, len);
		ret = emit(td, cpu, ts, n, KTP_REC_IRQ_NAME, 0, (sizeof(*n) + len + 1 + 3) & ~(size_t)3);
		if (ret)
			return ret;
	}
	return emit(td, cpu, ts, &irq, exit ? KTP_REC_IRQ_EXIT : KTP_REC_IRQ_ENTRY, 0, sizeof(irq));
}

static int on_softirq(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		      uint64_t ts)
{
	struct ktp_softirq s = { 0 };
	uint64_t vec;

	if (num(td, k, r, 0, &vec))
		return 0;
	s.vec = vec;
	return emit(td, cpu, ts, &s, k == TD_SOFTIRQ_ENTRY ? KTP_REC_SOFTIRQ_ENTRY :
		    KTP_REC_SOFTIRQ_EXIT, 0, sizeof(s));
}

static int note_func(struct ftrace_translate *td, uint64_t addr)
{
	if (!addr || u64_map_get(&td->funcs, addr))
		return 0;
	return u64_map_put(&td->funcs, addr, (void *)1);
}

/* An IPI to one CPU, or to a cpumask (a bitmask of the trace's longs). */
static int on_ipi(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		  uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_ipi) + 8 * TD_IPI_WORDS] = { 0 };
	struct ktp_ipi *ipi = (struct ktp_ipi *)buf;
	unsigned int len, lsz, nl, i, nw;
	uint64_t v, callback = 0;
	const uint8_t *mask;

	/* Arm's ipi_raise comes with ipi_send_* on 6.3 and later: one of them. */
	if (k == TD_IPI_RAISE && (td->ev[TD_IPI_CPU].ev || td->ev[TD_IPI_MASK].ev))
		return 0;
	if (k != TD_IPI_RAISE && !field_num(r, td->ev[k].f[1], &callback)) {
		ipi->callback = callback;
		if (note_func(td, callback))
			return -ENOMEM;
	}
	if (k == TD_IPI_CPU) {
		if (num(td, k, r, 0, &v))
			return 0;
		ipi->cpu = v;
		return emit(td, cpu, ts, ipi, KTP_REC_IPI_SEND, 0, sizeof(*ipi));
	}
	mask = field_bytes(td, r, td->ev[k].f[0], &len);
	lsz = tep_get_long_size(td->tep);
	if (!mask || (lsz != 4 && lsz != 8)) {
		td->bad_fields++;
		return 0;
	}
	nl = len / lsz;
	nw = (nl * lsz + 7) / 8;
	if (nw > TD_IPI_WORDS)
		nw = TD_IPI_WORDS, nl = nw * 8 / lsz;
	if (!nw)
		return 0;
	for (i = 0; i < nl; i++) {
		uint64_t word = tep_read_number(td->tep, mask + i * lsz, lsz);
		uint64_t *dst = (uint64_t *)(ipi + 1) + i * lsz / 8;
		uint64_t cur;

		memcpy(&cur, dst, 8);
		cur |= word << (lsz == 4 ? 32 * (i & 1) : 0);
		memcpy(dst, &cur, 8);
	}
	return emit(td, cpu, ts, ipi, KTP_REC_IPI_SEND, nw, sizeof(*ipi) + 8 * nw);
}

static int on_work(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		   uint64_t ts)
{
	struct td_cpu *c = &td->cpus[cpu];
	struct ktp_wq w = { 0 };
	uint64_t work, fn;

	if (num(td, k, r, 0, &work))
		return 0;
	/* workqueue_execute_end has the function from 5.6 on. */
	if (field_num(r, td->ev[k].f[1], &fn)) {
		if (k == TD_WQ_START) {
			td->bad_fields++;
			return 0;
		}
		fn = c->work == work ? c->work_fn : 0;
	}
	if (k == TD_WQ_START) {
		c->work = work;
		c->work_fn = fn;
		if (note_func(td, fn))
			return -ENOMEM;
	}
	w.function = fn;
	w.work = work;
	return emit(td, cpu, ts, &w, k == TD_WQ_START ? KTP_REC_WQ_START : KTP_REC_WQ_END, 0,
		    sizeof(w));
}

static int on_power(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		    uint64_t ts)
{
	uint64_t state, id;

	if (num(td, k, r, 0, &state))
		return 0;
	if (k == TD_IDLE) {
		struct ktp_idle i = { .state = state };

		return emit(td, cpu, ts, &i, KTP_REC_IDLE, 0, sizeof(i));
	} else {
		struct ktp_freq f = { .khz = state, .cpu = cpu };

		if (!field_num(r, td->ev[k].f[1], &id))
			f.cpu = id;
		return emit(td, cpu, ts, &f, KTP_REC_FREQ, 0, sizeof(f));
	}
}

static int take(struct ftrace_translate *td, enum td_kind k, struct tep_record *r, uint32_t cpu,
		uint64_t ts)
{
	switch (k) {
	case TD_SWITCH:
		return on_switch(td, r, cpu, ts);
	case TD_WAKING:
	case TD_WAKEUP_NEW:
	case TD_WAKEUP:
		return on_waking(td, k, r, cpu, ts);
	case TD_MIGRATE:
		return on_migrate(td, r, cpu, ts);
	case TD_NEWTASK:
		return on_newtask(td, r);
	case TD_FORK:
		return on_fork(td, r, cpu, ts);
	case TD_EXEC:
		return on_exec(td, r, cpu, ts);
	case TD_EXIT:
	case TD_FREE:
		return on_exit_free(td, k, r, cpu, ts);
	case TD_IRQ_ENTRY:
	case TD_IRQ_EXIT:
		return on_irq(td, k, r, cpu, ts);
	case TD_SOFTIRQ_ENTRY:
	case TD_SOFTIRQ_EXIT:
		return on_softirq(td, k, r, cpu, ts);
	case TD_IPI_RAISE:
	case TD_IPI_CPU:
	case TD_IPI_MASK:
		return on_ipi(td, k, r, cpu, ts);
	case TD_WQ_START:
	case TD_WQ_END:
		return on_work(td, k, r, cpu, ts);
	case TD_IDLE:
	case TD_FREQ:
		return on_power(td, k, r, cpu, ts);
	case TD_NR:
		break;
	}
	return 0;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *r, int cpu, void *ctx)
{
	struct ftrace_translate *td = ctx;
	struct stream_writer *w;
	void *v;
	int ret;

	(void)handle;
	if (cpu < 0 || (unsigned int)cpu >= td->nr_cpus || !r->data || r->size < 0) {
		td->bad_cpu++;
		return 0;
	}
	td->records++;
	if (!td->first_ts || r->ts < td->first_ts)
		td->first_ts = r->ts;
	if (r->ts > td->last_ts)
		td->last_ts = r->ts;
	/*
	 * Events the ring buffer dropped before this one (-1: how many
	 * unknown): a sub-buffer header says so, as the module's would. Before
	 * the CPU's first record, its stream's first header says it.
	 */
	if (r->missed_events) {
		w = stream(td, cpu, r->ts);
		stream_writer_drop(w, r->missed_events > 0 ? (uint64_t)r->missed_events : 1);
		td->missed += r->missed_events > 0 ? (uint64_t)r->missed_events : 0;
		td->missed_unknown += r->missed_events < 0;
		ret = w->subbuf_used ? stream_writer_subbuf(w) : 0;
		if (ret)
			goto fail;
	}
	v = u64_map_get(&td->kind_by_id, (uint64_t)tep_data_type(td->tep, r));
	if (!v)
		return 0;
	if ((uintptr_t)v - 1 >= TD_NR) {
		ret = on_vector(td, ((uintptr_t)v - 1 - TD_NR) / 2, ((uintptr_t)v - 1 - TD_NR) % 2,
				r, cpu, r->ts);
	} else {
		td->ev[(uintptr_t)v - 1].n++;
		ret = take(td, (enum td_kind)((uintptr_t)v - 1), r, cpu, r->ts);
	}
	if (!ret)
		return 0;
fail:
	td->ret = ret;
	return 1;	/* stops the iteration */
}

/* --- Open --- */

static int take_events(struct ftrace_translate *td)
{
	unsigned int k, i;

	for (k = 0; k < TD_NR; k++) {
		struct tep_event *ev = tep_find_event_by_name(td->tep, td_events[k].sys,
							      td_events[k].name);

		td->ev[k].ev = ev;
		if (!ev)
			continue;
		for (i = 0; i < TD_MAX_FIELDS && td_events[k].fields[i]; i++)
			td->ev[k].f[i] = tep_find_field(ev, td_events[k].fields[i]);
		if (u64_map_put(&td->kind_by_id, (uint64_t)ev->id, (void *)(uintptr_t)(k + 1)))
			return -ENOMEM;
	}
	for (k = 0; k < TD_NR_VECTORS; k++) {
		for (i = 0; i < 2; i++) {
			char name[64];
			struct tep_event *ev;

			snprintf(name, sizeof(name), "%s_%s", td_vectors[k].event,
				 i ? "exit" : "entry");
			ev = tep_find_event_by_name(td->tep, "irq_vectors", name);
			if (!ev)
				continue;
			td->vector[k][i] = tep_find_field(ev, "vector");
			td->nr_vector_events++;
			if (u64_map_put(&td->kind_by_id, (uint64_t)ev->id,
					(void *)(uintptr_t)(TD_NR + 2 * k + i + 1)))
				return -ENOMEM;
		}
	}
	return 0;
}

static int lack(struct ftrace_translate *td, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int lack(struct ftrace_translate *td, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = td->lacks_cap - td->lacks_len;

		va_start(ap, fmt);
		n = vsnprintf(td->lacks ? td->lacks + td->lacks_len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n + 2 <= room)
			break;
		if (array_reserve_n((void **)&td->lacks, &td->lacks_cap,
				    td->lacks_len + n + 2, 1, 512))
			return -ENOMEM;
	}
	td->lacks_len += n;
	td->lacks[td->lacks_len++] = '\n';
	td->lacks[td->lacks_len] = '\0';
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The trace's kallsyms, as far as the records name functions. */
static int make_kallsyms(struct ftrace_translate *td)
{
	uint64_t key, *starts = NULL;
	size_t i = 0, n = 0, cap = 0, len = 0, room;
	void *val;
	int ret = 0;

	if (!tep_get_function_count(td->tep))
		return 0;
	while (u64_map_next(&td->funcs, &i, &key, &val)) {
		unsigned long long start;
		unsigned long size;
		const char *name;

		/* 1 when found (libtraceevent 1.7) */
		if (!tep_find_function_info(td->tep, key, &name, &start, &size) || !name)
			continue;
		if (array_reserve_n((void **)&starts, &cap, n, sizeof(*starts), 64)) {
			free(starts);
			return -ENOMEM;
		}
		starts[n++] = start;
	}
	if (n)
		qsort(starts, n, sizeof(*starts), cmp_u64);
	room = 1;
	for (i = 0; i < n; i++)
		room += 20 + 3 + strlen(tep_find_function(td->tep, starts[i])) + 1;
	td->kallsyms = malloc(room);
	if (!td->kallsyms) {
		ret = -ENOMEM;
		goto out;
	}
	td->kallsyms[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i && starts[i] == starts[i - 1])
			continue;
		len += snprintf(td->kallsyms + len, room - len, "%016llx t %s\n",
				(unsigned long long)starts[i],
				tep_find_function(td->tep, starts[i]));
	}
out:
	free(starts);
	return ret;
}

/* "overrun: N" and "dropped events: N" of the kernel's per-CPU stats. */
static uint64_t stats_losses(const char *stats)
{
	static const char *const keys[] = { "\noverrun: ", "\ndropped events: " };
	uint64_t sum = 0;
	unsigned int k;
	const char *p;

	for (k = 0; stats && k < 2; k++)
		for (p = stats; (p = strstr(p, keys[k])); p += strlen(keys[k]))
			sum += strtoull(p + strlen(keys[k]), NULL, 10);
	return sum;
}

static int make_lacks(struct ftrace_translate *td)
{
	static const struct { enum td_kind k; const char *what; } groups[] = {
		{ TD_IRQ_ENTRY, "irq:irq_handler_entry/exit (hardirqs)" },
		{ TD_SOFTIRQ_ENTRY, "irq:softirq_entry/exit (softirqs)" },
		{ TD_WQ_START, "workqueue:workqueue_execute_start/end (work items)" },
		{ TD_WAKEUP, "sched:sched_wakeup (wakeups in steps)" },
		{ TD_IDLE, "power:cpu_idle (idle states)" },
	};
	const char *clock = tracecmd_get_trace_clock(td->handle);
	uint64_t unknown_tgid = 0, losses;
	unsigned int i;
	int ret;

	ret = lack(td, "START marks: who ran on each CPU at the start is not recorded; a CPU's time before its first sched_switch is unknown");
	for (i = 0; !ret && i < td->nr_tasks; i++)
		unknown_tgid += td->tasks[i].described && !td->tasks[i].tgid_known;
	if (!ret)
		ret = lack(td, "tgids: trace-cmd 3.1.6 records none; %llu of %u tasks counted as their own process (a thread's process is known from task:task_newtask%s or an exec)",
			   (unsigned long long)unknown_tgid, td->nr_tasks,
			   td->ev[TD_NEWTASK].ev ? "" : " (not in this trace)");
	if (!ret)
		ret = lack(td, "exit codes, task snapshot, stacks and samples: not in ftrace's events");
	if (!ret)
		ret = lack(td, "kernel threads: known as such only when kthreadd forks them in the trace");
	if (!ret && !td->nr_vector_events && strstr(td->meta.machine, "86"))
		ret = lack(td, "irq_vectors:* (x86's system vectors: the timer, IPIs): not recorded; hardirq time is irq:irq_handler_* only");
	for (i = 0; !ret && i < sizeof(groups) / sizeof(groups[0]); i++)
		if (!td->ev[groups[i].k].ev)
			ret = lack(td, "%s: not recorded", groups[i].what);
	if (!ret && !td->ev[TD_IPI_CPU].ev && !td->ev[TD_IPI_MASK].ev && !td->ev[TD_IPI_RAISE].ev)
		ret = lack(td, "ipi: not recorded");
	if (!ret && td->missed_unknown)
		ret = lack(td, "lost events: the trace marks %llu losses of unknown count (each counted as 1)",
			   (unsigned long long)td->missed_unknown);
	losses = stats_losses(tracecmd_get_cpustats(td->handle));
	if (!ret && losses > td->missed)
		ret = lack(td, "lost events: the kernel's ring buffer stats count %llu overrun or dropped, the trace marks %llu where they happened",
			   (unsigned long long)losses, (unsigned long long)td->missed);
	if (!ret && td->bad_fields)
		ret = lack(td, "%llu events with fields missing or out of bounds: skipped",
			   (unsigned long long)td->bad_fields);
	if (!ret && td->bad_cpu)
		ret = lack(td, "%llu events of CPUs beyond the trace's %u: skipped",
			   (unsigned long long)td->bad_cpu, td->nr_cpus);
	if (!ret && clock && strcmp(clock, "boot"))
		ret = lack(td, "trace clock \"%s\", not \"boot\" (trace-cmd record -C boot): times are not CLOCK_BOOTTIME%s",
			   clock, strstr(clock, "tsc") || !strcmp(clock, "counter") ?
			   ", nor nanoseconds" : "");
	if (!ret)
		ret = lack(td, "kallsyms: only the symbols the records name (libtraceevent looks symbols up by address only)");
	return ret;
}

/* The CPU list of @mask's set entries ("0-3,6"). */
static void cpu_list(const uint8_t *set, unsigned int n, char *buf, size_t cap)
{
	size_t len = 0;
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < n; i = j) {
		if (!set[i]) {
			j = i + 1;
			continue;
		}
		for (j = i; j < n && set[j]; j++)
			;
		len += snprintf(buf + len, len < cap ? cap - len : 0, "%s%u", len ? "," : "", i);
		if (j - 1 > i)
			len += snprintf(buf + len, len < cap ? cap - len : 0, "-%u", j - 1);
		if (len >= cap) {
			buf[0] = '\0';	/* too long to say: no CPU is awaited */
			return;
		}
	}
}

static void make_meta(struct ftrace_translate *td)
{
	const char *uname = tracecmd_get_uname(td->handle);
	struct meta *m = &td->meta;
	uint8_t *switched = calloc(td->nr_cpus, 1);
	char word[5][128];
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->abi_major = KTP_ABI_MAJOR;
	m->abi_minor = KTP_ABI_MINOR;
	snprintf(m->version, sizeof(m->version), "trace-cmd trace.dat");
	/* "Linux HOST RELEASE #VERSION MACHINE"; only the release matters. */
	if (uname && sscanf(uname, "%127s %127s %127s", word[0], word[1], word[2]) == 3)
		snprintf(m->kernel, sizeof(m->kernel), "%s", word[2]);
	if (uname) {
		const char *sp = strrchr(uname, ' ');

		snprintf(m->machine, sizeof(m->machine), "%s", sp ? sp + 1 : "");
	}
	m->nr_cpus = td->nr_cpus;
	snprintf(m->state, sizeof(m->state), "stopped");
	m->have_session = 1;
	m->session_id = 0x5e5510;	/* the stream writer's */
	m->clock_boot = td->first_ts;
	m->subbuf_size = TD_SUBBUF;
	if (td->ev[TD_SWITCH].ev)
		m->events |= KTP_EV_SCHED;
	if (td->ev[TD_IRQ_ENTRY].ev || td->nr_vector_events)
		m->events |= KTP_EV_IRQ;
	if (td->ev[TD_SOFTIRQ_ENTRY].ev)
		m->events |= KTP_EV_SOFTIRQ;
	if (td->ev[TD_IPI_CPU].ev || td->ev[TD_IPI_MASK].ev || td->ev[TD_IPI_RAISE].ev)
		m->events |= KTP_EV_IPI;
	if (td->ev[TD_WQ_START].ev)
		m->events |= KTP_EV_WQ;
	if (td->ev[TD_IDLE].ev || td->ev[TD_FREQ].ev)
		m->events |= KTP_EV_POWER;
	if (td->ev[TD_WAKEUP].ev)
		m->events |= KTP_EV_WAKEUP;
	/*
	 * The CPUs that switched: each is unknown until its first switch
	 * (awaited). A CPU that never switched ran one task throughout, which
	 * no wakeup or runqueue wait of another could have involved: its time
	 * is left out, and it holds up no latency.
	 */
	if (switched) {
		for (i = 0; i < td->nr_streams; i++)
			switched[td->stream_cpus[i]] = td->cpus[td->stream_cpus[i]].switches > 0;
		cpu_list(switched, td->nr_cpus, m->cpus, sizeof(m->cpus));
		snprintf(m->cpus_online, sizeof(m->cpus_online), "%s", m->cpus);
		free(switched);
	}
}

static int finish(struct ftrace_translate *td)
{
	unsigned int cpu;
	int ret;

	td->stream_cpus = calloc(td->nr_cpus, sizeof(*td->stream_cpus));
	if (!td->stream_cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < td->nr_cpus; cpu++) {
		struct td_cpu *c = &td->cpus[cpu];

		if (!c->used)
			continue;
		/* Tracing stopped on every CPU at once: at the last event. */
		ret = stream_writer_cpu_mark(&c->w, td->last_ts, KTP_CPU_STOP, 0);
		if (ret)
			return ret;
		td->stream_cpus[td->nr_streams++] = cpu;
	}
	return 0;
}

struct ftrace_translate *ftrace_translate_open(const char *path, struct error *err)
{
	struct ftrace_translate *td;
	int fd, tfd, ret;

	td = calloc(1, sizeof(*td));
	if (!td) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	trace_seq_init(&td->seq);
	u64_map_init(&td->kind_by_id);
	u64_map_init(&td->task_by_pid);
	u64_map_init(&td->irq_names);
	u64_map_init(&td->funcs);
	/* libtracecmd and libtraceevent print nothing: errors are ours to say. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	fd = infile_open(AT_FDCWD, path, 0);
	tfd = fd < 0 ? fd : dup(fd);
	if (fd >= 0)
		close(fd);
	if (tfd < 0) {
		error_set(err, tfd == -1 ? -errno : tfd, "%s: %s", path,
			  error_str(tfd == -1 ? -errno : tfd));
		goto fail;
	}
	/* libtracecmd owns the descriptor from here (and closes it on failure). */
	td->handle = tracecmd_open_fd(tfd, TRACECMD_FL_LOAD_NO_PLUGINS |
				      TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!td->handle) {
		error_set(err, -ERROR_DAMAGED,
			  "%s: libtracecmd cannot read this trace.dat (truncated or damaged?)", path);
		goto fail;
	}
	td->tep = tracecmd_get_tep(td->handle);
	ret = td->tep ? tep_get_cpus(td->tep) : 0;
	if (ret <= 0 || (unsigned int)ret > KTPC_MAX_CPUS) {
		error_set(err, -ERROR_DAMAGED, "%s: the trace claims %d CPUs; ktprof reads 1 to %u",
			  path, ret, KTPC_MAX_CPUS);
		goto fail;
	}
	td->nr_cpus = ret;
	td->cpus = calloc(td->nr_cpus, sizeof(*td->cpus));
	if (!td->cpus || take_events(td)) {
		error_set(err, -ENOMEM, NULL);
		goto fail;
	}
	if (!td->ev[TD_SWITCH].ev) {
		error_set(err, -ERROR_FORMAT,
			  "%s: no sched:sched_switch in this trace (trace-cmd record -e sched)", path);
		goto fail;
	}
	ret = tracecmd_iterate_events(td->handle, NULL, 0, on_record, td);
	if (td->ret || ret < 0) {
		ret = td->ret ? td->ret : -ERROR_DAMAGED;
		error_set(err, ret, "%s: %s", path, ret == -ERROR_DAMAGED ?
			  "libtracecmd cannot read its events (damaged?)" : error_str(ret));
		goto fail;
	}
	ret = finish(td);
	if (!ret && !td->ev[TD_SWITCH].n) {
		error_set(err, -ERROR_FORMAT, "%s: no sched_switch events in this trace", path);
		goto fail;
	}
	if (!ret) {
		make_meta(td);
		ret = make_kallsyms(td);
	}
	if (!ret)
		ret = make_lacks(td);
	if (ret) {
		error_set(err, ret, NULL);
		goto fail;
	}
	return td;
fail:
	ftrace_translate_close(td);
	return NULL;
}

void ftrace_translate_close(struct ftrace_translate *td)
{
	uint64_t key;
	size_t i = 0;
	void *val;
	unsigned int cpu;

	if (!td)
		return;
	if (td->handle)
		tracecmd_close(td->handle);
	for (cpu = 0; td->cpus && cpu < td->nr_cpus; cpu++)
		if (td->cpus[cpu].used)
			stream_writer_fini(&td->cpus[cpu].w);
	while (u64_map_next(&td->irq_names, &i, &key, &val))
		free(val);
	u64_map_fini(&td->irq_names);
	u64_map_fini(&td->kind_by_id);
	u64_map_fini(&td->task_by_pid);
	u64_map_fini(&td->funcs);
	trace_seq_destroy(&td->seq);
	free(td->cpus);
	free(td->tasks);
	free(td->kallsyms);
	free(td->lacks);
	free(td->stream_cpus);
	free(td);
}

const struct meta *ftrace_translate_meta(const struct ftrace_translate *td)
{
	return &td->meta;
}

uint64_t ftrace_translate_stop_ns(const struct ftrace_translate *td)
{
	return td->last_ts;
}

unsigned int ftrace_translate_nr_streams(const struct ftrace_translate *td)
{
	return td->nr_streams;
}

void ftrace_translate_stream(const struct ftrace_translate *td, unsigned int i, uint32_t *cpu,
		     const uint8_t **buf, size_t *len)
{
	const struct stream_writer *w = &td->cpus[td->stream_cpus[i]].w;

	*cpu = td->stream_cpus[i];
	*buf = w->buf;
	*len = w->len;
}

const char *ftrace_translate_kallsyms(const struct ftrace_translate *td)
{
	return td->kallsyms;
}

const char *ftrace_translate_lacks(const struct ftrace_translate *td)
{
	return td->lacks ? td->lacks : "";
}
