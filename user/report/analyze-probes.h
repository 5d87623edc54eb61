/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --probe's probes and the markers (report --probes): per probe its
 * hits in the window, by process and by thread, and each argument's values
 * (numbers: count, min, percentiles, max; every type: the most frequent
 * values) and the most frequent stacks of a probe that takes them; markers by writer; spans (report/spans.h) of begin and end
 * markers, and of each probe pair (record --span): their count, durations
 * (by process and thread too) and their threads' time in each state, by
 * name.
 */
#ifndef KTPROF_ANALYZE_PROBES_H
#define KTPROF_ANALYZE_PROBES_H

#include "decode/probe-spec.h"
#include "decode/span-spec.h"
#include "report/probe-stacks.h"
#include "report/probe-values.h"
#include "report/report.h"
#include "report/spans.h"
#include "util/u64-map.h"

/* Processes, threads and marker writers listed, as values are; the rest summed. */
#define PROBES_TOP PROBE_VALUES_TOP

struct probes_probe {
	const struct probe_spec *spec;
	uint64_t hits;
	int have_module;	/* the module's counts were recorded */
	uint64_t module_hits, module_misses;
	struct u64_map by_thread;	/* thread key -> hits (a pointer-sized count) */
	struct probe_value procs[PROBES_TOP];	/* by hits: tgid */
	unsigned int nprocs;
	uint64_t other_procs;	/* hits of the processes not in procs[] */
	struct probe_value threads[PROBES_TOP];	/* by hits: thread key */
	unsigned int nthreads;
	uint64_t other_threads;
	struct probe_values args[KTP_PROBE_MAX_ARGS];
	struct probe_stacks stacks;	/* with record --probe ... stack */
};

struct analyze_probes {
	struct probe_table table;
	struct probes_probe *probes;	/* table.n */
	uint64_t unknown;	/* hits of an id the capture's list lacks */
	uint64_t marks;
	struct u64_map marks_by_pid;
	struct probe_value mark_pids[PROBES_TOP];
	unsigned int nmark_pids;
	struct spans spans;		/* of the markers */
	struct span_table span_table;	/* record --span's pairs */
	struct spans *pairs;		/* span_table.n: the spans of each */
	const struct report *r;
	int error;
};

const struct analyze_probes *analyze_probes(const struct report *r);

extern const struct analyzer analyzer_probes;

#endif
