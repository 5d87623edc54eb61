// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing session: IDLE -> RUNNING -> STOPPED -> RUNNING ...
 *
 * start: open a relay channel, attach the probes, take the start clocks,
 * then switch every traced CPU on from an IPI (each writes a START mark
 * naming the task it runs, so its switch sequence has a known first
 * "prev"), then write the task snapshot.
 * stop: switch every CPU off from an IPI (each writes a STOP mark with its
 * counts and finishes its partial sub-buffer), then detach the probes. The
 * channel stays readable until the next start or unload.
 *
 * Control paths (debugfs, netlink, module load/unload, CPU hotplug) all go
 * through these functions under ktp_lock; hotplug callbacks run under the
 * hotplug lock, which start and stop hold (cpus_read_lock) while they
 * switch CPUs, so a CPU coming or going never misses a transition.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/pid.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "ktprof.h"
#include "sample.h"

struct ktp_session ktp_session;
DEFINE_MUTEX(ktp_lock);
/* Taken before ktp_lock: a stop's steps run without ktp_lock between. */
static DEFINE_MUTEX(ktp_stop_lock);

static enum cpuhp_state ktp_hp_state;

/* Sub-buffers must hold the largest record with room to spare. */
#define KTP_SUBBUF_MIN 4096U
#define KTP_SUBBUF_MAX (64U << 20)
#define KTP_N_SUBBUFS_MIN 2U
#define KTP_N_SUBBUFS_MAX 4096U
#define KTP_BUFFER_MAX (1ULL << 30)	/* per CPU */

const char *ktp_session_state_name(enum ktp_session_state state)
{
	switch (state) {
	case KTP_SESSION_IDLE:
		return "idle";
	case KTP_SESSION_RUNNING:
		return "running";
	case KTP_SESSION_STOPPED:
		return "stopped";
	}
	return "?";
}

/*
 * A comma list of the names @name gives bits (and @word for @word_bits)
 * as a mask; empty names are skipped. -EINVAL for a name it does not know.
 */
int ktp_parse_bits(const char *s, const char *(*name)(unsigned int bit),
		   const char *word, u32 word_bits, u32 *bits)
{
	char buf[64], *p = buf, *tok;
	u32 mask = 0;
	unsigned int bit;

	if (strscpy(buf, s, sizeof(buf)) < 0)
		return -EINVAL;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok)
			continue;
		if (!strcmp(tok, word)) {
			mask |= word_bits;
			continue;
		}
		for (bit = 0; name(bit); bit++)
			if (!strcmp(tok, name(bit)))
				break;
		if (!name(bit))
			return -EINVAL;
		mask |= 1U << bit;
	}
	*bits = mask;
	return 0;
}

/* "sched,irq,..." or "all": event groups, at least one. */
int ktp_parse_events(const char *s, u32 *events)
{
	u32 mask;

	if (ktp_parse_bits(s, ktp_event_group_name, "all", KTP_EV_ALL, &mask) ||
	    !mask)
		return -EINVAL;
	*events = mask;
	return 0;
}

int ktp_check_geometry(u32 subbuf_size, u32 n_subbufs)
{
	if (subbuf_size < KTP_SUBBUF_MIN || subbuf_size > KTP_SUBBUF_MAX ||
	    subbuf_size % 4)
		return -EINVAL;
	if (n_subbufs < KTP_N_SUBBUFS_MIN || n_subbufs > KTP_N_SUBBUFS_MAX)
		return -EINVAL;
	if ((u64)subbuf_size * n_subbufs > KTP_BUFFER_MAX)
		return -EINVAL;
	return 0;
}

