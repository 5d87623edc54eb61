// SPDX-License-Identifier: GPL-2.0
/*
 * A raw dump directory (pack.h says how the input encodes one, FIFOs,
 * symlinks and subdirectories included) as the commands read it: opened,
 * meta, sched_ext, topology, kallsyms and stats parsed, every event
 * decoded and symbolized, and the whole report rendered.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/cpu-stats.h"
#include "capture/rawdir.h"
#include "fuzz.h"
#include "pack.h"

#define MAX_ENTRIES 512

static char dir[4096];
static char names[MAX_ENTRIES][PACK_NAME_MAX + 1];
static char kinds[MAX_ENTRIES];
static unsigned int nr_names;

static int bad_name(const char *name)
{
	unsigned int i;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return 1;
	for (i = 0; i < nr_names; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

static void make_entry(char kind, const char *name, const uint8_t *data, uint32_t len)
{
	char p[8192], target[4096];
	int ok;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	switch (kind) {
	case 'p':
		ok = !mkfifo(p, 0600);
		break;
	case 'd':
		ok = !mkdir(p, 0700);
		break;
	case 'l':
		snprintf(target, sizeof(target), "%.*s", (int)(len < 4000 ? len : 4000), data);
		ok = !memchr(data, 0, len < 4000 ? len : 4000) && !symlink(target, p);
		break;
	default:
		fuzz_write(p, data, len);
		ok = 1;
	}
	if (ok) {
		strcpy(names[nr_names], name);
		kinds[nr_names++] = kind;
	}
}

/* The entries of @data into a fresh directory. */
static void unpack(const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (mkdir(dir, 0700)) {
		perror(dir);
		abort();
	}
	nr_names = 0;
	while (nr_names < MAX_ENTRIES && off + 2 <= size) {
		char kind = data[off], name[PACK_NAME_MAX + 1];
		unsigned int nlen = data[off + 1];
		uint32_t len;

		if (!nlen || nlen > PACK_NAME_MAX || off + 2 + nlen + 4 > size)
			break;
		memcpy(name, data + off + 2, nlen);
		name[nlen] = '\0';
		memcpy(&len, data + off + 2 + nlen, 4);
		off += 2 + nlen + 4;
		if (len > size - off)
			break;
		if (strlen(name) == nlen && !bad_name(name))
			make_entry(kind, name, data + off, len);
		off += len;
	}
}

static void clean(void)
{
	unsigned int i;
	char p[8192];

	for (i = 0; i < nr_names; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (kinds[i] == 'd' ? rmdir(p) : unlink(p))
			abort();
	}
	if (rmdir(dir))
		abort();
}

/* What import reads beside the streams. */
static void read_stats(void)
{
	struct rawdir *rd = rawdir_open(dir, NULL);
	struct cpu_stats *stats;
	char *text;

	if (!rd)
		return;
	if (!rawdir_read_file(rd, "stats", &text, NULL)) {
		if (cpu_stats_parse(text, &stats) > 0)
			free(stats);
		free(text);
	}
	rawdir_close(rd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		snprintf(dir, sizeof(dir), "%s/raw", fuzz_dir());
	unpack(data, size);
	fuzz_input(dir, "/nonexistent-symfs");
	read_stats();
	fuzz_report(dir, "/nonexistent-symfs");
	clean();
	return 0;
}
