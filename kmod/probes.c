// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint probes: scheduler, irq (with x86's system vectors), softirq,
 * IPI and workqueue events.
 *
 * The scheduler's tracepoints are not exported to modules, so they are
 * found by name with for_each_kernel_tracepoint() and attached with
 * tracepoint_probe_register(). Each probe is checked at compile time
 * against the kernel's own prototype (check_trace_callback_type_*), so a
 * changed tracepoint fails the build instead of corrupting the stack.
 *
 * Probes run in the scheduler (rq lock held, IRQs off), in hardirq and in
 * RCU callbacks: they never sleep, allocate, print or wake anyone up. They
 * copy fixed-width fields into a reserved record and nothing more.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/cgroup.h>
#include <linux/interrupt.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include <trace/events/cgroup.h>
#include <trace/events/irq.h>
#include <trace/events/ipi.h>
#include <trace/events/power.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>
#include <trace/events/workqueue.h>

#include "compat.h"
#include "ktprof.h"

#if KTP_HAVE_IRQ_VECTORS
#include <asm/trace/irq_vectors.h>
#endif

/*
 * The index of prev_state's task-report form, as the kernel's sched_switch
 * event has it: 0 running, i for 1 << (i - 1), TASK_REPORT_MAX's when
 * preempted.
 */
static unsigned int ktp_report_index(bool preempt, unsigned int prev_state,
				     struct task_struct *prev)
{
	if (preempt)
		return ilog2(TASK_REPORT_MAX) + 1;
	return __task_state_index(prev_state, prev->exit_state);
}

/* The task-report form of prev_state (KTP_STATE_*). */
static u16 ktp_report_state(bool preempt, unsigned int prev_state,
			    struct task_struct *prev)
{
	unsigned int idx = ktp_report_index(preempt, prev_state, prev);

	return idx ? 1 << (idx - 1) : 0;
}

/* The fields of every switch record. */
static __always_inline void ktp_fill_switch(struct ktp_switch *r, bool preempt,
					    struct task_struct *prev,
					    struct task_struct *next,
					    unsigned int prev_state)
{
	r->prev_pid = prev->pid;
	r->next_pid = next->pid;
	r->prev_state = ktp_report_state(preempt, prev_state, prev);
	r->prev_prio = ktp_prio(prev->prio);
	r->next_prio = ktp_prio(next->prio);
}

/*
 * With the scx group on a sched_ext kernel, task->scx of the switch's
 * tasks on the ext class, after its record (one flag read otherwise).
 */
static __always_inline void ktp_scx_switch(struct task_struct *prev,
					   struct task_struct *next)
{
	if (unlikely(READ_ONCE(ktp_scx_on))) {
		ktp_scx_task(prev, KTP_SCX_AT_SWITCH_OUT);
		ktp_scx_task(next, KTP_SCX_AT_SWITCH_IN);
	}
}

/* Whether -S offcpu wants the stack of @prev, which leaves its CPU. */
static __always_inline bool ktp_offcpu_leaving(bool preempt,
					       struct task_struct *prev,
					       unsigned int prev_state)
{
	return (READ_ONCE(ktp_stacks_on) & KTP_STACKS_OFFCPU) && !preempt &&
	       ktp_report_state(false, prev_state, prev);
}

/*
 * With --pmu counters, the outgoing task's counts for the slice that ends;
 * with -S offcpu (@offcpu: ktp_offcpu_leaving(), as the caller found it),
 * the stack a task leaves asleep in, after them.
 */
static noinline void ktp_write_switch_tail(bool preempt,
					   struct task_struct *prev,
					   struct task_struct *next,
					   unsigned int prev_state, bool offcpu)
{
	u64 deltas[KTP_MAX_COUNTERS];
	unsigned int n = 0, size;
	struct ktp_switch *r;
	struct ktp_wr w;
	u32 stack = 0;

	if (ktp_counters_on())
		n = ktp_counters_read(deltas);
	if (offcpu && ktp_task_wanted(&ktp_session.cfg, prev))
		stack = ktp_stack_here();
	size = sizeof(*r) + n * sizeof(u64) + (stack ? sizeof(u32) : 0);
	r = ktp_reserve(&w, KTP_REC_SWITCH, n | (stack ? KTP_SWITCH_STACK : 0),
			size);
	if (!r)
		return;
	memcpy(r + 1, deltas, n * sizeof(u64));
	if (stack)
		memcpy((u8 *)(r + 1) + n * sizeof(u64), &stack, sizeof(stack));
	ktp_fill_switch(r, preempt, prev, next, prev_state);
	ktp_commit(&w);
	ktp_scx_switch(prev, next);
}

