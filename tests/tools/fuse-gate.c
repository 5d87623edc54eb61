// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: a FUSE file system whose reads can be made to hang, like an
 * NFS server or FUSE daemon that stops answering (vm/fuse-file). It is
 * read-only and holds COPIES executable files (default 1) with FILE's
 * contents: prog, prog1, prog2 ... Each is an inode of its own, so the
 * kernel reads each for itself (vm/fuse-file counts how many files of one
 * device it reads at once).
 *
 * While the file GATE exists, READ requests of these files do not answer:
 * they wait (polling every 10 ms) until GATE is removed. Each gated read
 * appends "gated pid=PID off=OFF size=SIZE path=PATH" to LOG when it
 * arrives, so the test knows that a read is blocked, whose it is and of
 * which file, and "released pid=PID path=PATH" when it answers. Reads
 * answered at once append "read pid=PID off=OFF size=SIZE path=PATH", so
 * the test also sees the reads after the gate opened. Every other request
 * (lookup, getattr, open, readdir) is answered at once: the multi-threaded
 * loop serves them while reads wait.
 *
 * The files are opened with direct_io, so that every read(2) and
 * kernel_read() of an open one goes to this daemon instead of the page
 * cache. Private mappings (exec) still go through the page cache
 * (fuse_file_mmap()), so a program that has faulted its pages in runs on
 * with the gate closed.
 *
 * Runs in the foreground until the file system is unmounted.
 *
 * usage: fuse-gate MOUNTPOINT FILE GATE LOG [COPIES]
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *gate_path;
static int log_fd;
static char *data;
static size_t data_len;
static unsigned long copies = 1;

/* Whether PATH is one of the copies: /prog, /prog1 ... /prog<COPIES-1>. */
static int is_copy(const char *path)
{
	unsigned long n;
	char *end;

	if (strncmp(path, "/prog", 5))
		return 0;
	if (!path[5])
		return 1;
	/* prog1, not prog01 or prog+1. */
	if (path[5] < '1' || path[5] > '9')
		return 0;
	errno = 0;
	n = strtoul(path + 5, &end, 10);
	return !errno && !*end && n < copies;
}

static int gate_getattr(const char *path, struct stat *st,
			struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
	} else if (is_copy(path)) {
		st->st_mode = S_IFREG | 0555;
		st->st_nlink = 1;
		st->st_size = data_len;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int gate_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
			off_t off, struct fuse_file_info *fi,
			enum fuse_readdir_flags flags)
{
	char name[32];
	unsigned long i;

	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "prog", NULL, 0, 0);
	for (i = 1; i < copies; i++) {
		snprintf(name, sizeof(name), "prog%lu", i);
		fill(buf, name, NULL, 0, 0);
	}
	return 0;
}

static int gate_open(const char *path, struct fuse_file_info *fi)
{
	if (!is_copy(path))
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	/* Every read of this open file comes here, none from the page cache. */
	fi->direct_io = 1;
	/*
	 * An open without keep_cache drops the page cache, and with it the
	 * pages the running program maps: its next fault would hit the gate.
	 */
	fi->keep_cache = 1;
	return 0;
}

/* One line to LOG; O_APPEND keeps the lines of concurrent reads whole. */
static __attribute__((format(printf, 1, 2))) void log_line(const char *fmt, ...)
{
	char line[PATH_MAX + 128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* Cut short, not past the buffer, should a path not fit. */
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (n > 0 && write(log_fd, line, n) != n)
		perror("fuse-gate: log");
}

static int gate_read(const char *path, char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	pid_t pid = fuse_get_context()->pid;

	(void)fi;
	if (access(gate_path, F_OK) == 0) {
		/* The path last: "gated pid=" lines parse as they always did. */
		log_line("gated pid=%d off=%lld size=%zu path=%s\n", (int)pid,
			 (long long)off, size, path);
		/* Poll, not inotify: the gate is a file in any directory. */
		while (access(gate_path, F_OK) == 0)
			nanosleep(&tick, NULL);
		log_line("released pid=%d path=%s\n", (int)pid, path);
	} else {
		log_line("read pid=%d off=%lld size=%zu path=%s\n", (int)pid,
			 (long long)off, size, path);
	}
	if (off < 0 || (size_t)off >= data_len)
		return 0;
	if (size > data_len - off)
		size = data_len - off;
	memcpy(buf, data + off, size);
	return size;
}

static const struct fuse_operations gate_ops = {
	.getattr = gate_getattr,
	.readdir = gate_readdir,
	.open = gate_open,
	.read = gate_read,
};

/* FILE's contents, whole, into data. */
static int load(const char *file)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return -1;
	data_len = st.st_size;
	data = malloc(data_len ? data_len : 1);
	if (!data)
		return -1;
	while (got < data_len) {
		n = read(fd, data + got, data_len - got);
		if (n <= 0)
			return -1;
		got += n;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	/* Foreground (the test backgrounds us), multi-threaded, read-only. */
	char *fuse_argv[] = { argv[0], "-f", "-o", "ro,fsname=fuse-gate",
			      NULL, NULL };
	char *end;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: fuse-gate MOUNTPOINT FILE GATE LOG [COPIES]\n");
		return 2;
	}
	if (argc == 6) {
		errno = 0;
		copies = strtoul(argv[5], &end, 10);
		if (errno || *end || !copies || copies > 1000) {
			fprintf(stderr, "fuse-gate: COPIES: 1 to 1000, not '%s'\n",
				argv[5]);
			return 2;
		}
	}
	if (load(argv[2])) {
		perror(argv[2]);
		return 1;
	}
	gate_path = argv[3];
	log_fd = open(argv[4], O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (log_fd < 0) {
		perror(argv[4]);
		return 1;
	}
	fuse_argv[4] = argv[1];
	return fuse_main(5, fuse_argv, &gate_ops, NULL);
}
