// SPDX-License-Identifier: GPL-2.0
/*
 * A synthetic load at a set rate, for measuring the recorder's ceiling:
 * on every traced CPU a pinned hrtimer fires each millisecond and writes
 * as many selftest records as are due by then at RATE records per second,
 * through the same reserve/commit path as the probes. The records are
 * ordinary selftest records: ktprof record captures them, and its loss
 * counts say whether it kept up.
 *
 * Only while a session runs; stopping the session stops the load. A CPU
 * that goes offline takes its timer elsewhere: it finds itself on the
 * wrong CPU and ends there, so no CPU ever writes two shares.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/smp.h>

#include "compat.h"
#include "ktprof.h"

#define KTP_LOAD_TICK_NS	NSEC_PER_MSEC
/* A late tick catches up at most this many ticks' worth of records. */
#define KTP_LOAD_CATCHUP	2

struct ktp_load_cpu {
	struct hrtimer timer;
	unsigned int cpu;
	u64 start_ns;	/* when this CPU's load began */
	u64 due;	/* records due so far, written or not */
	u64 written;	/* records written */
	u64 dropped;	/* records the writer could not place */
	u64 missed;	/* records a late tick gave up on */
};

static DEFINE_PER_CPU(struct ktp_load_cpu, ktp_load_cpus);
/* Records/s per CPU; 0: off. Written under ktp_lock, read by the timers. */
static u64 ktp_load_rate;

/* Records due at @now since the start, at the rate. */
static u64 ktp_load_due(u64 rate, u64 elapsed_ns)
{
	u64 rem, secs = div64_u64_rem(elapsed_ns, NSEC_PER_SEC, &rem);

	return secs * rate + div64_u64(rem * rate, NSEC_PER_SEC);
}

static enum hrtimer_restart ktp_load_tick(struct hrtimer *t)
{
	struct ktp_load_cpu *lc = container_of(t, struct ktp_load_cpu, timer);
	u64 rate = READ_ONCE(ktp_load_rate);
	u64 due, n, cap;

	/* Moved here by hotplug, or the load ended: this CPU's share ends. */
	if (!rate || lc->cpu != smp_processor_id())
		return HRTIMER_NORESTART;
	due = ktp_load_due(rate, ktime_get_ns() - lc->start_ns);
	n = due - lc->due;
	cap = KTP_LOAD_CATCHUP * div64_u64(rate, NSEC_PER_SEC / KTP_LOAD_TICK_NS) + 1;
	if (n > cap) {
		lc->missed += n - cap;
		n = cap;
	}
	lc->due = due;
	for (; n; n--) {
		if (ktp_session_write_selftest(lc->written + lc->dropped))
			lc->written++;
		else
			lc->dropped++;
	}
	hrtimer_forward_now(t, ns_to_ktime(KTP_LOAD_TICK_NS));
	return HRTIMER_RESTART;
}

/* On the CPU itself (IPI), so that the pinned timer stays there. */
static void ktp_load_arm(void *unused)
{
	struct ktp_load_cpu *lc = this_cpu_ptr(&ktp_load_cpus);

	lc->cpu = smp_processor_id();
	lc->start_ns = ktime_get_ns();
	lc->due = 0;
	lc->written = 0;
	lc->dropped = 0;
	lc->missed = 0;
	hrtimer_start(&lc->timer, ns_to_ktime(KTP_LOAD_TICK_NS),
		      HRTIMER_MODE_REL_PINNED);
}

/* Under ktp_lock. Waits for every running tick to finish. */
void ktp_load_stop(void)
{
	unsigned int cpu;

	lockdep_assert_held(&ktp_lock);
	if (!ktp_load_rate)
		return;
	WRITE_ONCE(ktp_load_rate, 0);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu(ktp_load_cpus, cpu).timer);
}

/*
 * Start (or restart at a new rate) the load on the session's CPUs; rate 0
 * stops it. Under ktp_lock.
 */
int ktp_load_set(u64 rate)
{
	unsigned int cpu;

	lockdep_assert_held(&ktp_lock);
	if (rate > KTP_LOAD_RATE_MAX)
		return -ERANGE;
	ktp_load_stop();
	if (!rate)
		return 0;
	if (ktp_session.state != KTP_SESSION_RUNNING)
		return -EINVAL;
	/* The counts are this load's, on the CPUs it runs on. */
	for_each_possible_cpu(cpu)
		per_cpu(ktp_load_cpus, cpu).start_ns = 0;
	WRITE_ONCE(ktp_load_rate, rate);
	cpus_read_lock();
	on_each_cpu_mask(&ktp_session.cfg.cpus, ktp_load_arm, NULL, 1);
	cpus_read_unlock();
	return 0;
}

/* The rate and, summed over CPUs, the counts of the last load. */
void ktp_load_show(struct seq_file *m)
{
	u64 written = 0, dropped = 0, missed = 0;
	unsigned int cpu, cpus = 0;

	lockdep_assert_held(&ktp_lock);
	for_each_possible_cpu(cpu) {
		struct ktp_load_cpu *lc = per_cpu_ptr(&ktp_load_cpus, cpu);

		if (!lc->start_ns)
			continue;
		cpus++;
		written += READ_ONCE(lc->written);
		dropped += READ_ONCE(lc->dropped);
		missed += READ_ONCE(lc->missed);
	}
	seq_printf(m, "rate=%llu cpus=%u written=%llu dropped=%llu missed=%llu\n",
		   ktp_load_rate, cpus, written, dropped, missed);
}

void ktp_load_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		ktp_hrtimer_setup(&per_cpu(ktp_load_cpus, cpu).timer,
				  ktp_load_tick, CLOCK_MONOTONIC,
				  HRTIMER_MODE_REL_PINNED);
}