/*
 * A switch without counters or stack: a short record, 12 bytes against
 * struct ktp_switch's 20. Every pid fits its 22 bits (pids are below
 * PID_MAX_LIMIT).
 */
static __always_inline void ktp_write_switch_short(bool preempt,
						   struct task_struct *prev,
						   struct task_struct *next,
						   unsigned int prev_state)
{
	struct ktp_switch_short *r;
	struct ktp_wr w;

	BUILD_BUG_ON(PID_MAX_LIMIT > 1 << KTP_SSW_PID_BITS);
	BUILD_BUG_ON(ilog2(TASK_REPORT_MAX) + 1 > KTP_SSW_STATE_MAX);
	r = ktp_reserve_short(&w, KTP_SREC_SWITCH, KTP_REC_SWITCH, sizeof(*r));
	if (!r) {
		/* Nested in our write path or in NMI: no switch is. */
		WARN_ON_ONCE(w.not_short);
		return;
	}
	r->bits = (u64)prev->pid |
		  (u64)next->pid << KTP_SSW_NEXT_PID_SHIFT |
		  (u64)ktp_prio(prev->prio) << KTP_SSW_PREV_PRIO_SHIFT |
		  (u64)ktp_prio(next->prio) << KTP_SSW_NEXT_PRIO_SHIFT |
		  (u64)ktp_report_index(preempt, prev_state, prev) <<
			KTP_SSW_STATE_SHIFT;
	ktp_commit(&w);
	ktp_scx_switch(prev, next);
}

static void ktp_probe_switch(void *data, bool preempt,
			     struct task_struct *prev, struct task_struct *next,
			     unsigned int prev_state)
{
	bool offcpu;

	ktp_task_seen(prev);
	ktp_task_seen(next);
	/*
	 * Counters and a stack are the exception: without them the record
	 * is a short one of fixed size, and no counts array or copy (40 of
	 * 340 instructions). A task that stays runnable takes no stack, so
	 * with -S offcpu its switch keeps this path (it cost 101
	 * instructions more through the tail).
	 */
	offcpu = ktp_offcpu_leaving(preempt, prev, prev_state);
	if (unlikely(ktp_counters_on() || offcpu)) {
		ktp_write_switch_tail(preempt, prev, next, prev_state, offcpu);
		return;
	}
	ktp_write_switch_short(preempt, prev, next, prev_state);
}

/*
 * With -S waker, the waker's stack, when the woken task or the waker is
 * one the sample filter keeps.
 */
static u32 ktp_waker_stack(struct task_struct *p)
{
	const struct ktp_config *cfg = &ktp_session.cfg;

	if (likely(!(READ_ONCE(ktp_stacks_on) & KTP_STACKS_WAKER)))
		return 0;
	if (!ktp_task_wanted(cfg, p) && !ktp_task_wanted(cfg, current))
		return 0;
	return ktp_stack_here();
}

/*
 * A waking without a stack: a short record, 12 bytes against struct
 * ktp_waking's 16. False where short records cannot go (inside our write
 * path, in NMI), for the full record.
 */
static bool ktp_write_waking_short(struct task_struct *p, unsigned int flags)
{
	struct ktp_waking_short *r;
	struct ktp_wr w;

	BUILD_BUG_ON(CONFIG_NR_CPUS > 1 << KTP_SWK_CPU_BITS);
	r = ktp_reserve_short(&w, KTP_SREC_WAKING, KTP_REC_WAKING, sizeof(*r));
	if (!r)
		return !w.not_short;
	r->bits = (u64)p->pid | (u64)task_cpu(p) << KTP_SWK_CPU_SHIFT |
		  (u64)ktp_prio(p->prio) << KTP_SWK_PRIO_SHIFT |
		  (u64)!!(flags & KTP_WAKING_NEW) << KTP_SWK_NEW_BIT;
	ktp_commit(&w);
	return true;
}

