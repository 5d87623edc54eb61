// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark workload with a fixed number of context switches: two SCHED_FIFO
 * threads of equal priority on one CPU take turns with sched_yield(), so
 * every yield is exactly one sched_switch and nothing else is scheduled in
 * between. Prints the time per switch; the difference with a tracer on is
 * that tracer's cost per sched_switch event. Needs root (SCHED_FIFO) and an
 * unthrottled RT class (sched_rt_runtime_us = -1) for runs near 1 s.
 *
 * usage: yield-pingpong [-n YIELDS_PER_THREAD] [-c CPU]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long yields = 100000;
static pthread_barrier_t start;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *taker(void *arg)
{
	long i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < yields; i++)
		sched_yield();
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 10 };
	pthread_attr_t attr;
	pthread_t t[2];
	cpu_set_t cpus;
	uint64_t t0, t1;
	int opt, cpu = 0, i, err;

	while ((opt = getopt(argc, argv, "n:c:")) != -1) {
		if (opt == 'n')
			yields = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else {
			fprintf(stderr, "usage: yield-pingpong [-n YIELDS_PER_THREAD] [-c CPU]\n");
			return 2;
		}
	}
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	pthread_barrier_init(&start, NULL, 3);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	for (i = 0; i < 2; i++) {
		err = pthread_create(&t[i], &attr, taker, NULL);
		if (err) {
			fprintf(stderr, "yield-pingpong: SCHED_FIFO thread: %s\n", strerror(err));
			return 1;
		}
	}
	/* Both threads wait at the barrier; timing starts as they are released. */
	t0 = now_ns();
	pthread_barrier_wait(&start);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	t1 = now_ns();
	printf("switches %ld\n", 2 * yields);
	printf("%.1f ns/switch\n", (double)(t1 - t0) / (2.0 * yields));
	return 0;
}
