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
#include "report/report.h"

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
	uint64_t *procs;		/* derived: per process, its selected threads' */
};

const struct analyze_migrations *analyze_migrations(const struct report *r);

extern const struct analyzer analyzer_migrations;

enum migration_class analyze_migrations_classify(const struct analyze_migrations *a,
						 uint32_t from, uint32_t to);

#endif