/* The module parameters as a config; -EINVAL with the reason logged. */
int ktp_config_from_params(struct ktp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (ktp_parse_events(ktp_param_events ? ktp_param_events : "",
			     &cfg->events)) {
		pr_err("events=%s: want a list of sched,irq,softirq,ipi,wq,scx,power,wakeup or all\n",
		       ktp_param_events);
		return -EINVAL;
	}
	if (ktp_check_geometry(ktp_param_subbuf_size, ktp_param_n_subbufs)) {
		pr_err("subbuf_size=%u n_subbufs=%u: want %u..%u bytes (multiple of 4) times %u..%u, at most 1 GiB per CPU\n",
		       ktp_param_subbuf_size, ktp_param_n_subbufs,
		       KTP_SUBBUF_MIN, KTP_SUBBUF_MAX, KTP_N_SUBBUFS_MIN,
		       KTP_N_SUBBUFS_MAX);
		return -EINVAL;
	}
	cfg->subbuf_size = ktp_param_subbuf_size;
	cfg->n_subbufs = ktp_param_n_subbufs;
	cfg->overwrite = ktp_param_overwrite;
	if (ktp_clock_parse(ktp_param_clock ? ktp_param_clock : "", &cfg->clock)) {
		pr_err("clock=%s: want auto, boot or tsc\n", ktp_param_clock);
		return -EINVAL;
	}
	if (!ktp_param_cpus || !*ktp_param_cpus) {
		cpumask_copy(&cfg->cpus, cpu_possible_mask);
	} else if (cpulist_parse(ktp_param_cpus, &cfg->cpus) ||
		   cpumask_empty(&cfg->cpus)) {
		pr_err("cpus=%s: want a CPU list such as 0-3,6\n",
		       ktp_param_cpus);
		return -EINVAL;
	}
	if (ktp_parse_stacks(ktp_param_stacks ? ktp_param_stacks : "",
			     &cfg->stacks)) {
		pr_err("stacks=%s: want a list of offcpu,waker,user (user with one of the others) or none\n",
		       ktp_param_stacks);
		return -EINVAL;
	}
	cfg->sample_defer = ktp_param_sample_defer;
	cfg->sample_irqs_on = ktp_param_sample_irqs_on;
	cfg->stack_check = ktp_param_stack_check;
	cfg->files_delay_ms = min(ktp_param_files_delay_ms, 10000U);
	return ktp_config_set_samples(cfg, ktp_param_samples,
				      ktp_param_counters, NULL, 0);
}

/*
 * Set the sample sources and per-switch counters of @cfg from spec lists.
 * -EINVAL with the reason in @err, or logged when @err is NULL.
 */
int ktp_config_set_samples(struct ktp_config *cfg, const char *samples,
			   const char *counters, char *err, size_t errlen)
{
	char bad[32] = "";
	int n;

	n = ktp_parse_event_list(samples ? samples : "", true, cfg->samples,
				 KTP_MAX_SOURCES, bad, sizeof(bad));
	if (n < 0)
		goto bad_samples;
	cfg->nr_samples = n;
	n = ktp_parse_event_list(counters ? counters : "", false,
				 cfg->counters, KTP_MAX_COUNTERS, bad,
				 sizeof(bad));
	if (n < 0)
		goto bad_counters;
	cfg->nr_counters = n;
	return 0;

bad_samples:
	if (err)
		snprintf(err, errlen, "sample source '%s': %s (want EVENT[@NHz|@period=N], at most %d)",
			 bad, n == -ENOENT ? "unknown event" : "bad spec",
			 KTP_MAX_SOURCES);
	else
		pr_err("samples=%s: bad source '%s' (want EVENT[@NHz|@period=N], at most %d)\n",
		       samples, bad, KTP_MAX_SOURCES);
	return -EINVAL;
bad_counters:
	if (err)
		snprintf(err, errlen, "counter '%s': %s (want an event name, at most %d)",
			 bad, n == -ENOENT ? "unknown event" : "bad spec",
			 KTP_MAX_COUNTERS);
	else
		pr_err("counters=%s: bad counter '%s' (want an event name, at most %d)\n",
		       counters, bad, KTP_MAX_COUNTERS);
	return -EINVAL;
}

/* The session's tables; no probe may be running (or the first start). */
static void ktp_free_bitmaps(void)
{
	ktp_stacks_free();
	vfree(ktp_session.seen_pids);
	ktp_session.seen_pids = NULL;
	vfree(ktp_session.affinity_keys);
	ktp_session.affinity_keys = NULL;
	bitmap_free(ktp_session.seen_irqs);
	ktp_session.seen_irqs = NULL;
	ktp_session.nr_seen_irqs = 0;
}

