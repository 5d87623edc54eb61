// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include "capture/capture-read.h"
#include "util/error.h"
#include "util/infile.h"

#define NO_CHUNK SIZE_MAX

struct chunk_ref {
	uint64_t offset;	/* of the chunk header */
	struct ktpc_chunk_header h;
	size_t next;		/* STREAM: the CPU's next STREAM chunk, or NO_CHUNK */
};

/* What the index knows of one CPU's chunks. */
struct cpu_chunks {
	size_t first, last;	/* STREAM chunks, NO_CHUNK if none */
	int files;		/* it has a FILES chunk */
};

struct capture_reader {
	int fd;
	struct chunk_ref *chunks;
	size_t n, cap;
	struct cpu_chunks *per_cpu;	/* KTPC_MAX_CPUS of them, once a CPU is seen */
	uint32_t *cpus;
	unsigned int ncpus;
	uint64_t section_raw[KTPC_NR_TYPES];	/* raw bytes of each section so far */
	struct capture_status st;
	struct libdeflate_decompressor *inflater;
};

struct capture_stream {
	struct capture_reader *r;
	uint32_t cpu;
	size_t next;		/* next chunk of the CPU, or NO_CHUNK */
	uint8_t *buf;
	size_t len, off, cap;
};

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENODATA;
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int add_ref(struct capture_reader *r, uint64_t off,
		   const struct ktpc_chunk_header *h)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct chunk_ref *nc = realloc(r->chunks, cap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		r->chunks = nc;
		r->cap = cap;
	}
	r->chunks[r->n].offset = off;
	r->chunks[r->n].h = *h;
	r->n++;
	return 0;
}

/* Link STREAM and FILES chunk @i into its CPU's lists: O(1) per chunk. */
static int note_cpu(struct capture_reader *r, size_t i)
{
	struct chunk_ref *c = &r->chunks[i];
	struct cpu_chunks *pc;
	uint32_t cpu;

	c->next = NO_CHUNK;
	if (c->h.type != KTPC_STREAM && c->h.type != KTPC_FILES)
		return 0;
	if (!r->per_cpu) {
		r->per_cpu = malloc(KTPC_MAX_CPUS * sizeof(*r->per_cpu));
		if (!r->per_cpu)
			return -ENOMEM;
		for (cpu = 0; cpu < KTPC_MAX_CPUS; cpu++)
			r->per_cpu[cpu] = (struct cpu_chunks){ NO_CHUNK, NO_CHUNK, 0 };
	}
	pc = &r->per_cpu[c->h.cpu];
	if (c->h.type == KTPC_FILES) {
		pc->files = 1;
		return 0;
	}
	if (pc->last == NO_CHUNK)
		pc->first = i;
	else
		r->chunks[pc->last].next = i;
	pc->last = i;
	return 0;
}

/* The CPUs with STREAM chunks, ascending. */
static int list_cpus(struct capture_reader *r)
{
	uint32_t cpu;

	if (!r->per_cpu)
		return 0;
	r->cpus = malloc(KTPC_MAX_CPUS * sizeof(*r->cpus));
	if (!r->cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < KTPC_MAX_CPUS; cpu++)
		if (r->per_cpu[cpu].first != NO_CHUNK)
			r->cpus[r->ncpus++] = cpu;
	return 0;
}

/*
 * What a chunk header claims, checked before anything is allocated for
 * it: NULL if plausible, else what is wrong.
 */
