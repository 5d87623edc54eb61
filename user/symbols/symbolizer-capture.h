/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbolizer for a capture: its kallsyms snapshot, plus a first pass that
 * collects the FILE records (written from process context, they can come
 * after the samples that need them). MAP records are not collected here:
 * they must be applied in stream order, by the caller's own pass.
 */
#ifndef KTPROF_SYMBOLIZER_CAPTURE_H
#define KTPROF_SYMBOLIZER_CAPTURE_H

#include <stddef.h>

#include "capture/input.h"
#include "symbols/symbolizer.h"

/*
 * Kernel frames only (the kallsyms snapshot; a capture without one gives
 * addresses). NULL with the reason in @err: the snapshot is there but
 * cannot be read (damaged, too large, not a regular file).
 */
struct symbolizer *symbolizer_for_kernel(struct input *in, const char *symfs,
					 struct error *err);

/* Kernel and user frames. NULL with the reason in @err. */
struct symbolizer *symbolizer_for_capture(const char *path, struct input *in,
					  const char *symfs, struct error *err);

#endif
