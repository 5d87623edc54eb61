// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow handler of the sample sources: one SAMPLE record per
 * overflow with the kernel stack (ORC unwinder from regs->ip, as perf does)
 * and the user stack (a bounded frame-pointer walk with
 * copy_from_user_nofault()), after a THROTTLE record when perf throttled
 * the source, and MAP records for the user frames' mappings (maps.c).
 *
 * Hardware events overflow in NMI, where relay must not be called: their
 * records go through the staging ring (stage.c). Software events overflow
 * in hardirq (cpu-clock) or in task context with IRQs on (page-faults);
 * the handler turns IRQs off outside NMI, so two contexts never share a
 * CPU's scratch space, map cache or file queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/unwind.h>

#include "compat.h"
#include "sample.h"

/* kernel/events/core.c: hw.interrupts of a throttled event. */
#define KTP_PERF_THROTTLED (~0ULL)

/* perf's test: regs from a real interrupt, or made up by software events. */
static bool ktp_hw_regs(struct pt_regs *regs)
{
	return regs->flags & X86_EFLAGS_FIXED;
}

static unsigned int ktp_kernel_stack(struct pt_regs *regs, u64 *ips,
				     bool *truncated)
{
	struct unwind_state state;
	unsigned int n = 0;

	ips[n++] = regs->ip;
	if (ktp_hw_regs(regs))
		unwind_start(&state, current, regs, NULL);
	else
		unwind_start(&state, current, NULL, (void *)regs->sp);
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		if (n == KTP_MAX_FRAMES) {
			*truncated = true;
			break;
		}
		ips[n++] = addr;
	}
	return n;
}

/* Frame-pointer walk of the user stack, bounded, faults tolerated. */
unsigned int ktp_user_stack(struct pt_regs *uregs, u64 *ips,
				   bool *truncated)
{
	unsigned long fp = uregs->bp;
	unsigned int n = 0;

	ips[n++] = uregs->ip;
	while (fp && !(fp & (sizeof(long) - 1))) {
		struct {
			unsigned long next_fp;
			unsigned long ret;
		} frame;

		if (copy_from_user_nofault(&frame, (void __user *)fp,
					   sizeof(frame)))
			break;
		if (!frame.ret || frame.ret >= TASK_SIZE_MAX)
			break;
		if (n == KTP_MAX_FRAMES) {
			*truncated = true;
			break;
		}
		ips[n++] = frame.ret;
		if (frame.next_fp <= fp)
			break;
		fp = frame.next_fp;
	}
	return n;
}

/* Both stacks into the SAMPLE record in @c's scratch space. */
static struct ktp_sample *ktp_take_sample(struct ktp_sample_cpu *sc,
					  struct ktp_cache *c, u32 source,
					  struct pt_regs *regs, bool staged)
{
	struct ktp_sample *s = (struct ktp_sample *)c->scratch;
	u64 *ips = (u64 *)(s + 1);
	bool ktrunc = false, utrunc = false;
	struct pt_regs *uregs = NULL;
	unsigned int nk = 0, nu = 0;

	if (!user_mode(regs))
		nk = ktp_kernel_stack(regs, ips, &ktrunc);
	if (user_mode(regs))
		uregs = regs;
	else if (current->mm && !(current->flags & PF_KTHREAD))
		uregs = task_pt_regs(current);
	if (uregs) {
		nu = ktp_user_stack(uregs, ips + nk, &utrunc);
		ktp_maps_resolve(sc, c, ips + nk, nu, staged);
	}
	s->h = (struct ktp_hdr){
		.type = KTP_REC_SAMPLE,
		.flags = (user_mode(regs) ? KTP_SAMPLE_USER : 0) |
			 (ktrunc ? KTP_SAMPLE_KTRUNC : 0) |
			 (utrunc ? KTP_SAMPLE_UTRUNC : 0) |
			 (staged ? KTP_SAMPLE_DEFERRED : 0),
		.size = sizeof(*s) + (nk + nu) * sizeof(u64),
	};
	s->ts = ktime_get_boot_fast_ns();
	s->pid = current->tgid;
	s->tid = current->pid;
	s->source = source;
	s->pad = 0;
	s->nr_kernel = nk;
	s->nr_user = nu;
	s->pad2 = 0;
	return s;
}

/* While this CPU runs the fake-NMI selftest (a real NMI must not join). */
static DEFINE_PER_CPU(bool, ktp_fake_nmi_busy);

/*
 * One overflow of sample source @source, taken in any context: whether a
 * SAMPLE record was made (it may still be dropped).
 */
