/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --probe's probes and the markers (report --probes): per probe its
 * hits in the window, by process, and each argument's values (numbers:
 * count, min, percentiles, max; every type: the most frequent values);
 * markers by writer; spans, a begin marker paired with the next end
 * marker of the same text on the same thread (innermost first: spans
 * nest), their count and durations by text.
 */
#ifndef KTPROF_ANALYZE_PROBES_H
#define KTPROF_ANALYZE_PROBES_H

#include "decode/probe-spec.h"
#include "report/hist.h"
#include "report/report.h"
#include "util/u64-map.h"

#define PROBES_TOP 10		/* values and processes listed, the rest summed */

/* One of an argument's (or a probe's pids') most frequent values. */
struct probes_value {
	uint64_t v;		/* a number, or a pid */
	char *s;		/* a string argument's value, else NULL */
	uint64_t count;
};

struct probes_arg {
	uint64_t *v;		/* numbers: every value in the window */
	char **s;		/* strings: every value */
	size_t n, cap;
	/* After the pass: numbers sorted (as the type's sign says). */
	uint64_t min, p50, p99, max;
	struct probes_value top[PROBES_TOP];
	unsigned int ntop;
	uint64_t other;		/* values not in top[] */
};

struct probes_probe {
	const struct probe_spec *spec;
	uint64_t hits;
	int have_module;	/* the module's counts were recorded */
	uint64_t module_hits, module_misses;
	struct u64_map by_pid;	/* pid -> hits (as a pointer-sized count) */
	struct probes_value pids[PROBES_TOP];	/* by hits */
	unsigned int npids;
	uint64_t other_pids;	/* hits of the pids not in pids[] */
	struct probes_arg args[KTP_PROBE_MAX_ARGS];
};

struct probes_span {
	char *name;
	struct hist d;		/* durations, ns */
};

struct probes_open {
	uint32_t pid;
	uint64_t ts;
	char *name;
};

struct analyze_probes {
	struct probe_table table;
	struct probes_probe *probes;	/* table.n */
	uint64_t unknown;	/* hits of an id the capture's list lacks */
	uint64_t marks;
	struct u64_map marks_by_pid;
	struct probes_value mark_pids[PROBES_TOP];
	unsigned int nmark_pids;
	struct probes_span *spans;
	size_t nspans, spans_cap;
	struct probes_open *open;	/* begins not yet ended */
	size_t nopen, open_cap;
	uint64_t unmatched_begin, unmatched_end;
	const struct report *r;
	int error;
};

const struct analyze_probes *analyze_probes(const struct report *r);

extern const struct analyzer analyzer_probes;

#endif