static int ktp_alloc_bitmaps(void)
{
	ktp_session.seen_pids = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) *
					sizeof(long));
	/* 16 MiB: a key for every pid the kernel can give (PID_MAX_LIMIT). */
	ktp_session.affinity_keys = vzalloc(array_size(PID_MAX_LIMIT,
						       sizeof(u32)));
	ktp_session.nr_seen_irqs = ktp_nr_irqs();
	ktp_session.seen_irqs = bitmap_zalloc(ktp_session.nr_seen_irqs,
					      GFP_KERNEL);
	bitmap_zero(ktp_session.seen_vectors, KTP_IRQ_NR_VECTORS);
	if (!ktp_session.seen_pids || !ktp_session.affinity_keys ||
	    !ktp_session.seen_irqs ||
	    ktp_stacks_alloc(ktp_session.cfg.stacks |
			     ktp_dyn_stack_kinds(ktp_session.cfg.dyn) <<
			     KTP_STACKS_PROBE_SHIFT)) {
		ktp_free_bitmaps();
		return -ENOMEM;
	}
	return 0;
}

/* A CPU mark reason through on_each_cpu()'s argument. */
#define KTP_REASON(r) ((void *)(unsigned long)(r))

/* IPI on each traced CPU: from here on everything on this CPU is recorded. */
static void ktp_cpu_on(void *reason)
{
	struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);

	if (kc->active)
		return;
	/* Where relay made no buffer (see ktp_relay_open()): off, counted. */
	if (!ktp_relay_has_buf()) {
		atomic_inc(&ktp_session.unbuffered);
		return;
	}
	kc->closing = false;
	kc->active = true;
	ktp_counters_reset_local();
	ktp_cpu_mark((unsigned long)reason);
	ktp_task_seen(current);
}

/* IPI on each CPU: write the final counts and stop recording here. */
static void ktp_cpu_off(void *reason)
{
	struct ktp_cpu *kc = this_cpu_ptr(&ktp_cpus);

	if (!kc->active)
		return;
	/*
	 * From here no sample or NMI record is taken on this CPU, nor the
	 * record of an IPI our own writes raise to wake the readers (it would
	 * follow the mark): what is staged goes out before the mark, and
	 * nothing lands behind it.
	 */
	kc->closing = true;
	ktp_sample_drain_local();
	ktp_cpu_mark((unsigned long)reason);
	/*
	 * The mark ends this CPU's part of the session: nothing after it is
	 * recorded, such as the IPI of the flush that wakes the readers.
	 */
	kc->active = false;
	ktp_flush_final();
}

static void ktp_clocks_now(void)
{
	unsigned long flags;

	local_irq_save(flags);
	ktp_session.clock_boot = ktime_get_boot_fast_ns();
	ktp_session.clock_mono = ktime_get_mono_fast_ns();
	ktp_session.clock_real = ktime_get_real_fast_ns();
	local_irq_restore(flags);
}

static long ktp_snapshot_fn(void *unused)
{
	ktp_emit_snapshot();
	return 0;
}

/*
 * Relay buffers exist for every possible CPU: keep them all within half of
 * memory, whatever one CPU's share may be.
 */
static int ktp_check_memory(const struct ktp_config *cfg, char *err,
			    size_t errlen)
{
	u64 per_cpu = (u64)cfg->subbuf_size * cfg->n_subbufs;
	u64 total = per_cpu * num_possible_cpus();
	u64 limit = ((u64)totalram_pages() << PAGE_SHIFT) / 2;

	if (total <= limit)
		return 0;
	snprintf(err, errlen,
		 "buffers of %llu MiB per CPU on %u CPUs (%llu MiB) exceed half of memory (%llu MiB)",
		 per_cpu >> 20, num_possible_cpus(), total >> 20, limit >> 20);
	return -ENOMEM;
}

/* Hold the cgroup that the sample filter names, if any. */
static int ktp_filter_cgroup_get(struct ktp_config *cfg, char *err,
				 size_t errlen)
{
	cfg->sample_cgrp = NULL;
	if (!cfg->sample_cgroup_id)
		return 0;
#ifdef CONFIG_CGROUPS
	{
		struct cgroup *cgrp = cgroup_get_from_id(cfg->sample_cgroup_id);

		/* NULL before 6.0, an error pointer since. */
		if (!IS_ERR_OR_NULL(cgrp)) {
			cfg->sample_cgrp = cgrp;
			return 0;
		}
	}
#endif
	snprintf(err, errlen, "no cgroup v2 with id %llu",
		 cfg->sample_cgroup_id);
	return -ENOENT;
}

