/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The translation of trace-cmd's trace.dat into module records
 * (capture/tracedat.h runs it in a child process: libtracecmd may crash
 * on damaged input). Read with Debian's libtracecmd and libtraceevent (no
 * parser of the format here), what ftrace recorded becomes module
 * records, one stream per CPU, in memory (time and memory linear in the
 * input), as the module would have written them: sched_switch (prev_state
 * as the kernel's own format prints it, so that every kernel's encoding
 * of preemption reads right), the wakings and wakeups, migrations, fork,
 * exec, exit and free, hard and soft irqs, IPIs, work items,
 * power:cpu_idle and cpu_frequency, a TASK record for each task the first
 * time it is named and when its name changes, and a trace's missed events
 * as loss.
 *
 * What ftrace does not record follows docs/report.md's unknown-time
 * rules: no START marks (the task on each CPU at the start is not known,
 * so a CPU's time before its first switch is unknown); a thread's tgid
 * only from what the trace shows (task:task_newtask's clone flags, exec);
 * ftrace_translate_lacks() lists what the input lacks, for `ktprof info`.
 */
#ifndef KTPROF_FTRACE_TRANSLATE_H
#define KTPROF_FTRACE_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#include "decode/meta.h"
#include "util/error.h"

struct ftrace_translate;

/*
 * Open and translate the trace.dat @path (a regular file: infile_open()).
 * NULL on failure with the reason in @err ("FILE: no sched_switch
 * events"). libtracecmd may crash or print on damaged input.
 */
struct ftrace_translate *ftrace_translate_open(const char *path, struct error *err);
void ftrace_translate_close(struct ftrace_translate *td);

/* The session as the module's meta would say it (have_session set). */
const struct meta *ftrace_translate_meta(const struct ftrace_translate *td);
/* The time of the trace's last event. */
uint64_t ftrace_translate_stop_ns(const struct ftrace_translate *td);

/* The streams: their count, and stream @i's CPU and bytes. */
unsigned int ftrace_translate_nr_streams(const struct ftrace_translate *td);
void ftrace_translate_stream(const struct ftrace_translate *td, unsigned int i, uint32_t *cpu,
		     const uint8_t **buf, size_t *len);

/*
 * A kallsyms text ("ADDR t NAME [MOD]" lines) of the symbols the records
 * name (work functions, IPI callbacks), from the trace's own kallsyms;
 * NULL when it has none. libtraceevent answers lookups by address only,
 * so the whole table is not at hand.
 */
const char *ftrace_translate_kallsyms(const struct ftrace_translate *td);

/* What this input lacks, one line each ("no START marks: ..."). */
const char *ftrace_translate_lacks(const struct ftrace_translate *td);

#endif