static bool __ktp_overflow(u32 source, bool throttled, struct pt_regs *regs)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);
	bool nmi = in_nmi();
	bool staged = nmi || READ_ONCE(ktp_session.cfg.sample_defer);
	struct ktp_cache *c;

	if (!sc || !this_cpu_read(ktp_cpus.active) ||
	    this_cpu_read(ktp_cpus.closing) ||
	    !ktp_task_wanted(&ktp_session.cfg, current))
		return false;
	c = &sc->cache[nmi ? KTP_CTX_NMI : KTP_CTX_IRQ];
	if (throttled) {
		struct ktp_throttle t = {
			.h = { .type = KTP_REC_THROTTLE, .size = sizeof(t) },
			.source = source,
		};

		/* this_cpu ops: an NMI source may interrupt an IRQ one. */
		this_cpu_inc(ktp_cpus.stats[KTP_STAT_THROTTLED]);
		ktp_emit(sc, &t, staged);
	}
	this_cpu_inc(ktp_cpus.stats[KTP_STAT_SAMPLES]);
	ktp_emit(sc, ktp_take_sample(sc, c, source, regs, staged), staged);
	if (staged || ktp_files_pending(sc))
		irq_work_queue(&sc->drain_work);
	return true;
}

void ktp_overflow(struct perf_event *event, struct perf_sample_data *data,
		  struct pt_regs *regs)
{
	/*
	 * Test knob: kernels before c9bc1753b3cc ("perf: Fix
	 * __perf_event_overflow() vs perf_remove_from_context() race"; in
	 * 7.x, and in 6.1 and 6.12 stable since 2026) call task-context
	 * software events (page faults) with IRQs on. Our test kernels all
	 * have it, so vm/samplers enters that way on purpose. Only where the
	 * event came from a context with IRQs on: context switches and
	 * migrations come from under the run-queue lock.
	 */
	bool irqs_on = READ_ONCE(ktp_session.cfg.sample_irqs_on) &&
		       in_task() && irqs_disabled() &&
		       (regs->flags & X86_EFLAGS_IF);
	unsigned long flags;

	/*
	 * A real NMI inside the fake one of the selftest would share its
	 * NMI cache, which has one producer: it is not sampled.
	 */
	if (in_nmi() && this_cpu_read(ktp_fake_nmi_busy))
		return;

	if (irqs_on)
		local_irq_enable();
	/*
	 * Outside NMI, IRQs off: a cpu-clock sample (hardirq) must not
	 * interrupt a page-fault sample (task context) on this CPU's cache.
	 */
	local_irq_save(flags);
	__ktp_overflow((unsigned long)event->overflow_handler_context,
		       event->hw.interrupts == KTP_PERF_THROTTLED, regs);
	local_irq_restore(flags);
	if (irqs_on)
		local_irq_disable();
}

/*
 * A kernel-mode sample of this function's caller, as a software event
 * takes one (perf_fetch_caller_regs(): regs not from an interrupt).
 */
static noinline bool ktp_sample_caller(u32 source)
{
	struct pt_regs regs = {};

	perf_fetch_caller_regs(&regs);
	return __ktp_overflow(source, false, &regs);
}

/*
 * Test ("nmi-sample N" in selftest): @n samples of source 0 of the
 * writing task, by the overflow path as a hardware event's NMI runs it
 * (ktp_fake_nmi_enter()): half of its user mode (the registers it entered
 * the kernel with), half here in the kernel. So the NMI-only parts run
 * under qemu TCG, which has no PMU to raise a real NMI: unwinding in NMI,
 * the mmap trylock and its deferred unlock, staged SAMPLE and MAP records,
 * the NMI context's file queue. Small batches let the drain irq_work empty
 * the staging ring between them. Process context, pinned to a CPU.
 * Returns how many samples were made: fewer when the task is killed, or
 * when the session's sample filter leaves the task out.
 */
u64 ktp_sample_selftest_nmi(u64 n)
{
	struct pt_regs *uregs = task_pt_regs(current);
	u64 i, batch, taken = 0;

	for (i = 0; i < n; i += batch) {
		u64 j;

		batch = min_t(u64, n - i, 16);
		ktp_fake_nmi_enter();
		this_cpu_write(ktp_fake_nmi_busy, true);
		for (j = 0; j < batch; j++) {
			if ((i + j) % 2)
				taken += ktp_sample_caller(0);
			else
				taken += __ktp_overflow(0, false, uregs);
		}
		this_cpu_write(ktp_fake_nmi_busy, false);
		ktp_fake_nmi_exit();
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	return taken;
}

/* irq_work: staged records into relay; FILE records to process context. */
void ktp_drain_fn(struct irq_work *work)
{
	struct ktp_sample_cpu *sc = container_of(work, struct ktp_sample_cpu,
						 drain_work);

	ktp_stage_drain(sc->stage);
	if (ktp_files_pending(sc))
		queue_work_on(smp_processor_id(), ktp_percpu_wq, &sc->file_work);
}