static void ktp_write_waking(struct task_struct *p, unsigned int flags)
{
	struct ktp_waking *r;
	struct ktp_wr w;
	u32 stack;

	ktp_task_seen(p);
	stack = ktp_waker_stack(p);
	if (!stack && ktp_write_waking_short(p, flags)) {
		if (unlikely(READ_ONCE(ktp_scx_on)))
			ktp_scx_task(p, KTP_SCX_AT_WAKING);
		return;
	}
	if (stack)
		flags |= KTP_WAKING_STACK;
	r = ktp_reserve(&w, KTP_REC_WAKING, flags,
			sizeof(*r) + (stack ? sizeof(u32) : 0));
	if (!r)
		return;
	r->pid = p->pid;
	r->target_cpu = task_cpu(p);
	r->prio = ktp_prio(p->prio);
	r->pad = 0;
	if (stack)
		memcpy(r + 1, &stack, sizeof(stack));
	ktp_commit(&w);
	if (unlikely(READ_ONCE(ktp_scx_on)))
		ktp_scx_task(p, KTP_SCX_AT_WAKING);
}

static void ktp_probe_waking(void *data, struct task_struct *p)
{
	ktp_write_waking(p, 0);
}

static void ktp_probe_wakeup(void *data, struct task_struct *p)
{
	struct ktp_wakeup *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_WAKEUP, 0, sizeof(*r));
	if (!r)
		return;
	r->pid = p->pid;
	r->target_cpu = task_cpu(p);
	ktp_commit(&w);
}

static void ktp_probe_wakeup_new(void *data, struct task_struct *p)
{
	ktp_write_waking(p, KTP_WAKING_NEW);
}

static void ktp_probe_migrate(void *data, struct task_struct *p, int dest_cpu)
{
	struct ktp_migrate *r;
	struct ktp_wr w;

	ktp_task_seen(p);
	r = ktp_reserve(&w, KTP_REC_MIGRATE, 0, sizeof(*r));
	if (!r)
		return;
	r->pid = p->pid;
	r->orig_cpu = task_cpu(p);
	r->dest_cpu = dest_cpu;
	ktp_commit(&w);
}

#ifdef CONFIG_CGROUPS
/*
 * A move to another cgroup: of the default hierarchy only (v1 hierarchies
 * fire it too). A thread group moves at once, named by its leader.
 */
static void ktp_probe_cgroup_attach(void *data, struct cgroup *dst_cgrp, const char *path,
				    struct task_struct *task, bool threadgroup)
{
	if (dst_cgrp->root != &cgrp_dfl_root)
		return;
	ktp_write_cgroup(task, dst_cgrp, KTP_CGROUP_ATTACH |
			 (threadgroup ? KTP_CGROUP_THREADGROUP : 0));
}
#endif

static void ktp_probe_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	struct ktp_fork *r;
	struct ktp_wr w;
	bool thread = child->tgid != child->pid;

	/* Always: the child may reuse the pid of a task not yet freed. */
	ktp_emit_task(child, NULL, KTP_TASK_FORK);
	r = ktp_reserve(&w, KTP_REC_FORK, thread ? KTP_FORK_THREAD : 0,
			sizeof(*r));
	if (!r)
		return;
	r->parent_pid = parent->pid;
	r->child_pid = child->pid;
	r->child_tgid = child->tgid;
	ktp_commit(&w);
}

static void ktp_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	const char *name = bprm->filename ? bprm->filename : "";
	size_t len = strnlen(name, KTP_EXEC_NAME_MAX - 1);
	size_t size = ALIGN(sizeof(struct ktp_exec) + len + 1, 4);
	struct ktp_exec *r;
	struct ktp_wr w;

	/* The exec'ing thread may have taken over the leader's pid. */
	ktp_emit_task(p, NULL, KTP_TASK_EXEC);
	r = ktp_reserve(&w, KTP_REC_EXEC, 0, size);
	if (!r)
		return;
	r->pid = p->pid;
	r->old_pid = old_pid;
	memcpy(r->filename, name, len);
	memset(r->filename + len, 0, size - sizeof(*r) - len);
	ktp_commit(&w);
}

