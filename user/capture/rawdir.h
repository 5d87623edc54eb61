/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw dump directory, as a shell-only capture leaves it: cpuN files taken
 * with `cat /sys/kernel/debug/ktprof/cpuN`, plus meta, stats and a copy of
 * /proc/kallsyms. Only those names are opened, relative to the directory,
 * without following symlinks, and only regular files are accepted.
 */
#ifndef KTPROF_RAWDIR_H
#define KTPROF_RAWDIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode/merge.h"

struct rawdir;

/* NULL with errno set (ENODATA: no cpuN file at all). */
struct rawdir *rawdir_open(const char *path);
void rawdir_close(struct rawdir *rd);

/* Add every cpuN stream to @m. */
int rawdir_add_streams(struct rawdir *rd, struct merge *m);

unsigned int rawdir_nr_cpu_files(const struct rawdir *rd);

/* The CPU of cpu file @i (ascending order), and reading it sequentially. */
uint32_t rawdir_cpu(const struct rawdir *rd, unsigned int i);
ssize_t rawdir_cpu_read(struct rawdir *rd, unsigned int i, void *buf, size_t len);

/*
 * Read a whole side file ("meta", "stats", "kallsyms") into a
 * NUL-terminated buffer the caller frees; NULL with errno if absent.
 */
char *rawdir_read_file(struct rawdir *rd, const char *name, size_t *len);

#endif
