// SPDX-License-Identifier: GPL-2.0
/*
 * sched_ext seen from outside BPF: what the kernel knows of a BPF
 * scheduler's decisions, with no BPF program beside the one under test.
 *
 * - task->scx of a task on the ext class at each switch (both tasks) and
 *   waking: its slice left, weight, vtime and flags (ktp_scx_task(),
 *   called by the scheduler probes when ktp_scx_on);
 * - each insert into and removal from a dispatch queue, by kprobes on the
 *   two functions every path goes through (compat.h names them);
 * - the scheduler's transitions: enabling (a kprobe on the enable work),
 *   bypass on and off (a kprobe on the bypass switch), its exit and its
 *   event counters (tracepoints), and the lines of the debug dump a
 *   failing scheduler leaves (the sched_ext_dump tracepoint: the only
 *   place the kernel puts it, short of the console).
 *
 * Kprobe handlers run where the scheduler calls those functions: rq and
 * DSQ locks held, IRQs off or preemption off. Like the tracepoint probes
 * they copy fixed-width fields into a reserved record and nothing more.
 * A hook whose function this kernel's build inlined or renamed is left
 * out (registration fails); the capture's meta names the hooks attached.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "ktprof.h"

u32 ktp_scx_on __read_mostly;

#if KTP_HAVE_SCX
#include <linux/sched/ext.h>
#include <trace/events/sched_ext.h>

/* Whether @p is on the ext class: its scx state ENABLED, as the kernel's. */
static __always_inline bool ktp_scx_task_on(const struct task_struct *p)
{
	return (READ_ONCE(p->scx.flags) & SCX_TASK_STATE_MASK) ==
	       SCX_TASK_ENABLED;
}

void ktp_scx_task(struct task_struct *p, unsigned int at)
{
	struct ktp_scx_task *r;
	struct ktp_wr w;

	if (!ktp_scx_task_on(p))
		return;
	r = ktp_reserve(&w, KTP_REC_SCX_TASK, at, sizeof(*r));
	if (!r)
		return;
	r->pid = p->pid;
	r->weight = p->scx.weight;
	r->slice = p->scx.slice;
	r->dsq_vtime = p->scx.dsq_vtime;
	r->flags = p->scx.flags;
	r->pad = 0;
	ktp_commit(&w);
}

/* Names a DSQ in a session's records without its kernel address. */
static siphash_key_t ktp_scx_key;

static u32 ktp_scx_dsq_uid(const struct scx_dispatch_q *dsq)
{
	u32 uid = siphash_1u64((u64)(unsigned long)dsq, &ktp_scx_key);

	return uid ? uid : 1;
}

static void ktp_scx_write_dsq(struct scx_dispatch_q *dsq,
			      struct task_struct *p, bool insert,
			      u64 enq_flags)
{
	struct ktp_scx_dsq *r;
	struct ktp_wr w;
	u32 nr;

	if (!dsq || !p)
		return;
	/* At either function's entry the count is the one before. */
	nr = READ_ONCE(dsq->nr);
	r = ktp_reserve(&w, KTP_REC_SCX_DSQ, insert ? KTP_SCX_DSQ_INSERT : 0,
			sizeof(*r));
	if (!r)
		return;
	r->dsq_id = dsq->id;
	r->pid = p->pid;
	r->nr = insert ? nr + 1 : (nr ? nr - 1 : 0);
	r->enq_flags = insert ? enq_flags : 0;
	r->slice = p->scx.slice;
	r->dsq_vtime = p->scx.dsq_vtime;
	r->cpu = task_cpu(p);
	r->dsq_uid = ktp_scx_dsq_uid(dsq);
	ktp_commit(&w);
}

/* KTP_SCX_INSERT_FN(dsq, p, enq_flags) */
static int ktp_scx_insert_pre(struct kprobe *kp, struct pt_regs *regs)
{
	ktp_scx_write_dsq((void *)regs_get_kernel_argument(regs, 0),
			  (void *)regs_get_kernel_argument(regs, 1), true,
			  regs_get_kernel_argument(regs, 2));
	return 0;
}

/* KTP_SCX_REMOVE_FN(p, dsq) */
static int ktp_scx_remove_pre(struct kprobe *kp, struct pt_regs *regs)
{
	ktp_scx_write_dsq((void *)regs_get_kernel_argument(regs, 1),
			  (void *)regs_get_kernel_argument(regs, 0), false, 0);
	return 0;
}

static void ktp_scx_write_op(unsigned int kind, s64 value, const char *name)
{
	size_t len = name ? strnlen(name, KTP_SCX_LINE_MAX - 1) : 0;
	size_t size = ALIGN(sizeof(struct ktp_scx_op) + len + 1, 4);
	struct ktp_scx_op *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_SCX_OP, kind, size);
	if (!r)
		return;
	r->value = value;
	memcpy(r->name, name ? name : "", len);
	memset(r->name + len, 0, size - sizeof(*r) - len);
	ktp_commit(&w);
}

static int ktp_scx_enable_pre(struct kprobe *kp, struct pt_regs *regs)
{
	ktp_scx_write_op(KTP_SCX_OP_ENABLE, 0, NULL);
	return 0;
}

