// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture-meta.h"
#include "capture/topology.h"
#include "record/snapshot.h"

/* A /proc file whole (they report no size): malloc'ed, NUL-terminated. */
static char *read_proc(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *nb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		if (n + 1 >= cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb)
				break;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Text into chunks of at most half the chunk limit. */
static int add_text(struct capture_writer *w, enum ktpc_chunk_type type,
		    const char *text, size_t len)
{
	size_t off, step = KTPC_CHUNK_MAX / 2;
	int ret = 0;

	for (off = 0; !ret && off < len; off += step)
		ret = capture_writer_add(w, type, 0, text + off,
					 len - off < step ? len - off : step, 1);
	return ret;
}

/* Some text symbol has a non-zero address (per-CPU data sits at 0). */
static int has_text_addresses(const char *text)
{
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "0000000000000000 ", 17) &&
		    (line[17] == 'T' || line[17] == 't'))
			return 1;
	}
	return 0;
}

int snapshot_kallsyms(struct capture_writer *w, struct error *err)
{
	size_t len;
	char *text = read_proc("/proc/kallsyms", &len);
	int ret;

	if (!text) {
		return error_set(err, -errno, "/proc/kallsyms: %s", strerror(errno));
	}
	/* Without privileges every address reads as zero: useless. */
	if (!has_text_addresses(text)) {
		free(text);
		return error_set(err, -EPERM, "/proc/kallsyms shows no addresses (kptr_restrict?)");
	}
	ret = add_text(w, KTPC_KALLSYMS, text, len);
	free(text);
	return ret;
}

int snapshot_modules(struct capture_writer *w, struct error *err)
{
	size_t len;
	char *text = read_proc("/proc/modules", &len);
	int ret;

	if (!text) {
		return error_set(err, -errno, "/proc/modules: %s", strerror(errno));
	}
	ret = add_text(w, KTPC_MODULES, text, len);
	free(text);
	return ret;
}

int snapshot_topology(struct capture_writer *w, struct error *err)
{
	struct topology_cpu *t;
	int n = topology_read("/sys/devices/system/cpu", &t), ret;

	if (n < 0) {
		return error_set(err, n, "/sys/devices/system/cpu: %s", error_str(n));
	}
	ret = capture_meta_write_topology(w, t, n);
	free(t);
	return ret;
}

int snapshot_procmaps(struct capture_writer *w, struct error *err)
{
	char *all = NULL;
	size_t all_len = 0;
	FILE *out = open_memstream(&all, &all_len);
	struct dirent *de;
	DIR *d = opendir("/proc");
	int ret;

	if (!d || !out) {
		error_set(err, -errno, "/proc: %s", strerror(errno));
		if (d)
			closedir(d);
		if (out)
			fclose(out);
		free(all);
		return -EIO;
	}
	while ((de = readdir(d)) != NULL) {
		char path[300], *maps;
		size_t len;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/maps", de->d_name);
		maps = read_proc(path, &len);
		if (!maps)
			continue;	/* gone meanwhile */
		if (len)
			fprintf(out, "pid %s\n%s", de->d_name, maps);
		free(maps);
	}
	closedir(d);
	fclose(out);
	/* For reference only: past what readers accept, cut at a line. */
	if (all_len > ktpc_section_max(KTPC_PROCMAPS)) {
		all_len = ktpc_section_max(KTPC_PROCMAPS);
		while (all_len && all[all_len - 1] != '\n')
			all_len--;
	}
	ret = add_text(w, KTPC_PROCMAPS, all, all_len);
	free(all);
	return ret;
}
