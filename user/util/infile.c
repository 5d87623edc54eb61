// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "util/error.h"
#include "util/infile.h"

#define READ_FIRST 65536

static int same_regular(int fd, const struct stat *want)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	return S_ISREG(st.st_mode) && st.st_dev == want->st_dev &&
	       st.st_ino == want->st_ino ? 0 : -ERROR_NOT_REGULAR;
}

/* Kernel pseudo file systems, whose "regular" files are no data. */
static int on_pseudo_fs(int fd)
{
	static const unsigned long magic[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC,
		SECURITYFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
		BPF_FS_MAGIC, PSTOREFS_MAGIC, EFIVARFS_MAGIC,
	};
	struct statfs sf;
	unsigned int i;

	if (fstatfs(fd, &sf))
		return -errno;
	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if ((unsigned long)sf.f_type == magic[i])
			return -ERROR_NOT_REGULAR;
	return 0;
}

int infile_open(int dirfd, const char *path, int flags)
{
	int nofollow = flags & INFILE_NOFOLLOW ? O_NOFOLLOW : 0, handle, fd, ret;
	char proc[64];
	struct stat st;

	/* O_PATH opens no FIFO or device: it only names the inode. */
	handle = openat(dirfd, path, O_PATH | O_CLOEXEC | nofollow);
	if (handle < 0)
		return -errno;
	ret = fstat(handle, &st) ? -errno : S_ISREG(st.st_mode) ? 0 : -ERROR_NOT_REGULAR;
	if (!ret && (flags & INFILE_DISK_ONLY))
		ret = on_pseudo_fs(handle);
	if (ret) {
		close(handle);
		return ret;
	}
	/* The same inode, opened for reading (without /proc: by name again). */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", handle);
	fd = open(proc, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)
		fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | nofollow);
	ret = fd < 0 ? -errno : same_regular(fd, &st);
	close(handle);
	if (ret) {
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return fd;
}

int infile_read_all(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 0, n = 0;
	char *b = NULL, *nb;
	ssize_t r;

	for (;;) {
		if (n == cap) {
			/* One byte past @max tells a file of exactly @max from a longer one. */
			size_t want = cap ? cap * 2 : READ_FIRST;

			if (want > max + 1)
				want = max + 1;
			if (n == want) {
				free(b);
				return -ERROR_TOO_LARGE;
			}
			nb = realloc(b, want + 1);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap = want;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return -errno;
		}
		if (r == 0)
			break;
		n += r;
	}
	if (n > max) {
		free(b);
		return -ERROR_TOO_LARGE;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int infile_read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}
