// SPDX-License-Identifier: GPL-2.0
/*
 * A subject for uprobes (tests/vm/t-probes.sh): calls ktp_probed_request()
 * N times with known arguments: request i (from 1) has id 1000 + i, delta
 * i - 3 (negative for the first two), and the name "even" or "odd"; it
 * returns 2 * id. The function is kept out of line so that its entry is a
 * call with the arguments in their registers.
 *
 * usage: probed [-n N] [-s SLEEP_US]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t ktp_probed_sum;

__attribute__((noinline, used)) uint64_t ktp_probed_request(uint64_t id, int32_t delta,
							     const char *name)
{
	ktp_probed_sum += id + (uint64_t)(int64_t)delta + (uint64_t)name[0];
	__asm__ volatile("" ::: "memory");
	return 2 * id;
}

int main(int argc, char **argv)
{
	long n = 10, sleep_us = 1000, i;
	uint64_t total = 0;
	int c;

	while ((c = getopt(argc, argv, "n:s:")) != -1) {
		switch (c) {
		case 'n': n = atol(optarg); break;
		case 's': sleep_us = atol(optarg); break;
		default:
			fprintf(stderr, "usage: probed [-n N] [-s SLEEP_US]\n");
			return 2;
		}
	}
	for (i = 1; i <= n; i++) {
		struct timespec ts = { sleep_us / 1000000, sleep_us % 1000000 * 1000 };

		total += ktp_probed_request(1000 + i, (int32_t)(i - 3), i % 2 ? "odd" : "even");
		nanosleep(&ts, NULL);
	}
	printf("probed=%d total=%llu\n", getpid(), (unsigned long long)total);
	return 0;
}
