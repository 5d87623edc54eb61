/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files ktprof writes (captures, traces, pages), created safely: whatever
 * lies in the target's directory (a symlink planted at the target or at a
 * temporary name, a FIFO, a device) is never followed, opened or written
 * through. Every command that writes a file goes through here.
 *
 * By default the data goes to an unnamed file in the target's directory
 * (O_TMPFILE; where the file system lacks it, a new file with a random
 * name, created with O_EXCL | O_NOFOLLOW), renamed over the target when
 * complete: the target is either its old self or complete, and a process
 * killed midway leaves nothing behind (a named temporary file stays).
 */
#ifndef KTPROF_OUTFILE_H
#define KTPROF_OUTFILE_H

#include <sys/types.h>

/*
 * Write the target itself, created with O_EXCL | O_NOFOLLOW after an old
 * regular file of that name is removed: for the recorder, whose capture
 * must be readable up to its last chunk if the process dies.
 */
#define OUTFILE_IN_PLACE 0x1
/* Use a named temporary file even where O_TMPFILE works (tests). */
#define OUTFILE_NAMED 0x2

struct outfile;

/*
 * Start writing @path with permissions @mode (less the umask). NULL with
 * errno: ERROR_NOT_REGULAR (from util/error.h) when @path exists and is
 * not a regular file (a symlink, a directory, a device): it is not
 * replaced.
 */
struct outfile *outfile_open(const char *path, mode_t mode, int flags);

/* The descriptor to write to (owned by @of). */
int outfile_fd(const struct outfile *of);

/*
 * Put the complete file in place: flush it to disk and rename it over the
 * target. 0 or -errno; on failure nothing of it is left. Frees @of.
 */
int outfile_close(struct outfile *of);

/* Give up: remove what was written (in place too). Frees @of. */
void outfile_discard(struct outfile *of);

#endif
