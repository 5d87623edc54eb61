// SPDX-License-Identifier: GPL-2.0
/*
 * Task identity records: pid, tgid, parent, comm and the kernel-thread flag
 * go out once per task per session (so switch records carry pids only),
 * again when they change (rename, exec, a new task at fork), and for every
 * task in the start snapshot, with its state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "ktprof.h"

static u16 ktp_task_report_state(struct task_struct *p)
{
	unsigned int idx = task_state_index(p);

	return idx ? 1 << (idx - 1) : 0;
}

static bool ktp_write_task(struct task_struct *p, const char *comm, u16 flags,
			   u16 state)
{
	struct ktp_task *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_TASK, 0, sizeof(*r));
	if (!r)
		return false;
	r->pid = p->pid;
	r->tgid = p->tgid;
	/*
	 * A released task (its last switch-out after exit) may point at a
	 * parent that is gone: the kernel's own task_ppid_nr_ns() checks.
	 */
	rcu_read_lock();
	r->ppid = pid_alive(p) ? task_ppid_nr(p) : 0;
	rcu_read_unlock();
	r->flags = flags | (p->flags & PF_KTHREAD ? KTP_TASK_KTHREAD : 0);
	r->state = state;
	r->prio = ktp_prio(p->prio);
	memset(r->pad, 0, sizeof(r->pad));
	if (comm) {
		/*
		 * A new name is a string of any allocation size: exec passes
		 * the file name's last component, which for execveat(dirfd)
		 * ends a "/dev/fd/N/prog" allocated to fit.
		 */
		strscpy_pad(r->comm, comm, KTP_COMM_LEN);
	} else {
		/*
		 * task->comm is a full array. Unlocked like the kernel's own
		 * trace events: a concurrent rename may mix the names.
		 */
		memcpy(r->comm, p->comm, KTP_COMM_LEN);
		r->comm[KTP_COMM_LEN - 1] = '\0';
	}
	ktp_commit(&w);
	return true;
}

/* Write @p's identity now, whether or not it went out before. */
bool ktp_emit_task(struct task_struct *p, const char *comm, u16 flags)
{
	if (!this_cpu_read(ktp_cpus.active))
		return false;
	if (p->pid)
		set_bit(p->pid, ktp_session.seen_pids);
	return ktp_write_task(p, comm, flags, 0);
}

/*
 * Write @p's identity unless it went out already this session. The idle
 * tasks (pid 0 on every CPU) need none: readers know them.
 */
void ktp_task_seen(struct task_struct *p)
{
	unsigned long *seen = ktp_session.seen_pids;

	if (!p->pid || !this_cpu_read(ktp_cpus.active))
		return;
	if (likely(test_bit(p->pid, seen)) || test_and_set_bit(p->pid, seen))
		return;
	/* Dropped (buffer full): try again at the task's next appearance. */
	if (!ktp_write_task(p, NULL, 0, 0))
		clear_bit(p->pid, seen);
}

/* A freed task's pid may be reused: its next user gets a new identity. */
void ktp_forget_pid(pid_t pid)
{
	if (pid > 0 && this_cpu_read(ktp_cpus.active))
		clear_bit(pid, ktp_session.seen_pids);
}

/* Every task that exists now, with its state; process context. */
void ktp_emit_snapshot(void)
{
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (!t->pid)
			continue;
		set_bit(t->pid, ktp_session.seen_pids);
		if (!ktp_write_task(t, NULL, KTP_TASK_SNAPSHOT,
				    ktp_task_report_state(t)))
			clear_bit(t->pid, ktp_session.seen_pids);
	}
	rcu_read_unlock();
}
