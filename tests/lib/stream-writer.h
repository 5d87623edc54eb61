/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic relay streams for tests and benchmarks: writes records the way
 * the module does (sub-buffer headers, time deltas, loss counters), so
 * tests can inject known drops and damage and check what decodes.
 */
#ifndef KTPROF_STREAM_WRITER_H
#define KTPROF_STREAM_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "ktprof_abi.h"

struct stream_writer {
	uint8_t *buf;
	size_t len, cap;
	size_t subbuf_size;	/* 0: one unbounded sub-buffer */
	size_t subbuf_used;
	uint16_t cpu;
	uint64_t seq;		/* next sub-buffer sequence number */
	uint64_t lost;		/* cumulative records lost */
	uint64_t ts;		/* time of the last record */
	uint64_t session_id;
	uint64_t records;	/* records written, headers excluded */
};

void stream_writer_init(struct stream_writer *w, uint16_t cpu, size_t subbuf_size,
			uint64_t start_ts);
void stream_writer_fini(struct stream_writer *w);

/* Start a sub-buffer at the current time (as the module does when full). */
void stream_writer_subbuf(struct stream_writer *w);
/* Count @n records as dropped: the next sub-buffer header reports them. */
void stream_writer_drop(struct stream_writer *w, uint64_t n);
/* Skip @n sub-buffer sequence numbers (overwritten sub-buffers). */
void stream_writer_skip_subbufs(struct stream_writer *w, uint64_t n);

/*
 * Append the record @rec of @size bytes at time @ts (>= the last); its
 * header is filled in here. The stream may be unaligned: records are copied.
 */
void stream_writer_record(struct stream_writer *w, void *rec, uint8_t type, uint8_t flags,
			  uint16_t size, uint64_t ts);

/* Typed helpers. */
void stream_writer_cpu_mark(struct stream_writer *w, uint64_t ts, uint16_t reason,
			    uint32_t pid);
void stream_writer_task(struct stream_writer *w, uint64_t ts, uint32_t pid,
			uint32_t tgid, const char *comm);
void stream_writer_switch(struct stream_writer *w, uint64_t ts, uint32_t prev,
			  uint16_t prev_state, uint32_t next);
void stream_writer_waking(struct stream_writer *w, uint64_t ts, uint32_t pid,
			  uint16_t target_cpu);
void stream_writer_selftest(struct stream_writer *w, uint64_t ts, uint64_t seq);

/* Append raw bytes (damage). */
void stream_writer_bytes(struct stream_writer *w, const void *p, size_t n);

#endif
