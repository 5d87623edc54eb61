// SPDX-License-Identifier: GPL-2.0
/*
 * A capture file as every command reads it: opened, its metadata and
 * sections read, every chunk checked, every event decoded and symbolized
 * (binaries looked up under a scratch symfs that holds a FIFO at
 * /tmp/ff/app), then the whole report, rendered as text and JSON.
 *
 * So that the fuzzer gets past the checksums, each complete chunk's CRC
 * and sequence number are set right before the file is written, unless bit
 * 0 of the file header's reserved field is set (then damage is kept).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture/capture-format.h"
#include "fuzz.h"

static char path[4096], symfs[4096];

static void make(const char *what, const char *sub, int fifo)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s%s", symfs, sub);
	if (fifo ? mkfifo(p, 0600) : mkdir(p, 0700)) {
		perror(what);
		abort();
	}
}

/* A copy of $KTPROF_FUZZ_ELF at @sub, for the FILE records to name. */
static void copy_elf(const char *sub)
{
	const char *elf = getenv("KTPROF_FUZZ_ELF");
	char p[8192], *buf = NULL;
	size_t len = 0, n;
	FILE *f;

	if (!elf || !(f = fopen(elf, "r")))
		return;
	for (;;) {
		char *nb = realloc(buf, len + 65536);

		if (!nb)
			abort();
		buf = nb;
		n = fread(buf + len, 1, 65536, f);
		len += n;
		if (!n)
			break;
	}
	fclose(f);
	snprintf(p, sizeof(p), "%s%s", symfs, sub);
	fuzz_write(p, buf, len);
	free(buf);
}

static void setup(void)
{
	snprintf(path, sizeof(path), "%s/capture.ktp", fuzz_dir());
	snprintf(symfs, sizeof(symfs), "%s/symfs", fuzz_dir());
	make("symfs", "", 0);
	make("symfs", "/tmp", 0);
	make("symfs", "/tmp/ff", 0);
	/* A FILE record naming this path must not block the symbolizer. */
	make("symfs", "/tmp/ff/app", 1);
	/* The golden scenario's binary. */
	make("symfs", "/usr", 0);
	make("symfs", "/usr/bin", 0);
	copy_elf("/usr/bin/app");
}

/* CRCs and sequence numbers of the complete chunks, made right. */
static void fix_chunks(uint8_t *buf, size_t size)
{
	struct ktpc_file_header fh;
	struct ktpc_chunk_header h;
	uint64_t off, seq = 0;

	if (size < sizeof(fh))
		return;
	memcpy(&fh, buf, sizeof(fh));
	if (fh.reserved & 1)
		return;
	for (off = fh.header_size; off + sizeof(h) <= size; off += sizeof(h) + h.stored_len) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.stored_len > size - off - sizeof(h))
			break;
		h.seq = seq++;
		h.crc = ktpc_chunk_crc(&h, buf + off + sizeof(h));
		memcpy(buf + off, &h, sizeof(h));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	if (!path[0])
		setup();
	memcpy(buf, data, size);
	fix_chunks(buf, size);
	fuzz_write(path, buf, size);
	free(buf);
	fuzz_input(path, symfs);
	fuzz_report(path, symfs);
	return 0;
}
