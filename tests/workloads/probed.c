// SPDX-License-Identifier: GPL-2.0
/*
 * A subject for uprobes (tests/vm/t-probes.sh): calls ktp_probed_request()
 * N times with known arguments: request i (from 1) has id 1000 + i, delta
 * i - 3 (negative for the first two), and the name "even" or "odd"; it
 * returns 2 * id. The function is kept out of line so that its entry is a
 * call with the arguments in their registers.
 *
 * Around each request, USDT probes (<sys/sdt.h>, with semaphores)
 * ktp:req_begin(id, delta, name, 3) and ktp:req_end(id, sum), sum being
 * ktp_probed_sum after the request (a global: its note names it by its
 * place, sum(%rip)); between them the sleep. Request -N NEST (from 1)
 * has a request nested in it, id 2000 + NEST, sleeping as long, before
 * its own sleep. The program counts the requests that found
 * req_begin's semaphore set ("enabled=").
 *
 * usage: probed [-n N] [-s SLEEP_US] [-N NEST]
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t ktp_probed_sum;
/* What a tracer counts up while it probes them (the kernel's ref_ctr). */
unsigned short ktp_req_begin_semaphore __attribute__((section(".probes")));
unsigned short ktp_req_end_semaphore __attribute__((section(".probes")));

__attribute__((noinline, used)) uint64_t ktp_probed_request(uint64_t id, int32_t delta,
							     const char *name)
{
	ktp_probed_sum += id + (uint64_t)(int64_t)delta + (uint64_t)name[0];
	__asm__ volatile("" ::: "memory");
	return 2 * id;
}

static long enabled;

/* One request: its USDT begin, the call, a nested one if asked, the sleep, its end. */
static uint64_t request(uint64_t id, int32_t delta, const char *name, long sleep_us, int nest)
{
	struct timespec ts = { sleep_us / 1000000, sleep_us % 1000000 * 1000 };
	uint64_t ret;

	if (ktp_req_begin_semaphore)
		enabled++;
	STAP_PROBE4(ktp, req_begin, id, delta, name, 3);
	ret = ktp_probed_request(id, delta, name);
	if (nest)
		request(2000 + id % 1000, delta, name, sleep_us, 0);
	nanosleep(&ts, NULL);
	STAP_PROBE2(ktp, req_end, id, ktp_probed_sum);
	return ret;
}

int main(int argc, char **argv)
{
	long n = 10, sleep_us = 1000, nest = 0, i;
	uint64_t total = 0;
	int c;

	while ((c = getopt(argc, argv, "n:s:N:")) != -1) {
		switch (c) {
		case 'n': n = atol(optarg); break;
		case 's': sleep_us = atol(optarg); break;
		case 'N': nest = atol(optarg); break;
		default:
			fprintf(stderr, "usage: probed [-n N] [-s SLEEP_US] [-N NEST]\n");
			return 2;
		}
	}
	for (i = 1; i <= n; i++)
		total += request(1000 + i, (int32_t)(i - 3), i % 2 ? "odd" : "even", sleep_us,
				 i == nest);
	printf("probed=%d total=%llu enabled=%ld\n", getpid(), (unsigned long long)total, enabled);
	return 0;
}
