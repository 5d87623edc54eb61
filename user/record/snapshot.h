/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the recorder copies from the system into a capture at start: the
 * kallsyms snapshot, the module list, the CPU topology and every process's
 * mappings (the MAP records cover samples; this covers the rest).
 */
#ifndef KTPROF_SNAPSHOT_H
#define KTPROF_SNAPSHOT_H

#include "capture/capture-write.h"
#include "util/error.h"

/* Each returns 0 or -errno, with the reason in @err. */
int snapshot_kallsyms(struct capture_writer *w, struct error *err);
int snapshot_modules(struct capture_writer *w, struct error *err);
int snapshot_topology(struct capture_writer *w, struct error *err);
int snapshot_procmaps(struct capture_writer *w, struct error *err);

#endif
