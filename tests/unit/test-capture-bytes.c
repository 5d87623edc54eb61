// SPDX-License-Identifier: GPL-2.0
/*
 * The capture reader on a file written byte by byte from the tables of
 * docs/capture-format.md (not from capture-format.h): a file header and
 * four chunks, every header byte commented by field. Then the same file
 * cut at every kind of place (truncated: what precedes reads) and damaged
 * in every documented way (bad magic, sequence, length or CRC: an error
 * that names the chunk and its offset). Offsets in the file:
 *
 *     0  file header (32)
 *    32  chunk 0 KALLSYMS, 26 bytes stored as is
 *    90  chunk 1 STREAM of CPU 3, 68 bytes stored as is
 *   190  chunk 2 KALLSYMS, 31 bytes zlib-compressed to 33
 *   255  chunk 3 END, 16 bytes
 *   303  end of file
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include "capture/capture-read.h"
#include "decode/relay-decode.h"
#include "unit.h"

/* File header (docs/capture-format.md). */
static const uint8_t file_header[] = {
	0x4b, 0x54, 0x50, 0x52, 0x4f, 0x46, 0x00, 0x43, /* 0 magic: "KTPROF\0C" */
	0x01, 0x00,                                     /* 8 major: 1 */
	0x01, 0x00,                                     /* 10 minor: 1 */
	0x20, 0x00, 0x00, 0x00,                         /* 12 header_size: 32 */
	0x15, 0xcd, 0x85, 0x3d, 0xfe, 0x9c, 0x97, 0x17, /* 16 created_ns: 1700000000123456789 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 reserved */
};

/* Chunk 0 at offset 32: kallsyms text, stored as is. */
static const uint8_t chunk0_header[] = {
	0x4b, 0x54, 0x43, 0x48,                         /* 0 magic: "KTCH" */
	0x03, 0x00,                                     /* 4 type: 3 KALLSYMS */
	0x00, 0x00,                                     /* 6 flags: 0, stored as is */
	0x00, 0x00, 0x00, 0x00,                         /* 8 cpu: 0 */
	0x1a, 0x00, 0x00, 0x00,                         /* 12 raw_len: 26 */
	0x1a, 0x00, 0x00, 0x00,                         /* 16 stored_len: 26 */
	0xdf, 0x47, 0x98, 0x0d,                         /* 20 crc: 0x0d9847df */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 seq: 0 */
};

/* Chunk 0's stored bytes (26). */
static const char chunk0_text[] = "ffffffff81000000 T _stext\n";

/* Chunk 1 at offset 90: 68 bytes of CPU 3's stream. */
static const uint8_t chunk1_header[] = {
	0x4b, 0x54, 0x43, 0x48,                         /* 0 magic: "KTCH" */
	0x06, 0x00,                                     /* 4 type: 6 STREAM */
	0x00, 0x00,                                     /* 6 flags: 0, stored as is */
	0x03, 0x00, 0x00, 0x00,                         /* 8 cpu: 3 */
	0x44, 0x00, 0x00, 0x00,                         /* 12 raw_len: 68 */
	0x44, 0x00, 0x00, 0x00,                         /* 16 stored_len: 68 */
	0xf6, 0x2f, 0x00, 0x5d,                         /* 20 crc: 0x5d002ff6 */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 seq: 1 */
};

/*
 * Chunk 1's stored bytes: CPU 3's stream, as docs/record-format.md's
 * worked example (a sub-buffer header, then a switch).
 */
static const uint8_t chunk1_stream[] = {
	0x01, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00,	/* SUBBUF, flags 0, size 48, delta 0 */
	0x4b, 0x54, 0x50, 0x31,				/* magic "KTP1" */
	0x03, 0x00, 0x01, 0x01,				/* cpu 3, ABI 1.1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* seq 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* lost 0 */
	0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,	/* ts 1000000000 */
	0x10, 0x55, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00,	/* session 0x5e5510 */
	0x05, 0x00, 0x14, 0x00, 0xf4, 0x01, 0x00, 0x00,	/* SWITCH, flags 0, size 20, delta 500 */
	0x2a, 0x00, 0x00, 0x00,				/* prev_pid 42 */
	0x00, 0x00, 0x00, 0x00,				/* next_pid 0 */
	0x01, 0x00, 0x78, 0x78,				/* prev_state S, prev_prio 120, next_prio 120 */
};

