// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <protobuf-c/protobuf-c.h>

#include "capture-write.h"

struct capture_writer {
	int fd;
	pthread_mutex_t lock;
	uint64_t seq;
	uint64_t stream_bytes;
	uint64_t file_bytes;
	int error;		/* first write error, sticky */
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

struct capture_writer *capture_writer_open(const char *path)
{
	struct capture_writer *w = calloc(1, sizeof(*w));
	struct ktpc_file_header h = { .major = KTPC_MAJOR, .minor = KTPC_MINOR,
				      .header_size = sizeof(h) };
	struct timespec ts;
	int err;

	if (!w)
		return NULL;
	memcpy(h.magic, KTPC_MAGIC, sizeof(h.magic));
	clock_gettime(CLOCK_REALTIME, &ts);
	h.created_ns = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0)
		goto fail;
	/* An existing file keeps its mode on O_CREAT: make it private. */
	if (fchmod(w->fd, 0600))
		goto fail;
	err = write_all(w->fd, &h, sizeof(h));
	if (err) {
		errno = -err;
		goto fail;
	}
	w->file_bytes = sizeof(h);
	pthread_mutex_init(&w->lock, NULL);
	return w;
fail:
	err = errno;
	if (w->fd >= 0)
		close(w->fd);
	free(w);
	errno = err;
	return NULL;
}

int capture_writer_add(struct capture_writer *w, enum ktpc_chunk_type type,
		       uint32_t cpu, const void *data, size_t len, int compress)
{
	struct ktpc_chunk_header h = { .magic = KTPC_CHUNK_MAGIC, .type = type,
				       .cpu = cpu, .raw_len = len };
	const void *stored = data;
	void *zbuf = NULL;
	int ret;

	if (len > KTPC_CHUNK_MAX)
		return -E2BIG;
	if (compress && len) {
		uLongf zlen = compressBound(len);

		zbuf = malloc(zlen);
		if (!zbuf)
			return -ENOMEM;
		/* Level 1: the recorder must keep up with the module. */
		if (compress2(zbuf, &zlen, data, len, 1) != Z_OK) {
			free(zbuf);
			return -EIO;
		}
		stored = zbuf;
		h.stored_len = zlen;
		h.flags = KTPC_CHUNK_ZLIB;
	} else {
		h.stored_len = len;
	}
	pthread_mutex_lock(&w->lock);
	ret = w->error;
	if (!ret) {
		h.seq = w->seq;
		h.crc = ktpc_chunk_crc(&h, stored);
		ret = write_all(w->fd, &h, sizeof(h));
		if (!ret)
			ret = write_all(w->fd, stored, h.stored_len);
		if (ret) {
			w->error = ret;
		} else {
			w->seq++;
			w->file_bytes += sizeof(h) + h.stored_len;
			if (type == KTPC_STREAM)
				w->stream_bytes += len;
		}
	}
	pthread_mutex_unlock(&w->lock);
	free(zbuf);
	return ret;
}

int capture_writer_add_message(struct capture_writer *w, enum ktpc_chunk_type type,
			       const ProtobufCMessage *msg)
{
	size_t len = protobuf_c_message_get_packed_size(msg);
	uint8_t *buf = malloc(len ? len : 1);
	int ret;

	if (!buf)
		return -ENOMEM;
	protobuf_c_message_pack(msg, buf);
	ret = capture_writer_add(w, type, 0, buf, len, 1);
	free(buf);
	return ret;
}

uint64_t capture_writer_bytes(const struct capture_writer *w)
{
	return w->file_bytes;
}

int capture_writer_close(struct capture_writer *w)
{
	struct ktpc_end end = { .chunks = w->seq, .stream_bytes = w->stream_bytes };
	int ret = capture_writer_add(w, KTPC_END, 0, &end, sizeof(end), 0);

	if (!ret && fsync(w->fd))
		ret = -errno;
	if (close(w->fd) && !ret)
		ret = -errno;
	pthread_mutex_destroy(&w->lock);
	free(w);
	return ret;
}

void capture_writer_abort(struct capture_writer *w)
{
	close(w->fd);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
