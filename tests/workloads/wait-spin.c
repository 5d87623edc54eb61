// SPDX-License-Identifier: GPL-2.0
/*
 * A program to run from a file system that stops answering (vm/fuse-file,
 * served by tests/tools/fuse-gate): it waits for a byte on stdin, then
 * does a fixed amount of work (a count, not a duration) and exits.
 *
 * Once it waits it needs no page of its own file it has not touched
 * already: the wait and the loop are in one small function, aligned so it
 * cannot straddle two code pages, and the counter is on the stack. A page
 * fault on its file while the file system does not answer would block the
 * program itself instead of only the kernel's read the test is about.
 *
 * usage: wait-spin [ITERATIONS]     (default 300000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static __attribute__((noinline, aligned(256))) int wait_and_spin(unsigned long n)
{
	volatile unsigned long x = 0;
	unsigned long i;
	char c;

	if (read(0, &c, 1) != 1)
		return 1;
	for (i = 0; i < n; i++)
		x += i;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 300000000;

	if (wait_and_spin(n)) {
		fprintf(stderr, "wait-spin: no byte on stdin\n");
		return 1;
	}
	return 0;
}
