/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_ext as a capture records it: whether a BPF scheduler runs and
 * which (/sys/kernel/sched_ext: state, root/ops, enable_seq), at the
 * session's start and stop. Kernels without sched_ext have no such
 * directory: the capture then says nothing about it.
 */
#ifndef KTPROF_SCHED_EXT_H
#define KTPROF_SCHED_EXT_H

#include <stdint.h>

struct sched_ext {
	int present;		/* the kernel has sched_ext */
	char state[32];		/* "enabled", "disabled", "enabling", ... */
	char ops[64];		/* the running scheduler, "" when none */
	uint64_t enable_seq;	/* schedulers enabled since boot */
	char events[2048];	/* root/events: "SCX_EV_NAME N" lines; "" if none */
	unsigned int switch_all;	/* every task on the ext class */
	uint64_t nr_rejected;	/* tasks refused SCHED_EXT */
};

/* Event counter @name ("SCX_EV_...") in @s->events; -1 when absent. */
int64_t sched_ext_event(const struct sched_ext *s, const char *name);

/* Read @dir ("/sys/kernel/sched_ext"); absent: present = 0. 0 or -errno. */
int sched_ext_read(const char *dir, struct sched_ext *s);

/* Parse the raw dump form ("state=.. ops=.. enable_seq=.." lines). */
int sched_ext_parse(const char *text, struct sched_ext *s);

/* "enabled (scx_simple)", "disabled", into @buf. */
const char *sched_ext_str(const struct sched_ext *s, char *buf, unsigned int len);

#endif
