// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/schedstat.h"
#include "util/array.h"

int schedstat_read(const char *path, char **text)
{
	size_t len = 0, cap = 16384;
	char *buf = malloc(cap), *nb;
	ssize_t n;
	int fd;

	*text = NULL;
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	for (;;) {
		if (len + 1 == cap) {
			if (cap >= SCHEDSTAT_TEXT_MAX)
				break;	/* keep what fits: CPUs past it are not compared */
			nb = realloc(buf, cap * 2);
			if (!nb) {
				close(fd);
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*text = buf;
	return 0;
}

/* "cpuN f0 f1 ...": the CPU and up to SCHEDSTAT_NR_FIELDS counters. */
static int parse_cpu_line(const char *p, size_t n, struct schedstat_cpu *c)
{
	const char *end = p + n;
	char *e;
	int i;

	memset(c, 0, sizeof(*c));
	if (n < 4 || strncmp(p, "cpu", 3) || p[3] < '0' || p[3] > '9')
		return -1;
	c->cpu = strtoul(p + 3, &e, 10);
	for (i = 0; i < SCHEDSTAT_NR_FIELDS && e < end && *e == ' '; i++)
		c->v[i] = strtoull(e + 1, &e, 10);
	return i == SCHEDSTAT_NR_FIELDS ? 0 : -1;
}

static int domain_cmp(const void *a, const void *b)
{
	const struct schedstat_domain *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->level < y->level ? -1 : x->level > y->level;
}

/* The next space-separated number of [*p, end) into *v; 0, or -1 if none. */
static int next_u64(const char **p, const char *end, uint64_t *v)
{
	char *e;

	if (*p >= end || **p != ' ' || *p + 1 >= end || (*p)[1] < '0' || (*p)[1] > '9')
		return -1;
	*v = strtoull(*p + 1, &e, 10);
	*p = e;
	return *p <= end ? 0 : -1;
}

/* The next space-separated word of [*p, end) into @buf (cut to @len). */
static int next_word(const char **p, const char *end, char *buf, size_t len)
{
	const char *w;
	size_t n;

	if (*p >= end || **p != ' ')
		return -1;
	w = ++*p;
	while (*p < end && **p != ' ')
		++*p;
	n = *p - w;
	if (!n)
		return -1;
	if (n >= len)
		n = len - 1;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return 0;
}

/*
 * "domainN [NAME] SPAN" and the counters: per idle type 8 (version 15, 16)
 * or 11 (17: lb_imbalance in four), then 12. The idle types' columns are
 * in the kernel's enum order: CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE
 * before version 16, __CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE since.
 */
static int parse_domain_line(const char *p, size_t n, unsigned int version, uint32_t cpu,
			     struct schedstat_domain *d)
{
	static const enum schedstat_idle order15[] = { SCHEDSTAT_IDLE, SCHEDSTAT_BUSY,
						       SCHEDSTAT_NEWIDLE };
	static const enum schedstat_idle order16[] = { SCHEDSTAT_BUSY, SCHEDSTAT_IDLE,
						       SCHEDSTAT_NEWIDLE };
	/* Each column of an idle type as our field; -1: an imbalance, not kept. */
	static const int cols8[8] = {
		SCHEDSTAT_LB_COUNT, SCHEDSTAT_LB_BALANCED, SCHEDSTAT_LB_FAILED, -1,
		SCHEDSTAT_LB_GAINED, SCHEDSTAT_LB_HOT_GAINED, SCHEDSTAT_LB_NOBUSYQ,
		SCHEDSTAT_LB_NOBUSYG,
	};
	static const int cols11[11] = {
		SCHEDSTAT_LB_COUNT, SCHEDSTAT_LB_BALANCED, SCHEDSTAT_LB_FAILED, -1, -1, -1, -1,
		SCHEDSTAT_LB_GAINED, SCHEDSTAT_LB_HOT_GAINED, SCHEDSTAT_LB_NOBUSYQ,
		SCHEDSTAT_LB_NOBUSYG,
	};
	const char *end = p + n;
	char span[64], *e;
	const int *cols;
	unsigned int it, nc, c;
	uint64_t v;

	memset(d, 0, sizeof(*d));
	d->cpu = cpu;
	d->level = strtoul(p + 6, &e, 10);
	if (e == p + 6)
		return -1;
	p = e;
	if (version >= 17 && next_word(&p, end, d->name, sizeof(d->name)))
		return -1;
	if (next_word(&p, end, span, sizeof(span)))
		return -1;
	cols = version >= 17 ? cols11 : cols8;
	nc = version >= 17 ? 11 : 8;
	for (it = 0; it < SCHEDSTAT_NR_IDLE; it++) {
		enum schedstat_idle idle = version >= 16 ? order16[it] : order15[it];

		for (c = 0; c < nc; c++) {
			if (next_u64(&p, end, &v))
				return -1;
			if (cols[c] >= 0)
				d->lb[idle][cols[c]] = v;
		}
	}
	for (c = 0; c < SCHEDSTAT_NR_DOM; c++)
		if (next_u64(&p, end, &d->v[c]))
			return -1;
	return 0;
}

int schedstat_parse(const char *text, struct schedstat *s)
{
	const char *line, *nl;
	uint32_t cap = 0, dcap = 0, cpu = UINT32_MAX;

	memset(s, 0, sizeof(*s));
	for (line = text; line && *line; line = nl ? nl + 1 : NULL) {
		size_t n;

		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		if (!strncmp(line, "version ", 8)) {
			s->version = strtoul(line + 8, NULL, 10);
			s->present = 1;
		} else if (!strncmp(line, "cpu", 3) && s->present) {
			struct schedstat_cpu c;

			cpu = UINT32_MAX;
			if (parse_cpu_line(line, n, &c))
				continue;
			if (array_reserve((void **)&s->cpus, &cap, s->nr_cpus, sizeof(c), 16)) {
				schedstat_free(s);
				return -ENOMEM;
			}
			s->cpus[s->nr_cpus++] = c;
			cpu = c.cpu;
		} else if (!strncmp(line, "domain", 6) && s->present && cpu != UINT32_MAX) {
			/* A domain line belongs to the CPU line above it. */
			struct schedstat_domain d;

			if (parse_domain_line(line, n, s->version, cpu, &d))
				continue;
			if (array_reserve((void **)&s->domains, &dcap, s->nr_domains, sizeof(d), 16)) {
				schedstat_free(s);
				return -ENOMEM;
			}
			s->domains[s->nr_domains++] = d;
		}
	}
	/* By CPU and level, for schedstat_domain() (the kernel's order already). */
	if (s->nr_domains)
		qsort(s->domains, s->nr_domains, sizeof(*s->domains), domain_cmp);
	return s->present ? 0 : -EINVAL;
}

void schedstat_free(struct schedstat *s)
{
	free(s->cpus);
	s->cpus = NULL;
	s->nr_cpus = 0;
	free(s->domains);
	s->domains = NULL;
	s->nr_domains = 0;
}

const struct schedstat_domain *schedstat_domain(const struct schedstat *s, uint32_t cpu,
						uint32_t level)
{
	struct schedstat_domain key = { .cpu = cpu, .level = level };

	return s->nr_domains ? bsearch(&key, s->domains, s->nr_domains, sizeof(key), domain_cmp)
			     : NULL;
}

const struct schedstat_cpu *schedstat_cpu(const struct schedstat *s, uint32_t cpu)
{
	uint32_t i;

	/* The kernel prints them in order: most lookups hit at once. */
	if (cpu < s->nr_cpus && s->cpus[cpu].cpu == cpu)
		return &s->cpus[cpu];
	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

const char *schedstat_field_name(enum schedstat_field f)
{
	static const char *const names[SCHEDSTAT_NR_FIELDS] = {
		"yields", "legacy", "schedules", "went_idle", "wakeups", "wakeups_local",
		"run_ns", "delay_ns", "timeslices",
	};

	return f < SCHEDSTAT_NR_FIELDS ? names[f] : "?";
}

const char *schedstat_lb_name(enum schedstat_lb f)
{
	static const char *const names[SCHEDSTAT_NR_LB] = {
		"balances", "balanced", "failed", "pulled", "pulled_hot", "no_busy_rq",
		"no_busy_group",
	};

	return f < SCHEDSTAT_NR_LB ? names[f] : "?";
}

const char *schedstat_dom_name(enum schedstat_dom f)
{
	static const char *const names[SCHEDSTAT_NR_DOM] = {
		"active_balances", "active_failed", "active_pushed", "sbe_count", "sbe_balanced",
		"sbe_pushed", "sbf_count", "sbf_balanced", "sbf_pushed", "wakeups_remote",
		"wakeups_affine", "wakeups_balance",
	};

	return f < SCHEDSTAT_NR_DOM ? names[f] : "?";
}

const char *schedstat_idle_name(enum schedstat_idle i)
{
	static const char *const names[SCHEDSTAT_NR_IDLE] = { "busy", "idle", "newidle" };

	return i < SCHEDSTAT_NR_IDLE ? names[i] : "?";
}

/* @d = @b - @a over @n counters; 0, or -1 when one went back. */
static int sub_counters(uint64_t *d, const uint64_t *a, const uint64_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i] < a[i])
			return -1;
		d[i] = b[i] - a[i];
	}
	return 0;
}

int schedstat_delta(const struct schedstat *a, const struct schedstat *b, struct schedstat *d,
		    uint32_t *restarted)
{
	uint32_t i, n = 0;

	memset(d, 0, sizeof(*d));
	*restarted = 0;
	d->present = 1;
	d->version = b->version;
	d->cpus = calloc(b->nr_cpus ? b->nr_cpus : 1, sizeof(*d->cpus));
	d->domains = calloc(b->nr_domains ? b->nr_domains : 1, sizeof(*d->domains));
	if (!d->cpus || !d->domains) {
		schedstat_free(d);
		return -ENOMEM;
	}
	for (i = 0; i < b->nr_cpus; i++) {
		const struct schedstat_cpu *x = schedstat_cpu(a, b->cpus[i].cpu);
		struct schedstat_cpu *c = &d->cpus[d->nr_cpus];

		if (!x)
			continue;
		c->cpu = b->cpus[i].cpu;
		if (sub_counters(c->v, x->v, b->cpus[i].v, SCHEDSTAT_NR_FIELDS)) {
			(*restarted)++;
			continue;
		}
		d->nr_cpus++;
	}
	for (i = 0; i < b->nr_domains; i++) {
		const struct schedstat_domain *y = &b->domains[i];
		const struct schedstat_domain *x = schedstat_domain(a, y->cpu, y->level);
		struct schedstat_domain *e = &d->domains[n];

		if (!x)
			continue;
		*e = *y;
		if (sub_counters(&e->lb[0][0], &x->lb[0][0], &y->lb[0][0],
				 SCHEDSTAT_NR_IDLE * SCHEDSTAT_NR_LB) ||
		    sub_counters(e->v, x->v, y->v, SCHEDSTAT_NR_DOM)) {
			(*restarted)++;
			continue;
		}
		n++;
	}
	d->nr_domains = n;	/* still by CPU and level: @b's order */
	return 0;
}

uint32_t schedstat_level_sum(const struct schedstat *s, uint32_t level,
			     struct schedstat_domain *sum)
{
	uint32_t i, n = 0;
	int k, t;

	memset(sum, 0, sizeof(*sum));
	sum->level = level;
	for (i = 0; i < s->nr_domains; i++) {
		const struct schedstat_domain *x = &s->domains[i];

		if (x->level != level)
			continue;
		if (!n++)
			memcpy(sum->name, x->name, sizeof(sum->name));
		for (t = 0; t < SCHEDSTAT_NR_IDLE; t++)
			for (k = 0; k < SCHEDSTAT_NR_LB; k++)
				sum->lb[t][k] += x->lb[t][k];
		for (k = 0; k < SCHEDSTAT_NR_DOM; k++)
			sum->v[k] += x->v[k];
	}
	return n;
}

uint32_t schedstat_nr_levels(const struct schedstat *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->nr_domains; i++)
		if (s->domains[i].level + 1 > n && s->domains[i].level < 64)
			n = s->domains[i].level + 1;
	return n;
}
