// SPDX-License-Identifier: GPL-2.0
/*
 * A periodic sleeper, the victim of comparisons: a thread named
 * ktp-ticker sleeps SLEEP_US and then works WORK_US, N times. Pin it with
 * taskset to put something beside it.
 *
 * usage: ticker [-n N] [-s SLEEP_US] [-w WORK_US]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = 500, sleep_us = 1000, work_us = 100, i;
	volatile uint64_t x = 0;
	int c;

	while ((c = getopt(argc, argv, "n:s:w:")) != -1) {
		switch (c) {
		case 'n': n = atol(optarg); break;
		case 's': sleep_us = atol(optarg); break;
		case 'w': work_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: ticker [-n N] [-s SLEEP_US] [-w WORK_US]\n");
			return 2;
		}
	}
	prctl(PR_SET_NAME, "ktp-ticker", 0, 0, 0);
	printf("ticker=%d\n", getpid());
	fflush(stdout);
	for (i = 0; i < n; i++) {
		struct timespec ts = { sleep_us / 1000000, sleep_us % 1000000 * 1000 };
		uint64_t end;

		nanosleep(&ts, NULL);
		end = now_ns() + work_us * 1000;
		while (now_ns() < end)
			x++;
	}
	return 0;
}
