/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sched_ext scheduler for ktprof's tests that fails on purpose: every
 * task goes to one FIFO dispatch queue of its own (id 7) with a 5 ms
 * slice, and once it has run tasks @fail_after times it reports an error
 * (scx_bpf_error()), which makes the kernel eject it: the exit kind is
 * ERROR_BPF, and the kernel writes its debug dump to the sched_ext_dump
 * tracepoint. With fail_after 0 it never fails.
 */
#include <scx/common.bpf.h>

char _license[] SEC("license") = "GPL";

#define KTP_DSQ 7
#define KTP_SLICE (5ULL * 1000 * 1000)

const volatile u64 fail_after;

static u64 runs;
UEI_DEFINE(uei);

void BPF_STRUCT_OPS(ktp_fail_enqueue, struct task_struct *p, u64 enq_flags)
{
	scx_bpf_dsq_insert(p, KTP_DSQ, KTP_SLICE, enq_flags);
}

void BPF_STRUCT_OPS(ktp_fail_running, struct task_struct *p)
{
	u64 n = __sync_fetch_and_add(&runs, 1) + 1;

	if (fail_after && n == fail_after)
		scx_bpf_error("ktprof test: failing on purpose after %llu runs", n);
}

void BPF_STRUCT_OPS(ktp_fail_dispatch, s32 cpu, struct task_struct *prev)
{
	scx_bpf_dsq_move_to_local(KTP_DSQ, 0);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(ktp_fail_init)
{
	return scx_bpf_create_dsq(KTP_DSQ, -1);
}

void BPF_STRUCT_OPS(ktp_fail_exit, struct scx_exit_info *ei)
{
	UEI_RECORD(uei, ei);
}

SCX_OPS_DEFINE(ktp_fail_ops,
	       .enqueue		= (void *)ktp_fail_enqueue,
	       .dispatch	= (void *)ktp_fail_dispatch,
	       .running		= (void *)ktp_fail_running,
	       .init		= (void *)ktp_fail_init,
	       .exit		= (void *)ktp_fail_exit,
	       .name		= "ktp_fail");
