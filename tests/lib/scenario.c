// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "scenario.h"

const char scenario_kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T entry_SYSCALL_64\n"
	"ffffffff81002000 T do_syscall_64\n"
	"ffffffff81003000 T __x64_sys_read\n"
	"ffffffff81004000 T schedule\n"
	"ffffffff81005000 T pv_native_safe_halt\n"
	"ffffffff81006000 T vmstat_update\n"
	"ffffffff81007000 T flush_tlb_func\n"
	"ffffffff81008000 T _etext\n";

enum { INIT = 1, KTHREADD = 2, KWORKER = 20, APP = 300, WORKER = 301, NEW_THREAD = 302,
       CHILD = 400 };

static void task(struct stream_writer *w, uint64_t ts, uint32_t pid, uint32_t tgid,
		 uint32_t ppid, uint16_t flags, const char *comm)
{
	struct ktp_task t = { .pid = pid, .tgid = tgid, .ppid = ppid, .flags = flags,
			      .prio = 120 };

	strncpy(t.comm, comm, KTP_COMM_LEN - 1);
	stream_writer_record(w, &t, KTP_REC_TASK, 0, sizeof(t), ts);
}

/* A switch carrying two counter deltas (cycles, instructions). */
static void switch_counted(struct stream_writer *w, uint64_t ts, uint32_t prev,
			   uint16_t state, uint32_t next, uint64_t cycles, uint64_t insns)
{
	uint8_t buf[sizeof(struct ktp_switch) + 16];
	struct ktp_switch s = { .prev_pid = prev, .next_pid = next, .prev_state = state,
				.prev_prio = 120, .next_prio = next == KWORKER ? 100 : 120 };

	memcpy(buf, &s, sizeof(s));
	memcpy(buf + sizeof(s), &cycles, 8);
	memcpy(buf + sizeof(s) + 8, &insns, 8);
	stream_writer_record(w, buf, KTP_REC_SWITCH, 2, sizeof(buf), ts);
}

static void with_string(struct stream_writer *w, uint64_t ts, uint8_t type, const void *fixed,
			size_t fixed_len, const char *s)
{
	uint8_t buf[256] = { 0 };
	size_t len = (fixed_len + strlen(s) + 1 + 3) & ~(size_t)3;

	memcpy(buf, fixed, fixed_len);
	strcpy((char *)buf + fixed_len, s);
	stream_writer_record(w, buf, type, 0, len, ts);
}

static void sample(struct stream_writer *w, uint64_t ts, uint32_t pid, uint32_t tid,
		   const uint64_t *kernel, unsigned int nk, const uint64_t *user,
		   unsigned int nu)
{
	uint8_t buf[sizeof(struct ktp_sample) + 8 * 8];
	struct ktp_sample s = { .ts = ts, .pid = pid, .tid = tid, .nr_kernel = nk,
				.nr_user = nu };

	memcpy(buf, &s, sizeof(s));
	memcpy(buf + sizeof(s), kernel, 8 * nk);
	memcpy(buf + sizeof(s) + 8 * nk, user, 8 * nu);
	stream_writer_record(w, buf, KTP_REC_SAMPLE, nu ? KTP_SAMPLE_USER : 0,
			     sizeof(s) + 8 * (nk + nu), ts);
}