static const char *bad_header(const struct ktpc_chunk_header *h, uint64_t seq)
{
	if (h->magic != KTPC_CHUNK_MAGIC)
		return "bad magic";
	if (h->seq != seq)
		return "out of sequence";
	if (h->stored_len > KTPC_CHUNK_MAX || h->raw_len > KTPC_CHUNK_MAX)
		return "longer than a chunk may be";
	if (!(h->flags & KTPC_CHUNK_ZLIB) && h->raw_len != h->stored_len)
		return "stored uncompressed, but its raw and stored lengths differ";
	if (h->type == KTPC_STREAM && h->raw_len > KTPC_STREAM_CHUNK_MAX)
		return "a stream chunk longer than 4 MiB";
	if (h->type < KTPC_NR_TYPES && h->raw_len > ktpc_section_max(h->type))
		return "longer than its section may be";
	if ((h->type == KTPC_STREAM || h->type == KTPC_FILES) && h->cpu >= KTPC_MAX_CPUS)
		return "a CPU number above 8191";
	return NULL;
}

static const char *section_name(enum ktpc_chunk_type type)
{
	static const char *const names[KTPC_NR_TYPES] = {
		[KTPC_META] = "META", [KTPC_TOPOLOGY] = "TOPOLOGY",
		[KTPC_KALLSYMS] = "KALLSYMS", [KTPC_MODULES] = "MODULES",
		[KTPC_PROCMAPS] = "PROCMAPS", [KTPC_STREAM] = "STREAM",
		[KTPC_STATS] = "STATS", [KTPC_END] = "END", [KTPC_FILES] = "FILES",
	};

	return type < KTPC_NR_TYPES && names[type] ? names[type] : "unknown";
}

/*
 * Add chunk @h to its section's size: a section that claims more than it
 * may hold is damage, found before anything is inflated (a small file could
 * otherwise make a reader allocate a thousand times its size).
 */
static int check_section(struct capture_reader *r, const struct ktpc_chunk_header *h,
			 uint64_t off)
{
	uint64_t *total;

	if (h->type >= KTPC_NR_TYPES || !ktpc_section_concat(h->type))
		return 0;	/* bad_header() checked the chunk alone */
	total = &r->section_raw[h->type];
	*total += h->raw_len;
	if (*total <= ktpc_section_max(h->type))
		return 0;
	snprintf(r->st.problem, sizeof(r->st.problem),
		 "its %s section is more than the %u MiB ktprof reads, once uncompressed"
		 " (chunk %" PRIu64 " at offset %" PRIu64 ")", section_name(h->type),
		 ktpc_section_max(h->type) >> 20, r->st.chunks, off);
	return -EBADMSG;
}

/* Index the chunks; stop at the end of the readable part and say why. */
static int scan(struct capture_reader *r, uint64_t off)
{
	struct capture_status *st = &r->st;
	struct ktpc_chunk_header h;
	const char *why;
	int ret;

	for (;;) {
		if (off == st->file_size) {
			snprintf(st->problem, sizeof(st->problem),
				 "truncated: no end chunk after chunk %" PRIu64
				 " (the recorder did not finish)", st->chunks);
			break;
		}
		if (off + sizeof(h) > st->file_size) {
			snprintf(st->problem, sizeof(st->problem),
				 "truncated at offset %" PRIu64 ": partial chunk header",
				 off);
			break;
		}
		ret = read_at(r->fd, &h, sizeof(h), off);
		if (ret)
			return ret;
		why = bad_header(&h, st->chunks);
		if (why) {
			snprintf(st->problem, sizeof(st->problem),
				 "corrupt chunk header at offset %" PRIu64
				 " (chunk %" PRIu64 "): %s", off, st->chunks, why);
			return -EBADMSG;
		}
		if (off + sizeof(h) + h.stored_len > st->file_size) {
			snprintf(st->problem, sizeof(st->problem),
				 "truncated at offset %" PRIu64 ": chunk %" PRIu64
				 " needs %u bytes, %" PRIu64 " left", off, st->chunks,
				 h.stored_len, st->file_size - off - sizeof(h));
			break;
		}
		ret = check_section(r, &h, off);
		if (!ret)
			ret = add_ref(r, off, &h);
		if (!ret)
			ret = note_cpu(r, r->n - 1);
		if (ret)
			return ret;
		off += sizeof(h) + h.stored_len;
		st->chunks++;
		if (h.type == KTPC_END) {
			st->complete = 1;
			break;
		}
	}
	st->end_offset = off;
	return list_cpus(r);
}