/* Chunk 2 at offset 190: more kallsyms text, compressed. */
static const uint8_t chunk2_header[] = {
	0x4b, 0x54, 0x43, 0x48,                         /* 0 magic: "KTCH" */
	0x03, 0x00,                                     /* 4 type: 3 KALLSYMS */
	0x01, 0x00,                                     /* 6 flags: 0x1 zlib */
	0x00, 0x00, 0x00, 0x00,                         /* 8 cpu: 0 */
	0x1f, 0x00, 0x00, 0x00,                         /* 12 raw_len: 31 */
	0x21, 0x00, 0x00, 0x00,                         /* 16 stored_len: 33 */
	0xfc, 0xcb, 0xc3, 0x34,                         /* 20 crc: 0x34c3cbfc */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 seq: 2 */
};

/* Chunk 2's stored bytes (33): zlib (RFC 1950), which inflate to 31. */
static const uint8_t chunk2_zlib[] = {
	0x78, 0xda, 0x4b, 0x4b, 0x83, 0x00, 0x0b, 0x43, /* 0 zlib of "...do_sys_open\n" */
	0x03, 0x03, 0x20, 0x32, 0x50, 0x08, 0x51, 0x48, /*   ... */
	0xc9, 0x8f, 0x2f, 0xae, 0x2c, 0x8e, 0xcf, 0x2f, /*   ... */
	0x48, 0xcd, 0xe3, 0x02, 0x00, 0x9e, 0x5d, 0x09, /*   ... */
	0xfb,                                           /*   ... */
};

/* Chunk 3 at offset 255: END. */
static const uint8_t chunk3_header[] = {
	0x4b, 0x54, 0x43, 0x48,                         /* 0 magic: "KTCH" */
	0x08, 0x00,                                     /* 4 type: 8 END */
	0x00, 0x00,                                     /* 6 flags: 0 */
	0x00, 0x00, 0x00, 0x00,                         /* 8 cpu: 0 */
	0x10, 0x00, 0x00, 0x00,                         /* 12 raw_len: 16 */
	0x10, 0x00, 0x00, 0x00,                         /* 16 stored_len: 16 */
	0x9d, 0x21, 0x42, 0xcc,                         /* 20 crc: 0xcc42219d */
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 seq: 3 */
};

/* Chunk 3's stored bytes: the END payload. */
static const uint8_t chunk3_end[] = {
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 0 chunks before it: 3 */
	0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 8 stream bytes: 68 */
};

#define FILE_SIZE 303
#define CHUNK0 32
#define CHUNK1 90
#define CHUNK2 190
#define CHUNK3 255

/* Chunk header fields, by their documented offsets. */
#define CH_TYPE 4
#define CH_RAW_LEN 12
#define CH_STORED_LEN 16
#define CH_CRC 20
#define CH_SEQ 24

static const char kallsyms_all[] =
	"ffffffff81000000 T _stext\nffffffff81001000 T do_sys_open\n";

struct file_buf {
	uint8_t b[512];
	size_t len;
};

