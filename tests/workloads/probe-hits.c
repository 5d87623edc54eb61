// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark workload with one probe hit per op (tests/bench/guest.sh
 * probes): a loop of N ops on one CPU, timed by the workload's own clock
 * (guest time: instructions under -icount), so that the difference with a
 * tracer's probe on is that probe's cost per hit:
 *   getppid  the getppid system call: __x64_sys_getppid once per op, for a
 *            kprobe
 *   call     ktp_probe_hit(i): a function kept out of line, its argument
 *            in %rdi, for a uprobe at its entry
 * The loop runs SCHED_FIFO (unless -o) so that a tracer's reader cannot run
 * during it and every tracer buffers the whole run, as in the handoff
 * rounds; needs root and sched_rt_runtime_us = -1 for runs near 1 s.
 *
 * usage: probe-hits [-m getppid|call] [-n N] [-c CPU] [-o]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t ktp_probe_sum;

__attribute__((noinline, used)) uint64_t ktp_probe_hit(uint64_t i)
{
	ktp_probe_sum += i;
	__asm__ volatile("" ::: "memory");
	return i;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 10 };
	int opt, cpu = 0, fifo = 1, syscalls = 1;
	uint64_t t0, t1, sum = 0;
	cpu_set_t cpus;
	long n = 100000, i;

	while ((opt = getopt(argc, argv, "m:n:c:o")) != -1) {
		if (opt == 'm' && !strcmp(optarg, "getppid"))
			syscalls = 1;
		else if (opt == 'm' && !strcmp(optarg, "call"))
			syscalls = 0;
		else if (opt == 'n')
			n = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'o')
			fifo = 0;
		else {
			fprintf(stderr, "usage: probe-hits [-m getppid|call] [-n N] [-c CPU] [-o]\n");
			return 2;
		}
	}
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("probe-hits: sched_setaffinity");
		return 1;
	}
	if (fifo && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("probe-hits: SCHED_FIFO");
		return 1;
	}
	t0 = now_ns();
	if (syscalls)
		for (i = 0; i < n; i++)
			sum += (uint64_t)syscall(SYS_getppid);
	else
		for (i = 0; i < n; i++)
			sum += ktp_probe_hit((uint64_t)i);
	t1 = now_ns();
	printf("ops %ld sum %llu\n", n, (unsigned long long)sum);
	printf("%.1f ns/op\n", n ? (double)(t1 - t0) / (double)n : 0.0);
	return 0;
}
