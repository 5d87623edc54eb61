/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences, each behind a named macro with the upstream
 * change that introduced it. The .c files use these and nothing else.
 */
#ifndef KTPROF_COMPAT_H
#define KTPROF_COMPAT_H

#include <linux/version.h>

/*
 * v6.3 ("trace: Add trace_ipi_send_cpu()", "trace: Add
 * trace_ipi_send_cpumask()"): IPI send tracepoints for every architecture.
 * Before, only ipi_raise existed, which x86 never fires.
 */
#define KTP_HAVE_IPI_SEND (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0))

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
 * its last argument. Not yet built here; kept so the change is one place.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define KTP_SUBBUF_START_PROTO \
	struct rchan_buf *buf, void *subbuf, void *prev_subbuf
#else
#define KTP_SUBBUF_START_PROTO \
	struct rchan_buf *buf, void *subbuf, void *prev_subbuf, \
	size_t prev_padding
#endif

#endif /* KTPROF_COMPAT_H */