/* Once nothing reads the filter any more: no probe, no perf event. */
static void ktp_filter_cgroup_put(struct ktp_config *cfg)
{
#ifdef CONFIG_CGROUPS
	if (cfg->sample_cgrp)
		cgroup_put(cfg->sample_cgrp);
#endif
	cfg->sample_cgrp = NULL;
}

/*
 * Start a session. @owner_portid: the netlink socket whose closing stops
 * it (0: none), set together with the start so no moment goes unowned.
 */
int ktp_session_start(const struct ktp_config *cfg, u32 owner_portid,
		      char *err, size_t errlen)
{
	struct ktp_session *s = &ktp_session;
	/* Its probes are the session's from here, whatever the outcome. */
	struct ktp_dyn_set *dyn = cfg->dyn;
	u32 events;
	int cpu, ret;

	mutex_lock(&ktp_lock);
	if (s->state == KTP_SESSION_RUNNING) {
		ret = -EBUSY;
		goto out;
	}
	events = cfg->events & ~ktp_events_unavailable();
	if (!events || !cpumask_intersects(&cfg->cpus, cpu_possible_mask)) {
		ret = -EINVAL;
		goto out;
	}
	ret = ktp_check_memory(cfg, err, errlen);
	if (ret)
		goto out;

	/* The previous session's data goes away with its channel. */
	ktp_relay_close();
	ktp_free_bitmaps();
	s->state = KTP_SESSION_IDLE;

	s->cfg = *cfg;
	s->owner_portid = 0;
	atomic_set(&s->unbuffered, 0);
	cpumask_and(&s->cfg.cpus, &s->cfg.cpus, cpu_possible_mask);
	s->id = get_random_u64();
	ret = ktp_clock_choose(s->cfg.clock, err, errlen);
	if (ret)
		goto out;
	ret = ktp_filter_cgroup_get(&s->cfg, err, errlen);
	if (ret)
		goto out;
	ret = ktp_alloc_bitmaps();
	if (ret)
		goto out_cgroup;
	ret = ktp_relay_open();
	if (ret)
		goto out_bitmaps;
	ret = ktp_probes_register(events);
	if (ret)
		goto out_relay;
	s->events_on = events;
	s->cfg.dyn = NULL;
	ret = ktp_dyn_register(dyn, err, errlen);
	dyn = NULL;
	if (ret)
		goto out_probes;
	/* Perf events on every traced CPU, or none at all. */
	ret = ktp_sample_start(err, errlen);
	if (ret)
		goto out_probes;

	cpus_read_lock();
	ktp_clocks_now();
	s->owner_portid = owner_portid;
	WRITE_ONCE(s->state, KTP_SESSION_RUNNING);
	on_each_cpu_mask(&s->cfg.cpus, ktp_cpu_on, KTP_REASON(KTP_CPU_START),
			 1);
	if (atomic_read(&s->unbuffered))
		pr_warn("%d traced CPUs came up during the start without a relay buffer: not traced\n",
			atomic_read(&s->unbuffered));
	/* On a traced CPU, so that the snapshot lands in a traced buffer. */
	cpu = cpumask_first_and(&s->cfg.cpus, cpu_online_mask);
	if (cpu < nr_cpu_ids)
		work_on_cpu(cpu, ktp_snapshot_fn, NULL);
	cpus_read_unlock();
	mutex_unlock(&ktp_lock);
	return 0;

out_probes:
	ktp_dyn_unregister();
	ktp_probes_unregister();
	s->events_on = 0;
out_relay:
	ktp_relay_close();
out_bitmaps:
	ktp_free_bitmaps();
out_cgroup:
	ktp_filter_cgroup_put(&s->cfg);
out:
	ktp_dyn_free(dyn);
	mutex_unlock(&ktp_lock);
	return ret;
}

/* The end of a session whose sampling is quiet; under ktp_lock. */
static void __ktp_session_stop(void)
{
	struct ktp_session *s = &ktp_session;

	lockdep_assert_held(&ktp_lock);
	/* No synthetic load writes after the marks. */
	ktp_load_stop();
	/* Each CPU drains what its sampling staged, then writes its mark. */
	cpus_read_lock();
	on_each_cpu(ktp_cpu_off, KTP_REASON(KTP_CPU_STOP), 1);
	WRITE_ONCE(s->state, KTP_SESSION_STOPPED);
	s->owner_portid = 0;
	cpus_read_unlock();
	ktp_dyn_unregister();
	ktp_probes_unregister();
	s->events_on = 0;
	ktp_sample_stop();
	ktp_filter_cgroup_put(&s->cfg);
	/* Pollers learn that the stream ended. */
	ktp_relay_wake_readers();
}

