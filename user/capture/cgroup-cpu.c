// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/cgroup-cpu.h"
#include "util/array.h"

/* The keys kept, in the order they are written; the flag each sets. */
static const struct {
	const char *key;
	size_t off;
	unsigned int has;
} keys[] = {
	{ "usage_usec", offsetof(struct cgroup_cpu, usage_us), CGROUP_CPU_USAGE },
	{ "nr_periods", offsetof(struct cgroup_cpu, nr_periods), CGROUP_CPU_BANDWIDTH },
	{ "nr_throttled", offsetof(struct cgroup_cpu, nr_throttled), CGROUP_CPU_BANDWIDTH },
	{ "throttled_usec", offsetof(struct cgroup_cpu, throttled_us), CGROUP_CPU_BANDWIDTH },
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

static int key_of(const char *s, size_t len)
{
	size_t k;

	for (k = 0; k < NR_KEYS; k++)
		if (strlen(keys[k].key) == len && !memcmp(s, keys[k].key, len))
			return (int)k;
	return -1;
}

static uint64_t *field(struct cgroup_cpu *c, size_t k)
{
	return (uint64_t *)((char *)c + keys[k].off);
}

/* --- Reading cpu.stat --- */

size_t cgroup_cpu_format(int dirfd, uint64_t id, char *buf)
{
	uint64_t val[NR_KEYS];
	int seen[NR_KEYS] = { 0 }, fd, any = 0;
	char text[1024], *line, *save = NULL;
	size_t len, k;
	ssize_t n;

	fd = openat(dirfd, "cpu.stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' '), *end;
		int kk;

		if (!sp)
			continue;
		kk = key_of(line, sp - line);
		if (kk < 0)
			continue;
		errno = 0;
		val[kk] = strtoull(sp + 1, &end, 10);
		if (errno || end == sp + 1 || *end)
			continue;
		seen[kk] = 1;
		any = 1;
	}
	if (!any)
		return 0;
	len = snprintf(buf, CGROUP_CPU_LINE_MAX, "%" PRIu64, id);
	for (k = 0; k < NR_KEYS; k++)
		if (seen[k])
			len += snprintf(buf + len, CGROUP_CPU_LINE_MAX - len, " %s=%" PRIu64,
					keys[k].key, val[k]);
	len += snprintf(buf + len, CGROUP_CPU_LINE_MAX - len, "\n");
	return len;
}

/* --- The table --- */

void cgroup_cpu_free(struct cgroup_cpu_table *t)
{
	free(t->v);
	t->v = NULL;
	t->nr = 0;
}

static int by_id(const void *a, const void *b)
{
	const struct cgroup_cpu *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* By id and then by line: qsort is not stable, and the first line wins. */
struct ranked {
	struct cgroup_cpu c;
	size_t line;
};

static int by_id_line(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int d = by_id(&x->c, &y->c);

	return d ? d : (x->line < y->line ? -1 : x->line > y->line);
}

/* Sort @v by id, each id's first line kept; the number kept. */
static size_t keep_first(struct cgroup_cpu *v, size_t n)
{
	struct ranked *r;
	size_t i, k = 0;

	if (n < 2)
		return n;
	r = malloc(n * sizeof(*r));
	if (!r) {
		/* Sorted in place, any line of a repeated id kept: still a table. */
		qsort(v, n, sizeof(*v), by_id);
		for (i = 0; i < n; i++)
			if (!k || v[k - 1].id != v[i].id)
				v[k++] = v[i];
		return k;
	}
	for (i = 0; i < n; i++) {
		r[i].c = v[i];
		r[i].line = i;
	}
	qsort(r, n, sizeof(*r), by_id_line);
	for (i = 0; i < n; i++)
		if (!k || v[k - 1].id != r[i].c.id)
			v[k++] = r[i].c;
	free(r);
	return k;
}

/* One line, "ID KEY=VALUE..." (not NUL-terminated: @end). 0 or -EINVAL. */
static int parse_line(const char *s, const char *end, struct cgroup_cpu *c)
{
	char *p;

	memset(c, 0, sizeof(*c));
	errno = 0;
	c->id = strtoull(s, &p, 10);
	if (errno || p == s || (p < end && *p != ' '))
		return -EINVAL;
	while (p < end) {
		const char *k = ++p, *eq;
		int kk;

		while (p < end && *p != ' ')
			p++;
		eq = memchr(k, '=', p - k);
		if (!eq)
			return -EINVAL;
		kk = key_of(k, eq - k);
		if (kk >= 0) {
			char num[24], *q;
			size_t nl = p - eq - 1;

			if (!nl || nl >= sizeof(num))
				return -EINVAL;
			memcpy(num, eq + 1, nl);
			num[nl] = '\0';
			errno = 0;
			*field(c, kk) = strtoull(num, &q, 10);
			if (errno || *q || num[0] == '-')
				return -EINVAL;
			c->has |= keys[kk].has;
		}
	}
	return 0;
}

int cgroup_cpu_parse(const char *text, struct cgroup_cpu_table *t)
{
	size_t cap = 0, n = 0;
	const char *s = text;

	memset(t, 0, sizeof(*t));
	while (*s) {
		const char *end = strchr(s, '\n');

		if (!end)
			end = s + strlen(s);
		if (end > s) {
			if (array_reserve_n((void **)&t->v, &cap, n, sizeof(*t->v), 64)) {
				cgroup_cpu_free(t);
				return -ENOMEM;
			}
			if (parse_line(s, end, &t->v[n])) {
				cgroup_cpu_free(t);
				return -EINVAL;
			}
			n++;
		}
		s = *end ? end + 1 : end;
	}
	n = keep_first(t->v, n);
	t->nr = n;
	return 0;
}

const struct cgroup_cpu *cgroup_cpu_find(const struct cgroup_cpu_table *t, uint64_t id)
{
	struct cgroup_cpu key = { .id = id };

	return t->nr ? bsearch(&key, t->v, t->nr, sizeof(key), by_id) : NULL;
}
