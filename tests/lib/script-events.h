/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture script (script.h) given as text, decoded and merged into one
 * event stream in time order, as the commands see a capture: for unit tests
 * of what consumes events (the task table, the Perfetto views), with
 * expected values worked out by hand from the script's lines.
 */
#ifndef KTPROF_SCRIPT_EVENTS_H
#define KTPROF_SCRIPT_EVENTS_H

#include "decode/merge.h"

/* CLOCK_BOOTTIME of the script's time 0: line "T ..." happens at START + T. */
#define SCRIPT_EVENTS_START 1000000000ull

struct script_events;

/* NULL after printing why (the script's line and error). */
struct script_events *script_events_new(const char *text);
void script_events_free(struct script_events *e);

/* The merge of the script's CPU streams: merge_next(), convert_run(). */
struct merge *script_events_merge(struct script_events *e);

unsigned int script_events_nr_cpus(const struct script_events *e);

#endif
