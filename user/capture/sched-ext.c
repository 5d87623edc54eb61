// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/sched-ext.h"

/* The first line of @dir/@name into @buf, without its newline; 0 or -errno. */
static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* All of @dir/@name (bounded by @len) into @buf; 0 or -errno. */
static int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	size_t off = 0;
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	while (off + 1 < len && (n = read(fd, buf + off, len - 1 - off)) > 0)
		off += n;
	close(fd);
	buf[off] = '\0';
	return 0;
}

int sched_ext_read(const char *dir, struct sched_ext *s)
{
	char seq[32] = "";
	struct stat st;
	int ret;

	memset(s, 0, sizeof(*s));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return errno == ENOENT || !errno ? 0 : -errno;
	ret = read_line(dir, "state", s->state, sizeof(s->state));
	if (ret)
		return ret;
	s->present = 1;
	/* No scheduler loaded: root/ops is absent or empty. */
	read_line(dir, "root/ops", s->ops, sizeof(s->ops));
	if (!read_line(dir, "enable_seq", seq, sizeof(seq)))
		s->enable_seq = strtoull(seq, NULL, 10);
	if (!read_line(dir, "switch_all", seq, sizeof(seq)))
		s->switch_all = strtoul(seq, NULL, 10);
	if (!read_line(dir, "nr_rejected", seq, sizeof(seq)))
		s->nr_rejected = strtoull(seq, NULL, 10);
	/* Only while a scheduler is loaded (7.x; 6.12 has none). */
	read_text(dir, "root/events", s->events, sizeof(s->events));
	return 0;
}

int64_t sched_ext_event(const struct sched_ext *s, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = s->events; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return strtoll(p + n + 1, NULL, 10);
	return -1;
}

static void take(char *dst, size_t len, const char *v, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

int sched_ext_parse(const char *text, struct sched_ext *s)
{
	const char *line, *nl;

	memset(s, 0, sizeof(*s));
	for (line = text; line && *line; line = nl ? nl + 1 : NULL) {
		size_t n;

		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		if (!strncmp(line, "state=", 6)) {
			take(s->state, sizeof(s->state), line + 6, n - 6);
			s->present = 1;
		} else if (!strncmp(line, "ops=", 4)) {
			take(s->ops, sizeof(s->ops), line + 4, n - 4);
		} else if (!strncmp(line, "enable_seq=", 11)) {
			s->enable_seq = strtoull(line + 11, NULL, 10);
		}
	}
	return s->present ? 0 : -EINVAL;
}

const char *sched_ext_str(const struct sched_ext *s, char *buf, unsigned int len)
{
	if (!s->present)
		snprintf(buf, len, "not in this kernel");
	else if (s->ops[0])
		snprintf(buf, len, "%s (%s)", s->state, s->ops);
	else
		snprintf(buf, len, "%s", s->state);
	return buf;
}
