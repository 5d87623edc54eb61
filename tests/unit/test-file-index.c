// SPDX-License-Identifier: GPL-2.0
/* The FILE records of a stream, picked out whatever the feed boundaries. */
#include <errno.h>

#include "capture/file-index.h"
#include "ktprof_abi.h"
#include "decode/stream-writer.h"
#include "unit.h"

static void add_file(struct stream_writer *w, uint64_t ts, uint64_t ino, const char *path)
{
	uint8_t buf[sizeof(struct ktp_file) + 64] = { 0 };
	struct ktp_file f = { .dev = 8, .ino = ino, .build_id_len = 20 };
	size_t len = (sizeof(f) + strlen(path) + 1 + 3) & ~3ul;

	memset(f.build_id, 0x5a, 20);
	memcpy(buf, &f, sizeof(f));
	strcpy((char *)buf + sizeof(f), path);
	stream_writer_record(w, buf, KTP_REC_FILE, 0, len, ts);
}

UNIT_TEST(files_found_across_odd_feeds)
{
	struct stream_writer w;
	struct file_index *fi;
	struct event ev;
	size_t len, off = 0, i, step;
	const void *recs;
	uint64_t ts = 1000;
	unsigned int n = 0;

	stream_writer_init(&w, 1, 4096, ts);
	for (i = 0; i < 500; i++) {
		stream_writer_switch(&w, ts += 10, 100 + i % 7, 0, 200 + i % 5);
		if (i % 50 == 7)
			add_file(&w, ts += 10, 1000 + i, i % 100 == 7 ? "/usr/bin/x" :
				 "/usr/lib/x86_64-linux-gnu/libc.so.6");
	}
	for (step = 1; step <= 4099; step += 1049) {
		fi = file_index_new(1);
		for (i = 0; i < w.len; i += step)
			CHECK_EQ(file_index_feed(fi, w.buf + i, w.len - i < step ? w.len - i : step), 0);
		recs = file_index_records(fi, &len);
		CHECK(recs != NULL);
		for (off = 0, n = 0; file_index_next(recs, len, &off, &ev) > 0; n++) {
			struct ktp_file f;

			memcpy(&f, ev.rec, sizeof(f));
			CHECK_EQ(ev.type, KTP_REC_FILE);
			CHECK_EQ(f.ino, 1007 + 50 * n);
			CHECK_STR((const char *)ev.rec + sizeof(f), n % 2 ? "/usr/lib/x86_64-linux-gnu/libc.so.6" :
				  "/usr/bin/x");
		}
		CHECK_EQ(n, 10);
		CHECK_EQ(off, len);
		file_index_free(fi);
	}
	stream_writer_fini(&w);
}

UNIT_TEST(bad_index_is_rejected)
{
	uint8_t junk[64];
	struct event ev;
	struct ktp_file f = { .h = { .type = KTP_REC_FILE, .size = 64 }, .build_id_len = 20 };
	size_t off = 0;

	memset(junk, 'a', sizeof(junk));
	CHECK_EQ(file_index_next(junk, sizeof(junk), &off, &ev), -EBADMSG);
	/* A FILE record whose path has no NUL. */
	memcpy(junk, &f, sizeof(f));
	off = 0;
	CHECK_EQ(file_index_next(junk, sizeof(junk), &off, &ev), -EBADMSG);
	/* Its size runs past the end. */
	junk[sizeof(junk) - 1] = '\0';
	off = 0;
	CHECK_EQ(file_index_next(junk, sizeof(junk) - 4, &off, &ev), -EBADMSG);
	off = 0;
	CHECK_EQ(file_index_next(junk, sizeof(junk), &off, &ev), 1);
	CHECK_EQ(file_index_next(junk, sizeof(junk), &off, &ev), 0);
}

UNIT_MAIN()
