/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per cgroup v2 (the CGROUP records: each thread's at its identity, and its
 * moves): runtime and share of the machine, threads, wakeup and runqueue
 * latency, each for the cgroup's own threads and for its whole subtree (by
 * path, from the capture's id -> path tables). Every thread counts, whatever
 * -p/--comm select; the window and -C apply. Beside them, the kernel's own
 * cpu.stat of each (usage, CFS bandwidth throttling), stop minus start of
 * the session, whatever the window. Definitions: docs/report.md,
 * "cgroups".
 */
#ifndef KTPROF_ANALYZE_CGROUPS_H
#define KTPROF_ANALYZE_CGROUPS_H

#include "report/hist.h"
#include "report/report.h"
#include "util/u64-map.h"

struct cgroup_figures {
	uint64_t runtime_ns;
	uint32_t threads;
	struct hist lat[2];		/* [SCHED_WAKEUP], [SCHED_RUNQUEUE] */
};

/* The kernel's cpu.stat of a cgroup, stop minus start (the whole session). */
struct cgroup_kernel {
	unsigned int has;		/* CGROUP_CPU_* read at both ends */
	uint64_t usage_ns;		/* the subtree's CPU time */
	uint64_t periods, throttled;	/* CFS bandwidth periods, those throttled */
	uint64_t throttled_ns;
};

struct cgroup_result {
	uint64_t id;			/* 0: threads whose cgroup is not known */
	const char *path;		/* NULL: not in the capture's tables */
	uint32_t parent;		/* index of the nearest recorded ancestor, or UINT32_MAX */
	uint32_t depth;			/* of its path */
	struct cgroup_figures own, tree;
	struct cgroup_kernel kernel;
};

struct analyze_cgroups {
	const struct report *r;
	struct cgroup_result *v;
	uint32_t n, cap;
	struct u64_map index;		/* id -> position + 1 */
	uint32_t *order;		/* derived: by subtree runtime, largest first */
	uint64_t known_ns;		/* derived: the shown CPUs' known time */
	uint64_t records;		/* CGROUP records */
	int kernel;			/* derived: some cgroup has cpu.stat figures */
	int error;
};

const struct analyze_cgroups *analyze_cgroups(const struct report *r);

extern const struct analyzer analyzer_cgroups;

#endif
