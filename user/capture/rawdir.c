// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture-format.h"
#include "capture/rawdir.h"
#include "util/infile.h"

struct rawdir_file {
	uint32_t cpu;
	int fd;
};

struct rawdir {
	int dirfd;
	struct rawdir_file *files;
	unsigned int n;
};

/* The side files and the section of a capture file each stands for. */
static const struct {
	const char *name;
	enum ktpc_chunk_type section;
} side_files[] = {
	{ "meta", KTPC_META }, { "stats", KTPC_STATS },
	{ "kallsyms", KTPC_KALLSYMS }, { "modules", KTPC_MODULES },
	{ "topology", KTPC_TOPOLOGY },
	{ "sched_ext.start", KTPC_META }, { "sched_ext.stop", KTPC_META },
};

/* "cpu" and decimal digits: 1 (CPU in *@cpu), 0 for another name, or -1 when malformed. */
static int cpu_file_name(const char *name, uint32_t *cpu)
{
	const char *p = name + 3;
	uint64_t v = 0;

	if (strncmp(name, "cpu", 3) || *p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v >= KTPC_MAX_CPUS)
			return -1;
	}
	if (*p)
		return 0;	/* cpu0.bak, cpu1~: not ours */
	if (name[3] == '0' && name[4])
		return -1;	/* cpu00, cpu01 */
	*cpu = (uint32_t)v;
	return 1;
}

static int by_cpu(const void *a, const void *b)
{
	const struct rawdir_file *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Open cpu file @name of CPU @cpu into rd->files. */
static int add_cpu_file(struct rawdir *rd, const char *path, const char *name,
			uint32_t cpu, struct error *err)
{
	struct rawdir_file *nf;
	int fd = infile_open(rd->dirfd, name, INFILE_NOFOLLOW);

	if (fd < 0)
		return error_set(err, fd, "%s/%s: %s", path, name, error_str(fd));
	nf = realloc(rd->files, (rd->n + 1) * sizeof(*nf));
	if (!nf) {
		close(fd);
		return error_set(err, -ENOMEM, NULL);
	}
	rd->files = nf;
	rd->files[rd->n++] = (struct rawdir_file){ cpu, fd };
	return 0;
}

static int read_cpu_files(struct rawdir *rd, const char *path, struct error *err)
{
	struct dirent *de;
	int ret = 0, fd;
	DIR *dir;

	fd = dup(rd->dirfd);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		ret = error_set(err, -errno, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	while (!ret && (de = readdir(dir)) != NULL) {
		uint32_t cpu;
		int kind = cpu_file_name(de->d_name, &cpu);

		if (kind < 0)
			ret = error_set(err, -ERROR_DAMAGED,
					"%s/%s: not a CPU file name: cpuN, N below %u without leading zeros",
					path, de->d_name, KTPC_MAX_CPUS);
		else if (kind > 0)
			ret = add_cpu_file(rd, path, de->d_name, cpu, err);
	}
	closedir(dir);
	return ret;
}

struct rawdir *rawdir_open(const char *path, struct error *err)
{
	struct rawdir *rd = calloc(1, sizeof(*rd));

	if (!rd) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	rd->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd->dirfd < 0) {
		error_set(err, -errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (read_cpu_files(rd, path, err))
		goto fail;
	if (!rd->n) {
		error_set(err, -ERROR_NO_STREAMS,
			  "%s: no cpuN files (a raw dump directory is expected)", path);
		goto fail;
	}
	/* Distinct names, each a canonical number: no CPU comes twice. */
	qsort(rd->files, rd->n, sizeof(*rd->files), by_cpu);
	return rd;
fail:
	rawdir_close(rd);
	return NULL;
}

void rawdir_close(struct rawdir *rd)
{
	unsigned int i;

	if (!rd)
		return;
	for (i = 0; i < rd->n; i++)
		close(rd->files[i].fd);
	if (rd->dirfd >= 0)
		close(rd->dirfd);
	free(rd->files);
	free(rd);
}

unsigned int rawdir_nr_cpu_files(const struct rawdir *rd)
{
	return rd->n;
}

static ssize_t read_fd(void *ctx, void *buf, size_t len)
{
	const struct rawdir_file *f = ctx;
	ssize_t n;

	do {
		n = read(f->fd, buf, len);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int rawdir_add_streams(struct rawdir *rd, struct merge *m)
{
	unsigned int i;
	int ret;

	for (i = 0; i < rd->n; i++) {
		ret = merge_add(m, rd->files[i].cpu, read_fd, &rd->files[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int rawdir_read_file(struct rawdir *rd, const char *name, char **text, size_t *len)
{
	size_t i, n;
	int fd, ret;

	for (i = 0; i < sizeof(side_files) / sizeof(side_files[0]); i++)
		if (!strcmp(name, side_files[i].name))
			break;
	if (i == sizeof(side_files) / sizeof(side_files[0]))
		return -EINVAL;
	fd = infile_open(rd->dirfd, name, INFILE_NOFOLLOW);
	if (fd < 0)
		return fd;
	ret = infile_read_all(fd, ktpc_section_max(side_files[i].section), text, &n);
	close(fd);
	if (!ret && len)
		*len = n;
	return ret;
}

uint32_t rawdir_cpu(const struct rawdir *rd, unsigned int i)
{
	return rd->files[i].cpu;
}

ssize_t rawdir_cpu_read(struct rawdir *rd, unsigned int i, void *buf, size_t len)
{
	return read_fd(&rd->files[i], buf, len);
}
