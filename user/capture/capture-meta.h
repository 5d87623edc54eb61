/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metadata sections of a capture, built from what the module, the
 * system and the recorder know: session meta, topology, final stats.
 */
#ifndef KTPROF_CAPTURE_META_H
#define KTPROF_CAPTURE_META_H

#include "capture/capture-write.h"
#include "capture/cpu-stats.h"
#include "capture/sched-ext.h"
#include "capture/topology.h"
#include "decode/meta.h"

struct capture_meta_info {
	const struct meta *meta;
	const char *recorder;		/* "ktprof record", "ktprof import" */
	char *const *options;		/* effective options, KEY=VALUE */
	unsigned int nr_options;
	uint64_t stop_ns;		/* CLOCK_BOOTTIME at stop, 0: unknown */
	const uint32_t *sample_pids;
	unsigned int nr_sample_pids;
	const char *sample_comm;
	uint64_t sample_cgroup;		/* -G's cgroup2 id, 0: none */
	const struct sched_ext *sched_ext_start, *sched_ext_stop;	/* or NULL */
	const char *schedstat_start, *schedstat_stop;	/* /proc/schedstat, or NULL */
	int has_sched_schedstats;	/* kernel.sched_schedstats in the session is known */
	uint32_t sched_schedstats;
	/* cgroup_table_read(), or NULL; left out when META would be too large */
	const char *cgroups_start, *cgroups_stop;
	/* each cgroup's cpu.stat (capture/cgroup-cpu.h), or NULL; left out first */
	const char *cgroup_cpu_start, *cgroup_cpu_stop;
	/* --probe: probe_spec_format() lines, and "ID HITS MISSES" at stop */
	const char *probes, *probe_stats;
	/* --span: span_spec_format() lines */
	const char *spans;
};

int capture_meta_write(struct capture_writer *w,
		       const struct capture_meta_info *info);
int capture_meta_write_topology(struct capture_writer *w,
				const struct topology_cpu *t, unsigned int n);
int capture_meta_write_stats(struct capture_writer *w, const struct cpu_stats *s,
			     unsigned int n, const uint64_t *bytes_read);

#endif
