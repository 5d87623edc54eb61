/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who each pid is, from the capture's task records: thread group, parent,
 * name, kernel thread or not. Kept current as records stream by.
 */
#ifndef KTPROF_TASK_TABLE_H
#define KTPROF_TASK_TABLE_H

#include <stdint.h>

#include "decode/relay-decode.h"
#include "ktprof_abi.h"
#include "util/u64-map.h"

struct task_info {
	uint32_t pid, tgid, ppid;
	int kthread;
	char comm[KTP_COMM_LEN];
	char prev_comm[KTP_COMM_LEN];	/* before the last change, or "" */
	int renamed;			/* the latest TASK record changed comm */
	int described;			/* a TASK record named it */
	int forked;			/* its TASK record of a fork came, the
					 * FORK record not yet */
};

struct task_table {
	struct u64_map by_pid;	/* pid -> struct task_info */
};

void task_table_init(struct task_table *t);
void task_table_fini(struct task_table *t);

/*
 * Take TASK and FORK records into account; others are ignored (an exec's
 * new name comes in its TASK record; a freed task keeps its name, which
 * the report shows after the fact, until a new task takes its pid).
 */
int task_table_on_event(struct task_table *t, const struct event *ev);

/* NULL when the pid never appeared. pid 0 is "swapper". */
const struct task_info *task_table_get(const struct task_table *t, uint32_t pid);

/* A name for pid: its comm, "swapper" for 0, else "pid-N" into @buf. */
const char *task_table_comm(const struct task_table *t, uint32_t pid,
			    char *buf, unsigned int len);

#endif
