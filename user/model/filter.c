// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model/filter.h"
#include "util/units.h"

int filter_parse_cpus(const char *list, uint8_t **out, uint32_t *len)
{
	const char *p = list;
	uint8_t *sel = calloc(FILTER_MAX_CPUS, 1);
	unsigned long a, b;
	char *end;

	if (!sel)
		return -ENOMEM;
	*len = 0;
	while (*p) {
		a = strtoul(p, &end, 10);
		if (end == p || a >= FILTER_MAX_CPUS)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a || b >= FILTER_MAX_CPUS)
				goto bad;
		}
		for (; a <= b; a++)
			sel[a] = 1;
		if (b + 1 > *len)
			*len = b + 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (!*len)
		goto bad;
	*out = sel;
	return 0;
bad:
	free(sel);
	return -EINVAL;
}

/* A process id for -p or a thread id for --tid (@opt, @what) into @ids. */
static int take_id(uint32_t *ids, unsigned int *n, const char *opt, const char *what,
		   const char *arg, struct error *err)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*end || end == arg || !v || v > INT_MAX || errno || *arg == '-')
		return error_set(err, -EINVAL, "%s wants a %s id, not '%s'", opt, what, arg);
	if (*n == FILTER_MAX_PIDS)
		return error_set(err, -EINVAL, "at most %d %s options", FILTER_MAX_PIDS, opt);
	ids[(*n)++] = v;
	return 1;
}

static int take_cpus(struct filter *f, const char *arg, struct error *err)
{
	uint8_t *sel;
	uint32_t len;

	if (strlen(arg) >= sizeof(f->cpus) || filter_parse_cpus(arg, &sel, &len))
		return error_set(err, -EINVAL, "-C wants a CPU list such as 0-3,6, not '%s'", arg);
	free(sel);
	strcpy(f->cpus, arg);
	return 1;
}

/* A path from the cgroup2 root: "/a/b"; a trailing '/' is dropped. */
static int take_cgroup(struct filter *f, const char *arg, struct error *err)
{
	size_t n = strlen(arg);

	if (arg[0] != '/' || n >= sizeof(f->cgroup))
		return error_set(err, -EINVAL, "--cgroup wants a path from the cgroup2 root "
				 "(/system.slice), of at most %zu bytes, not '%s'",
				 sizeof(f->cgroup) - 1, arg);
	while (n > 1 && arg[n - 1] == '/')
		n--;
	memcpy(f->cgroup, arg, n);
	f->cgroup[n] = '\0';
	return 1;
}

int filter_take(struct filter *f, int key, const char *arg, struct error *err)
{
	switch (key) {
	case FILTER_KEY_FROM:
	case FILTER_KEY_TO:
		/* With its unit: "5" could mean seconds or, to a reader, anything. */
		if (units_parse_time(arg, key == FILTER_KEY_FROM ? &f->from_rel : &f->to_rel))
			return error_set(err, -EINVAL,
					 "--%s wants a duration with its unit (500ms, 2s, ...), not '%s'",
					 key == FILTER_KEY_FROM ? "from" : "to", arg);
		*(key == FILTER_KEY_FROM ? &f->have_from : &f->have_to) = 1;
		return 1;
	case FILTER_KEY_PID:
		return take_id(f->pids, &f->nr_pids, "-p", "process", arg, err);
	case FILTER_KEY_TID:
		return take_id(f->tids, &f->nr_tids, "--tid", "thread", arg, err);
	case FILTER_KEY_COMM:
		/* 15 bytes, or their JSON form: two bytes each beyond ASCII (util/text.h). */
		if (!*arg || strlen(arg) >= sizeof(f->comm))
			return error_set(err, -EINVAL,
					 "--comm wants a name of 1 to %d bytes, not '%s'",
					 KTP_COMM_LEN - 1, arg);
		strcpy(f->comm, arg);
		return 1;
	case FILTER_KEY_CPUS:
		return take_cpus(f, arg, err);
	case FILTER_KEY_CGROUP:
		return take_cgroup(f, arg, err);
	}
	return 0;
}

int filter_cgroup_under(const struct filter *f, const char *path)
{
	size_t n = strlen(f->cgroup);

	if (!path || !f->cgroup[0])
		return 0;
	/* "/" is every cgroup; "/a" is "/a" and "/a/...", not "/ab". */
	return !strcmp(f->cgroup, "/") ||
	       (!strncmp(path, f->cgroup, n) && (path[n] == '\0' || path[n] == '/'));
}

int filter_check(const struct filter *f, struct error *err)
{
	if (f->have_from && f->have_to && f->from_rel >= f->to_rel)
		return error_set(err, -EINVAL, "--from must come before --to");
	return 0;
}

static int listed(const uint32_t *ids, unsigned int n, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

int filter_pid_listed(const struct filter *f, uint32_t tgid)
{
	return listed(f->pids, f->nr_pids, tgid);
}

int filter_tid_listed(const struct filter *f, uint32_t tid)
{
	return listed(f->tids, f->nr_tids, tid);
}

int filter_equal(const struct filter *a, const struct filter *b)
{
	return a->have_from == b->have_from && a->have_to == b->have_to &&
	       (!a->have_from || a->from_rel == b->from_rel) &&
	       (!a->have_to || a->to_rel == b->to_rel) && a->nr_pids == b->nr_pids &&
	       !memcmp(a->pids, b->pids, a->nr_pids * sizeof(a->pids[0])) &&
	       a->nr_tids == b->nr_tids &&
	       !memcmp(a->tids, b->tids, a->nr_tids * sizeof(a->tids[0])) &&
	       !strcmp(a->comm, b->comm) && !strcmp(a->cpus, b->cpus) &&
	       !strcmp(a->cgroup, b->cgroup);
}