static void append(struct file_buf *f, const void *p, size_t n)
{
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

/* The whole fixture file. */
static void fixture(struct file_buf *f)
{
	f->len = 0;
	append(f, file_header, sizeof(file_header));
	append(f, chunk0_header, sizeof(chunk0_header));
	append(f, chunk0_text, sizeof(chunk0_text) - 1);
	append(f, chunk1_header, sizeof(chunk1_header));
	append(f, chunk1_stream, sizeof(chunk1_stream));
	append(f, chunk2_header, sizeof(chunk2_header));
	append(f, chunk2_zlib, sizeof(chunk2_zlib));
	append(f, chunk3_header, sizeof(chunk3_header));
	append(f, chunk3_end, sizeof(chunk3_end));
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The CRC the format wants for the chunk at @off, computed with zlib. */
static uint32_t zlib_crc(const uint8_t *file, size_t off)
{
	uint8_t h[32];

	memcpy(h, file + off, sizeof(h));
	put32(h + CH_CRC, 0);
	return crc32(crc32(0, h, sizeof(h)), file + off + 32, get32(h + CH_STORED_LEN));
}

/* Make the chunk at @off consistent again after a change to it. */
static void fix_crc(struct file_buf *f, size_t off)
{
	put32(f->b + off + CH_CRC, zlib_crc(f->b, off));
}

/* A reader on @len bytes of @buf, through a file removed at once. */
static struct capture_reader *open_bytes(const void *buf, size_t len, struct error *err)
{
	char path[] = "/tmp/ktprof-unit-capture.XXXXXX";
	struct capture_reader *r;
	int fd = mkstemp(path);

	error_clear(err);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
		UNIT_FAIL("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	r = capture_reader_open(path, err);
	unlink(path);
	return r;
}

/* The stream of @cpu, read 7 bytes at a time; its length or -errno. */
static ssize_t read_stream(struct capture_reader *r, uint32_t cpu, uint8_t *out, size_t max)
{
	struct capture_stream *s = capture_stream_open(r, cpu);
	size_t len = 0;
	ssize_t n = 0;

	if (!s)
		return -ENOMEM;
	while (len < max && (n = capture_stream_read(s, out + len,
						    max - len < 7 ? max - len : 7)) > 0)
		len += n;
	capture_stream_close(s);
	return n < 0 ? n : (ssize_t)len;
}

UNIT_TEST(fixture_crcs_are_zlibs)
{
	static struct file_buf f;
	static const size_t chunks[] = { CHUNK0, CHUNK1, CHUNK2, CHUNK3 };
	unsigned int i;

	fixture(&f);
	CHECK_EQ(f.len, FILE_SIZE);
	for (i = 0; i < 4; i++) {
		CHECK_EQ(get32(f.b + chunks[i]), 0x4843544b);
		CHECK_EQ(get64(f.b + chunks[i] + CH_SEQ), i);
		CHECK_EQ(get32(f.b + chunks[i] + CH_CRC), zlib_crc(f.b, chunks[i]));
	}
}

UNIT_TEST(reads_the_fixture)
{
	static struct file_buf f;
	const struct capture_status *st;
	struct relay_decoder *d;
	struct capture_reader *r;
	struct error err;
	const uint32_t *cpus;
	uint8_t stream[256];
	struct event ev;
	size_t len = 0;
	char *text;

	fixture(&f);
	r = open_bytes(f.b, f.len, &err);
	CHECK(r != NULL);
	if (!r) {
		printf("    %s\n", error_msg(&err));
		return;
	}
	st = capture_reader_status(r);
	CHECK_EQ(st->major, 1);
	CHECK_EQ(st->minor, 1);
	CHECK_EQ(st->chunks, 4);
	CHECK_EQ(st->complete, 1);
	CHECK_EQ(st->file_size, FILE_SIZE);
	CHECK_EQ(st->end_offset, FILE_SIZE);
	CHECK_STR(st->problem, "");
	CHECK_EQ(capture_reader_cpus(r, &cpus), 1);
	CHECK_EQ(cpus[0], 3);
	CHECK_EQ(capture_reader_files_complete(r), 0);	/* no FILES chunk */

	/* KALLSYMS chunks concatenate; chunk 2 is inflated. */
	text = capture_reader_section(r, KTPC_KALLSYMS, &len);
	CHECK_STR(text, kallsyms_all);
	CHECK_EQ(len, 57);
	free(text);
	text = capture_reader_section(r, KTPC_END, &len);
	CHECK(text != NULL);
	CHECK_EQ(len, 16);
	if (text) {
		CHECK_EQ(get64((uint8_t *)text), 3);
		CHECK_EQ(get64((uint8_t *)text + 8), 68);
	}
	free(text);
	errno = 0;
	CHECK(capture_reader_section(r, KTPC_META, &len) == NULL);
	CHECK_EQ(errno, ENOENT);

	/* The stream is the bytes stored, and decodes. */
	CHECK_EQ(read_stream(r, 3, stream, sizeof(stream)), 68);
	CHECK(!memcmp(stream, chunk1_stream, 68));
	CHECK_EQ(read_stream(r, 0, stream, sizeof(stream)), 0);
	d = relay_decoder_new(3);
	relay_decoder_feed(d, chunk1_stream, sizeof(chunk1_stream));
	relay_decoder_set_eof(d);
	CHECK_EQ(relay_decoder_next(d, &ev), 1);
	CHECK_EQ(ev.type, 1);
	CHECK_EQ(relay_decoder_next(d, &ev), 1);
	CHECK_EQ(ev.type, 5);
	CHECK_EQ(ev.ts, 1000000500);
	CHECK_EQ(relay_decoder_next(d, &ev), 0);
	relay_decoder_free(d);

	CHECK_EQ(capture_reader_verify(r), 0);
	capture_reader_close(r);
}

/*
 * A newer minor version reads; so does a longer file header (a later
 * format's), since chunks start at its header_size.
 */
UNIT_TEST(newer_minor_longer_header)
{
	static struct file_buf f, g;
	static const uint8_t more[8] = "future!";
	struct capture_reader *r;
	struct error err;
	char *text;

	fixture(&f);
	g.len = 0;
	append(&g, f.b, 32);
	append(&g, more, sizeof(more));
	append(&g, f.b + 32, f.len - 32);
	g.b[10] = 9;		/* minor 9 */
	g.b[12] = 40;		/* header_size 40 */
	r = open_bytes(g.b, g.len, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(capture_reader_status(r)->minor, 9);
	CHECK_EQ(capture_reader_status(r)->chunks, 4);
	CHECK_EQ(capture_reader_status(r)->complete, 1);
	CHECK_EQ(capture_reader_status(r)->end_offset, FILE_SIZE + 8);
	text = capture_reader_section(r, KTPC_KALLSYMS, NULL);
	CHECK_STR(text, kallsyms_all);
	free(text);
	capture_reader_close(r);
}

/* What capture_reader_open() says of the fixture with @off set to @val. */
static void check_header_refused(size_t off, uint8_t val, size_t len, int code,
				 const char *words)
{
	static struct file_buf f;
	struct capture_reader *r;
	struct error err;

	fixture(&f);
	f.b[off] = val;
	r = open_bytes(f.b, len, &err);
	CHECK(r == NULL);
	capture_reader_close(r);
	CHECK_EQ(err.code, code);
	if (!strstr(error_msg(&err), words))
		UNIT_FAIL("\"%s\" does not say \"%s\"", error_msg(&err), words);
}

UNIT_TEST(file_header_refused)
{
	/* Not "KTPROF\0C". */
	check_header_refused(7, 'D', FILE_SIZE, -ERROR_NOT_CAPTURE, "not a ktprof capture");
	/* Shorter than a file header; empty. */
	check_header_refused(0, 'K', 31, -ERROR_NOT_CAPTURE, "not a ktprof capture");
	check_header_refused(0, 'K', 0, -ERROR_NOT_CAPTURE, "not a ktprof capture");
	/* Another major version: both versions named. */
	check_header_refused(8, 2, FILE_SIZE, -ERROR_FORMAT,
			     "capture format 2.1; this ktprof reads 1.0 to 1.");
	/* A header size below 32, or beyond the file. */
	check_header_refused(12, 16, FILE_SIZE, -ERROR_DAMAGED, "corrupt file header");
	check_header_refused(13, 2, FILE_SIZE, -ERROR_DAMAGED, "corrupt file header");
}

/*
 * Cut anywhere, a file reads up to its last complete chunk, and the status
 * says where it ends and why.
 */
UNIT_TEST(truncated_files)
{
	static const struct {
		size_t cut;
		unsigned int chunks;
		size_t end;
		const char *why;
	} cuts[] = {
		{ 32, 0, 32, "no end chunk after chunk 0" },
		{ 50, 0, 32, "truncated at offset 32: partial chunk header" },
		{ 64, 0, 32, "truncated at offset 32: chunk 0 needs 26 bytes, 0 left" },
		{ 89, 0, 32, "truncated at offset 32: chunk 0 needs 26 bytes, 25 left" },
		{ 90, 1, 90, "no end chunk after chunk 1" },
		{ 150, 1, 90, "truncated at offset 90: chunk 1 needs 68 bytes, 28 left" },
		{ 255, 3, 255, "no end chunk after chunk 3" },
		{ 302, 3, 255, "truncated at offset 255: chunk 3 needs 16 bytes, 15 left" },
	};
	static struct file_buf f;
	unsigned int i;

	fixture(&f);
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		const struct capture_status *st;
		struct capture_reader *r;
		struct error err;
		const uint32_t *cpus;
		uint8_t stream[256];
		char *text;

		r = open_bytes(f.b, cuts[i].cut, &err);
		if (!r) {
			UNIT_FAIL("cut at %zu: %s", cuts[i].cut, error_msg(&err));
			continue;
		}
		st = capture_reader_status(r);
		CHECK_EQ(st->complete, 0);
		CHECK_EQ(st->chunks, cuts[i].chunks);
		CHECK_EQ(st->end_offset, cuts[i].end);
		if (!strstr(st->problem, cuts[i].why))
			UNIT_FAIL("cut at %zu: \"%s\" does not say \"%s\"", cuts[i].cut,
				  st->problem, cuts[i].why);
		/* What precedes the cut reads normally. */
		text = capture_reader_section(r, KTPC_KALLSYMS, NULL);
		if (cuts[i].chunks == 0)
			CHECK(text == NULL);
		else
			CHECK_STR(text, cuts[i].chunks < 3 ? "ffffffff81000000 T _stext\n" :
				  kallsyms_all);
		free(text);
		CHECK_EQ(capture_reader_cpus(r, &cpus), cuts[i].chunks >= 2);
		CHECK_EQ(read_stream(r, 3, stream, sizeof(stream)), cuts[i].chunks >= 2 ? 68 : 0);
		CHECK_EQ(capture_reader_verify(r), 0);
		capture_reader_close(r);
	}
}

/* The status or error names chunk @chunk at offset @off. */
static void check_names_chunk(const char *problem, unsigned int chunk, size_t off)
{
	char c[32], o[32];

	snprintf(c, sizeof(c), "chunk %u", chunk);
	snprintf(o, sizeof(o), "offset %zu", off);
	if (!strstr(problem, c) || !strstr(problem, o))
		UNIT_FAIL("\"%s\" does not name %s at %s", problem, c, o);
}

/*
 * A damaged chunk is an error naming the chunk and its offset: when the
 * file is opened (the index sees a bad header) or when the chunk is read
 * (capture_reader_verify() reads them all).
 */
static void check_damaged(const struct file_buf *f, unsigned int chunk, size_t off,
			  const char *what)
{
	struct capture_reader *r;
	struct error err;
	int failed = unit_failed_now;

	unit_failed_now = 0;
	r = open_bytes(f->b, f->len, &err);
	if (!r) {
		CHECK_EQ(err.code, -EBADMSG);
		check_names_chunk(error_msg(&err), chunk, off);
	} else {
		CHECK_EQ(capture_reader_verify(r), -EBADMSG);
		check_names_chunk(capture_reader_status(r)->problem, chunk, off);
		capture_reader_close(r);
	}
	if (unit_failed_now)
		printf("    (damage: %s)\n", what);
	unit_failed_now |= failed;
}

UNIT_TEST(damaged_chunks)
{
	static struct file_buf f;

	fixture(&f);
	f.b[CHUNK1] = 'X';
	check_damaged(&f, 1, CHUNK1, "bad magic");

	fixture(&f);
	f.b[CHUNK2 + CH_SEQ] = 7;
	check_damaged(&f, 2, CHUNK2, "sequence number 7 for chunk 2");

	fixture(&f);
	put32(f.b + CHUNK1 + CH_STORED_LEN, 0x7fffffff);
	check_damaged(&f, 1, CHUNK1, "a stored length over 64 MiB");

	fixture(&f);
	put32(f.b + CHUNK2 + CH_RAW_LEN, 65u << 20);
	fix_crc(&f, CHUNK2);
	check_damaged(&f, 2, CHUNK2, "a raw length over 64 MiB");

	fixture(&f);
	f.b[CHUNK1 + 32 + 60] ^= 1;
	check_damaged(&f, 1, CHUNK1, "a stream byte changed: CRC mismatch");

	fixture(&f);
	f.b[CHUNK0 + CH_CRC] ^= 0x80;
	check_damaged(&f, 0, CHUNK0, "the CRC field changed");

	fixture(&f);
	f.b[CHUNK2 + 32 + 10] ^= 0xff;
	fix_crc(&f, CHUNK2);
	check_damaged(&f, 2, CHUNK2, "compressed bytes that do not inflate");

	fixture(&f);
	put32(f.b + CHUNK2 + CH_RAW_LEN, 30);
	fix_crc(&f, CHUNK2);
	check_damaged(&f, 2, CHUNK2, "a raw length one short of what inflates");

	fixture(&f);
	put32(f.b + CHUNK1 + CH_RAW_LEN, 60);
	fix_crc(&f, CHUNK1);
	check_damaged(&f, 1, CHUNK1, "stored as is, but raw and stored lengths differ");
}

/* A damaged stream chunk fails its reader; metadata still reads. */
UNIT_TEST(damaged_stream_fails_its_reader)
{
	static struct file_buf f;
	struct capture_reader *r;
	struct error err;
	uint8_t stream[256];
	char *text;

	fixture(&f);
	f.b[CHUNK1 + 32 + 60] ^= 1;
	r = open_bytes(f.b, f.len, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(read_stream(r, 3, stream, sizeof(stream)), -EBADMSG);
	check_names_chunk(capture_reader_status(r)->problem, 1, CHUNK1);
	CHECK_EQ(capture_reader_verify_meta(r), 0);
	text = capture_reader_section(r, KTPC_KALLSYMS, NULL);
	CHECK_STR(text, kallsyms_all);
	free(text);
	capture_reader_close(r);
}

/* A damaged metadata chunk fails its section. */
UNIT_TEST(damaged_section_fails)
{
	static struct file_buf f;
	struct capture_reader *r;
	struct error err;

	fixture(&f);
	f.b[CHUNK0 + 32 + 3] ^= 1;
	r = open_bytes(f.b, f.len, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	errno = 0;
	CHECK(capture_reader_section(r, KTPC_KALLSYMS, NULL) == NULL);
	CHECK_EQ(errno, EBADMSG);
	CHECK_EQ(capture_reader_verify_meta(r), -EBADMSG);
	check_names_chunk(capture_reader_status(r)->problem, 0, CHUNK0);
	capture_reader_close(r);
}

/* A chunk type this reader does not know is skipped (a newer minor's). */
UNIT_TEST(unknown_chunk_type_skipped)
{
	static struct file_buf f;
	struct capture_reader *r;
	struct error err;
	char *text;

	fixture(&f);
	f.b[CHUNK2 + CH_TYPE] = 99;
	fix_crc(&f, CHUNK2);
	r = open_bytes(f.b, f.len, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(capture_reader_status(r)->chunks, 4);
	CHECK_EQ(capture_reader_status(r)->complete, 1);
	text = capture_reader_section(r, KTPC_KALLSYMS, NULL);
	CHECK_STR(text, "ffffffff81000000 T _stext\n");
	free(text);
	CHECK_EQ(capture_reader_verify(r), 0);
	capture_reader_close(r);
}

UNIT_MAIN()
