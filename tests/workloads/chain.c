// SPDX-License-Identifier: GPL-2.0
/*
 * A chain of wakers for the critical path: ktp-client asks ktp-server over
 * a pipe and waits for the answer; the server asks ktp-worker and waits;
 * the worker works WORK_US and answers. ktp-hog spins beside the worker,
 * on its CPU and at a higher weight (nice -15), so the worker waits for
 * its CPU behind the hog: the client's wait is the hog's doing, two
 * wakers up. Client and server run on CPU CLIENT_CPU, worker and hog on
 * WORKER_CPU. Prints "NAME TID" for each thread once it has started.
 *
 * usage: chain [-n N] [-w WORK_US] [-c CLIENT_CPU] [-W WORKER_CPU]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long n = 200, work_us = 200;
static int client_cpu, worker_cpu = 1;
static int ask_server[2], ask_worker[2], from_worker[2], from_server[2];
static atomic_int done;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void start(const char *name, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
	prctl(PR_SET_NAME, name, 0, 0, 0);
	pthread_mutex_lock(&print_lock);
	printf("%s %ld\n", name, (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Read a byte from @from, write it to @to; false at the end. */
static int relay(int from, int to)
{
	char c;

	return read(from, &c, 1) == 1 && write(to, &c, 1) == 1;
}

static void *server(void *arg)
{
	(void)arg;
	start("ktp-server", client_cpu);
	/* Each question goes to the worker, its answer back to the client. */
	while (relay(ask_server[0], ask_worker[1]) && relay(from_worker[0], from_server[1]))
		;
	return NULL;
}

static void *worker(void *arg)
{
	volatile uint64_t x = 0;
	char c;

	(void)arg;
	start("ktp-worker", worker_cpu);
	while (read(ask_worker[0], &c, 1) == 1) {
		uint64_t end = now_ns() + work_us * 1000;

		while (now_ns() < end)
			x++;
		if (write(from_worker[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void *hog(void *arg)
{
	volatile uint64_t x = 0;

	(void)arg;
	start("ktp-hog", worker_cpu);
	if (setpriority(PRIO_PROCESS, 0, -15))
		perror("setpriority");
	while (!atomic_load(&done))
		x++;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[3];
	long i;
	char c = 'q';
	int o;

	while ((o = getopt(argc, argv, "n:w:c:W:")) != -1) {
		switch (o) {
		case 'n': n = atol(optarg); break;
		case 'w': work_us = atol(optarg); break;
		case 'c': client_cpu = atoi(optarg); break;
		case 'W': worker_cpu = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: chain [-n N] [-w WORK_US] [-c CLIENT_CPU] [-W WORKER_CPU]\n");
			return 2;
		}
	}
	if (n < 1 || work_us < 0 || pipe(ask_server) || pipe(ask_worker) || pipe(from_worker) ||
	    pipe(from_server)) {
		fprintf(stderr, "chain: bad arguments or no pipes\n");
		return 2;
	}
	if (pthread_create(&t[0], NULL, server, NULL) || pthread_create(&t[1], NULL, worker, NULL) ||
	    pthread_create(&t[2], NULL, hog, NULL)) {
		fprintf(stderr, "chain: pthread_create failed\n");
		return 1;
	}
	start("ktp-client", client_cpu);
	for (i = 0; i < n; i++)
		if (write(ask_server[1], &c, 1) != 1 || read(from_server[0], &c, 1) != 1) {
			fprintf(stderr, "chain: the chain broke\n");
			return 1;
		}
	atomic_store(&done, 1);
	close(ask_server[1]);
	pthread_join(t[0], NULL);
	close(ask_worker[1]);
	pthread_join(t[1], NULL);
	pthread_join(t[2], NULL);
	return 0;
}
