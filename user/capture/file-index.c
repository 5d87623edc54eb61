// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/file-index.h"
#include "ktprof_abi.h"

struct file_index {
	struct relay_decoder *d;
	uint8_t *buf;
	size_t len, cap;
	int error;
};

struct file_index *file_index_new(uint32_t cpu)
{
	struct file_index *fi = calloc(1, sizeof(*fi));

	if (!fi)
		return NULL;
	fi->d = relay_decoder_new(cpu);
	if (!fi->d) {
		free(fi);
		return NULL;
	}
	return fi;
}

void file_index_free(struct file_index *fi)
{
	if (!fi)
		return;
	relay_decoder_free(fi->d);
	free(fi->buf);
	free(fi);
}

static int take(struct file_index *fi, const struct event *ev)
{
	if (fi->len + ev->size > fi->cap) {
		size_t cap = fi->cap ? 2 * fi->cap : 4096;
		uint8_t *nb;

		while (cap < fi->len + ev->size)
			cap *= 2;
		nb = realloc(fi->buf, cap);
		if (!nb)
			return -ENOMEM;
		fi->buf = nb;
		fi->cap = cap;
	}
	memcpy(fi->buf + fi->len, ev->rec, ev->size);
	fi->len += ev->size;
	return 0;
}

static int drain(struct file_index *fi)
{
	struct event ev;

	while (!fi->error && relay_decoder_next(fi->d, &ev) > 0)
		if (ev.type == KTP_REC_FILE)
			fi->error = take(fi, &ev);
	return fi->error;
}

int file_index_feed(struct file_index *fi, const void *buf, size_t len)
{
	if (fi->error)
		return fi->error;
	fi->error = relay_decoder_feed(fi->d, buf, len);
	return drain(fi);
}

const void *file_index_records(struct file_index *fi, size_t *len)
{
	relay_decoder_set_eof(fi->d);
	drain(fi);
	if (fi->error)
		return NULL;
	*len = fi->len;
	return fi->buf ? (const void *)fi->buf : (const void *)"";
}

int file_index_next(const void *buf, size_t len, size_t *off, struct event *ev)
{
	const uint8_t *p = (const uint8_t *)buf + *off;
	struct ktp_file f;
	struct ktp_hdr h;

	if (*off == len)
		return 0;
	if (len - *off < sizeof(f))
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	memcpy(&f, p, sizeof(f));
	/* What the relay decoder checks of a FILE record, again. */
	if (h.type != KTP_REC_FILE || h.size < event_min_size(KTP_REC_FILE) ||
	    h.size > len - *off || h.size % 4 ||
	    !memchr(p + sizeof(f), 0, h.size - sizeof(f)) ||
	    f.build_id_len > KTP_BUILD_ID_MAX)
		return -EBADMSG;
	memset(ev, 0, sizeof(*ev));
	ev->type = h.type;
	ev->flags = h.flags;
	ev->size = h.size;
	ev->rec = (const uint8_t *)buf + *off;
	*off += h.size;
	return 1;
}
