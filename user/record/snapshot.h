/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the recorder copies from the system into a capture at start: the
 * kallsyms snapshot, the module list, the CPU topology and every process's
 * mappings (the MAP records cover samples; this covers the rest).
 */
#ifndef KTPROF_SNAPSHOT_H
#define KTPROF_SNAPSHOT_H

#include "capture/capture-write.h"

/* Each returns 0 or -errno, with a one-line reason in @err. */
int snapshot_kallsyms(struct capture_writer *w, char *err, size_t errlen);
int snapshot_modules(struct capture_writer *w, char *err, size_t errlen);
int snapshot_topology(struct capture_writer *w, char *err, size_t errlen);
int snapshot_procmaps(struct capture_writer *w, char *err, size_t errlen);

#endif
