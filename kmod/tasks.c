// SPDX-License-Identifier: GPL-2.0
/*
 * Task identity records: pid, tgid, parent, comm and the kernel-thread flag
 * go out once per task per session (so switch records carry pids only),
 * again when they change (rename, exec, a new task at fork), and for every
 * task in the start snapshot, with its state, each with the task's cgroup
 * v2. And each task's allowed CPUs when they are not all of them, and
 * whenever they change.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "ktprof.h"

static u16 ktp_task_report_state(struct task_struct *p)
{
	unsigned int idx = task_state_index(p);

	return idx ? 1 << (idx - 1) : 0;
}

/*
 * @p's cgroup on the default hierarchy (@flags: KTP_CGROUP_*), or the one
 * it moves to, @cgrp. Under RCU: the css_set may change meanwhile.
 */
void ktp_write_cgroup(struct task_struct *p, struct cgroup *cgrp, unsigned int flags)
{
#ifdef CONFIG_CGROUPS
	struct ktp_cgroup *r;
	struct ktp_wr w;
	u64 id;

	if (!cgrp) {
		rcu_read_lock();
		id = cgroup_id(task_dfl_cgroup(p));
		rcu_read_unlock();
	} else {
		id = cgroup_id(cgrp);
	}
	r = ktp_reserve(&w, KTP_REC_CGROUP, flags, sizeof(*r));
	if (!r)
		return;
	r->pid = p->pid;
	r->pad = 0;
	r->id = id;
	ktp_commit(&w);
#endif
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
	ktp_write_cgroup(p, NULL, 0);
	return true;
}

/*
 * A key for @mask: the mask itself up to 32 CPUs, beyond that a hash of its
 * words (a change to a mask of the same hash, one in 2^32, goes unseen).
 * Never 0, which means "nothing written"; a mask is never empty.
 */
static u32 ktp_mask_key(const struct cpumask *mask)
{
	const unsigned long *w = cpumask_bits(mask);
	unsigned int i, n = BITS_TO_LONGS(nr_cpu_ids);
	u64 h = 0;

	if (nr_cpu_ids <= 32)
		return (u32)w[0];
	for (i = 0; i < n; i++)
		h = (h ^ w[i]) * 0x9e3779b97f4a7c15ULL;
	return (u32)(h >> 32) | 1;
}

static void ktp_write_affinity(struct task_struct *p, const struct cpumask *mask)
{
	unsigned int words = DIV_ROUND_UP(nr_cpu_ids, 32);
	struct ktp_affinity *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_AFFINITY, 0, sizeof(*r) + words * 4);
	if (!r)
		return;
	r->pid = p->pid;
	r->nr_allowed = cpumask_weight(mask);
	r->nr_bits = nr_cpu_ids;
	bitmap_to_arr32((u32 *)(r + 1), cpumask_bits(mask), nr_cpu_ids);
	ktp_commit(&w);
}

/*
 * @p's allowed CPUs, if they are news: not all possible CPUs at its first
 * sight, or not what went out last. cpus_mask, not cpus_ptr, which
 * migrate_disable() narrows to one CPU for a moment. The kernel traces no
 * change; it is seen at the task's next switch, waking or migration
 * (sched_setaffinity() migrates a queued or running task at once, and a
 * sleeping one is woken within its new mask). Racing writers of one pid
 * (a waking and a migration on two CPUs) at worst write it twice; a drop
 * leaves the key unset, so the next sight tries again.
 */
static void ktp_affinity_seen(struct task_struct *p)
{
	const struct cpumask *mask = &p->cpus_mask;
	u32 *slot = &ktp_session.affinity_keys[p->pid];
	u32 key = ktp_mask_key(mask), old = READ_ONCE(*slot);

	if (likely(key == old))
		return;
	WRITE_ONCE(*slot, key);
	if (!old && cpumask_equal(mask, cpu_possible_mask))
		return;
	ktp_write_affinity(p, mask);
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
	if (unlikely(!test_bit(p->pid, seen)) && !test_and_set_bit(p->pid, seen) &&
	    !ktp_write_task(p, NULL, 0, 0)) {
		/* Dropped (buffer full): try again at its next appearance. */
		clear_bit(p->pid, seen);
		return;
	}
	ktp_affinity_seen(p);
}

/* A freed task's pid may be reused: its next user gets a new identity. */
void ktp_forget_pid(pid_t pid)
{
	if (pid > 0 && this_cpu_read(ktp_cpus.active)) {
		clear_bit(pid, ktp_session.seen_pids);
		WRITE_ONCE(ktp_session.affinity_keys[pid], 0);
	}
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
		else
			ktp_affinity_seen(t);
	}
	rcu_read_unlock();
}
