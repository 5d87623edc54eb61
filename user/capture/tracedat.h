/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-cmd's trace.dat as input: what ftrace recorded, translated into
 * module records, one stream per CPU, in memory (capture/ftrace-translate.h
 * says how, and what a trace lacks). The translation runs in a child
 * process: libtracecmd crashes on some damaged files (a NULL dereference
 * in tracecmd_close() on tracecmd_open_fd()'s failure path, in Debian's
 * 3.1.6) and prints to stderr, so the child's output is thrown away, its
 * results come back through a pipe, and a crash, or a child that does not
 * finish in a minute plus a second per MB, is a clear error here.
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
 * in @err ("FILE: no sched_switch events", "FILE: libtracecmd crashed
 * reading it (signal 11): damaged?").
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
