// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/task-table.h"

void task_table_init(struct task_table *t)
{
	u64_map_init(&t->by_pid);
}

void task_table_fini(struct task_table *t)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	while (u64_map_next(&t->by_pid, &i, &k, &v))
		free(v);
	u64_map_fini(&t->by_pid);
}

static struct task_info *get_or_add(struct task_table *t, uint32_t pid)
{
	struct task_info *ti = u64_map_get(&t->by_pid, pid);

	if (ti)
		return ti;
	ti = calloc(1, sizeof(*ti));
	if (!ti)
		return NULL;
	ti->pid = pid;
	ti->tgid = pid;
	if (u64_map_put(&t->by_pid, pid, ti)) {
		free(ti);
		return NULL;
	}
	return ti;
}

static int on_task(struct task_table *t, const struct event *ev)
{
	struct task_info *ti;
	struct ktp_task r;

	memcpy(&r, ev->rec, sizeof(r));
	ti = get_or_add(t, r.pid);
	if (!ti)
		return -ENOMEM;
	ti->tgid = r.tgid;
	ti->ppid = r.ppid;
	ti->kthread = !!(r.flags & KTP_TASK_KTHREAD);
	ti->described = 1;
	/* A new task under a reused pid is no rename of the one before. */
	ti->forked = !!(r.flags & KTP_TASK_FORK);
	if (ti->forked) {
		ti->renamed = 0;
		ti->prev_comm[0] = '\0';
	} else {
		ti->renamed = ti->comm[0] && strncmp(ti->comm, r.comm, KTP_COMM_LEN);
	}
	if (ti->renamed)
		memcpy(ti->prev_comm, ti->comm, KTP_COMM_LEN);
	memcpy(ti->comm, r.comm, KTP_COMM_LEN);
	ti->comm[KTP_COMM_LEN - 1] = '\0';
	return 0;
}

/*
 * The module writes the child's TASK record just before FORK. When that
 * record was lost, what the table holds for the pid (if anything) is a
 * task that is gone: the child is its parent's copy instead, as the kernel
 * made it (same name; a thread has its creator's parent).
 */
static int on_fork(struct task_table *t, const struct event *ev)
{
	const struct task_info *parent;
	struct task_info *ti;
	struct ktp_fork r;

	memcpy(&r, ev->rec, sizeof(r));
	ti = get_or_add(t, r.child_pid);
	if (!ti)
		return -ENOMEM;
	if (!ti->forked) {
		parent = task_table_get(t, r.parent_pid);
		memset(ti->comm, 0, KTP_COMM_LEN);
		ti->prev_comm[0] = '\0';
		ti->renamed = ti->described = 0;
		ti->ppid = 0;
		ti->kthread = 0;
		if (parent) {
			memcpy(ti->comm, parent->comm, KTP_COMM_LEN);
			ti->ppid = ev->flags & KTP_FORK_THREAD ? parent->ppid : parent->tgid;
			ti->kthread = parent->kthread;
		}
	}
	ti->tgid = r.child_tgid;
	ti->forked = 0;
	return 0;
}

int task_table_on_event(struct task_table *t, const struct event *ev)
{
	switch (ev->type) {
	case KTP_REC_TASK:
		return on_task(t, ev);
	case KTP_REC_FORK:
		return on_fork(t, ev);
	}
	return 0;
}

const struct task_info *task_table_get(const struct task_table *t, uint32_t pid)
{
	return u64_map_get(&t->by_pid, pid);
}

const char *task_table_comm(const struct task_table *t, uint32_t pid,
			    char *buf, unsigned int len)
{
	const struct task_info *ti = task_table_get(t, pid);

	if (!pid)
		return "swapper";
	if (ti && ti->comm[0])
		return ti->comm;
	snprintf(buf, len, "pid-%u", pid);
	return buf;
}