/*
 * Every call: nested ones too (the kernel counts a bypass depth that the
 * entry cannot see), and a sub-scheduler's.
 */
static int ktp_scx_bypass_pre(struct kprobe *kp, struct pt_regs *regs)
{
	ktp_scx_write_op(KTP_SCX_OP_BYPASS,
			 !!(regs_get_kernel_argument(regs, KTP_SCX_BYPASS_ARG) &
			    0xff), NULL);
	return 0;
}

static struct kprobe ktp_scx_kprobes[] = {
	{ .symbol_name = KTP_SCX_INSERT_FN, .pre_handler = ktp_scx_insert_pre },
	{ .symbol_name = KTP_SCX_REMOVE_FN, .pre_handler = ktp_scx_remove_pre },
	{ .symbol_name = KTP_SCX_ENABLE_FN, .pre_handler = ktp_scx_enable_pre },
	{ .symbol_name = KTP_SCX_BYPASS_FN, .pre_handler = ktp_scx_bypass_pre },
};
static bool ktp_scx_kprobe_on[ARRAY_SIZE(ktp_scx_kprobes)];
/* The session's hooks, for its meta until the next start's. */
static bool ktp_scx_attached[ARRAY_SIZE(ktp_scx_kprobes)];

void ktp_probe_scx_dump(void *data, const char *line)
{
	size_t len = strnlen(line, KTP_SCX_LINE_MAX - 1);
	size_t size = ALIGN(sizeof(struct ktp_scx_dump) + len + 1, 4);
	struct ktp_scx_dump *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_SCX_DUMP, 0, size);
	if (!r)
		return;
	memcpy(r->line, line, len);
	memset(r->line + len, 0, size - sizeof(*r) - len);
	ktp_commit(&w);
}

#if KTP_HAVE_SCX_EXIT_TP
void ktp_probe_scx_exit(void *data, struct scx_sched *sch, u32 kind)
{
	ktp_scx_write_op(KTP_SCX_OP_EXIT, kind, NULL);
}
#endif

#if KTP_HAVE_SCX_EVENT_TP
void ktp_probe_scx_event(void *data, const char *name, s64 delta)
{
	ktp_scx_write_op(KTP_SCX_OP_EVENT, delta, name);
}
#endif

static void __maybe_unused ktp_scx_check_probe_types(void)
{
	check_trace_callback_type_sched_ext_dump(ktp_probe_scx_dump);
#if KTP_HAVE_SCX_EXIT_TP
	check_trace_callback_type_sched_ext_exit(ktp_probe_scx_exit);
#endif
#if KTP_HAVE_SCX_EVENT_TP
	check_trace_callback_type_sched_ext_event(ktp_probe_scx_event);
#endif
}

/*
 * Attach the DSQ and transition kprobes; those this kernel lacks are
 * left out. The task state needs no hook of its own: the scheduler
 * probes write it once ktp_scx_on is set.
 */
void ktp_scx_register(void)
{
	size_t i;
	int ret;

	get_random_bytes(&ktp_scx_key, sizeof(ktp_scx_key));
	for (i = 0; i < ARRAY_SIZE(ktp_scx_kprobes); i++) {
		struct kprobe *kp = &ktp_scx_kprobes[i];
		const char *name = kp->symbol_name;
		kprobe_pre_handler_t pre = kp->pre_handler;

		ktp_scx_attached[i] = false;
		ktp_scx_kprobe_on[i] = false;
		/* A hook this kernel's version has no name for (compat.h). */
		if (!name)
			continue;
		/* A kprobe is registered afresh each time: cleared first. */
		memset(kp, 0, sizeof(*kp));
		kp->symbol_name = name;
		kp->pre_handler = pre;
		ret = register_kprobe(kp);
		ktp_scx_kprobe_on[i] = !ret;
		ktp_scx_attached[i] = !ret;
		if (ret)
			pr_info("sched_ext: no kprobe on %s (%d): left out\n",
				name, ret);
	}
	WRITE_ONCE(ktp_scx_on, 1);
}

void ktp_scx_unregister(void)
{
	size_t i;

	WRITE_ONCE(ktp_scx_on, 0);
	for (i = 0; i < ARRAY_SIZE(ktp_scx_kprobes); i++) {
		if (!ktp_scx_kprobe_on[i])
			continue;
		/* Returns once no handler runs. */
		unregister_kprobe(&ktp_scx_kprobes[i]);
		ktp_scx_kprobe_on[i] = false;
	}
}

/* The kprobes attached, comma-separated, into @buf ("" when none). */
void ktp_scx_hooks(char *buf, size_t len)
{
	size_t i, n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(ktp_scx_kprobes) && n < len; i++)
		if (ktp_scx_attached[i])
			n += scnprintf(buf + n, len - n, "%s%s", n ? "," : "",
				       ktp_scx_kprobes[i].symbol_name);
}
#else
void ktp_scx_task(struct task_struct *p, unsigned int at)
{
}

void ktp_scx_register(void)
{
}

void ktp_scx_unregister(void)
{
}

void ktp_scx_hooks(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
}
#endif
