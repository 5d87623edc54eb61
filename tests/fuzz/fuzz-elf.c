// SPDX-License-Identifier: GPL-2.0
/*
 * An ELF file as the symbolizer reads a binary a capture names: its
 * symbols, segments and build id, then lookups of file offsets through
 * the symbolizer's own path (a FILE and a MAP record naming the file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ktprof_abi.h"
#include "symbols/elf-symtab.h"
#include "symbols/symbolizer.h"

static char path[4096];

/* A FILE record for /app (under the scratch symfs) and a MAP of it. */
static void map_file(struct symbolizer *s)
{
	union {
		struct ktp_file f;
		uint8_t b[sizeof(struct ktp_file) + 8];
	} file = { 0 };
	struct ktp_map map = { 0 };
	struct event ev = { 0 };

	file.f.h.type = KTP_REC_FILE;
	file.f.h.size = sizeof(file);
	file.f.dev = 1;
	file.f.ino = 2;
	memcpy(file.b + sizeof(struct ktp_file), "/app", 5);
	ev.type = KTP_REC_FILE;
	ev.size = sizeof(file);
	ev.rec = &file;
	symbolizer_on_event(s, &ev);

	map.h.type = KTP_REC_MAP;
	map.h.size = sizeof(map);
	map.pid = 1;
	map.start = 0x400000;
	map.end = 0x400000 + (1 << 24);
	map.dev = 1;
	map.ino = 2;
	ev.type = KTP_REC_MAP;
	ev.size = sizeof(map);
	ev.rec = &map;
	symbolizer_on_event(s, &ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_symtab *t;
	struct symbolizer *s;
	const uint8_t *id;
	uint64_t off;
	struct usym us;
	struct frame f;
	char buf[256];

	if (!path[0])
		snprintf(path, sizeof(path), "%s/app", fuzz_dir());
	fuzz_write(path, data, size);
	t = elf_symtab_open(path, NULL);
	if (t) {
		elf_symtab_build_id(t, &id);
		elf_symtab_count(t);
		for (off = 0; off < size + 4096; off += 1 + off / 3)
			elf_symtab_lookup(t, off, &us);
		elf_symtab_free(t);
	}
	s = symbolizer_new(NULL, fuzz_dir());
	if (!s)
		abort();
	map_file(s);
	for (off = 0; off < size + 4096; off += 1 + off / 3) {
		symbolizer_frame(s, 1, 0x400000 + off, 0, &f);
		frame_str(&f, 1, buf, sizeof(buf));
	}
	symbolizer_free(s);
	return 0;
}