/*
 * Stop the running session (@id: only if it is that one; 0: any), in three
 * steps: with ktp_lock, sampling ends; then, without it, the FILE records
 * the samples asked for are written (that reads files: it waits for them
 * a bounded time); then, with ktp_lock again, each CPU writes its STOP
 * mark. Stops take
 * turns on ktp_stop_lock; a start meanwhile finds the session running.
 */
int ktp_session_stop_id(u64 id)
{
	int ret = 0;

	/* One stop at a time, through all three steps; hotplug needs none. */
	mutex_lock(&ktp_stop_lock);
	mutex_lock(&ktp_lock);
	if (ktp_session.state != KTP_SESSION_RUNNING ||
	    (id && ktp_session.id != id)) {
		mutex_unlock(&ktp_lock);
		ret = -EINVAL;
		goto out;
	}
	id = ktp_session.id;
	ktp_sample_quiesce();
	mutex_unlock(&ktp_lock);

	ktp_files_flush();

	mutex_lock(&ktp_lock);
	if (ktp_session.state == KTP_SESSION_RUNNING && ktp_session.id == id)
		__ktp_session_stop();
	mutex_unlock(&ktp_lock);
out:
	mutex_unlock(&ktp_stop_lock);
	return ret;
}

/* Stop whatever session runs. */
int ktp_session_stop(void)
{
	return ktp_session_stop_id(0);
}

static void ktp_flush_ipi(void *unused)
{
	ktp_flush_local();
}

/* Make what every CPU wrote so far readable. */
int ktp_session_flush(void)
{
	int ret = 0;

	mutex_lock(&ktp_lock);
	if (ktp_session.state == KTP_SESSION_RUNNING) {
		cpus_read_lock();
		on_each_cpu(ktp_flush_ipi, NULL, 1);
		cpus_read_unlock();
	} else if (ktp_session.state == KTP_SESSION_IDLE) {
		ret = -EINVAL;
	}
	mutex_unlock(&ktp_lock);
	return ret;
}

/* Module unload: stop, close the channel, free everything. */
void ktp_session_teardown(void)
{
	ktp_session_stop();
	mutex_lock(&ktp_lock);
	ktp_relay_close();
	ktp_free_bitmaps();
	ktp_dyn_release();
	ktp_session.state = KTP_SESSION_IDLE;
	mutex_unlock(&ktp_lock);
}

/*
 * One selftest record, the way every probe writes one; false when it was
 * dropped. Any context but NMI (that one stages: see below).
 */
bool ktp_session_write_selftest(u64 seq)
{
	struct ktp_selftest *r;
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_SELFTEST, 0, sizeof(*r));
	if (!r)
		return false;
	r->seq = seq;
	ktp_commit(&w);
	return true;
}

/*
 * Selftest records as NMI context writes them (ktp_fake_nmi_enter()), so
 * they go through the staging ring and the drain irq_work like a
 * tracepoint firing in a hardware sample's handler. Batches leave the
 * irq_work room to drain between them. @nested: every other record is
 * pushed from inside the next one's push, where a real NMI may interrupt
 * a producer (ktp_stage_set_nested()).
 */
static u64 ktp_selftest_nmi_batch(u64 first, u64 n, bool nested)
{
	struct ktp_selftest inner = {
		.h = { .type = KTP_REC_SELFTEST, .size = sizeof(inner) },
	};
	u64 i, done = 0;

	ktp_fake_nmi_enter();
	for (i = 0; i < n; i++) {
		if (nested && i + 1 < n) {
			inner.seq = first + i++;
			ktp_stage_set_nested(&inner);
			done += ktp_session_write_selftest(first + i);
			/* Taken (pushed or counted) if that push took it in. */
			done += !ktp_stage_set_nested(NULL);
			continue;
		}
		done += ktp_session_write_selftest(first + i);
	}
	ktp_fake_nmi_exit();
	return done;
}

