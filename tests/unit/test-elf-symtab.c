// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF symbolizer on this very test binary (PIE, not stripped): a
 * function's run-time address, turned into a file offset through
 * /proc/self/maps as a MAP record would, resolves to its name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/elf-symtab.h"
#include "self-map.h"
#include "unit.h"

__attribute__((noinline)) int unit_marker_function(int x);
__attribute__((noinline)) int unit_marker_function(int x)
{
	return x * 3 + 1;
}

UNIT_TEST(resolves_own_function)
{
	uint64_t addr = (uintptr_t)unit_marker_function + 2, off = 0;
	struct error err = { 0 };
	struct elf_symtab *t;
	struct self_map m;
	const uint8_t *id;
	struct usym s;

	CHECK_EQ(unit_marker_function(1), 4);
	CHECK_EQ(find_self_map(addr, &m), 0);
	off = self_map_offset(&m, addr);
	t = elf_symtab_open(m.path, &err);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(elf_symtab_count(t) > 10);
	CHECK_EQ(elf_symtab_build_id(t, &id), 20);
	CHECK_EQ(elf_symtab_lookup(t, off, &s), 0);
	CHECK_STR(s.name, "unit_marker_function");
	CHECK_EQ(s.offset, 2);
	/* An offset outside every loaded segment. */
	CHECK_EQ(elf_symtab_lookup(t, 1ull << 40, &s), -ENOENT);
	elf_symtab_free(t);
}

UNIT_TEST(non_elf_refused)
{
	char path[] = "/tmp/ktprof-unit-elf.XXXXXX";
	struct error err = { 0 };
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, "#!/bin/sh\n", 10) == 10);
	close(fd);
	CHECK(elf_symtab_open(path, &err) == NULL);
	CHECK(strstr(error_msg(&err), "not an ELF file") != NULL);
	CHECK_EQ(err.code, -ENOEXEC);
	unlink(path);
	CHECK(elf_symtab_open("/nonexistent/x", &err) == NULL);
	CHECK(strstr(error_msg(&err), "No such file") != NULL);
	CHECK_EQ(err.code, -ENOENT);
}

/* Paths come from captures: only regular files on disk are opened. */
UNIT_TEST(pseudo_and_special_files_refused)
{
	char dir[] = "/tmp/ktprof-unit-elf.XXXXXX", fifo[64];
	struct error err = { 0 };

	CHECK(elf_symtab_open("/proc/self/status", &err) == NULL);
	CHECK_EQ(err.code, -ERROR_NOT_REGULAR);
	CHECK(elf_symtab_open("/dev/null", &err) == NULL);
	CHECK_EQ(err.code, -ERROR_NOT_REGULAR);
	/* A FIFO would block the open itself. */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(fifo, sizeof(fifo), "%s/app", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK(elf_symtab_open(fifo, &err) == NULL);
	CHECK_EQ(err.code, -ERROR_NOT_REGULAR);
	CHECK(strstr(error_msg(&err), "not a regular file") != NULL);
	unlink(fifo);
	rmdir(dir);
}

UNIT_MAIN()
