// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/meta.h"
#include "ktprof_abi.h"

static const char *const group_names[] = { "sched", "irq", "softirq", "ipi", "wq", "scx", "power", "wakeup" };

const char *meta_events_str(uint32_t events, char *buf, unsigned int len)
{
	unsigned int i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++) {
		if (!(events & (1u << i)))
			continue;
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%s",
				off ? "," : "", group_names[i]);
	}
	return buf;
}

int meta_parse_events(const char *s, uint32_t *events)
{
	char *copy = strdup(s), *save = NULL, *tok;
	uint32_t mask = 0;
	unsigned int i;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			mask |= KTP_EV_ALL;
			continue;
		}
		for (i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++)
			if (!strcmp(tok, group_names[i]))
				break;
		if (i == sizeof(group_names) / sizeof(group_names[0])) {
			ret = -EINVAL;
			break;
		}
		mask |= 1u << i;
	}
	free(copy);
	if (!ret)
		*events = mask;
	return ret;
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(v, &end, 0);
	return (errno || end == v || *end) ? -EINVAL : 0;
}

static int parse_u32(const char *v, uint32_t *out)
{
	uint64_t x;

	if (parse_u64(v, &x) || x > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)x;
	return 0;
}

static void copy_str(char *dst, size_t size, const char *v)
{
	snprintf(dst, size, "%s", v);
}

/* One key=value line; unknown keys are ignored (newer modules add some). */
static int parse_line(struct meta *m, const char *key, const char *v,
		      unsigned int *seen)
{
	uint32_t u;

	if (!strcmp(key, "abi")) {
		if (sscanf(v, "%u.%u", &m->abi_major, &m->abi_minor) != 2)
			return -EINVAL;
		*seen |= 1;
	} else if (!strcmp(key, "version")) {
		copy_str(m->version, sizeof(m->version), v);
	} else if (!strcmp(key, "kernel")) {
		copy_str(m->kernel, sizeof(m->kernel), v);
		*seen |= 2;
	} else if (!strcmp(key, "machine")) {
		copy_str(m->machine, sizeof(m->machine), v);
	} else if (!strcmp(key, "nr_cpus")) {
		if (parse_u32(v, &m->nr_cpus))
			return -EINVAL;
		*seen |= 4;
	} else if (!strcmp(key, "cpus_online")) {
		copy_str(m->cpus_online, sizeof(m->cpus_online), v);
	} else if (!strcmp(key, "state")) {
		copy_str(m->state, sizeof(m->state), v);
	} else if (!strcmp(key, "session_id")) {
		m->have_session = 1;
		return parse_u64(v, &m->session_id);
	} else if (!strcmp(key, "clock_boottime_ns")) {
		return parse_u64(v, &m->clock_boot);
	} else if (!strcmp(key, "clock_monotonic_ns")) {
		return parse_u64(v, &m->clock_mono);
	} else if (!strcmp(key, "clock_realtime_ns")) {
		return parse_u64(v, &m->clock_real);
	} else if (!strcmp(key, "events")) {
		return *v ? meta_parse_events(v, &m->events) : 0;
	} else if (!strcmp(key, "events_unavailable")) {
		return *v ? meta_parse_events(v, &m->events_unavailable) : 0;
	} else if (!strcmp(key, "subbuf_size")) {
		return parse_u32(v, &m->subbuf_size);
	} else if (!strcmp(key, "n_subbufs")) {
		return parse_u32(v, &m->n_subbufs);
	} else if (!strcmp(key, "overwrite")) {
		if (parse_u32(v, &u))
			return -EINVAL;
		m->overwrite = !!u;
	} else if (!strcmp(key, "cpus")) {
		copy_str(m->cpus, sizeof(m->cpus), v);
	} else if (!strcmp(key, "samples")) {
		copy_str(m->samples, sizeof(m->samples), v);
	} else if (!strcmp(key, "counters")) {
		copy_str(m->counters, sizeof(m->counters), v);
	} else if (!strcmp(key, "stacks")) {
		copy_str(m->stacks, sizeof(m->stacks), v);
	} else if (!strcmp(key, "scx_hooks")) {
		copy_str(m->scx_hooks, sizeof(m->scx_hooks), v);
	} else if (!strcmp(key, "clock")) {
		copy_str(m->clock, sizeof(m->clock), v);
	}
	return 0;
}

int meta_parse(const char *text, struct meta *m)
{
	const char *line = text;
	unsigned int seen = 0;

	memset(m, 0, sizeof(*m));
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512], *eq;

		if (len >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line += len + (nl ? 1 : 0);
		if (!len || buf[0] == '#')
			continue;
		eq = strchr(buf, '=');
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (parse_line(m, buf, eq + 1, &seen))
			return -EINVAL;
	}
	if ((seen & 7) != 7)
		return -EINVAL;
	if (m->abi_major != KTP_ABI_MAJOR)
		return -EPROTONOSUPPORT;
	return 0;
}
