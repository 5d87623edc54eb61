/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture file writer: chunks appended as data comes, each complete on disk
 * before the next begins. Safe to call from several threads.
 */
#ifndef KTPROF_CAPTURE_WRITE_H
#define KTPROF_CAPTURE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture-format.h"
#include "util/outfile.h"

struct capture_writer;

/*
 * Create @path (mode 0600) through util/outfile.h with its @flags: by
 * default the file appears, replacing a regular file, at close; with
 * OUTFILE_IN_PLACE (the recorder) it is written where it goes, readable
 * up to its last chunk if the writer dies. NULL with errno.
 */
struct capture_writer *capture_writer_open(const char *path, int flags);

/*
 * Append one chunk of @len bytes, zlib-compressed when @compress (a chunk
 * holds at most KTPC_CHUNK_MAX bytes). Returns 0 or -errno.
 */
int capture_writer_add(struct capture_writer *w, enum ktpc_chunk_type type,
		       uint32_t cpu, const void *data, size_t len, int compress);

/*
 * @on 0: store every chunk as it is, compressed or not by the caller's
 * word (synthetic captures whose bytes a fuzzer mutates).
 */
void capture_writer_set_compress(struct capture_writer *w, int on);

/* Append a protobuf-c message as one compressed chunk. */
struct ProtobufCMessage;
int capture_writer_add_message(struct capture_writer *w, enum ktpc_chunk_type type,
			       const struct ProtobufCMessage *msg);

/*
 * Write the END chunk, sync and put the file in place; 0 or -errno (then
 * nothing is left of it but, in place, what was written). Frees @w either way.
 */
int capture_writer_close(struct capture_writer *w);

/*
 * Close without the END chunk: in place, the capture stays and reads as
 * truncated; otherwise nothing is left of it.
 */
/* Close and remove the file, whatever the flags: nothing in it is wanted. */
void capture_writer_discard(struct capture_writer *w);
void capture_writer_abort(struct capture_writer *w);

uint64_t capture_writer_bytes(const struct capture_writer *w);

#endif
