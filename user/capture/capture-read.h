/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture file reader: checks the file header, indexes the chunks, reads
 * metadata sections whole and CPU streams chunk by chunk. A file cut short
 * reads up to its last complete chunk and says where it ends; a damaged
 * chunk (bad header or CRC) is an error naming the chunk and offset.
 */
#ifndef KTPROF_CAPTURE_READ_H
#define KTPROF_CAPTURE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/capture-format.h"
#include "util/error.h"

struct capture_reader;
struct capture_stream;

struct capture_status {
	uint16_t major, minor;
	uint64_t chunks;	/* complete chunks */
	uint64_t file_size;
	int complete;		/* the END chunk is there */
	uint64_t end_offset;	/* where the readable part ends */
	char problem[256];	/* why it ends there, "" when complete */
};

/* NULL with the reason in @err (not a capture, newer major, ...). */
struct capture_reader *capture_reader_open(const char *path, struct error *err);
void capture_reader_close(struct capture_reader *r);

const struct capture_status *capture_reader_status(const struct capture_reader *r);

/*
 * A metadata section, uncompressed, NUL-terminated: chunks of @type
 * concatenated (KALLSYMS, MODULES, PROCMAPS, FILES) or the last one (META,
 * TOPOLOGY, STATS, END). NULL with errno: ENOENT absent, EBADMSG damaged.
 */
void *capture_reader_section(struct capture_reader *r, enum ktpc_chunk_type type,
			     size_t *len);

/*
 * Whether every CPU stream has its FILES chunk (format 1.1 writers), so
 * that section KTPC_FILES holds all FILE records of the capture.
 */
int capture_reader_files_complete(const struct capture_reader *r);

/* The CPUs with stream data, ascending; returns the count. */
unsigned int capture_reader_cpus(const struct capture_reader *r,
				 const uint32_t **cpus);

/* Raw relay bytes of one CPU, chunk by chunk. */
struct capture_stream *capture_stream_open(struct capture_reader *r, uint32_t cpu);
void capture_stream_close(struct capture_stream *s);
/* merge_read_fn: bytes, 0 at the end, -EBADMSG for a damaged chunk. */
ssize_t capture_stream_read(void *stream, void *buf, size_t len);

/* Check every chunk's CRC; 0 or -EBADMSG with status->problem set. */
int capture_reader_verify(struct capture_reader *r);
/* The same for every chunk but the streams. */
int capture_reader_verify_meta(struct capture_reader *r);

#endif
