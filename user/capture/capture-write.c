// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include <protobuf-c/protobuf-c.h>

#include "capture/capture-write.h"
#include "capture/file-index.h"
#include "util/error.h"

/*
 * A compressor and its output buffer, kept from chunk to chunk: allocating
 * them for each chunk (a few hundred KB, fresh pages every time) cost the
 * recorder as much as a tenth of its CPU at high record rates.
 */
struct deflater {
	struct libdeflate_compressor *z;
	void *buf;
	size_t cap;
};

/*
 * Per CPU stream: its FILE records, for its FILES chunk at close, and its
 * deflater. Only that CPU's reader touches them.
 */
struct stream_files {
	uint32_t cpu;
	struct file_index *fi;	/* NULL: could not index (no FILES chunk) */
	struct deflater *dz;	/* NULL: none could be allocated */
};

struct capture_writer {
	struct outfile *out;
	int fd;
	int flags;
	int no_compress;
	pthread_mutex_t lock;
	struct stream_files *files;
	unsigned int nfiles;
	uint64_t seq;
	uint64_t stream_bytes;
	uint64_t file_bytes;
	uint64_t section_raw[KTPC_NR_TYPES];	/* raw bytes of each section */
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

struct capture_writer *capture_writer_open(const char *path, int flags)
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
	w->out = outfile_open(path, 0600, flags);
	if (!w->out) {
		free(w);
		return NULL;
	}
	w->fd = outfile_fd(w->out);
	w->flags = flags;
	err = write_all(w->fd, &h, sizeof(h));
	if (err) {
		outfile_discard(w->out);
		free(w);
		errno = -err;
		return NULL;
	}
	w->file_bytes = sizeof(h);
	pthread_mutex_init(&w->lock, NULL);
	return w;
}

/*
 * @data compressed (zlib format, level 1: the recorder must keep up with
 * the module) into @d's buffer; its length, or 0 on failure.
 */
static size_t deflater_run(struct deflater *d, const void *data, size_t len)
{
	size_t bound;

	if (!d->z && !(d->z = libdeflate_alloc_compressor(1)))
		return 0;
	bound = libdeflate_zlib_compress_bound(d->z, len);
	if (bound > d->cap) {
		void *nb = realloc(d->buf, bound);

		if (!nb)
			return 0;
		d->buf = nb;
		d->cap = bound;
	}
	return libdeflate_zlib_compress(d->z, data, len, d->buf, d->cap);
}

static void deflater_free(struct deflater *d)
{
	if (!d)
		return;
	libdeflate_free_compressor(d->z);
	free(d->buf);
	free(d);
}

/*
 * The FILE index and the deflater of @cpu's stream, created on first use;
 * NULL when there are none.
 */
static struct file_index *files_of(struct capture_writer *w, uint32_t cpu,
				   struct deflater **dz)
{
	struct stream_files *nf;
	struct file_index *fi = NULL;
	unsigned int i;

	*dz = NULL;
	pthread_mutex_lock(&w->lock);
	for (i = 0; i < w->nfiles; i++)
		if (w->files[i].cpu == cpu)
			break;
	if (i == w->nfiles) {
		nf = realloc(w->files, (w->nfiles + 1) * sizeof(*nf));
		if (nf) {
			w->files = nf;
			nf[i].cpu = cpu;
			nf[i].fi = file_index_new(cpu);
			nf[i].dz = calloc(1, sizeof(*nf[i].dz));
			w->nfiles++;
		}
	}
	if (i < w->nfiles) {
		fi = w->files[i].fi;
		*dz = w->files[i].dz;
	}
	pthread_mutex_unlock(&w->lock);
	return fi;
}

static void forget_files(struct capture_writer *w, uint32_t cpu)
{
	unsigned int i;

	pthread_mutex_lock(&w->lock);
	for (i = 0; i < w->nfiles; i++) {
		if (w->files[i].cpu == cpu) {
			file_index_free(w->files[i].fi);
			w->files[i].fi = NULL;
		}
	}
	pthread_mutex_unlock(&w->lock);
}

