/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences, each behind a named macro with the upstream
 * change that introduced it. The .c files use these and nothing else.
 */
#ifndef KTPROF_COMPAT_H
#define KTPROF_COMPAT_H

#include <linux/irqnr.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/version.h>

/*
 * v6.17 ("workqueue: Add system_percpu_wq and system_dfl_wq"): the system
 * workqueues' new names. 7.x marks the old ones deprecated and warns.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define ktp_percpu_wq system_percpu_wq
#define ktp_unbound_wq system_dfl_wq
#else
#define ktp_percpu_wq system_wq
#define ktp_unbound_wq system_unbound_wq
#endif

/*
 * After v6.1 ("seq_file: add DEFINE_SHOW_STORE_ATTRIBUTE() helper
 * macro"): fops for a seq_file that is shown and written. 6.1 has only
 * DEFINE_SHOW_ATTRIBUTE; this is what the newer macro makes.
 */
#ifndef DEFINE_SHOW_STORE_ATTRIBUTE
#define DEFINE_SHOW_STORE_ATTRIBUTE(__name)				\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _show, inode->i_private);	\
}									\
									\
static const struct file_operations __name ## _fops = {			\
	.owner = THIS_MODULE,						\
	.open = __name ## _open,					\
	.read = seq_read,						\
	.write = __name ## _write,					\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}
#endif

/*
 * v6.3 ("trace: Add trace_ipi_send_cpu()", "trace: Add
 * trace_ipi_send_cpumask()"): IPI send tracepoints for every architecture.
 * Before, only ipi_raise existed, which x86 never fires.
 */
#define KTP_HAVE_IPI_SEND (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0))

/*
 * x86 ("x86, trace: Add irq vector tracepoints", v3.12): the local APIC
 * timer, the IPIs, irq_work and the other system vectors do not pass
 * through irq_handler_entry; each has its own pair of tracepoints
 * (irq_vectors:<name>_entry/_exit, one event class, TP_PROTO(int vector)).
 * Other architectures have none, and their probe table lacks them.
 */
#ifdef CONFIG_X86_LOCAL_APIC
#define KTP_HAVE_IRQ_VECTORS 1
#else
#define KTP_HAVE_IRQ_VECTORS 0
#endif

/*
 * v6.16 ("sched: Add group_dead to sched_process_exit"): the exit
 * tracepoint tells whether the whole thread group died.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define KTP_EXIT_PROTO struct task_struct *p, bool group_dead
#else
#define KTP_EXIT_PROTO struct task_struct *p
#endif

/*
 * v6.17 ("relay: remove unused parameter prev_padding"): subbuf_start lost
 * its last argument.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define KTP_SUBBUF_START_PROTO \
	struct rchan_buf *buf, void *subbuf, void *prev_subbuf
#else
#define KTP_SUBBUF_START_PROTO \
	struct rchan_buf *buf, void *subbuf, void *prev_subbuf, \
	size_t prev_padding
#endif

/*
 * v6.13 ("hrtimers: Introduce hrtimer_setup() to replace hrtimer_init()"):
 * the callback is given with the timer; hrtimer_init() is gone since.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define ktp_hrtimer_setup(t, fn, clock, mode) hrtimer_setup(t, fn, clock, mode)
#else
#define ktp_hrtimer_setup(t, fn, clock, mode)				\
	do {								\
		hrtimer_init(t, clock, mode);				\
		(t)->function = (fn);					\
	} while (0)
#endif

/*
 * v6.13 ("genirq: Introduce irq_get_nr_irqs() and irq_set_nr_irqs()"):
 * the global nr_irqs gave way to an accessor and became private to genirq.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define ktp_nr_irqs() irq_get_nr_irqs()
#else
#define ktp_nr_irqs() ((unsigned int)nr_irqs)
#endif

/*
 * v7.0 ("slab: Introduce kmalloc_obj() and family", also in later 6.12
 * stable releases): typed allocations, which checkpatch asks for. A feature
 * test, since stable kernels have it too; older ones get the same here.
 */
#ifndef kmalloc_obj
#define kmalloc_obj(P, GFP) ({ typeof(P) *__p = kmalloc(sizeof(P), GFP); __p; })
#define kzalloc_obj(P, GFP) ({ typeof(P) *__p = kzalloc(sizeof(P), GFP); __p; })
#endif

