// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/rawdir.h"

struct rawdir_file {
	int cpu;
	int fd;
};

struct rawdir {
	int dirfd;
	struct rawdir_file *files;
	unsigned int n;
};

/* "cpu" followed by a decimal CPU number, nothing else. */
static int cpu_file_number(const char *name)
{
	char *end;
	long cpu;

	if (strncmp(name, "cpu", 3) || name[3] < '0' || name[3] > '9')
		return -1;
	cpu = strtol(name + 3, &end, 10);
	if (*end || cpu < 0 || cpu > 65535)
		return -1;
	return (int)cpu;
}

static int open_regular(int dirfd, const char *name)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static int by_cpu(const void *a, const void *b)
{
	const struct rawdir_file *x = a, *y = b;

	return x->cpu - y->cpu;
}

struct rawdir *rawdir_open(const char *path)
{
	struct rawdir *rd = calloc(1, sizeof(*rd));
	struct dirent *de;
	DIR *dir;
	int err;

	if (!rd)
		return NULL;
	rd->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd->dirfd < 0)
		goto fail;
	dir = fdopendir(dup(rd->dirfd));
	if (!dir)
		goto fail;
	while ((de = readdir(dir)) != NULL) {
		int cpu = cpu_file_number(de->d_name), fd;
		struct rawdir_file *nf;

		if (cpu < 0)
			continue;
		fd = open_regular(rd->dirfd, de->d_name);
		if (fd < 0)
			continue;
		nf = realloc(rd->files, (rd->n + 1) * sizeof(*nf));
		if (!nf) {
			close(fd);
			closedir(dir);
			errno = ENOMEM;
			goto fail;
		}
		rd->files = nf;
		rd->files[rd->n++] = (struct rawdir_file){ cpu, fd };
	}
	closedir(dir);
	if (!rd->n) {
		errno = ENODATA;
		goto fail;
	}
	qsort(rd->files, rd->n, sizeof(*rd->files), by_cpu);
	return rd;
fail:
	err = errno;
	rawdir_close(rd);
	errno = err;
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

char *rawdir_read_file(struct rawdir *rd, const char *name, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = NULL, *nb;
	ssize_t r;
	int fd, err;

	fd = open_regular(rd->dirfd, name);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (!buf || n + 1 >= cap) {
			cap = buf ? cap * 2 : cap;
			nb = realloc(buf, cap);
			if (!nb) {
				errno = ENOMEM;
				goto fail;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	err = errno;
	close(fd);
	free(buf);
	errno = err;
	return NULL;
}

uint32_t rawdir_cpu(const struct rawdir *rd, unsigned int i)
{
	return rd->files[i].cpu;
}

ssize_t rawdir_cpu_read(struct rawdir *rd, unsigned int i, void *buf, size_t len)
{
	return read_fd(&rd->files[i], buf, len);
}
