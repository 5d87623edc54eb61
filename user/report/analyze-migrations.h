/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_migrate_task events classified by the recorded topology: between
 * CPUs of one last-level cache, across caches of one NUMA node, or across
 * nodes. Per thread, and per (from, to) CPU pair.
 */
#ifndef KTPROF_ANALYZE_MIGRATIONS_H
#define KTPROF_ANALYZE_MIGRATIONS_H

#include "capture/topology.h"
#include "report/pairs.h"
#include "report/sched.h"

enum migration_class {
	MIGRATION_SAME_LLC,
	MIGRATION_CROSS_LLC,
	MIGRATION_CROSS_NUMA,
	MIGRATION_UNKNOWN,	/* no topology for one of the CPUs */
	MIGRATION_NR_CLASSES
};

struct migrations_result {
	uint64_t count[MIGRATION_NR_CLASSES];
};

struct analyze_migrations {
	struct migrations_result *threads;
	uint32_t n, cap;
	struct migrations_result total;
	struct pairs cpu_pairs;		/* a: from CPU, b: to CPU */
	struct topology_cpu *topo;	/* indexed by CPU; llc/node -1: unknown */
	uint32_t nr_topo;
};

/* @topo: @n CPUs of the capture's topology (copied), or NULL. */
int analyze_migrations_init(struct analyze_migrations *a, struct sched *s,
			    const struct topology_cpu *topo, unsigned int n);
void analyze_migrations_fini(struct analyze_migrations *a);

enum migration_class analyze_migrations_classify(const struct analyze_migrations *a,
						 uint32_t from, uint32_t to);

#endif
