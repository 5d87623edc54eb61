// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolizer on records describing this test binary: a MAP of its text
 * and a FILE with its path and build id, as the module would write them.
 */
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/elf-symtab.h"
#include "symbols/symbolizer.h"
#include "self-map.h"
#include "unit.h"

__attribute__((noinline)) int unit_symbolizer_target(int x);
__attribute__((noinline)) int unit_symbolizer_target(int x)
{
	return x + 7;
}

/* This binary's mapping of @addr, or a skip when procfs is absent. */
#define SELF_MAP_OR_SKIP(addr, m)                                          \
	do {                                                               \
		int _ret = find_self_map(addr, m);                        \
									   \
		if (_ret < 0)                                              \
			UNIT_SKIP("no /proc/self/maps (procfs not mounted)"); \
		CHECK_EQ(_ret, 0);                                         \
		if (_ret)                                                  \
			return;                                            \
	} while (0)

static struct event event_of(void *rec, uint16_t type, uint16_t size)
{
	struct ktp_hdr h = { .type = type, .size = size };

	memcpy(rec, &h, sizeof(h));
	return (struct event){ .type = type, .size = size, .rec = rec };
}

/* Feed MAP and FILE records for this binary; @bad_id corrupts the id. */
static void feed_self(struct symbolizer *s, const struct self_map *m, int bad_id)
{
	uint8_t filebuf[sizeof(struct ktp_file) + 512] = { 0 };
	struct ktp_file *fr = (struct ktp_file *)filebuf;
	struct ktp_map mr = { 0 };
	const uint8_t *id;
	struct elf_symtab *t;
	struct event ev;
	struct stat st;

	stat(m->path, &st);
	t = elf_symtab_open(m->path, NULL);
	fr->dev = 7;
	fr->ino = st.st_ino;
	fr->build_id_len = t ? elf_symtab_build_id(t, &id) : 0;
	if (t)
		memcpy(fr->build_id, id, fr->build_id_len);
	if (bad_id)
		fr->build_id[0] ^= 0xff;
	elf_symtab_free(t);
	strcpy((char *)(fr + 1), m->path);
	ev = event_of(fr, KTP_REC_FILE, sizeof(filebuf));
	CHECK_EQ(symbolizer_on_event(s, &ev), 0);

	mr.pid = 100;
	mr.dev = 7;
	mr.ino = st.st_ino;
	mr.start = m->start;
	mr.end = m->end;
	mr.pgoff = m->pgoff;
	ev = event_of(&mr, KTP_REC_MAP, sizeof(mr));
	CHECK_EQ(symbolizer_on_event(s, &ev), 0);
}

UNIT_TEST(user_frames_resolve)
{
	uint64_t ip = (uintptr_t)unit_symbolizer_target + 3;
	struct symbolizer *s;
	struct self_map m;
	struct frame f;
	char buf[256];

	CHECK_EQ(unit_symbolizer_target(1), 8);
	SELF_MAP_OR_SKIP(ip, &m);
	s = symbolizer_new(NULL, NULL);
	feed_self(s, &m, 0);
	symbolizer_frame(s, 100, ip, 0, &f);
	CHECK(f.resolved);
	CHECK_STR(f.func, "unit_symbolizer_target");
	CHECK_EQ(f.offset, 3);
	CHECK_STR(frame_str(&f, 1, buf, sizeof(buf)), "unit_symbolizer_target+0x3");
	/* Another process has no such mapping. */
	symbolizer_frame(s, 101, ip, 0, &f);
	CHECK(!f.resolved);
	CHECK_STR(f.object, "[unknown]");
	CHECK_EQ(symbolizer_mismatched(s), 0);
	symbolizer_free(s);
}

/* A binary with another build id than the one that ran is refused. */
UNIT_TEST(build_id_mismatch_refused)
{
	uint64_t ip = (uintptr_t)unit_symbolizer_target;
	struct symbolizer *s;
	struct self_map m;
	struct frame f;
	char buf[256];

	SELF_MAP_OR_SKIP(ip, &m);
	s = symbolizer_new(NULL, NULL);
	feed_self(s, &m, 1);
	symbolizer_frame(s, 100, ip, 0, &f);
	CHECK(!f.resolved);
	CHECK_EQ(symbolizer_mismatched(s), 1);
	/* Still named by its binary and offset, never blank. */
	frame_str(&f, 1, buf, sizeof(buf));
	CHECK(buf[0] == '[' && strstr(buf, "]+0x") != NULL);
	symbolizer_free(s);
}

/* A new process under a reused pid does not inherit old mappings. */
UNIT_TEST(fork_forgets_reused_pid)
{
	uint64_t ip = (uintptr_t)unit_symbolizer_target;
	struct ktp_fork fk = { .parent_pid = 1, .child_pid = 100, .child_tgid = 100 };
	struct symbolizer *s;
	struct self_map m;
	struct event ev;
	struct frame f;

	SELF_MAP_OR_SKIP(ip, &m);
	s = symbolizer_new(NULL, NULL);
	feed_self(s, &m, 0);
	ev = event_of(&fk, KTP_REC_FORK, sizeof(fk));
	symbolizer_on_event(s, &ev);
	symbolizer_frame(s, 100, ip, 0, &f);
	CHECK(!f.resolved);
	symbolizer_free(s);
}

UNIT_TEST(kernel_frames)
{
	struct symbolizer *s = symbolizer_new(
		"ffffffff81000000 T _stext\nffffffff81001000 T do_sys_open\n"
		"ffffffffc0000000 t mod_fn\t[mymod]\n", NULL);
	struct frame f;
	char buf[256];

	symbolizer_frame(s, 0, 0xffffffff81001010ull, 1, &f);
	CHECK_STR(frame_str(&f, 1, buf, sizeof(buf)), "do_sys_open+0x10");
	symbolizer_frame(s, 0, 0xffffffffc0000004ull, 1, &f);
	CHECK_STR(frame_str(&f, 0, buf, sizeof(buf)), "mod_fn [mymod]");
	symbolizer_frame(s, 0, 0x1000, 1, &f);
	CHECK_STR(frame_str(&f, 1, buf, sizeof(buf)), "[kernel]+0x1000");
	symbolizer_free(s);
}

UNIT_MAIN()
