/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files ktprof reads that someone else made: capture files, the files of a
 * raw dump directory, binaries a capture names. Only regular files are
 * opened: a FIFO would block, and opening a device can have effects of its
 * own (a watchdog, a tape), so the type is checked on an O_PATH handle,
 * which opens nothing, before the file is opened for reading.
 */
#ifndef KTPROF_INFILE_H
#define KTPROF_INFILE_H

#include <stddef.h>

/* A symlink as the last component of the path is refused. */
#define INFILE_NOFOLLOW 0x1
/*
 * Files of /proc, /sys, debugfs, tracefs and the like are refused: they
 * look regular but reading one can block (trace_pipe), consume data (a
 * relay file) or be endless (/proc/kcore). For paths a capture names.
 */
#define INFILE_DISK_ONLY 0x2

/*
 * Open @path (relative to @dirfd, or AT_FDCWD) for reading. The
 * descriptor (left O_NONBLOCK, which regular files ignore and pseudo files
 * may honour), or -errno: -ERROR_NOT_REGULAR (util/error.h) for anything
 * but a regular file (with INFILE_NOFOLLOW, a symlink too; with
 * INFILE_DISK_ONLY, a pseudo file).
 */
int infile_open(int dirfd, const char *path, int flags);

/*
 * The whole of @fd, NUL-terminated, into *@buf (malloc'ed), its length in
 * *@len. At most @max bytes: a longer file is -ERROR_TOO_LARGE, found out
 * before more than @max bytes are read. 0 or -errno.
 */
int infile_read_all(int fd, size_t max, char **buf, size_t *len);

/*
 * The integer a kernel file begins with (sysfs, /proc/sys: "2400000\n")
 * into *@v. 0, or -1 when it cannot be opened or does not begin with one.
 */
int infile_read_int(const char *path, int *v);

#endif
