/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw dump directory, as a shell-only capture leaves it: cpuN files taken
 * with `cat /sys/kernel/debug/ktprof/cpuN`, plus meta, stats and a copy of
 * /proc/kallsyms. Only those names are opened, relative to the directory,
 * without following symlinks; anything but a regular file under one of
 * them is an error, found before it is opened (a FIFO would block).
 */
#ifndef KTPROF_RAWDIR_H
#define KTPROF_RAWDIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode/merge.h"
#include "util/error.h"

struct rawdir;

/*
 * Open @path and its cpuN files: N is a CPU number below KTPC_MAX_CPUS,
 * without leading zeros (cpu00 beside cpu0 would be read twice). NULL
 * with the reason in @err: -ERROR_NO_STREAMS when there is no cpuN file.
 */
struct rawdir *rawdir_open(const char *path, struct error *err);
void rawdir_close(struct rawdir *rd);

/* Add every cpuN stream to @m. */
int rawdir_add_streams(struct rawdir *rd, struct merge *m);

unsigned int rawdir_nr_cpu_files(const struct rawdir *rd);

/* The CPU of cpu file @i (ascending order), and reading it sequentially. */
uint32_t rawdir_cpu(const struct rawdir *rd, unsigned int i);
ssize_t rawdir_cpu_read(struct rawdir *rd, unsigned int i, void *buf, size_t len);

/*
 * Read a whole side file ("meta", "stats", "kallsyms", "modules",
 * "topology", "sched_ext.start", "sched_ext.stop") into *@text,
 * NUL-terminated, which the caller frees; its length in *@len (may be
 * NULL). Each name has a size limit: the capture file's for the same
 * section. 0, -ENOENT when absent, -ERROR_NOT_REGULAR, -ERROR_TOO_LARGE,
 * or another -errno.
 */
int rawdir_read_file(struct rawdir *rd, const char *name, char **text, size_t *len);

#endif
