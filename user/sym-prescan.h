/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A symbolizer for a capture: its kallsyms snapshot, plus a first pass that
 * collects the FILE records (written from process context, they can come
 * after the samples that need them). MAP records are not collected here:
 * they must be applied in stream order, by the caller's own pass.
 */
#ifndef KTPROF_SYM_PRESCAN_H
#define KTPROF_SYM_PRESCAN_H

#include <stddef.h>

#include "input.h"
#include "symbolizer.h"

/* NULL with a one-line reason in @err. */
struct symbolizer *symbolizer_for_capture(const char *path, struct ktp_input *in,
					  const char *symfs, char *err,
					  size_t errlen);

#endif
