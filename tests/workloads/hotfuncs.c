// SPDX-License-Identifier: GPL-2.0
/*
 * Profiler test subject: spends about 70% of its CPU time in hot_a and 30%
 * in hot_b (both called from main), or, with --syscalls, loops on a cheap
 * system call. Built with frame pointers and symbols.
 *
 * usage: hotfuncs [-t MS] [--syscalls]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Busy for @ns, in this function's own code. */
__attribute__((noinline)) void hot_a(uint64_t ns)
{
	uint64_t end = now_ns() + ns, x = sink;

	while (now_ns() < end) {
		int i;

		for (i = 0; i < 20000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	}
	sink = x;
}

__attribute__((noinline)) void hot_b(uint64_t ns)
{
	uint64_t end = now_ns() + ns, x = sink;

	while (now_ns() < end) {
		int i;

		for (i = 0; i < 20000; i++)
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	}
	sink = x;
}

__attribute__((noinline)) static void syscall_loop(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end) {
		int i;

		for (i = 0; i < 1000; i++)
			syscall(SYS_getppid);
	}
}

int main(int argc, char **argv)
{
	uint64_t total_ms = 1000, end;
	int opt_syscalls = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--syscalls"))
			opt_syscalls = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			total_ms = strtoull(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: hotfuncs [-t MS] [--syscalls]\n");
			return 2;
		}
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (opt_syscalls) {
		syscall_loop(total_ms * 1000000);
		return 0;
	}
	end = now_ns() + total_ms * 1000000;
	/* 7 ms in hot_a, 3 ms in hot_b, in turns. */
	while (now_ns() < end) {
		hot_a(7000000);
		hot_b(3000000);
	}
	return 0;
}
