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

int schedstat_parse(const char *text, struct schedstat *s)
{
	const char *line, *nl;
	uint32_t cap = 0;

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

			if (parse_cpu_line(line, n, &c))
				continue;
			if (array_reserve((void **)&s->cpus, &cap, s->nr_cpus, sizeof(c), 16)) {
				schedstat_free(s);
				return -ENOMEM;
			}
			s->cpus[s->nr_cpus++] = c;
		}
	}
	return s->present ? 0 : -EINVAL;
}

void schedstat_free(struct schedstat *s)
{
	free(s->cpus);
	s->cpus = NULL;
	s->nr_cpus = 0;
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
