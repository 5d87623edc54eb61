/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A queue of bytes between one writer thread and one reader thread: the
 * recorder's reader of a CPU puts what it read from the relay file, and the
 * live analysis of `ktprof top` takes it in the merge. Unbounded: the
 * writer never waits (a reader that cannot keep up would make the module
 * lose records, which are counted; memory here would not be). The taker
 * sees -EAGAIN while the queue is empty and open, 0 once it is closed.
 */
#ifndef KTPROF_BYTE_QUEUE_H
#define KTPROF_BYTE_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct byte_queue {
	pthread_mutex_t lock;
	char *buf;
	size_t head, len, cap;	/* the bytes are buf[head, head + len) */
	int closed;
	uint64_t total;		/* bytes put, ever */
};

void byte_queue_init(struct byte_queue *q);
void byte_queue_fini(struct byte_queue *q);

/* Append @len bytes; 0 or -ENOMEM (-EPIPE once closed). */
int byte_queue_put(struct byte_queue *q, const void *buf, size_t len);

/* No more bytes will come: the taker reads the rest, then 0. */
void byte_queue_close(struct byte_queue *q);

/*
 * Take up to @len bytes: how many, 0 when closed and empty, -EAGAIN when
 * empty and open. A merge_read_fn (decode/merge.h) with @ctx the queue.
 */
ssize_t byte_queue_take(void *q, void *buf, size_t len);

/* Bytes waiting now. */
size_t byte_queue_len(struct byte_queue *q);

#endif
