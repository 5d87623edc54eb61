// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-format.h"
#include "capture/cpu-stats.h"
#include "ktprof_capture.pb-c.h"
#include "util/array.h"

static const char *const rec_names[] = KTP_REC_NAMES;

/* The counters of @cpu, found through @slot (CPU -> index + 1): O(1). */
static struct cpu_stats *cpu_entry(struct cpu_stats **v, int *n, uint32_t *cap,
				   uint32_t *slot, uint32_t cpu)
{
	struct cpu_stats *s;

	if (slot[cpu])
		return &(*v)[slot[cpu] - 1];
	if (array_reserve((void **)v, cap, *n, sizeof(**v), 16))
		return NULL;
	s = &(*v)[*n];
	s->cpu = cpu;
	slot[cpu] = ++*n;
	return s;
}

static void take_counter(struct cpu_stats *s, const char *key, uint64_t v,
			 int dropped)
{
	unsigned int t;

	if (dropped) {
		for (t = 0; t < KTP_REC_NR_TYPES; t++)
			if (!strcmp(key, rec_names[t]))
				s->dropped[t] = v;
		return;
	}
	/* Other keys (avg_bytes, a newer module's counters) are skipped. */
#define TAKE(NAME, NR, name, help)	\
	if (!strcmp(key, #name)) {	\
		s->name = v;		\
		return;			\
	}
	KTP_CPU_STATS(TAKE)
#undef TAKE
}

int cpu_stats_parse(const char *text, struct cpu_stats **out)
{
	uint32_t *slot = calloc(KTPC_MAX_CPUS, sizeof(*slot)), cap = 0;
	struct cpu_stats *v = NULL, *s;
	const char *line = text;
	int n = 0;

	if (!slot)
		return -ENOMEM;
	while (*line) {
		const char *end = strchr(line, '\n');
		char buf[2048], *tok, *save = NULL;
		size_t len = end ? (size_t)(end - line) : strlen(line);
		int dropped = 0;
		char *endp;
		long cpu;

		if (len < sizeof(buf) && !strncmp(line, "cpu=", 4)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			cpu = strtol(buf + 4, &endp, 10);
			/* Lines of CPUs no capture can have are damage: skipped. */
			if (endp != buf + 4 && cpu >= 0 && cpu < KTPC_MAX_CPUS &&
			    (*endp == ' ' || !*endp)) {
				s = cpu_entry(&v, &n, &cap, slot, cpu);
				if (!s) {
					free(slot);
					free(v);
					return -ENOMEM;
				}
				for (tok = strtok_r(endp, " ", &save); tok;
				     tok = strtok_r(NULL, " ", &save)) {
					char *eq = strchr(tok, '=');

					if (!strcmp(tok, "dropped"))
						dropped = 1;
					if (!eq)
						continue;
					*eq = '\0';
					take_counter(s, tok, strtoull(eq + 1, NULL, 10),
						     dropped);
				}
			}
		}
		line += len + (end ? 1 : 0);
	}
	free(slot);
	if (!n)
		return -EINVAL;
	*out = v;
	return n;
}

int cpu_stats_unpack(const void *buf, size_t len, struct cpu_stats **out)
{
	Ktprof__Stats *m = ktprof__stats__unpack(NULL, len, buf);
	struct cpu_stats *v;
	size_t i, t;

	if (!m)
		return -EBADMSG;
	v = calloc(m->n_cpus ? m->n_cpus : 1, sizeof(*v));
	if (!v) {
		ktprof__stats__free_unpacked(m, NULL);
		return -ENOMEM;
	}
	for (i = 0; i < m->n_cpus; i++) {
		const Ktprof__CpuStats *c = m->cpus[i];

		v[i].cpu = c->cpu;
		/* Each counter is the CpuStats field of its name. */
#define LOAD(NAME, NR, name, help) v[i].name = c->name;
		KTP_CPU_STATS(LOAD)
#undef LOAD
		/* Types a newer capture knows and this ktprof does not: left out. */
		for (t = 0; t < c->n_dropped && t < KTP_REC_NR_TYPES; t++)
			v[i].dropped[t] = c->dropped[t];
	}
	*out = v;
	ktprof__stats__free_unpacked(m, NULL);
	return (int)i;
}
