// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/task-table.h"

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

int task_table_on_event(struct task_table *t, const struct event *ev)
{
	struct task_info *ti;

	switch (ev->type) {
	case KTP_REC_TASK: {
		struct ktp_task r;

		memcpy(&r, ev->rec, sizeof(r));
		ti = get_or_add(t, r.pid);
		if (!ti)
			return -ENOMEM;
		ti->tgid = r.tgid;
		ti->ppid = r.ppid;
		ti->kthread = !!(r.flags & KTP_TASK_KTHREAD);
		ti->described = 1;
		ti->renamed = ti->comm[0] && strncmp(ti->comm, r.comm, KTP_COMM_LEN);
		if (ti->renamed)
			memcpy(ti->prev_comm, ti->comm, KTP_COMM_LEN);
		memcpy(ti->comm, r.comm, KTP_COMM_LEN);
		ti->comm[KTP_COMM_LEN - 1] = '\0';
		break;
	}
	case KTP_REC_FORK: {
		struct ktp_fork r;

		memcpy(&r, ev->rec, sizeof(r));
		ti = get_or_add(t, r.child_pid);
		if (!ti)
			return -ENOMEM;
		ti->tgid = r.child_tgid;
		/* The child's TASK record was lost: it has its parent's name. */
		if (!ti->comm[0]) {
			const struct task_info *parent = task_table_get(t, r.parent_pid);

			if (parent) {
				memcpy(ti->comm, parent->comm, KTP_COMM_LEN);
				ti->ppid = parent->tgid;
			}
		}
		break;
	}
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
