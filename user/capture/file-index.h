/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The FILE records of one CPU's relay stream, picked out as the stream is
 * written, so that a capture can carry them in a FILES section: readers
 * then symbolize samples in one pass over the streams instead of two
 * (FILE records, written from process context, may follow the samples
 * that need them).
 */
#ifndef KTPROF_FILE_INDEX_H
#define KTPROF_FILE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "decode/relay-decode.h"

struct file_index;

struct file_index *file_index_new(uint32_t cpu);
void file_index_free(struct file_index *fi);

/* The next bytes of the stream. 0 or -ENOMEM (the index is then unusable). */
int file_index_feed(struct file_index *fi, const void *buf, size_t len);

/* After the last bytes: the FILE records, whole, back to back. */
const void *file_index_records(struct file_index *fi, size_t *len);

/*
 * Walk records laid out as file_index_records() gives them: each call
 * fills *ev with the next and returns 1; 0 at the end; -EBADMSG if they
 * are not such records.
 */
int file_index_next(const void *buf, size_t len, size_t *off, struct event *ev);

#endif