static void ktp_probe_exit(void *data, KTP_EXIT_PROTO)
{
	struct ktp_exit *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_EXIT, 0, sizeof(*r));
	if (!r)
		return;
	r->pid = p->pid;
	r->tgid = p->tgid;
	r->exit_code = p->exit_code;
	ktp_commit(&w);
}

static void ktp_probe_free(void *data, struct task_struct *p)
{
	struct ktp_free *r;
	struct ktp_wr w;

	ktp_forget_pid(p->pid);
	r = ktp_reserve(&w, KTP_REC_FREE, 0, sizeof(*r));
	if (!r)
		return;
	r->pid = p->pid;
	ktp_commit(&w);
}

static void ktp_probe_rename(void *data, struct task_struct *task,
			     const char *comm)
{
	ktp_emit_task(task, comm, KTP_TASK_RENAME);
}

static void ktp_write_irq_name(int irq, const char *name)
{
	size_t len = strnlen(name, KTP_IRQ_NAME_MAX - 1);
	size_t size = ALIGN(sizeof(struct ktp_irq_name) + len + 1, 4);
	struct ktp_irq_name *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_IRQ_NAME, 0, size);
	if (!r)
		return;
	r->irq = irq;
	memcpy(r->name, name, len);
	memset(r->name + len, 0, size - sizeof(*r) - len);
	ktp_commit(&w);
}

static void ktp_write_irq(unsigned int type, int irq, int ret)
{
	struct ktp_irq *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, type, 0, sizeof(*r));
	if (!r)
		return;
	r->irq = irq;
	r->ret = ret;
	ktp_commit(&w);
}

static void ktp_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	struct ktp_session *s = &ktp_session;

	/* The name goes out once per irq; irqs beyond the bitmap every time. */
	if (this_cpu_read(ktp_cpus.active) && irq >= 0 &&
	    (irq >= s->nr_seen_irqs || !test_and_set_bit(irq, s->seen_irqs)))
		ktp_write_irq_name(irq, action && action->name ?
				   action->name : "");
	ktp_write_irq(KTP_REC_IRQ_ENTRY, irq, 0);
}

static void ktp_probe_irq_exit(void *data, int irq, struct irqaction *action,
			       int ret)
{
	ktp_write_irq(KTP_REC_IRQ_EXIT, irq, ret);
}

#if KTP_HAVE_IRQ_VECTORS
/*
 * x86 system vectors (local APIC timer, IPIs, irq_work, ...): hardirqs that
 * bypass irq_handler_entry. One pair of probes serves them all; @data is the
 * vector's name from the probe table. They run in hardirq with IRQs off,
 * as irq_handler_entry does, and write through the same path: a write keeps
 * IRQs off from reserve to commit, so a vector that arrives meanwhile (the
 * timer during a switch record, or the irq_work of relay's reader wakeup)
 * runs after the commit and writes its records then.
 */
static void ktp_probe_vector_entry(void *data, int vector)
{
	struct ktp_session *s = &ktp_session;
	unsigned int v = vector;

	if (unlikely(v >= KTP_IRQ_NR_VECTORS))
		return;		/* x86 has 256 vectors */
	if (this_cpu_read(ktp_cpus.active) &&
	    !test_and_set_bit(v, s->seen_vectors))
		ktp_write_irq_name(KTP_IRQ_VECTOR_BASE + v, data);
	ktp_write_irq(KTP_REC_IRQ_ENTRY, KTP_IRQ_VECTOR_BASE + v, 0);
}

static void ktp_probe_vector_exit(void *data, int vector)
{
	unsigned int v = vector;

	if (likely(v < KTP_IRQ_NR_VECTORS))
		ktp_write_irq(KTP_REC_IRQ_EXIT, KTP_IRQ_VECTOR_BASE + v, 0);
}
#endif

static void ktp_write_softirq(unsigned int type, unsigned int vec)
{
	struct ktp_softirq *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, type, 0, sizeof(*r));
	if (!r)
		return;
	r->vec = vec;
	ktp_commit(&w);
}

static void ktp_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	ktp_write_softirq(KTP_REC_SOFTIRQ_ENTRY, vec_nr);
}

