/* SPDX-License-Identifier: GPL-2.0 */
/* The module's debugfs "stats" text, parsed into per-CPU counters. */
#ifndef KTPROF_STATS_TEXT_H
#define KTPROF_STATS_TEXT_H

#include "control-client.h"

/*
 * Parse "cpu=N records=.. bytes=.. lost=.." lines and their
 * "cpu=N dropped TYPE=.." companions. Returns the CPU count (*out
 * malloc'ed) or -EINVAL when there is no CPU line at all.
 */
int stats_text_parse(const char *text, struct ktp_cpu_stats **out);

#endif
