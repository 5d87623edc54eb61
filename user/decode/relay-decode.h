/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Relay stream decoder: the bytes of one CPU's relay file (as `cat` or the
 * recorder read them) in, validated and timed records out.
 *
 * It checks every record before trusting it (type, size bounds, sub-buffer
 * magic, CPU, ABI, sequence), turns the sub-buffer headers' loss counters
 * into explicit EVENT_LOST events, and after damage skips forward to the
 * next sub-buffer header, reporting the skipped bytes as EVENT_GARBAGE.
 * Records of types it does not know are returned as they are (their size is
 * trusted), so newer minor ABI versions decode.
 */
#ifndef KTPROF_RELAY_DECODE_H
#define KTPROF_RELAY_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "decode/event.h"
#include "ktprof_abi.h"

struct relay_decoder_stats {
	uint64_t records;	/* records returned (headers included) */
	uint64_t subbufs;	/* sub-buffer headers */
	uint64_t lost;		/* records the kernel reported lost */
	uint64_t lost_subbufs;	/* sub-buffer sequence gaps */
	uint64_t garbage_bytes;	/* bytes skipped as invalid */
	uint64_t resyncs;	/* times the decoder had to resynchronise */
	uint64_t unknown;	/* records of unknown types */
	uint64_t truncated;	/* bytes of an incomplete final record */
};

struct relay_decoder;

/* A decoder for the stream of @cpu (-1: take it from the first header). */
struct relay_decoder *relay_decoder_new(int cpu);
void relay_decoder_free(struct relay_decoder *d);

/* Append @len bytes of the stream. Returns 0 or -ENOMEM. */
int relay_decoder_feed(struct relay_decoder *d, const void *buf, size_t len);

/* No more bytes will come: a partial record at the end is truncation. */
void relay_decoder_set_eof(struct relay_decoder *d);

/*
 * The next event. Returns 1 with *ev filled, 0 when more input is needed
 * (or, after set_eof, at the end of the stream).
 */
int relay_decoder_next(struct relay_decoder *d, struct event *ev);

const struct relay_decoder_stats *relay_decoder_stats(const struct relay_decoder *d);

/* The CPU of this stream, or -1 before its first sub-buffer header. */
int relay_decoder_cpu(const struct relay_decoder *d);

#endif
