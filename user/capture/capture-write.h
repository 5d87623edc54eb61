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

struct capture_writer;

/* Create @path (mode 0600, replacing a file). NULL with errno. */
struct capture_writer *capture_writer_open(const char *path);

/*
 * Append one chunk of @len bytes, zlib-compressed when @compress (a chunk
 * holds at most KTPC_CHUNK_MAX bytes). Returns 0 or -errno.
 */
int capture_writer_add(struct capture_writer *w, enum ktpc_chunk_type type,
		       uint32_t cpu, const void *data, size_t len, int compress);

/* Append a protobuf-c message as one compressed chunk. */
struct ProtobufCMessage;
int capture_writer_add_message(struct capture_writer *w, enum ktpc_chunk_type type,
			       const struct ProtobufCMessage *msg);

/* Write the END chunk, sync and close; 0 or -errno. Frees @w either way. */
int capture_writer_close(struct capture_writer *w);

/* Close without the END chunk (an aborted capture reads as truncated). */
void capture_writer_abort(struct capture_writer *w);

uint64_t capture_writer_bytes(const struct capture_writer *w);

#endif
