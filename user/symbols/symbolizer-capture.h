/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbolizer for a capture's kernel: its kallsyms snapshot. User frames
 * need the capture's MAP and FILE records, which the model feeds it
 * (model/model.h): the symbols layer never reads the event stream.
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

#endif
