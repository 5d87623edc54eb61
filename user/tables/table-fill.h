/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture as tables (table-def.h): one pass of the model, its rows to a
 * sink as they come (slices, states, switches, wakeups, irqs, samples...),
 * then the rows that need the whole pass (captures, cpus, processes,
 * threads). Every figure is the model's, as report's analyses see it: a
 * thread's runtime_ns is report's runtime of it.
 */
#ifndef KTPROF_TABLE_FILL_H
#define KTPROF_TABLE_FILL_H

#include "model/filter.h"
#include "tables/table-sink.h"
#include "util/error.h"

struct table_fill_config {
	struct filter filter;	/* the window (--from, --to) and -C only */
	const char *symfs;	/* where binaries are looked for (NULL: as recorded) */
	int symbols;		/* name stack frames (kallsyms, ELF files) */
};

/*
 * Read the capture (or raw dump directory) @path into @sink. 0; 1 when the
 * input ends early or a stream was damaged (the rows hold what was
 * readable; @err's message says where); or a negative error with the
 * reason in @err.
 */
int table_fill(const char *path, const struct table_fill_config *cfg,
	       const struct table_sink *sink, struct error *err);

#endif
