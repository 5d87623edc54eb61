// SPDX-License-Identifier: GPL-2.0
/*
 * Profiler test subject: does 70% of its work in hot_a and 30% in hot_b
 * (both called from main, the same code in each), or, with --syscalls,
 * loops on a cheap system call. Built with frame pointers and symbols.
 *
 * usage: hotfuncs [-t MS | -n ROUNDS] [--syscalls]
 *   -t MS      work for about MS milliseconds (default 1000)
 *   -n ROUNDS  do ROUNDS turns of 7 units in hot_a and 3 in hot_b, however
 *              long they take: a profile's sample count then follows the
 *              CPU time the work got, not the guest's clock, which runs on
 *              while a busy host leaves the vCPU waiting
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

/*
 * One unit of work, inlined into both: the same code in each, so equal
 * work takes equal time, and the split is one of work, not of time. A
 * split by time drifts towards half and half on a busy host: a vCPU
 * descheduled in the middle of a short turn overshoots it.
 */
static inline __attribute__((always_inline)) uint64_t churn(uint64_t x,
							   uint64_t inc)
{
	int i;

	for (i = 0; i < 20000; i++)
		x = x * 6364136223846793005ull + inc;
	return x;
}

static volatile uint64_t last_ns;

/*
 * Called after each unit, by both. It makes hot_a and hot_b non-leaf
 * functions, which gcc gives a frame (it leaves leaves without one, even
 * with -fno-omit-frame-pointer), so that a frame-pointer walk finds main.
 * And it reads the clock: under qemu's -icount a vCPU in a loop that never
 * does holds back timer interrupts (vm/sample-rate lost 40% of its
 * samples, idle CPUs' too).
 */
static __attribute__((noinline)) void unit_done(void)
{
	last_ns = now_ns();
}

/* @units of work in this function's own code. */
__attribute__((noinline)) void hot_a(int units)
{
	uint64_t x = sink;

	while (units--) {
		x = churn(x, 1442695040888963407ull);
		unit_done();
	}
	sink = x;
}

/* Another increment, so that no compiler folds the two into one. */
__attribute__((noinline)) void hot_b(int units)
{
	uint64_t x = sink;

	while (units--) {
		x = churn(x, 0x9e3779b97f4a7c15ull);
		unit_done();
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
	uint64_t total_ms = 1000, rounds = 0, done = 0, end;
	int opt_syscalls = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--syscalls"))
			opt_syscalls = 1;
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			total_ms = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			rounds = strtoull(argv[++i], NULL, 10);
		else {
			fprintf(stderr, "usage: hotfuncs [-t MS | -n ROUNDS] [--syscalls]\n");
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
	/* 7 units in hot_a, 3 in hot_b, in turns, -n times or for -t MS. */
	while (rounds ? done < rounds : now_ns() < end) {
		hot_a(7);
		hot_b(3);
		done++;
	}
	printf("rounds=%llu\n", (unsigned long long)done);
	return 0;
}