/* @n selftest records (@mode: how); how many were taken. */
static u64 ktp_selftest_records(u64 n, enum ktp_selftest_mode mode, int *ret)
{
	u64 i, done = 0;

	for (i = 0; i < n;) {
		u64 batch = min_t(u64, n - i, 1024);

		if (mode != KTP_SELFTEST_RECORDS) {
			done += ktp_selftest_nmi_batch(i, batch,
						       mode == KTP_SELFTEST_NMI_NESTED);
			i += batch;
		} else {
			for (; batch; batch--, i++)
				done += ktp_session_write_selftest(i);
		}
		/* ktp_lock is held: a killed writer lets stop go on. */
		if (fatal_signal_pending(current)) {
			*ret = -EINTR;
			break;
		}
		cond_resched();
	}
	return done;
}

/*
 * Write @n selftest records, or take @n samples, on one CPU, as fast as
 * possible, and report how many were written and dropped: written +
 * dropped == n (of samples: unless the sample filter leaves the writer
 * out). The NMI modes stage what they write and need a sampling session.
 */
int ktp_session_selftest(u64 n, enum ktp_selftest_mode mode,
			 unsigned int *cpu, u64 *written, u64 *dropped)
{
	unsigned int type = mode == KTP_SELFTEST_NMI_SAMPLES ?
			    KTP_REC_SAMPLE : KTP_REC_SELFTEST;
	bool staged = mode != KTP_SELFTEST_RECORDS &&
		      mode != KTP_SELFTEST_FILES_DEFERRED;
	u64 drops_before, done;
	struct ktp_cpu *kc;
	int ret = 0;

	mutex_lock(&ktp_lock);
	migrate_disable();
	kc = this_cpu_ptr(&ktp_cpus);
	/* Samples need sampling on, not a stop that has ended it. */
	if (ktp_session.state != KTP_SESSION_RUNNING || !kc->active ||
	    (staged && !this_cpu_read(ktp_sample_cpus)) ||
	    (mode == KTP_SELFTEST_NMI_SAMPLES && ktp_sample_quiesced())) {
		ret = -EINVAL;
		goto out;
	}
	*cpu = smp_processor_id();
	if (mode == KTP_SELFTEST_FILES_DEFERRED) {
		ret = ktp_files_selftest_deferred(n, cpu);
		*written = ret ? 0 : n;
		*dropped = 0;
		goto out;
	}
	drops_before = READ_ONCE(kc->dropped[type]);
	if (mode == KTP_SELFTEST_NMI_SAMPLES) {
		done = ktp_sample_selftest_nmi(n);
		if (fatal_signal_pending(current))
			ret = -EINTR;
	} else {
		done = ktp_selftest_records(n, mode, &ret);
	}
	if (staged) {
		/* What the last batch staged, and the ring's drop counts. */
		local_irq_disable();
		ktp_sample_drain_local();
		ktp_fold_nmi_drops(kc);
		local_irq_enable();
	}
	*dropped = READ_ONCE(kc->dropped[type]) - drops_before;
	/*
	 * Staged, every record is taken; the ring drops some later. (The
	 * drops of samples are this CPU's: a source that fires meanwhile
	 * adds its own.)
	 */
	*written = staged ? done - min(done, *dropped) : done;
out:
	migrate_enable();
	mutex_unlock(&ktp_lock);
	return ret;
}

/* Runs on the CPU coming up, under the hotplug lock. */
static int ktp_cpu_online(unsigned int cpu)
{
	if (READ_ONCE(ktp_session.state) == KTP_SESSION_RUNNING &&
	    cpumask_test_cpu(cpu, &ktp_session.cfg.cpus)) {
		local_irq_disable();
		ktp_cpu_on(KTP_REASON(KTP_CPU_ONLINE));
		local_irq_enable();
		if (!this_cpu_read(ktp_cpus.active))
			pr_warn_ratelimited("CPU %u came online without a relay buffer: not traced\n",
					    cpu);
	}
	return 0;
}

/* Runs on the CPU going down: its data stays readable after it is gone. */
static int ktp_cpu_offline(unsigned int cpu)
{
	local_irq_disable();
	ktp_cpu_off(KTP_REASON(KTP_CPU_OFFLINE));
	local_irq_enable();
	return 0;
}

int ktp_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "ktprof:online",
					ktp_cpu_online, ktp_cpu_offline);
	if (ret < 0)
		return ret;
	ktp_hp_state = ret;
	return 0;
}

void ktp_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(ktp_hp_state);
}
