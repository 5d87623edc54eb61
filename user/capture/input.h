/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What analysis commands read: a raw dump directory, a capture file or
 * trace-cmd's trace.dat (translated: capture/tracedat.h), seen the same
 * way: session metadata plus per-CPU record streams.
 */
#ifndef KTPROF_INPUT_H
#define KTPROF_INPUT_H

#include "decode/merge.h"
#include "decode/meta.h"
#include "util/error.h"

struct input;

/*
 * Open @path. On failure returns NULL with the reason in @err (e.g. "DIR:
 * no cpuN files", "FILE: record ABI 2.0; this ktprof reads 1.x").
 */
struct input *input_open(const char *path, struct error *err);
void input_close(struct input *in);

/*
 * A live session's (`ktprof top`): its metadata, and the stream of CPU i
 * from queues[i] (NULL: none), which the recorder's readers fill. The
 * queues stay the caller's; the merge reads them with a watermark
 * (merge_set_watermark()).
 */
struct byte_queue;
struct input *input_live_new(const struct meta *meta, struct byte_queue **queues,
			     unsigned int n, struct error *err);

/* Session metadata; NULL when the input has none (a dump without meta). */
const struct meta *input_meta(const struct input *in);

/* CLOCK_BOOTTIME when the session stopped, or 0 when the input does not say. */
uint64_t input_stop_ns(const struct input *in);

/* sched_ext at the session's start or stop (present = 0: nothing known). */
struct sched_ext;
const struct sched_ext *input_sched_ext(const struct input *in, int at_stop);
/* /proc/schedstat's text at the session's start or stop; NULL if none. */
const char *input_schedstat(const struct input *in, int at_stop);
/* kernel.sched_schedstats in the session: 1 on, 0 off, -1 not recorded. */
int input_schedstats_enabled(const struct input *in);
/*
 * The cgroup2 id -> path table's text (capture/cgroup-table.h) at the
 * session's start or stop; NULL if none.
 */
const char *input_cgroups(const struct input *in, int at_stop);
/* Each cgroup's cpu.stat at start or stop (capture/cgroup-cpu.h), or NULL. */
const char *input_cgroup_cpu(const struct input *in, int at_stop);
/* --probe's list (decode/probe-spec.h's probe_table text), or NULL. */
const char *input_probes(const struct input *in);
/* The module's counts at stop, "ID HITS MISSES" a line, or NULL. */
const char *input_probe_stats(const struct input *in);
/* --span's list (decode/span-spec.h's span_table text), or NULL. */
const char *input_spans(const struct input *in);
/* The recording host's name (a capture file's metadata), or NULL. */
const char *input_hostname(const struct input *in);

/*
 * The CPU topology recorded with the capture (or a raw dump directory's
 * "topology" file): the count, *out malloc'ed; 0 when there is none (or
 * it cannot be read: the analyses do without).
 */
struct topology_cpu;
int input_topology(struct input *in, struct topology_cpu **out);

/* CPUs the session knew: its nr_cpus, or above the highest stream's CPU. */
unsigned int input_nr_cpus(const struct input *in);

/* Add every CPU stream to @m. */
int input_add_streams(struct input *in, struct merge *m);

/*
 * Why a capture file's readable part ends early ("truncated at ...") or why
 * a read failed with -EBADMSG; "" otherwise.
 */
const char *input_problem(const struct input *in);

/* The capture reader behind @in, or NULL for a raw dump directory or a trace.dat. */
struct capture_reader;
struct capture_reader *input_capture(struct input *in);

/* The trace.dat behind @in (its translation's notes), or NULL. */
struct tracedat;
struct tracedat *input_tracedat(struct input *in);

/*
 * The /proc/kallsyms snapshot taken with the capture: 0 with *@text, NULL
 * when there is none; or -errno with the reason in @err (damaged, larger
 * than a kallsyms may be, not a regular file).
 */
int input_kallsyms(struct input *in, const char **text, struct error *err);

#endif