/*
 * v6.2 ("netlink: add support for formatted extack messages"): a message
 * is formatted into the extack itself. Before, it must outlive the
 * request: a static copy, which two requests failing at the same moment
 * (parallel ops) may share.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ktp_set_err_msg(extack, msg) NL_SET_ERR_MSG_FMT(extack, "%s", msg)
#else
#define ktp_set_err_msg(extack, msg)					\
	do {								\
		static char __ktp_msg[128];				\
		strscpy(__ktp_msg, msg, sizeof(__ktp_msg));		\
		if (extack)						\
			(extack)->_msg = __ktp_msg;			\
	} while (0)
#endif

/*
 * v6.12 ("sched_ext: Implement BPF extensible scheduler class"): BPF
 * schedulers, the sched_ext_dump tracepoint and task->scx. The DSQ hooks
 * are kprobes on the two functions every insert and every removal passes
 * through, which the kernel does not export: v6.13..v7.x (the kfunc
 * renames, then "sched_ext: Move ... into kernel/sched/ext/") made them
 * dsq_inc_nr(dsq, p, enq_flags) and scx_task_unlink_from_dsq(p, dsq) by 7.0;
 * 6.12 has dispatch_enqueue(dsq, p, enq_flags) and task_unlink_from_dsq(p,
 * dsq), same argument order, the count not yet changed at their entry.
 * The kernels between, whose names this was not checked against, get no
 * kprobes (the capture's scx_hooks says which were attached).
 * The enable work item and scx_bypass() mark transitions the tracepoints
 * do not (sched_ext_exit and sched_ext_event came in v6.15 and v6.14).
 * Only the 7.3 names are tested (Debian's 6.12 has no sched_ext).
 */
#if IS_ENABLED(CONFIG_SCHED_CLASS_EXT) && IS_ENABLED(CONFIG_KPROBES)
#define KTP_HAVE_SCX 1
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define KTP_SCX_INSERT_FN "dsq_inc_nr"
#define KTP_SCX_REMOVE_FN "scx_task_unlink_from_dsq"
#define KTP_SCX_ENABLE_FN "scx_root_enable_workfn"
#define KTP_SCX_BYPASS_FN "scx_bypass"		/* (sch, bypass) */
#define KTP_SCX_BYPASS_ARG 1
#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#define KTP_SCX_INSERT_FN "dispatch_enqueue"
#define KTP_SCX_REMOVE_FN "task_unlink_from_dsq"
#define KTP_SCX_ENABLE_FN "scx_ops_enable_workfn"
#define KTP_SCX_BYPASS_FN "scx_ops_bypass"	/* (bypass) */
#define KTP_SCX_BYPASS_ARG 0
#else
/* 6.13 to 6.19: names and signatures moved in between; not hooked. */
#define KTP_SCX_INSERT_FN NULL
#define KTP_SCX_REMOVE_FN NULL
#define KTP_SCX_ENABLE_FN NULL
#define KTP_SCX_BYPASS_FN NULL
#define KTP_SCX_BYPASS_ARG 0
#endif
#else
#define KTP_HAVE_SCX 0
#endif
/* The exit's and the event counters' tracepoints, as 7.x has them. */
#define KTP_HAVE_SCX_EXIT_TP (KTP_HAVE_SCX && LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0))
#define KTP_HAVE_SCX_EVENT_TP KTP_HAVE_SCX_EXIT_TP

/*
 * Uprobes (record --probe u:, ur:). 6.12 made uprobe_register() return
 * the uprobe, to unregister without the inode and offset, in two steps
 * (the consumer's removal, then one synchronisation for all); 6.13 gave
 * the consumer's handlers a u64 of session data (unused here).
 */
#define KTP_HAVE_UPROBES IS_ENABLED(CONFIG_UPROBES)
#define KTP_UPROBE_HANDLE (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define KTP_UPROBE_HANDLER_PROTO \
	struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data
#define KTP_URETPROBE_HANDLER_PROTO \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs, \
	__u64 *data
#else
#define KTP_UPROBE_HANDLER_PROTO struct uprobe_consumer *uc, struct pt_regs *regs
#define KTP_URETPROBE_HANDLER_PROTO \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs
#endif
#define KTP_HAVE_KPROBES IS_ENABLED(CONFIG_KPROBES)
#define KTP_HAVE_KRETPROBES IS_ENABLED(CONFIG_KRETPROBES)

#endif /* KTPROF_COMPAT_H */
