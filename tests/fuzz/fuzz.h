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
 * A scratch symfs, made at first use: a FIFO at /tmp/ff/app (a FILE record
 * naming it must not block the symbolizer) and a copy of $KTPROF_FUZZ_ELF
 * at /usr/bin/app (the golden scenario's binary).
 */
const char *fuzz_symfs(void);

/*
 * The CRCs and sequence numbers of a capture file's complete chunks made
 * right, so that the fuzzer gets past the checksums; unless bit 0 of the
 * file header's reserved field is set (then damage is kept).
 */
void fuzz_fix_chunks(uint8_t *buf, size_t size);

/* @data as the harnesses' capture file, chunks fixed as above: its path (NULL: no memory). */
const char *fuzz_capture_file(const uint8_t *data, size_t size);

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

/*
 * @path's whole report with its profile, rendered as text, JSON and HTML;
 * aborts when the JSON or the HTML is not valid (below).
 */
void fuzz_report(const char *path, const char *symfs);

/* ktprof diff of @path with itself, rendered likewise. */
void fuzz_diff(const char *path, const char *symfs);

/*
 * Whether @buf is one JSON text as RFC 8259 has it: strict, in UTF-8, with
 * finite numbers, then only white space.
 */
int fuzz_json_valid(const char *buf, size_t len);

/*
 * Whether @buf is an HTML page of ktprof's: a doctype, then only the
 * elements its renderers write, with no event handler attribute and no
 * script URL.
 */
int fuzz_html_valid(const char *buf, size_t len);

#endif
