/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each cgroup's cpu.stat as the recorder reads it beside the cgroup table
 * (capture/cgroup-table.h), at the session's start and at its stop: the
 * kernel's own accounting of the CPU time each cgroup and its descendants
 * used, and of CFS bandwidth throttling where the cpu controller is on.
 * A capture keeps it as text, one line a cgroup:
 *
 *	ID KEY=VALUE...\n
 *
 * with the keys usage_usec (every cgroup v2 has it), nr_periods,
 * nr_throttled and throttled_usec (with the cpu controller); a key the
 * file lacks is left out.
 */
#ifndef KTPROF_CGROUP_CPU_H
#define KTPROF_CGROUP_CPU_H

#include <stddef.h>
#include <stdint.h>

enum {
	CGROUP_CPU_USAGE = 1,		/* usage_us is known */
	CGROUP_CPU_BANDWIDTH = 2,	/* nr_periods, nr_throttled, throttled_us are */
};

struct cgroup_cpu {
	uint64_t id;
	uint64_t usage_us;
	uint64_t nr_periods, nr_throttled, throttled_us;
	unsigned int has;		/* CGROUP_CPU_* */
};

/* By id, each id once. All zeroes is an empty table. */
struct cgroup_cpu_table {
	struct cgroup_cpu *v;
	size_t nr;
};

/* Longest line cgroup_cpu_format() writes, its NUL included. */
#define CGROUP_CPU_LINE_MAX 160

/*
 * The line of cgroup @id from the cpu.stat in directory @dirfd into @buf
 * (CGROUP_CPU_LINE_MAX bytes); its length, 0 when there is no cpu.stat or
 * it has none of the keys.
 */
size_t cgroup_cpu_format(int dirfd, uint64_t id, char *buf);

/*
 * Parse @text into @t; a later line with an id already seen is ignored, so
 * is a key not known. 0, -EINVAL (a line without an id, or a bad value) or
 * -ENOMEM; on failure @t is left empty. cgroup_cpu_free() after success.
 */
int cgroup_cpu_parse(const char *text, struct cgroup_cpu_table *t);

/* Cgroup @id's figures, NULL when @t does not have them. */
const struct cgroup_cpu *cgroup_cpu_find(const struct cgroup_cpu_table *t, uint64_t id);

void cgroup_cpu_free(struct cgroup_cpu_table *t);

#endif
