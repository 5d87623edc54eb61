// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-format.h"
#include "capture/topology.h"
#include "util/array.h"
#include "ktprof_capture.pb-c.h"

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* The id of the highest-level cache, else its first sharing CPU. */
static int llc_of(const char *base, uint32_t cpu)
{
	int best_level = -1, best = -1, i;
	char path[512];

	for (i = 0; i < 16; i++) {
		int level, id;

		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/level", base, cpu, i);
		if (read_int(path, &level))
			break;
		if (level <= best_level)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/id", base, cpu, i);
		if (read_int(path, &id)) {
			snprintf(path, sizeof(path),
				 "%s/cpu%u/cache/index%d/shared_cpu_list", base, cpu, i);
			if (read_int(path, &id))
				continue;
		}
		best_level = level;
		best = id;
	}
	return best;
}

static int node_of(const char *base, uint32_t cpu)
{
	char path[512];
	struct dirent *de;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "%s/cpu%u", base, cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
		    de->d_name[4] <= '9')
			node = atoi(de->d_name + 4);
	closedir(d);
	return node;
}

static int by_cpu(const void *a, const void *b)
{
	const struct topology_cpu *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

int topology_read(const char *base, struct topology_cpu **out)
{
	struct topology_cpu *v = NULL, *nv;
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(base);

	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		char path[512], *end;
		unsigned long cpu;
		struct topology_cpu *t;

		if (strncmp(de->d_name, "cpu", 3) || de->d_name[3] < '0' ||
		    de->d_name[3] > '9')
			continue;
		cpu = strtoul(de->d_name + 3, &end, 10);
		if (*end)
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		t = &v[n++];
		t->cpu = cpu;
		snprintf(path, sizeof(path), "%s/cpu%lu/topology/physical_package_id", base, cpu);
		if (read_int(path, &t->package))
			t->package = -1;
		snprintf(path, sizeof(path), "%s/cpu%lu/topology/core_id", base, cpu);
		if (read_int(path, &t->core))
			t->core = -1;
		snprintf(path, sizeof(path), "%s/cpu%lu/online", base, cpu);
		/* cpu0 often has no "online" file: it cannot go offline. */
		if (read_int(path, &t->online))
			t->online = 1;
		t->llc = llc_of(base, cpu);
		t->node = node_of(base, cpu);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), by_cpu);
	*out = v;
	return n;
}

int topology_parse(const char *text, struct topology_cpu **out)
{
	struct topology_cpu *t = NULL;
	const char *line, *nl;
	uint32_t n = 0, cap = 0;

	for (line = text; line && *line; line = nl ? nl + 1 : NULL) {
		struct topology_cpu c = { .online = 1 };
		char buf[128];
		size_t len;

		/* sscanf() on a copy: on the text itself it would strlen() it all per line. */
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		if (len >= sizeof(buf))
			continue;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (sscanf(buf, "%u %d %d %d %d", &c.cpu, &c.package, &c.core,
			   &c.llc, &c.node) != 5 || c.cpu >= KTPC_MAX_CPUS)
			continue;
		if (array_reserve((void **)&t, &cap, n, sizeof(*t), 64)) {
			free(t);
			return -ENOMEM;
		}
		t[n++] = c;
	}
	*out = t;
	return n;
}

int topology_unpack(const void *buf, size_t len, struct topology_cpu **out)
{
	Ktprof__Topology *m = ktprof__topology__unpack(NULL, len, buf);
	struct topology_cpu *t;
	size_t i;

	*out = NULL;
	if (!m)
		return -EBADMSG;
	t = calloc(m->n_cpus ? m->n_cpus : 1, sizeof(*t));
	if (!t) {
		ktprof__topology__free_unpacked(m, NULL);
		return -ENOMEM;
	}
	for (i = 0; i < m->n_cpus; i++)
		t[i] = (struct topology_cpu){
			.cpu = m->cpus[i]->cpu, .package = m->cpus[i]->package,
			.core = m->cpus[i]->core, .llc = m->cpus[i]->llc,
			.node = m->cpus[i]->numa_node, .online = m->cpus[i]->online,
		};
	*out = t;
	ktprof__topology__free_unpacked(m, NULL);
	return (int)i;
}
