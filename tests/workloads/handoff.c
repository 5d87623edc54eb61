// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark workload with a fixed number of scheduler events per op: two
 * SCHED_FIFO threads of equal priority on one CPU hand the CPU to each other
 * N times each, so nothing else runs in between and every run repeats the
 * same events:
 *   yield  sched_yield(): one sched_switch per handoff
 *   futex  set a turn word, FUTEX_WAKE the other, FUTEX_WAIT: one
 *          sched_waking and one sched_switch per handoff
 *   sleep  one thread sleeps 20 us at a time (the other leaves at once):
 *          each op the CPU goes idle and a timer wakes the sleeper (idle
 *          entry and exit, a waking, two switches); with instruction-counted
 *          time that sleeps no real time (-icount sleep=off), each op is the
 *          20 us and the instructions run
 * Prints the time per handoff; the difference with a tracer on is that
 * tracer's cost for those events. Needs root (SCHED_FIFO) and an
 * unthrottled RT class (sched_rt_runtime_us = -1) for runs near 1 s.
 *
 * With -o the threads are SCHED_OTHER instead (what a BPF scheduler in
 * sched_ext's switch-all mode schedules: the scx benchmark).
 *
 * usage: handoff [-m yield|futex|sleep] [-n HANDOFFS_PER_THREAD] [-c CPU] [-o]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long handoffs = 100000;
static pthread_barrier_t start;
static int turn;	/* futex mode: which thread may run */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *yielder(void *arg)
{
	long i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < handoffs; i++)
		sched_yield();
	return NULL;
}

static void *futex_taker(void *arg)
{
	int me = (int)(intptr_t)arg, other = !me;
	long i;

	pthread_barrier_wait(&start);
	for (i = 0; i < handoffs; i++) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
			syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, other, NULL, NULL, 0);
		__atomic_store_n(&turn, other, __ATOMIC_RELEASE);
		syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	struct timespec nap = { 0, 20000 };
	long i;

	pthread_barrier_wait(&start);
	if (arg)
		return NULL;
	for (i = 0; i < handoffs; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 10 };
	void *(*fn)(void *) = yielder;
	pthread_attr_t attr;
	pthread_t t[2];
	cpu_set_t cpus;
	uint64_t t0, t1;
	long ops;
	int opt, cpu = 0, i, err, policy = SCHED_FIFO;

	while ((opt = getopt(argc, argv, "m:n:c:o")) != -1) {
		if (opt == 'm' && !strcmp(optarg, "yield"))
			fn = yielder;
		else if (opt == 'm' && !strcmp(optarg, "futex"))
			fn = futex_taker;
		else if (opt == 'm' && !strcmp(optarg, "sleep"))
			fn = sleeper;
		else if (opt == 'n')
			handoffs = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else if (opt == 'o')
			policy = SCHED_OTHER;
		else {
			fprintf(stderr, "usage: handoff [-m yield|futex|sleep] [-n HANDOFFS_PER_THREAD] [-c CPU] [-o]\n");
			return 2;
		}
	}
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	pthread_barrier_init(&start, NULL, 3);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, policy);
	if (policy == SCHED_FIFO)
		pthread_attr_setschedparam(&attr, &sp);
	pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	for (i = 0; i < 2; i++) {
		err = pthread_create(&t[i], &attr, fn, (void *)(intptr_t)i);
		if (err) {
			fprintf(stderr, "handoff: thread: %s\n", strerror(err));
			return 1;
		}
	}
	/* Both threads wait at the barrier; timing starts as they are released. */
	t0 = now_ns();
	pthread_barrier_wait(&start);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	t1 = now_ns();
	/* Per op: a handoff, or one sleep (one thread sleeps). */
	ops = fn == sleeper ? handoffs : 2 * handoffs;
	printf("handoffs %ld\n", ops);
	printf("%.1f ns/handoff\n", (double)(t1 - t0) / (double)ops);
	return 0;
}
