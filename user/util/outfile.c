// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/outfile.h"

#define NAME_TRIES 100

struct outfile {
	char *path;		/* the target */
	char *tmp;		/* the named temporary file, or NULL */
	int fd;
	int flags;
	int unnamed;		/* O_TMPFILE: given a name at close */
};

/* An existing target may be replaced only if it is a regular file. */
static int check_target(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return S_ISREG(st.st_mode) ? 0 : -ERROR_NOT_REGULAR;
}

/* "@path.XXXXXXXX.part" with a random XXXXXXXX (malloc'ed). */
static char *temp_name(const char *path)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	unsigned char rnd[8];
	char suffix[sizeof(rnd) + 1], *name;
	unsigned int i;

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		/* No entropy yet (early boot): O_EXCL keeps it safe anyway. */
		uint64_t x = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid() << 20 ^
			     (uint64_t)(uintptr_t)&x;

		memcpy(rnd, &x, sizeof(rnd));
	}
	for (i = 0; i < sizeof(rnd); i++)
		suffix[i] = digits[rnd[i] % (sizeof(digits) - 1)];
	suffix[i] = '\0';
	return asprintf(&name, "%s.%s.part", path, suffix) < 0 ? NULL : name;
}

/* The directory @path is in, for O_TMPFILE (malloc'ed). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, slash - path);
}

/*
 * Call @make with new temporary names until one is free (-EEXIST means
 * taken): 0 with the name in of->tmp, or -errno.
 */
static int with_temp_name(struct outfile *of, mode_t mode,
			  int (*make)(struct outfile *of, mode_t mode))
{
	int i, ret = -EEXIST;

	for (i = 0; i < NAME_TRIES && ret == -EEXIST; i++) {
		free(of->tmp);
		of->tmp = temp_name(of->path);
		ret = of->tmp ? make(of, mode) : -ENOMEM;
	}
	if (ret) {
		free(of->tmp);
		of->tmp = NULL;
	}
	return ret;
}

static int create_named(struct outfile *of, mode_t mode)
{
	of->fd = open(of->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return of->fd < 0 ? -errno : 0;
}

static int open_named(struct outfile *of, mode_t mode)
{
	return with_temp_name(of, mode, create_named);
}

/* O_TMPFILE where the file system has it (and /proc, to link it later). */
static int open_unnamed(struct outfile *of, mode_t mode)
{
	char *dir = dir_of(of->path);

	if (!dir)
		return -ENOMEM;
	of->fd = access("/proc/self/fd", X_OK) ? -1 :
		open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	free(dir);
	if (of->fd >= 0) {
		of->unnamed = 1;
		return 0;
	}
	if (errno == EACCES || errno == ENOENT || errno == ENOTDIR || errno == EROFS)
		return -errno;
	return open_named(of, mode);	/* EOPNOTSUPP, EISDIR: no O_TMPFILE here */
}

static int open_in_place(struct outfile *of, mode_t mode)
{
	if (unlink(of->path) && errno != ENOENT)
		return -errno;
	/* A name planted since the check makes this fail, not follow it. */
	of->fd = open(of->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return of->fd < 0 ? -errno : 0;
}

struct outfile *outfile_open(const char *path, mode_t mode, int flags)
{
	struct outfile *of = calloc(1, sizeof(*of));
	int ret;

	if (!of) {
		errno = ENOMEM;
		return NULL;
	}
	of->fd = -1;
	of->flags = flags;
	of->path = strdup(path);
	ret = of->path ? check_target(path) : -ENOMEM;
	if (!ret) {
		if (flags & OUTFILE_IN_PLACE)
			ret = open_in_place(of, mode);
		else if (flags & OUTFILE_NAMED)
			ret = open_named(of, mode);
		else
			ret = open_unnamed(of, mode);
	}
	if (ret) {
		free(of->path);
		free(of->tmp);
		free(of);
		errno = -ret;
		return NULL;
	}
	return of;
}

int outfile_fd(const struct outfile *of)
{
	return of->fd;
}

/* Give the unnamed file a temporary name beside the target. */
static int link_unnamed(struct outfile *of, mode_t mode)
{
	char proc[64];

	(void)mode;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", of->fd);
	/* linkat never follows a symlink at the new name. */
	return linkat(AT_FDCWD, proc, AT_FDCWD, of->tmp, AT_SYMLINK_FOLLOW) ? -errno : 0;
}

static void outfile_free(struct outfile *of)
{
	free(of->path);
	free(of->tmp);
	free(of);
}

int outfile_close(struct outfile *of)
{
	int ret = 0;

	if (fsync(of->fd) && errno != EINVAL)	/* EINVAL: a file that cannot sync */
		ret = -errno;
	if (!ret && of->unnamed)
		ret = with_temp_name(of, 0, link_unnamed);
	if (close(of->fd) && !ret)
		ret = -errno;
	if (!ret && of->tmp && rename(of->tmp, of->path))
		ret = -errno;
	if (ret && of->tmp)
		unlink(of->tmp);
	outfile_free(of);
	return ret;
}

void outfile_discard(struct outfile *of)
{
	close(of->fd);
	if (of->tmp)
		unlink(of->tmp);
	else if (of->flags & OUTFILE_IN_PLACE)
		unlink(of->path);
	outfile_free(of);
}