static void ktp_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	ktp_write_softirq(KTP_REC_SOFTIRQ_EXIT, vec_nr);
}

#if KTP_HAVE_IPI_SEND
static void ktp_probe_ipi_cpu(void *data, const unsigned int cpu,
			      unsigned long callsite, void *callback)
{
	struct ktp_ipi *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_IPI_SEND, 0, sizeof(*r));
	if (!r)
		return;
	r->callback = (unsigned long)callback;
	r->cpu = cpu;
	ktp_commit(&w);
}

static void ktp_probe_ipi_mask(void *data, const struct cpumask *mask,
			       unsigned long callsite, void *callback)
{
	unsigned int words = DIV_ROUND_UP(nr_cpu_ids, 64);
	struct ktp_ipi *r;
	struct ktp_wr w;
	u64 *bits;
	int cpu;

	words = min(words, 255U);
	r = ktp_reserve(&w, KTP_REC_IPI_SEND, words,
			sizeof(*r) + words * sizeof(u64));
	if (!r)
		return;
	r->callback = (unsigned long)callback;
	r->cpu = cpumask_first(mask);
	bits = (u64 *)(r + 1);
	memset(bits, 0, words * sizeof(u64));
	for_each_cpu(cpu, mask)
		if (cpu < words * 64)
			bits[cpu / 64] |= 1ULL << (cpu % 64);
	ktp_commit(&w);
}
#endif

/*
 * power:cpu_idle runs on the CPU going idle or leaving it, in its idle
 * loop (RCU watching, IRQs off); its @cpu_id is that CPU.
 */
static void ktp_probe_idle(void *data, unsigned int state, unsigned int cpu_id)
{
	struct ktp_idle *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_IDLE, 0, sizeof(*r));
	if (!r)
		return;
	r->state = state;
	ktp_commit(&w);
}

static void ktp_probe_freq(void *data, unsigned int khz, unsigned int cpu_id)
{
	struct ktp_freq *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_FREQ, 0, sizeof(*r));
	if (!r)
		return;
	r->khz = khz;
	r->cpu = cpu_id;
	ktp_commit(&w);
}

static void ktp_write_wq(unsigned int type, struct work_struct *work,
			 work_func_t function)
{
	struct ktp_wq *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, type, 0, sizeof(*r));
	if (!r)
		return;
	r->function = (unsigned long)function;
	r->work = (unsigned long)work;
	ktp_commit(&w);
}

static void ktp_probe_wq_start(void *data, struct work_struct *work)
{
	ktp_write_wq(KTP_REC_WQ_START, work, READ_ONCE(work->func));
}

static void ktp_probe_wq_end(void *data, struct work_struct *work,
			     work_func_t function)
{
	ktp_write_wq(KTP_REC_WQ_END, work, function);
}

/*
 * Compile-time prototype checks: the kernel's check_trace_callback_type_*
 * helpers take a pointer of exactly the probe type the tracepoint calls.
 */
static void __maybe_unused ktp_check_probe_types(void)
{
	check_trace_callback_type_sched_switch(ktp_probe_switch);
	check_trace_callback_type_sched_waking(ktp_probe_waking);
	check_trace_callback_type_sched_wakeup_new(ktp_probe_wakeup_new);
	check_trace_callback_type_sched_wakeup(ktp_probe_wakeup);
	check_trace_callback_type_sched_migrate_task(ktp_probe_migrate);
	check_trace_callback_type_sched_process_fork(ktp_probe_fork);
	check_trace_callback_type_sched_process_exec(ktp_probe_exec);
	check_trace_callback_type_sched_process_exit(ktp_probe_exit);
	check_trace_callback_type_sched_process_free(ktp_probe_free);
	check_trace_callback_type_task_rename(ktp_probe_rename);
#ifdef CONFIG_CGROUPS
	check_trace_callback_type_cgroup_attach_task(ktp_probe_cgroup_attach);
#endif
	check_trace_callback_type_irq_handler_entry(ktp_probe_irq_entry);
	check_trace_callback_type_irq_handler_exit(ktp_probe_irq_exit);
#if KTP_HAVE_IRQ_VECTORS
	/* One event class (x86_irq_vector) for every vector in the table. */
	check_trace_callback_type_local_timer_entry(ktp_probe_vector_entry);
	check_trace_callback_type_local_timer_exit(ktp_probe_vector_exit);
#endif
	check_trace_callback_type_softirq_entry(ktp_probe_softirq_entry);
	check_trace_callback_type_softirq_exit(ktp_probe_softirq_exit);
#if KTP_HAVE_IPI_SEND
	check_trace_callback_type_ipi_send_cpu(ktp_probe_ipi_cpu);
	check_trace_callback_type_ipi_send_cpumask(ktp_probe_ipi_mask);
#endif
	check_trace_callback_type_workqueue_execute_start(ktp_probe_wq_start);
	check_trace_callback_type_workqueue_execute_end(ktp_probe_wq_end);
	check_trace_callback_type_cpu_idle(ktp_probe_idle);
	check_trace_callback_type_cpu_frequency(ktp_probe_freq);
}

