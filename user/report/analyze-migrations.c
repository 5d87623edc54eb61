// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-migrations.h"
#include "util/array.h"

static int on_thread_new(void *ctx, uint32_t t)
{
	struct analyze_migrations *a = ctx;

	if (array_reserve((void **)&a->threads, &a->cap, t, sizeof(*a->threads), 1024))
		return -ENOMEM;
	a->n = t + 1;
	return 0;
}

static const struct topology_cpu *topo_of(const struct analyze_migrations *a, uint32_t cpu)
{
	if (cpu >= a->nr_topo || a->topo[cpu].llc < 0)
		return NULL;
	return &a->topo[cpu];
}

enum migration_class analyze_migrations_classify(const struct analyze_migrations *a,
						 uint32_t from, uint32_t to)
{
	const struct topology_cpu *x = topo_of(a, from), *y = topo_of(a, to);

	if (!x || !y)
		return MIGRATION_UNKNOWN;
	if (x->node != y->node)
		return MIGRATION_CROSS_NUMA;
	/* Cache ids are unique per level; the package check guards old kernels. */
	if (x->llc != y->llc || x->package != y->package)
		return MIGRATION_CROSS_LLC;
	return MIGRATION_SAME_LLC;
}

static int on_migrate(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts)
{
	struct analyze_migrations *a = ctx;
	enum migration_class c = analyze_migrations_classify(a, from, to);
	struct pair *p = pairs_get(&a->cpu_pairs, from, to);

	(void)ts;
	if (!p)
		return -ENOMEM;
	p->count++;
	a->threads[t].count[c]++;
	a->total.count[c]++;
	return 0;
}

static const struct sched_ops migrations_ops = {
	.thread_new = on_thread_new,
	.migrate = on_migrate,
};

int analyze_migrations_init(struct analyze_migrations *a, struct sched *s,
			    const struct topology_cpu *topo, unsigned int n)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	pairs_init(&a->cpu_pairs, 0);
	for (i = 0; topo && i < n; i++)
		if (topo[i].cpu < 65536 && topo[i].cpu >= a->nr_topo)
			a->nr_topo = topo[i].cpu + 1;
	if (a->nr_topo) {
		a->topo = malloc(a->nr_topo * sizeof(*a->topo));
		if (!a->topo)
			return -ENOMEM;
		for (i = 0; i < a->nr_topo; i++)
			a->topo[i] = (struct topology_cpu){ .cpu = i, .package = -1,
							    .core = -1, .llc = -1, .node = -1 };
		for (i = 0; i < n; i++)
			if (topo[i].cpu < a->nr_topo)
				a->topo[topo[i].cpu] = topo[i];
	}
	return sched_add_client(s, &migrations_ops, a);
}

void analyze_migrations_fini(struct analyze_migrations *a)
{
	pairs_fini(&a->cpu_pairs);
	free(a->threads);
	free(a->topo);
	memset(a, 0, sizeof(*a));
}