void scenario_write(struct stream_writer cpu[SCENARIO_CPUS], uint64_t t0)
{
	static const uint64_t read_stack[] = { 0xffffffff81003010ull, 0xffffffff81002020ull,
					       0xffffffff81001030ull };
	static const uint64_t app_stack[] = { 0x401234, 0x401100, 0x7f0000001000ull };
	static const uint64_t idle_stack[] = { 0xffffffff81005004ull };
	struct stream_writer *c0 = &cpu[0], *c1 = &cpu[1];
	struct ktp_map map = { .pid = APP, .dev = 0x801, .ino = 4242, .start = 0x400000,
			       .end = 0x402000, .pgoff = 0 };
	struct ktp_file file = { .dev = 0x801, .ino = 4242, .build_id_len = 20 };
	struct ktp_irq_name irqn = { .irq = 24 };
	struct ktp_exec exec = { .pid = CHILD, .old_pid = CHILD };
	struct ktp_fork fork_thread = { .parent_pid = APP, .child_pid = NEW_THREAD,
					.child_tgid = APP };
	struct ktp_fork fork_proc = { .parent_pid = APP, .child_pid = CHILD,
				      .child_tgid = CHILD };
	struct ktp_waking wake_new = { .pid = NEW_THREAD, .target_cpu = 1, .prio = 120 };
	struct ktp_irq irq = { .irq = 24 };
	struct ktp_softirq timer = { .vec = 1 };
	struct ktp_ipi resched = { .cpu = 0 };
	uint8_t ipi_many[sizeof(struct ktp_ipi) + 8];
	struct ktp_ipi ipi_fn = { .callback = 0xffffffff81007000ull };
	struct ktp_wq wq = { .function = 0xffffffff81006000ull, .work = 0xffff888000001000ull };
	struct ktp_migrate mig = { .pid = WORKER, .orig_cpu = 1, .dest_cpu = 0 };
	struct ktp_exit ex = { .pid = CHILD, .tgid = CHILD, .exit_code = 0 };
	struct ktp_free fr = { .pid = CHILD };
	uint64_t targets = 0x3, t = t0;

	memset(file.build_id, 0xab, sizeof(file.build_id));
	/* Session start: both CPUs idle; the snapshot of every task. */
	stream_writer_cpu_mark(c0, t, KTP_CPU_START, 0);
	stream_writer_cpu_mark(c1, t, KTP_CPU_START, 0);
	task(c0, t, INIT, INIT, 0, KTP_TASK_SNAPSHOT, "init");
	task(c0, t, KTHREADD, KTHREADD, 0, KTP_TASK_SNAPSHOT | KTP_TASK_KTHREAD, "kthreadd");
	task(c0, t, KWORKER, KWORKER, KTHREADD, KTP_TASK_SNAPSHOT | KTP_TASK_KTHREAD,
	     "kworker/0:1");
	task(c1, t, APP, APP, INIT, KTP_TASK_SNAPSHOT, "app");
	task(c1, t, WORKER, APP, INIT, KTP_TASK_SNAPSHOT, "app-worker");
	with_string(c1, t, KTP_REC_IRQ_NAME, &irqn, sizeof(irqn), "virtio0-input");

	/* CPU 0 runs app; app wakes its worker onto CPU 1. */
	switch_counted(c0, t += 1000, 0, KTP_STATE_RUNNING, APP, 5000, 2000);
	stream_writer_waking(c0, t += 500, WORKER, 1);
	stream_writer_switch(c1, t += 300, 0, KTP_STATE_RUNNING, WORKER);
	/* A sample in app (user mode), before its file is described. */
	stream_writer_record(c0, &map, KTP_REC_MAP, 0, sizeof(map), t += 100);
	sample(c0, t += 100, APP, APP, read_stack, 3, app_stack, 3);
	with_string(c0, t += 50, KTP_REC_FILE, &file, sizeof(file), "/usr/bin/app");
	sample(c1, t += 10, 0, 0, idle_stack, 1, NULL, 0);

	/* app clones a thread and forks a child that execs. */
	task(c0, t += 200, NEW_THREAD, APP, INIT, KTP_TASK_FORK, "app");
	stream_writer_record(c0, &fork_thread, KTP_REC_FORK, KTP_FORK_THREAD, sizeof(fork_thread), t);
	stream_writer_record(c0, &wake_new, KTP_REC_WAKING, KTP_WAKING_NEW, sizeof(wake_new), t += 100);
	/* The child's TASK record was lost: it is named after its parent. */
	stream_writer_record(c0, &fork_proc, KTP_REC_FORK, 0, sizeof(fork_proc), t += 100);
	task(c1, t += 10, WORKER, APP, INIT, KTP_TASK_RENAME, "renamed");

	/* CPU 1: an interrupt with a softirq inside, then IPIs. */
	stream_writer_record(c1, &irq, KTP_REC_IRQ_ENTRY, 0, sizeof(irq), t += 100);
	stream_writer_record(c1, &timer, KTP_REC_SOFTIRQ_ENTRY, 0, sizeof(timer), t += 100);
	stream_writer_record(c1, &timer, KTP_REC_SOFTIRQ_EXIT, 0, sizeof(timer), t += 100);
	irq.ret = 1;
	stream_writer_record(c1, &irq, KTP_REC_IRQ_EXIT, 0, sizeof(irq), t += 100);
	stream_writer_record(c1, &resched, KTP_REC_IPI_SEND, 0, sizeof(resched), t += 100);
	memcpy(ipi_many, &ipi_fn, sizeof(ipi_fn));
	memcpy(ipi_many + sizeof(ipi_fn), &targets, 8);
	stream_writer_record(c1, ipi_many, KTP_REC_IPI_SEND, 1, sizeof(ipi_many), t += 100);

	/* CPU 0: the kworker preempts app and runs a work item. */
	switch_counted(c0, t += 100, APP, KTP_STATE_PREEMPTED, KWORKER, 90000, 70000);
	stream_writer_record(c0, &wq, KTP_REC_WQ_START, 0, sizeof(wq), t += 100);
	stream_writer_record(c0, &wq, KTP_REC_WQ_END, 0, sizeof(wq), t += 400);
	switch_counted(c0, t += 100, KWORKER, KTP_STATE_IDLE, CHILD, 800, 300);

	/* The child execs and exits; CPU 1 loses records meanwhile. */
	with_string(c0, t += 100, KTP_REC_EXEC, &exec, sizeof(exec), "/bin/true");
	task(c0, t, CHILD, CHILD, APP, KTP_TASK_EXEC, "true");
	stream_writer_record(c0, &ex, KTP_REC_EXIT, 0, sizeof(ex), t += 100);
	switch_counted(c0, t += 100, CHILD, KTP_STATE_EXIT_DEAD, APP, 1200, 900);
	stream_writer_record(c0, &fr, KTP_REC_FREE, 0, sizeof(fr), t += 100);
	stream_writer_drop(c1, 7);
	stream_writer_subbuf(c1);
	stream_writer_record(c1, &mig, KTP_REC_MIGRATE, 0, sizeof(mig), t += 100);
	stream_writer_switch(c1, t += 100, WORKER, KTP_STATE_INTERRUPTIBLE, NEW_THREAD);

	/* Session stop. */
	stream_writer_cpu_mark(c0, t += 1000, KTP_CPU_STOP, APP);
	stream_writer_cpu_mark(c1, t, KTP_CPU_STOP, NEW_THREAD);
}
