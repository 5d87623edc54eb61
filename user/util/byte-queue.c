// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/byte-queue.h"

#define BYTE_QUEUE_MIN (64 * 1024)

void byte_queue_init(struct byte_queue *q)
{
	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
}

void byte_queue_fini(struct byte_queue *q)
{
	pthread_mutex_destroy(&q->lock);
	free(q->buf);
	q->buf = NULL;
}

/* Room for @len more bytes at the end; the waiting bytes move to the front. */
static int make_room(struct byte_queue *q, size_t len)
{
	size_t cap = q->cap ? q->cap : BYTE_QUEUE_MIN;
	char *nb;

	if (q->head + q->len + len <= q->cap)
		return 0;
	if (q->len + len <= q->cap / 2) {
		/* Half empty: moving costs less than growing. */
		memmove(q->buf, q->buf + q->head, q->len);
		q->head = 0;
		return 0;
	}
	while (cap < q->len + len) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	nb = malloc(cap);
	if (!nb)
		return -ENOMEM;
	if (q->len)
		memcpy(nb, q->buf + q->head, q->len);
	free(q->buf);
	q->buf = nb;
	q->cap = cap;
	q->head = 0;
	return 0;
}

int byte_queue_put(struct byte_queue *q, const void *buf, size_t len)
{
	int ret = 0;

	pthread_mutex_lock(&q->lock);
	if (q->closed)
		ret = -EPIPE;
	else if (len && !(ret = make_room(q, len))) {
		memcpy(q->buf + q->head + q->len, buf, len);
		q->len += len;
		q->total += len;
	}
	pthread_mutex_unlock(&q->lock);
	return ret;
}

void byte_queue_close(struct byte_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->closed = 1;
	pthread_mutex_unlock(&q->lock);
}

ssize_t byte_queue_take(void *ctx, void *buf, size_t len)
{
	struct byte_queue *q = ctx;
	ssize_t n;

	pthread_mutex_lock(&q->lock);
	if (len > q->len)
		len = q->len;
	if (len > SSIZE_MAX)
		len = SSIZE_MAX;
	n = len ? (ssize_t)len : q->closed ? 0 : -EAGAIN;
	if (len) {
		memcpy(buf, q->buf + q->head, len);
		q->head += len;
		q->len -= len;
		if (!q->len)
			q->head = 0;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

size_t byte_queue_len(struct byte_queue *q)
{
	size_t n;

	pthread_mutex_lock(&q->lock);
	n = q->len;
	pthread_mutex_unlock(&q->lock);
	return n;
}