struct capture_reader *capture_reader_open(const char *path, struct error *err)
{
	struct capture_reader *r = calloc(1, sizeof(*r));
	struct ktpc_file_header fh;
	struct stat sb;
	int ret;

	if (!r) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	/* A FIFO or a device is refused before it is opened. */
	r->fd = infile_open(AT_FDCWD, path, 0);
	if (r->fd < 0) {
		error_set(err, r->fd, "%s: %s", path, error_str(r->fd));
		goto fail;
	}
	if (fstat(r->fd, &sb)) {
		error_set(err, -errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	r->st.file_size = sb.st_size;
	if (sb.st_size < (off_t)sizeof(fh) || read_at(r->fd, &fh, sizeof(fh), 0) ||
	    memcmp(fh.magic, KTPC_MAGIC, sizeof(fh.magic))) {
		error_set(err, -ERROR_NOT_CAPTURE,
			  "%s: not a ktprof capture file (bad magic)", path);
		goto fail;
	}
	r->st.major = fh.major;
	r->st.minor = fh.minor;
	if (fh.major != KTPC_MAJOR) {
		error_set(err, -ERROR_FORMAT,
			  "%s: capture format %u.%u; this ktprof reads %u.0 to %u.%u",
			  path, fh.major, fh.minor, KTPC_MAJOR, KTPC_MAJOR, KTPC_MINOR);
		goto fail;
	}
	if (fh.header_size < sizeof(fh) || fh.header_size > (uint64_t)sb.st_size) {
		error_set(err, -ERROR_DAMAGED, "%s: corrupt file header", path);
		goto fail;
	}
	ret = scan(r, fh.header_size);
	if (ret) {
		error_set(err, ret, "%s: %s", path,
			  ret == -EBADMSG ? r->st.problem : error_str(ret));
		goto fail;
	}
	return r;
fail:
	capture_reader_close(r);
	return NULL;
}

void capture_reader_close(struct capture_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	free(r->chunks);
	free(r->per_cpu);
	free(r->cpus);
	if (r->inflater)
		libdeflate_free_decompressor(r->inflater);
	free(r);
}

const struct capture_status *capture_reader_status(const struct capture_reader *r)
{
	return &r->st;
}

unsigned int capture_reader_cpus(const struct capture_reader *r,
				 const uint32_t **cpus)
{
	*cpus = r->cpus;
	return r->ncpus;
}

/* Chunk @i's raw bytes into @dst (raw_len of them); 0 or -errno. */
static int load_chunk(struct capture_reader *r, size_t i, uint8_t *dst)
{
	const struct chunk_ref *c = &r->chunks[i];
	uint8_t *stored = malloc(c->h.stored_len ? c->h.stored_len : 1);
	int ret;

	if (!stored)
		return -ENOMEM;
	ret = read_at(r->fd, stored, c->h.stored_len, c->offset + sizeof(c->h));
	if (ret)
		goto out;
	if (ktpc_chunk_crc(&c->h, stored) != c->h.crc) {
		snprintf(r->st.problem, sizeof(r->st.problem),
			 "chunk %" PRIu64 " at offset %" PRIu64 " is damaged (CRC mismatch)",
			 c->h.seq, c->offset);
		ret = -EBADMSG;
		goto out;
	}
	if (c->h.flags & KTPC_CHUNK_ZLIB) {
		size_t n = 0;

		/* libdeflate: zlib's format at about twice zlib's speed. */
		if (!r->inflater)
			r->inflater = libdeflate_alloc_decompressor();
		if (!r->inflater) {
			ret = -ENOMEM;
		} else if (libdeflate_zlib_decompress(r->inflater, stored, c->h.stored_len,
						      dst, c->h.raw_len, &n) != LIBDEFLATE_SUCCESS ||
			   n != c->h.raw_len) {
			snprintf(r->st.problem, sizeof(r->st.problem),
				 "chunk %" PRIu64 " at offset %" PRIu64
				 " does not decompress", c->h.seq, c->offset);
			ret = -EBADMSG;
		}
	} else if (c->h.raw_len) {
		/* Stored as is (the index checked raw_len == stored_len). */
		memcpy(dst, stored, c->h.raw_len);
	}
out:
	free(stored);
	return ret;
}

void *capture_reader_section(struct capture_reader *r, enum ktpc_chunk_type type,
			     size_t *len)
{
	int concat = ktpc_section_concat(type);
	size_t i, total = 0, off = 0, last = r->n;
	uint8_t *buf;
	int ret;

	for (i = 0; i < r->n; i++) {
		if (r->chunks[i].h.type != type)
			continue;
		total = concat ? total + r->chunks[i].h.raw_len : r->chunks[i].h.raw_len;
		last = i;
	}
	if (last == r->n) {
		errno = ENOENT;
		return NULL;
	}
	buf = malloc(total + 1);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	for (i = concat ? 0 : last; i <= last; i++) {
		if (r->chunks[i].h.type != type)
			continue;
		ret = load_chunk(r, i, buf + off);
		if (ret) {
			free(buf);
			errno = -ret;
			return NULL;
		}
		off += r->chunks[i].h.raw_len;
	}
	buf[total] = '\0';
	if (len)
		*len = total;
	return buf;
}

int capture_reader_files_complete(const struct capture_reader *r)
{
	unsigned int c;

	for (c = 0; c < r->ncpus; c++)
		if (!r->per_cpu[r->cpus[c]].files)
			return 0;
	return 1;
}

struct capture_stream *capture_stream_open(struct capture_reader *r, uint32_t cpu)
{
	struct capture_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->r = r;
	s->cpu = cpu;
	s->next = r->per_cpu && cpu < KTPC_MAX_CPUS ? r->per_cpu[cpu].first : NO_CHUNK;
	return s;
}

void capture_stream_close(struct capture_stream *s)
{
	if (!s)
		return;
	free(s->buf);
	free(s);
}

ssize_t capture_stream_read(void *stream, void *buf, size_t len)
{
	struct capture_stream *s = stream;
	struct capture_reader *r = s->r;
	size_t n;
	int ret;

	while (s->off == s->len) {
		const struct chunk_ref *c;

		if (s->next == NO_CHUNK)
			return 0;
		c = &r->chunks[s->next];
		if (c->h.raw_len > s->cap) {
			uint8_t *nb = realloc(s->buf, c->h.raw_len);

			if (!nb)
				return -ENOMEM;
			s->buf = nb;
			s->cap = c->h.raw_len;
		}
		ret = load_chunk(r, s->next, s->buf);
		if (ret)
			return ret;
		s->len = c->h.raw_len;
		s->off = 0;
		s->next = c->next;
	}
	n = s->len - s->off < len ? s->len - s->off : len;
	memcpy(buf, s->buf + s->off, n);
	s->off += n;
	return n;
}

static int verify(struct capture_reader *r, int streams)
{
	uint8_t *buf = NULL;
	size_t i, cap = 0;
	int ret = 0;

	for (i = 0; i < r->n && !ret; i++) {
		if (!streams && r->chunks[i].h.type == KTPC_STREAM)
			continue;
		if (r->chunks[i].h.raw_len > cap) {
			uint8_t *nb = realloc(buf, r->chunks[i].h.raw_len);

			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap = r->chunks[i].h.raw_len;
		}
		ret = load_chunk(r, i, buf);
	}
	free(buf);
	return ret;
}

int capture_reader_verify(struct capture_reader *r)
{
	return verify(r, 1);
}

int capture_reader_verify_meta(struct capture_reader *r)
{
	return verify(r, 0);
}
