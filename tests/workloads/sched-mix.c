// SPDX-License-Identifier: GPL-2.0
/*
 * The standard scheduler test workload: a pipe ping-pong between two
 * processes, CPU hogs, sleepers and a child that forks, execs and exits.
 * Every thread has a known comm; the pids go to stdout as key=value lines
 * so tests can find them in a capture.
 *
 * usage: sched-mix [-r ROUNDS] [-t HOG_MS] [-s SLEEPERS]
 *        sched-mix --exec-child     (what the forked child execs)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int stop_hogs;

static void set_comm(const char *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *hog(void *arg)
{
	volatile unsigned long x = 0;

	(void)arg;
	set_comm("ktp-hog");
	printf("hog=%d\n", gettid());
	fflush(stdout);
	while (!stop_hogs)
		x++;
	return NULL;
}

static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int i;

	(void)arg;
	set_comm("ktp-sleep");
	printf("sleeper=%d\n", gettid());
	fflush(stdout);
	for (i = 0; i < 50 && !stop_hogs; i++)
		nanosleep(&ts, NULL);
	return NULL;
}

/* Pong side: echo every byte back until the pipe closes. */
static void pong(int in, int out)
{
	char c;

	set_comm("ktp-pong");
	while (read(in, &c, 1) == 1)
		if (write(out, &c, 1) != 1)
			break;
	_exit(0);
}

static int ping(int rounds)
{
	int to[2], from[2], i;
	pid_t pid;
	char c = 'x';

	if (pipe(to) || pipe(from))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		pong(to[0], from[1]);
	}
	printf("pong=%d\n", pid);
	fflush(stdout);
	close(to[0]);
	close(from[1]);
	for (i = 0; i < rounds; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			return -1;
	close(to[1]);
	close(from[0]);
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

/* A child that forks, execs this program in --exec-child mode, exits 7. */
static int fork_exec_child(const char *self)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(self, "sched-mix", "--exec-child", (char *)NULL);
		_exit(127);
	}
	printf("child=%d\n", pid);
	fflush(stdout);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 7)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 2000, hog_ms = 300, sleepers = 2, nhogs = 2, opt, i;
	pthread_t threads[16];
	unsigned int n = 0;
	uint64_t end;

	if (argc == 2 && !strcmp(argv[1], "--exec-child")) {
		set_comm("ktp-child");
		return 7;
	}
	while ((opt = getopt(argc, argv, "r:t:s:")) != -1) {
		switch (opt) {
		case 'r': rounds = atoi(optarg); break;
		case 't': hog_ms = atoi(optarg); break;
		case 's': sleepers = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: sched-mix [-r ROUNDS] [-t HOG_MS] [-s SLEEPERS]\n");
			return 2;
		}
	}
	if (sleepers > 8)
		sleepers = 8;
	set_comm("ktp-main");
	printf("main=%d\n", getpid());
	fflush(stdout);

	for (i = 0; i < nhogs; i++)
		if (!pthread_create(&threads[n], NULL, hog, NULL))
			n++;
	for (i = 0; i < sleepers; i++)
		if (!pthread_create(&threads[n], NULL, sleeper, NULL))
			n++;
	if (ping(rounds)) {
		fprintf(stderr, "sched-mix: ping-pong failed: %s\n", strerror(errno));
		return 1;
	}
	if (fork_exec_child(argv[0])) {
		fprintf(stderr, "sched-mix: fork/exec child failed\n");
		return 1;
	}
	end = now_ns() + (uint64_t)hog_ms * 1000000;
	while (now_ns() < end)
		usleep(10000);
	stop_hogs = 1;
	for (i = 0; i < (int)n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
