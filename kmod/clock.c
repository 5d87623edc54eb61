// SPDX-License-Identifier: GPL-2.0
/*
 * The session's clock. Records are stamped with CLOCK_BOOTTIME, which
 * perf, ftrace and the analyses line up on. ktime_get_boot_fast_ns() is a
 * seqcount read around the TSC and the boot offset, a third of the write
 * path's instructions; where the TSC is constant and nonstop, records are
 * stamped with the TSC itself and a CLOCK record ties it to boot time at
 * each sub-buffer's start and at least every KTP_CLOCK_SPAN_US of the
 * counter, from which readers convert (struct ktp_clock). Each CPU's
 * records convert with that CPU's own pairs, so TSCs need not agree
 * between CPUs, only tick at the rate tsc_khz says between two pairs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "ktprof.h"

#ifdef CONFIG_X86_TSC
#include <asm/cpufeature.h>
#include <asm/tsc.h>

/*
 * Constant (its rate does not follow the core's frequency), nonstop (it
 * counts in deep idle states), not found unstable by the watchdog.
 * @forced skips the two CPU flags: VMs often have a stable TSC they do
 * not advertise so (qemu's TCG does).
 */
static bool ktp_tsc_usable(bool forced)
{
	if (!tsc_khz || check_tsc_unstable())
		return false;
	return forced || (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
			  boot_cpu_has(X86_FEATURE_NONSTOP_TSC));
}

static u32 ktp_tsc_khz(void)
{
	return tsc_khz;
}

static bool ktp_tsc_unstable(void)
{
	return check_tsc_unstable();
}
#else
static bool ktp_tsc_usable(bool forced)
{
	return false;
}

static u32 ktp_tsc_khz(void)
{
	return 0;
}

static bool ktp_tsc_unstable(void)
{
	return true;
}
#endif

/* "auto", "boot" or "tsc": the clock= parameter and the control file. */
static const char *const ktp_clock_names[] = {
	[KTP_CLOCK_AUTO] = "auto",
	[KTP_CLOCK_BOOT] = "boot",
	[KTP_CLOCK_TSC] = "tsc",
};

int ktp_clock_parse(const char *s, u32 *id)
{
	int i = sysfs_match_string(ktp_clock_names, s);

	if (i < 0)
		return -EINVAL;
	*id = i;
	return 0;
}

const char *ktp_clock_name(u32 id)
{
	return id < ARRAY_SIZE(ktp_clock_names) ? ktp_clock_names[id] : "?";
}

/*
 * Pick the session's clock for @want (enum ktp_clock_id). For the TSC:
 * ns = cycles * mult >> shift, with the largest shift (at most 32) whose
 * mult fits in 32 bits, and the span after which a writer takes a new
 * pair. -EOPNOTSUPP, with the reason in @err, if the TSC was asked for and
 * cannot be used.
 */
int ktp_clock_choose(u32 want, char *err, size_t errlen)
{
	struct ktp_session *s = &ktp_session;
	u32 shift = 32;
	u64 khz;

	s->clock = KTP_CLOCK_BOOT;
	if (want == KTP_CLOCK_BOOT)
		return 0;
	if (want > KTP_CLOCK_TSC) {
		snprintf(err, errlen, "unknown clock %u", want);
		return -EINVAL;
	}
	if (!ktp_tsc_usable(want == KTP_CLOCK_TSC)) {
		if (want == KTP_CLOCK_AUTO)
			return 0;
		snprintf(err, errlen,
			 "clock tsc: this machine has no TSC the kernel trusts (not x86, or marked unstable)");
		return -EOPNOTSUPP;
	}
	khz = ktp_tsc_khz();
	while (shift && div64_u64((u64)NSEC_PER_MSEC << shift, khz) > U32_MAX)
		shift--;
	s->clock = KTP_CLOCK_TSC;
	s->clock_mult = div64_u64((u64)NSEC_PER_MSEC << shift, khz);
	s->clock_shift = shift;
	/* Every delta within a short record's 24 bits (a 16 GHz TSC's ms). */
	s->clock_span = min_t(u64, div_u64(khz * KTP_CLOCK_SPAN_US,
					   USEC_PER_MSEC), KTP_DELTA_MAX);
	return 0;
}

/*
 * Read this CPU's counter and boot time together for a CLOCK record (IRQs
 * off). The boot clock never goes back from one pair to the next.
 */
void ktp_clock_pair(struct ktp_cpu *kc, struct ktp_clock *c)
{
	u64 ns = ktime_get_boot_fast_ns();

	c->cycles = ktp_cycles();
	c->ts = max(ns, kc->anchor_ns);
	c->h = (struct ktp_hdr){ .type = KTP_REC_CLOCK, .size = sizeof(*c) };
	c->mult = ktp_session.clock_mult;
	c->shift = ktp_session.clock_shift;
}

/*
 * The pair a writer takes when its counter has gone a span past the last
 * one, into @c; returns the stamp of the record it precedes. A counter the
 * watchdog has since found unstable gives a pair with mult 0: this CPU
 * stamps with boot time from there. (Only here, not at a sub-buffer's
 * start: a record stamped with the counter may be on its way there.)
 */
u64 ktp_clock_next(struct ktp_cpu *kc, struct ktp_clock *c)
{
	ktp_clock_pair(kc, c);
	if (likely(!ktp_tsc_unstable()))
		return c->cycles;
	c->cycles = 0;
	c->mult = 0;
	c->shift = 0;
	return c->ts;
}

/*
 * A CLOCK record is written: this CPU's stamps are relative to it now, its
 * stamp the last (the counter, or boot time when falling back).
 */
void ktp_clock_taken(struct ktp_cpu *kc, const struct ktp_clock *c)
{
	kc->anchor_ns = c->ts;
	kc->anchor_cycles = c->cycles;
	if (unlikely(!c->mult)) {
		kc->tsc = false;
		kc->last_ts = c->ts;
		return;
	}
	kc->last_ts = c->cycles;
}