int capture_writer_add(struct capture_writer *w, enum ktpc_chunk_type type,
		       uint32_t cpu, const void *data, size_t len, int compress)
{
	struct ktpc_chunk_header h = { .magic = KTPC_CHUNK_MAGIC, .type = type,
				       .cpu = cpu, .raw_len = len };
	struct deflater once = { 0 }, *dz = NULL;
	const void *stored = data;
	int ret;

	if (len > KTPC_CHUNK_MAX)
		return -E2BIG;
	/* Only this CPU's writer touches its index: decode outside the lock. */
	if (type == KTPC_STREAM) {
		struct file_index *fi = files_of(w, cpu, &dz);

		if (fi && file_index_feed(fi, data, len))
			forget_files(w, cpu);
	}
	if (compress && len && !w->no_compress) {
		/* Other chunks are few: their deflater lasts one chunk. */
		struct deflater *d = dz ? dz : &once;
		size_t zlen = deflater_run(d, data, len);

		if (!zlen) {
			ret = d->z && d->buf ? -EIO : -ENOMEM;
			goto out;
		}
		stored = d->buf;
		h.stored_len = zlen;
		h.flags = KTPC_CHUNK_ZLIB;
	} else {
		h.stored_len = len;
	}
	pthread_mutex_lock(&w->lock);
	ret = w->error;
	/* No more than readers accept (capture-format.h), nor a chunk more. */
	if (!ret && type < KTPC_NR_TYPES &&
	    (ktpc_section_concat(type) ? w->section_raw[type] : 0) + len >
	    (type == KTPC_STREAM ? KTPC_STREAM_CHUNK_MAX : ktpc_section_max(type)))
		ret = -ERROR_TOO_LARGE;
	if (!ret) {
		w->section_raw[type < KTPC_NR_TYPES ? type : 0] += len;
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
out:
	libdeflate_free_compressor(once.z);
	free(once.buf);
	return ret;
}

void capture_writer_set_compress(struct capture_writer *w, int on)
{
	w->no_compress = !on;
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

static void free_files(struct capture_writer *w)
{
	unsigned int i;

	for (i = 0; i < w->nfiles; i++) {
		file_index_free(w->files[i].fi);
		deflater_free(w->files[i].dz);
	}
	free(w->files);
}

/* A FILES chunk per indexed stream, even an empty one: it says "indexed". */
static int write_files(struct capture_writer *w)
{
	const void *recs;
	unsigned int i;
	size_t len;
	int ret = 0;

	for (i = 0; !ret && i < w->nfiles; i++) {
		if (!w->files[i].fi)
			continue;
		recs = file_index_records(w->files[i].fi, &len);
		if (recs && len <= KTPC_CHUNK_MAX)
			ret = capture_writer_add(w, KTPC_FILES, w->files[i].cpu, recs, len, 1);
		/* Readers then find the FILE records in the streams. */
		if (ret == -ERROR_TOO_LARGE)
			ret = 0;
	}
	return ret;
}

int capture_writer_close(struct capture_writer *w)
{
	struct ktpc_end end;
	int ret = write_files(w);

	end.chunks = w->seq;
	end.stream_bytes = w->stream_bytes;
	if (!ret)
		ret = capture_writer_add(w, KTPC_END, 0, &end, sizeof(end), 0);
	if (ret && !(w->flags & OUTFILE_IN_PLACE))
		outfile_discard(w->out);
	else if (!ret)
		ret = outfile_close(w->out);
	else
		outfile_close(w->out);	/* what was written reads as truncated */
	pthread_mutex_destroy(&w->lock);
	free_files(w);
	free(w);
	return ret;
}

void capture_writer_discard(struct capture_writer *w)
{
	outfile_discard(w->out);
	pthread_mutex_destroy(&w->lock);
	free_files(w);
	free(w);
}

void capture_writer_abort(struct capture_writer *w)
{
	if (w->flags & OUTFILE_IN_PLACE)
		outfile_close(w->out);
	else
		outfile_discard(w->out);
	pthread_mutex_destroy(&w->lock);
	free_files(w);
	free(w);
}
