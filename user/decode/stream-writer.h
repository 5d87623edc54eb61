/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The encoder of module records: writes a CPU's relay stream the way the
 * module does (sub-buffer headers, time deltas, absolute TIME records,
 * cumulative loss counts), into memory. Tests and benchmarks make
 * synthetic streams with it (known drops and damage), and the trace.dat
 * translator (capture/tracedat.h) makes what ftrace recorded into streams.
 *
 * Errors are sticky: after an allocation fails, every call returns
 * -ENOMEM and writes nothing; stream_writer_error() tells it.
 */
#ifndef KTPROF_STREAM_WRITER_H
#define KTPROF_STREAM_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "ktprof_abi.h"

struct stream_writer {
	uint8_t *buf;		/* the stream so far, @len bytes */
	size_t len, cap;
	size_t subbuf_size;	/* 0: one unbounded sub-buffer */
	size_t subbuf_used;
	uint16_t cpu;
	uint64_t seq;		/* next sub-buffer sequence number */
	uint64_t lost;		/* cumulative records lost */
	uint64_t ts;		/* time of the last record */
	uint64_t session_id;
	uint64_t records;	/* records written, headers excluded */
	/*
	 * Stamps from a 2 GHz counter reading twice the ns (exactly
	 * convertible), tied to time by CLOCK records as the module's are:
	 * @anchor is the last one's time, if there is one in this sub-buffer.
	 */
	int cycles;
	int anchored;
	uint64_t anchor;
	int err;		/* 0, or the first failure (-ENOMEM) */
};

void stream_writer_init(struct stream_writer *w, uint16_t cpu, size_t subbuf_size,
			uint64_t start_ts);
void stream_writer_fini(struct stream_writer *w);
/* 0, or the first error of any call so far. */
int stream_writer_error(const struct stream_writer *w);

/*
 * Write the records from here as a module of ABI 1.8 does on a machine
 * whose TSC it trusts: stamps from a counter (a CLOCK record after each
 * sub-buffer header and a millisecond at most after the last one, deltas
 * in cycles), and switches without counters or stack as short records.
 */
void stream_writer_use_cycles(struct stream_writer *w);

/* Start a sub-buffer at the current time (as the module does when full). */
int stream_writer_subbuf(struct stream_writer *w);
/* Count @n records as dropped: the next sub-buffer header reports them. */
void stream_writer_drop(struct stream_writer *w, uint64_t n);
/* Skip @n sub-buffer sequence numbers (overwritten sub-buffers). */
void stream_writer_skip_subbufs(struct stream_writer *w, uint64_t n);

/*
 * Append the record @rec of @size bytes (a multiple of 4, at least its
 * header) at time @ts; its header is filled in here. A time more than
 * 2^32 ns after the last record's, or before it (a clock stepping back),
 * is written as a TIME record first. The stream may be unaligned: records
 * are copied.
 */
int stream_writer_record(struct stream_writer *w, void *rec, uint8_t type, uint8_t flags,
			 uint16_t size, uint64_t ts);

/* Typed helpers. */
int stream_writer_cpu_mark(struct stream_writer *w, uint64_t ts, uint16_t reason,
			   uint32_t pid);
int stream_writer_task(struct stream_writer *w, uint64_t ts, uint32_t pid,
		       uint32_t tgid, const char *comm);
int stream_writer_switch(struct stream_writer *w, uint64_t ts, uint32_t prev,
			 uint16_t prev_state, uint32_t next);
int stream_writer_waking(struct stream_writer *w, uint64_t ts, uint32_t pid,
			 uint16_t target_cpu);
int stream_writer_selftest(struct stream_writer *w, uint64_t ts, uint64_t seq);

/* Append raw bytes (damage). */
int stream_writer_bytes(struct stream_writer *w, const void *p, size_t n);

#endif
