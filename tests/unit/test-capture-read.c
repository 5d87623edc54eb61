// SPDX-License-Identifier: GPL-2.0
/*
 * The capture reader on files written byte by byte from the documented
 * layout (docs/capture-format.md), not from capture-format.h: empty
 * chunks, interleaved CPU streams, and headers that claim too much.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "capture/capture-read.h"
#include "unit.h"

enum { META = 1, KALLSYMS = 3, STREAM = 6, END = 8, FILES = 9 };

struct file {
	uint8_t b[4096];
	size_t len;
	uint64_t seq;
};

static void le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* File header: magic, major 1, minor 1, header size 32. */
static void start(struct file *f)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->b, "KTPROF\0C", 8);
	le(f->b + 8, 1, 2);
	le(f->b + 10, 1, 2);
	le(f->b + 12, 32, 4);
	f->len = 32;
}

/* A chunk of @stored_len bytes @data that claims @raw_len raw bytes. */
static void chunk(struct file *f, int type, int flags, uint32_t cpu, uint32_t raw_len,
		  const void *data, uint32_t stored_len)
{
	uint8_t *h = f->b + f->len;
	uLong crc;

	le(h, 0x4843544b, 4);
	le(h + 4, type, 2);
	le(h + 6, flags, 2);
	le(h + 8, cpu, 4);
	le(h + 12, raw_len, 4);
	le(h + 16, stored_len, 4);
	le(h + 20, 0, 4);
	le(h + 24, f->seq++, 8);
	memcpy(h + 32, data, stored_len);
	crc = crc32(crc32(0, h, 32), h + 32, stored_len);
	le(h + 20, crc, 4);
	f->len += 32 + stored_len;
}

static void plain(struct file *f, int type, uint32_t cpu, const char *text)
{
	chunk(f, type, 0, cpu, strlen(text), text, strlen(text));
}

static void end(struct file *f)
{
	uint8_t e[16] = { 0 };

	le(e, f->seq, 8);
	chunk(f, END, 0, 0, 16, e, 16);
}

/* Open @f as a file; NULL with the message in @err. */
static struct capture_reader *open_file(const struct file *f, struct error *err)
{
	char path[] = "/tmp/ktprof-unit-capture.XXXXXX";
	int fd = mkstemp(path);
	struct capture_reader *r;

	CHECK(fd >= 0 && write(fd, f->b, f->len) == (ssize_t)f->len);
	close(fd);
	error_clear(err);
	r = capture_reader_open(path, err);
	unlink(path);
	return r;
}

/* All of CPU @cpu's stream, NUL-terminated, into @buf. */
static ssize_t stream_of(struct capture_reader *r, uint32_t cpu, char *buf, size_t len)
{
	struct capture_stream *s = capture_stream_open(r, cpu);
	size_t n = 0;
	ssize_t got;

	while ((got = capture_stream_read(s, buf + n, 1)) > 0 && n < len - 1)
		n += got;
	buf[n] = '\0';
	capture_stream_close(s);
	return got < 0 ? got : (ssize_t)n;
}

/* Issue 14 #1: empty uncompressed chunks (memcpy from NULL). */
UNIT_TEST(empty_chunks)
{
	struct error err;
	struct capture_reader *r;
	struct file f;
	char buf[64];
	size_t len = 1;
	char *text;

	start(&f);
	plain(&f, KALLSYMS, 0, "");
	plain(&f, STREAM, 0, "");
	plain(&f, STREAM, 0, "abcd");
	plain(&f, STREAM, 0, "");
	end(&f);
	r = open_file(&f, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(capture_reader_verify(r), 0);
	text = capture_reader_section(r, KTPC_KALLSYMS, &len);
	CHECK(text != NULL && len == 0 && !*text);
	free(text);
	CHECK_EQ(stream_of(r, 0, buf, sizeof(buf)), 4);
	CHECK_STR(buf, "abcd");
	capture_reader_close(r);
}

/* Each CPU's chunks in order, whatever comes between. */
UNIT_TEST(interleaved_streams)
{
	const uint32_t *cpus;
	struct error err;
	struct capture_reader *r;
	struct file f;
	char buf[64];

	start(&f);
	plain(&f, STREAM, 7, "a1");
	plain(&f, STREAM, 2, "b1");
	plain(&f, KALLSYMS, 0, "x");
	plain(&f, STREAM, 7, "a2");
	plain(&f, STREAM, 8191, "c1");
	plain(&f, FILES, 7, "");
	plain(&f, FILES, 2, "");
	plain(&f, STREAM, 2, "b2");
	end(&f);
	r = open_file(&f, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(capture_reader_cpus(r, &cpus), 3);
	CHECK(cpus[0] == 2 && cpus[1] == 7 && cpus[2] == 8191);
	stream_of(r, 7, buf, sizeof(buf));
	CHECK_STR(buf, "a1a2");
	stream_of(r, 2, buf, sizeof(buf));
	CHECK_STR(buf, "b1b2");
	stream_of(r, 5, buf, sizeof(buf));
	CHECK_STR(buf, "");
	/* CPU 8191 has no FILES chunk. */
	CHECK_EQ(capture_reader_files_complete(r), 0);
	capture_reader_close(r);
}

/* A header that cannot be right: refused when indexed, saying what is wrong. */
static void refused(struct file *f, const char *why)
{
	struct capture_reader *r;
	struct error err;

	end(f);
	r = open_file(f, &err);
	CHECK(r == NULL);
	capture_reader_close(r);
	CHECK_EQ(err.code, -EBADMSG);
	if (!strstr(error_msg(&err), why))
		UNIT_FAIL("\"%s\" lacks \"%s\"", error_msg(&err), why);
}

/* Issue 14 #3: the message was empty. */
UNIT_TEST(uncompressed_lengths_differ)
{
	struct file f;

	start(&f);
	chunk(&f, STREAM, 0, 0, 5, "abcd", 4);
	refused(&f, "(chunk 0): stored uncompressed, but its raw and stored lengths differ");
}

/* Issue 14 #11: CPU 0xffffffff wrapped the CPU count to 0. */
UNIT_TEST(cpu_beyond_the_limit)
{
	struct file f;

	start(&f);
	plain(&f, STREAM, 0xffffffff, "abcd");
	refused(&f, "a CPU number above 8191");
	start(&f);
	plain(&f, FILES, 8192, "");
	refused(&f, "a CPU number above 8191");
}

/*
 * Issue 14 #8: chunks that inflate to more than their section may hold,
 * found from their headers: 4 stored bytes each, claiming 40 MiB.
 */
UNIT_TEST(section_beyond_the_limit)
{
	struct capture_reader *r;
	struct error err;
	struct file f;

	start(&f);
	chunk(&f, KALLSYMS, 1, 0, 40 << 20, "zzzz", 4);
	end(&f);
	r = open_file(&f, &err);
	CHECK(r != NULL);	/* one is within 64 MiB */
	capture_reader_close(r);
	start(&f);
	chunk(&f, KALLSYMS, 1, 0, 40 << 20, "zzzz", 4);
	chunk(&f, KALLSYMS, 1, 0, 40 << 20, "zzzz", 4);
	refused(&f, "its KALLSYMS section is more than the 64 MiB ktprof reads, once uncompressed (chunk 1");
	start(&f);
	chunk(&f, META, 1, 0, 2 << 20, "zzzz", 4);
	refused(&f, "longer than its section may be");
	start(&f);
	chunk(&f, STREAM, 1, 0, (4 << 20) + 1, "zzzz", 4);
	refused(&f, "a stream chunk longer than 4 MiB");
}

UNIT_MAIN()
