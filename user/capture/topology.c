// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-format.h"
#include "capture/topology.h"
#include "util/array.h"
#include "util/infile.h"
#include "ktprof_capture.pb-c.h"

/* The id of the highest-level cache, else its first sharing CPU. */
static int llc_of(const char *base, uint32_t cpu)
{
	int best_level = -1, best = -1, i;
	char path[512];

	for (i = 0; i < 16; i++) {
		int level, id;

		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/level", base, cpu, i);
		if (infile_read_int(path, &level))
			break;
		if (level <= best_level)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%d/id", base, cpu, i);
		if (infile_read_int(path, &id)) {
			snprintf(path, sizeof(path),
				 "%s/cpu%u/cache/index%d/shared_cpu_list", base, cpu, i);
			if (infile_read_int(path, &id))
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

/* A line of text of @path into @buf, its newline cut; 0 or -1. */
static int read_word(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* cpufreq's current frequency and cpuidle's states of @cpu, where sysfs has them. */
static void power_of(const char *base, struct topology_cpu *t)
{
	char path[512];
	int v, i;

	snprintf(path, sizeof(path), "%s/cpu%u/cpufreq/scaling_cur_freq", base, t->cpu);
	t->cur_khz = infile_read_int(path, &v) || v < 0 ? 0 : v;
	for (i = 0; i < TOPOLOGY_IDLE_STATES; i++) {
		struct topology_idle *s = &t->idle[i];

		snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%d/name", base, t->cpu, i);
		if (read_word(path, s->name, sizeof(s->name)))
			break;
		snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%d/latency", base, t->cpu, i);
		s->exit_us = infile_read_int(path, &v) || v < 0 ? 0 : v;
		t->nr_idle = i + 1;
	}
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
		memset(t, 0, sizeof(*t));
		t->cpu = cpu;
		snprintf(path, sizeof(path), "%s/cpu%lu/topology/physical_package_id", base, cpu);
		if (infile_read_int(path, &t->package))
			t->package = -1;
		snprintf(path, sizeof(path), "%s/cpu%lu/topology/core_id", base, cpu);
		if (infile_read_int(path, &t->core))
			t->core = -1;
		snprintf(path, sizeof(path), "%s/cpu%lu/online", base, cpu);
		/* cpu0 often has no "online" file: it cannot go offline. */
		if (infile_read_int(path, &t->online))
			t->online = 1;
		t->llc = llc_of(base, cpu);
		t->node = node_of(base, cpu);
		power_of(base, t);
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
	for (i = 0; i < m->n_cpus; i++) {
		const Ktprof__CpuTopology *c = m->cpus[i];
		size_t k;

		t[i] = (struct topology_cpu){
			.cpu = c->cpu, .package = c->package, .core = c->core, .llc = c->llc,
			.node = c->numa_node, .online = c->online, .cur_khz = c->cur_khz,
		};
		/* States beyond cpuidle's maximum are not kept (their records count apart). */
		for (k = 0; k < c->n_idle_states && k < TOPOLOGY_IDLE_STATES; k++) {
			snprintf(t[i].idle[k].name, sizeof(t[i].idle[k].name), "%s",
				 c->idle_states[k]->name ? c->idle_states[k]->name : "");
			t[i].idle[k].exit_us = c->idle_states[k]->exit_latency_us;
		}
		t[i].nr_idle = k;
	}
	*out = t;
	ktprof__topology__free_unpacked(m, NULL);
	return (int)i;
}
