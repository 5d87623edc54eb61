/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof top --batch` and `--json`: an interval as a block of plain text
 * (as `top -b` prints, for people and scripts), or as one JSON document on
 * one line (fields: docs/top.md). Threads filtered (top_thread_matches())
 * and in the order of @sort.
 */
#ifndef KTPROF_TOP_PRINT_H
#define KTPROF_TOP_PRINT_H

#include <stdio.h>

#include "top/top-stats.h"

struct top_print_opts {
	enum top_sort sort;
	const char *filter;	/* "": every thread */
	unsigned int max_threads;	/* text: at most this many rows; 0: all */
	const char *source;	/* the header's "live: ..." */
};

/* 0, or -EIO when @out failed (-ENOMEM for JSON). */
int top_print_text(FILE *out, struct top_interval *iv, const struct top_print_opts *o);
int top_print_json(FILE *out, struct top_interval *iv, const struct top_print_opts *o);

#endif