struct ktp_probe {
	const char *name;
	void *probe;
	u32 group;
	void *data;		/* the probe's first argument */
	bool optional;		/* absent, its group is still available */
	struct tracepoint *tp;	/* found at load time; NULL if absent */
	bool registered;
};

static struct ktp_probe ktp_probes[] = {
	{ "sched_switch", ktp_probe_switch, KTP_EV_SCHED },
	{ "sched_waking", ktp_probe_waking, KTP_EV_SCHED },
	{ "sched_wakeup_new", ktp_probe_wakeup_new, KTP_EV_SCHED },
	{ "sched_migrate_task", ktp_probe_migrate, KTP_EV_SCHED },
	{ "sched_process_fork", ktp_probe_fork, KTP_EV_SCHED },
#ifdef CONFIG_CGROUPS
	{ "cgroup_attach_task", ktp_probe_cgroup_attach, KTP_EV_SCHED, NULL, true },
#endif
	{ "sched_process_exec", ktp_probe_exec, KTP_EV_SCHED },
	{ "sched_process_exit", ktp_probe_exit, KTP_EV_SCHED },
	{ "sched_process_free", ktp_probe_free, KTP_EV_SCHED },
	{ "task_rename", ktp_probe_rename, KTP_EV_SCHED },
	{ "irq_handler_entry", ktp_probe_irq_entry, KTP_EV_IRQ },
	{ "irq_handler_exit", ktp_probe_irq_exit, KTP_EV_IRQ },
#if KTP_HAVE_IRQ_VECTORS
	/*
	 * x86 system vectors, named for the IRQ_NAME record. Some depend on
	 * the kernel's configuration (SMP, IRQ_WORK, MCE, thermal): those
	 * this kernel lacks are left out.
	 */
	{ "local_timer_entry", ktp_probe_vector_entry, KTP_EV_IRQ, "timer", true },
	{ "local_timer_exit", ktp_probe_vector_exit, KTP_EV_IRQ, "timer", true },
	{ "reschedule_entry", ktp_probe_vector_entry, KTP_EV_IRQ, "reschedule", true },
	{ "reschedule_exit", ktp_probe_vector_exit, KTP_EV_IRQ, "reschedule", true },
	{ "call_function_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "call_function", true },
	{ "call_function_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "call_function", true },
	{ "call_function_single_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "call_function_single", true },
	{ "call_function_single_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "call_function_single", true },
	{ "irq_work_entry", ktp_probe_vector_entry, KTP_EV_IRQ, "irq_work", true },
	{ "irq_work_exit", ktp_probe_vector_exit, KTP_EV_IRQ, "irq_work", true },
	{ "x86_platform_ipi_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "platform_ipi", true },
	{ "x86_platform_ipi_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "platform_ipi", true },
	{ "error_apic_entry", ktp_probe_vector_entry, KTP_EV_IRQ, "error_apic", true },
	{ "error_apic_exit", ktp_probe_vector_exit, KTP_EV_IRQ, "error_apic", true },
	{ "spurious_apic_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "spurious_apic", true },
	{ "spurious_apic_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "spurious_apic", true },
	{ "thermal_apic_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "thermal_apic", true },
	{ "thermal_apic_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "thermal_apic", true },
	{ "threshold_apic_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "threshold_apic", true },
	{ "threshold_apic_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "threshold_apic", true },
	{ "deferred_error_apic_entry", ktp_probe_vector_entry, KTP_EV_IRQ,
	  "deferred_error_apic", true },
	{ "deferred_error_apic_exit", ktp_probe_vector_exit, KTP_EV_IRQ,
	  "deferred_error_apic", true },
#endif
	{ "softirq_entry", ktp_probe_softirq_entry, KTP_EV_SOFTIRQ },
	{ "softirq_exit", ktp_probe_softirq_exit, KTP_EV_SOFTIRQ },
#if KTP_HAVE_IPI_SEND
	{ "ipi_send_cpu", ktp_probe_ipi_cpu, KTP_EV_IPI },
	{ "ipi_send_cpumask", ktp_probe_ipi_mask, KTP_EV_IPI },
#endif
	{ "workqueue_execute_start", ktp_probe_wq_start, KTP_EV_WQ },
	{ "workqueue_execute_end", ktp_probe_wq_end, KTP_EV_WQ },
	{ "sched_wakeup", ktp_probe_wakeup, KTP_EV_WAKEUP },
	{ "cpu_idle", ktp_probe_idle, KTP_EV_POWER },
	{ "cpu_frequency", ktp_probe_freq, KTP_EV_POWER },
#if KTP_HAVE_SCX
	/* The group is there when the kernel has sched_ext (scx.c). */
	{ "sched_ext_dump", ktp_probe_scx_dump, KTP_EV_SCX },
#if KTP_HAVE_SCX_EXIT_TP
	{ "sched_ext_exit", ktp_probe_scx_exit, KTP_EV_SCX, NULL, true },
#endif
#if KTP_HAVE_SCX_EVENT_TP
	{ "sched_ext_event", ktp_probe_scx_event, KTP_EV_SCX, NULL, true },
#endif
#endif
};

static const char * const ktp_group_names[] = {
	"sched", "irq", "softirq", "ipi", "wq", "scx", "power", "wakeup",
};

const char *ktp_event_group_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(ktp_group_names) ? ktp_group_names[bit] : NULL;
}

static void ktp_find_tracepoint(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ktp_probes); i++)
		if (!strcmp(tp->name, ktp_probes[i].name))
			ktp_probes[i].tp = tp;
}

int ktp_probes_init(void)
{
	for_each_kernel_tracepoint(ktp_find_tracepoint, NULL);
	return 0;
}

/*
 * Groups with a tracepoint this kernel lacks (IPI before v6.3); an optional
 * one (a system vector the configuration leaves out) does not count.
 */
u32 ktp_events_unavailable(void)
{
	u32 unavailable = 0, present = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ktp_probes); i++) {
		if (ktp_probes[i].tp)
			present |= ktp_probes[i].group;
		else if (!ktp_probes[i].optional)
			unavailable |= ktp_probes[i].group;
	}
	return (unavailable | (KTP_EV_ALL & ~present)) & KTP_EV_ALL;
}

void ktp_probes_unregister(void)
{
	size_t i = ARRAY_SIZE(ktp_probes);

	ktp_scx_unregister();
	while (i--) {
		struct ktp_probe *p = &ktp_probes[i];

		if (!p->registered)
			continue;
		WARN_ON_ONCE(tracepoint_probe_unregister(p->tp, p->probe,
							 p->data));
		p->registered = false;
	}
	/* No probe is running, or will run, once this returns. */
	tracepoint_synchronize_unregister();
}

/* Attach the probes of @events (available groups only); all or nothing. */
int ktp_probes_register(u32 events)
{
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ktp_probes); i++) {
		struct ktp_probe *p = &ktp_probes[i];

		if (!(p->group & events) || !p->tp)
			continue;
		ret = tracepoint_probe_register(p->tp, p->probe, p->data);
		if (ret) {
			pr_err("cannot attach to tracepoint %s: %d\n", p->name,
			       ret);
			ktp_probes_unregister();
			return ret;
		}
		p->registered = true;
	}
	if (events & KTP_EV_SCX & ~ktp_events_unavailable())
		ktp_scx_register();
	return 0;
}
