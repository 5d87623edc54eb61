/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses of tests/fuzz/ share: a private scratch
 * directory, writing an input out as a file, and walking every event of a
 * merge the way the commands do (fields, symbols) so that each decoder and
 * parser sees what the fuzzer made.
 */
#ifndef KTPROF_FUZZ_H
#define KTPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "decode/merge.h"
#include "symbols/symbolizer.h"

/* The harness's own directory under $TMPDIR, made at first use. */
const char *fuzz_dir(void);

/* Write @len bytes of @data to @path (replacing it); aborts on failure. */
void fuzz_write(const char *path, const void *data, size_t len);

/*
 * Every event of @m, each through record_fields() and, with @sym, the
 * symbolizer (MAP/FILE records, then sample frames). Returns merge_next()'s
 * last result.
 */
int fuzz_drain(struct merge *m, struct symbolizer *sym);

/*
 * The capture or raw dump directory @path as dump --symbolize and info
 * read it (binaries under @symfs): metadata, topology, kallsyms, every
 * event (a damaged stream ends only itself), every chunk's checksum.
 */
void fuzz_input(const char *path, const char *symfs);

/* @path's whole report with its profile, rendered as text and JSON. */
void fuzz_report(const char *path, const char *symfs);

#endif
