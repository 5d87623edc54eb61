/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-cmd's trace.dat as input: read with Debian's libtracecmd and
 * libtraceevent (no parser of the format here), what ftrace recorded is
 * translated into module records, one stream per CPU, in memory (time and
 * memory linear in the input), as the module would have written them:
 * sched_switch (prev_state as the kernel's own format prints it, so that
 * every kernel's encoding of preemption reads right), the wakings and
 * wakeups, migrations, fork, exec, exit and free, hard and soft irqs,
 * IPIs, work items, power:cpu_idle and cpu_frequency, a TASK record for
 * each task the first time it is named and when its name changes, and a
 * trace's missed events as loss.
 *
 * What ftrace does not record follows docs/report.md's unknown-time
 * rules: no START marks (the task on each CPU at the start is not
 * known, so a CPU's time before its first switch is unknown); a thread's
 * tgid only from what the trace shows (task:task_newtask's clone flags,
 * exec); tracedat_lacks() lists what this input lacks, for `ktprof info`.
 */
#ifndef KTPROF_TRACEDAT_H
#define KTPROF_TRACEDAT_H

#include <stddef.h>
#include <stdint.h>

#include "decode/meta.h"
#include "util/error.h"

struct tracedat;

/*
 * Whether @path begins as a trace.dat does (its magic): 1, 0 (another
 * file), or -errno (it cannot be opened: -ERROR_NOT_REGULAR for a FIFO,
 * a device or a directory).
 */
int tracedat_probe(const char *path);

/*
 * Open and translate the trace.dat @path. NULL on failure with the reason
 * in @err ("FILE: truncated", "FILE: no sched_switch events").
 */
struct tracedat *tracedat_open(const char *path, struct error *err);
void tracedat_close(struct tracedat *td);

/* The session as the module's meta would say it (have_session set). */
const struct meta *tracedat_meta(const struct tracedat *td);
/* The time of the trace's last event. */
uint64_t tracedat_stop_ns(const struct tracedat *td);

/* The streams: their count, and stream @i's CPU and bytes. */
unsigned int tracedat_nr_streams(const struct tracedat *td);
void tracedat_stream(const struct tracedat *td, unsigned int i, uint32_t *cpu,
		     const uint8_t **buf, size_t *len);

/*
 * A kallsyms text ("ADDR t NAME [MOD]" lines) of the symbols the records
 * name (work functions, IPI callbacks), from the trace's own kallsyms;
 * NULL when it has none. libtraceevent answers lookups by address only,
 * so the whole table is not at hand.
 */
const char *tracedat_kallsyms(const struct tracedat *td);

/* What this input lacks, one line each ("no START marks: ..."). */
const char *tracedat_lacks(const struct tracedat *td);

#endif
