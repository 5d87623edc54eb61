/* SPDX-License-Identifier: GPL-2.0 */
/*
 * K-way merge of per-CPU relay streams into one stream in time order, keyed
 * on (timestamp, CPU, per-CPU order). Memory is one decode buffer per input.
 */
#ifndef KTPROF_MERGE_H
#define KTPROF_MERGE_H

#include <stdint.h>
#include <sys/types.h>

#include "decode/relay-decode.h"

/*
 * Read up to @len bytes of an input; 0 at its end, -errno on error,
 * -EAGAIN when none are there yet (a live input: see merge_set_watermark()).
 */
typedef ssize_t (*merge_read_fn)(void *ctx, void *buf, size_t len);

struct merge;

struct merge *merge_new(void);
void merge_free(struct merge *m);

/* Add the stream of one CPU (@cpu -1: from its first sub-buffer header). */
int merge_add(struct merge *m, int cpu, merge_read_fn read, void *ctx);

/*
 * The next event of all inputs in time order. Returns 1 with *ev filled
 * (valid until the next call), 0 at the end, -errno if an input failed;
 * -EAGAIN when the next event is at or after the watermark, or an input
 * has no bytes now and no other input's event is known to come first (call
 * again once the watermark rises).
 */
int merge_next(struct merge *m, struct event *ev);

/*
 * The time of the event merge_next() would give next, whatever the
 * watermark: 1 with *@ts, 0 when none is known (every input ended, or one
 * waits for bytes), or -errno.
 */
int merge_peek(struct merge *m, uint64_t *ts);

/*
 * Live inputs (whose reads may say -EAGAIN): the caller promises that every
 * byte of every input holding an event before @ts has been made readable,
 * and merge_next() gives the events before @ts, then -EAGAIN. Every
 * waiting input reads again first. Without a watermark (or with
 * UINT64_MAX), no event waits for it.
 */
void merge_set_watermark(struct merge *m, uint64_t ts);

/*
 * Have @fn called as soon as an input's next event is known to be
 * EVENT_LOST or EVENT_GARBAGE: before merge_next() returns any event later
 * than the gap's start (ev->since), though the gap event itself comes in
 * time order. Analyses that must not trust what overlaps a gap learn of it
 * in time this way.
 */
typedef void (*merge_gap_fn)(void *ctx, const struct event *ev);
void merge_set_gap_fn(struct merge *m, merge_gap_fn fn, void *ctx);

/*
 * With @tolerant, an input whose read fails with -EBADMSG (damage) ends
 * there and the others go on, instead of merge_next() failing;
 * merge_damaged() counts the inputs so ended.
 */
void merge_set_tolerant(struct merge *m, int tolerant);
unsigned int merge_damaged(const struct merge *m);

unsigned int merge_nr_inputs(const struct merge *m);
/* Decoder of input @i (in the order added), for its stats and CPU. */
const struct relay_decoder *merge_decoder(const struct merge *m, unsigned int i);

#endif
