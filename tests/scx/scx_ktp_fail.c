/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads scx_ktp_fail.bpf.c: a scheduler that fails after N runs
 * (-n N; 0, the default: never). Runs until the kernel ejects it or
 * SIGINT/SIGTERM, then prints the exit as the kernel's example
 * schedulers do (UEI_REPORT) and exits 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <scx/common.h>
#include "scx_ktp_fail.bpf.skel.h"

static volatile int exit_req;

static void on_signal(int sig)
{
	(void)sig;
	exit_req = 1;
}

int main(int argc, char **argv)
{
	struct scx_ktp_fail *skel;
	struct bpf_link *link;
	unsigned long long n = 0;
	int opt;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = SCX_OPS_OPEN(ktp_fail_ops, scx_ktp_fail);
	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n') {
			fprintf(stderr, "usage: %s [-n FAIL_AFTER]\n", argv[0]);
			return 2;
		}
		n = strtoull(optarg, NULL, 0);
	}
	skel->rodata->fail_after = n;
	SCX_OPS_LOAD(skel, ktp_fail_ops, scx_ktp_fail, uei);
	link = SCX_OPS_ATTACH(skel, ktp_fail_ops, scx_ktp_fail);
	printf("attached\n");
	fflush(stdout);
	while (!exit_req && !UEI_EXITED(skel, uei))
		usleep(100 * 1000);
	bpf_link__destroy(link);
	UEI_REPORT(skel, uei);
	scx_ktp_fail__destroy(skel);
	return 0;
}
