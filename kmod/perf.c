// SPDX-License-Identifier: GPL-2.0
/*
 * The perf events of a session: per-CPU sample sources and per-CPU
 * counters read at every context switch, and their life across CPU
 * hotplug.
 *
 * Making or freeing a perf event can take cpus_read_lock(): a software
 * event's static key going between 0 and 1, perf's scheduling key. CPU
 * hotplug holds that lock for writing while it runs its callbacks, and
 * cpuhp_setup_state() holds it for reading while it calls them, so neither
 * may make or free events. Here they are made and freed only in process
 * context with no hotplug lock held: at start and stop, and for CPUs that
 * go and come by a work item that the hotplug callbacks merely queue (the
 * hardlockup detector frees its events after hotplug the same way). A CPU
 * that comes online is sampled from when that work has run, shortly after
 * its ONLINE mark; one that goes offline stops at its OFFLINE mark.
 *
 * A start fails as a whole when a source cannot be opened on an online
 * traced CPU, with the event, the CPU and the reason in the message.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "sample.h"

DEFINE_PER_CPU(struct ktp_sample_cpu *, ktp_sample_cpus);

/* Every CPU's events; taken only in process context, never in hotplug. */
static DEFINE_MUTEX(ktp_perf_lock);
static struct work_struct ktp_perf_work;
static enum cpuhp_state ktp_perf_hp;
static bool ktp_perf_hp_set;
/*
 * This session has sources or counters, or takes user stacks at switches
 * and wakings: those name their mappings with the sampler's per-CPU state
 * (MAP and FILE records) even without a source.
 */
static bool ktp_sampling;
static bool ktp_quiesced;		/* its events are gone (a stop), ktp_lock */
unsigned int ktp_nr_counters;	/* read by the switch probe */

/* Which source failed to open where, for the start's error message. */
static struct {
	int cpu, err;
	const struct ktp_event_spec *spec;
} ktp_perf_failure;

static struct perf_event *ktp_open_event(const struct ktp_event_spec *spec,
					 int cpu, bool sampling,
					 unsigned long index)
{
	/*
	 * Enabled from the start: no window between making and enabling
	 * in which the CPU could go away and back (a detached event that is
	 * then enabled looks alive but never runs).
	 */
	struct perf_event_attr attr = {
		.type = spec->type,
		.size = sizeof(attr),
		.config = spec->config,
		.pinned = 1,
	};

	if (sampling) {
		attr.freq = spec->freq;
		attr.sample_period = spec->rate;	/* or sample_freq */
	}
	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						sampling ? ktp_overflow : NULL,
						(void *)index);
}

/* The switch probe stops using @sc's counters (after a grace period). */
static void ktp_perf_unpublish(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	for (i = 0; i < KTP_MAX_COUNTERS; i++)
		WRITE_ONCE(sc->counters[i], NULL);
}

/*
 * Free @sc's events, unpublished a grace period ago. Process context,
 * ktp_perf_lock, no hotplug lock.
 */
static void ktp_perf_free(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	for (i = 0; i < KTP_MAX_SOURCES; i++) {
		if (sc->sources[i])
			perf_event_release_kernel(sc->sources[i]);
		sc->sources[i] = NULL;
	}
	for (i = 0; i < KTP_MAX_COUNTERS; i++) {
		if (sc->counters_made[i])
			perf_event_release_kernel(sc->counters_made[i]);
		sc->counters_made[i] = NULL;
	}
	sc->has_events = false;
}

static void ktp_perf_release(struct ktp_sample_cpu *sc)
{
	ktp_perf_unpublish(sc);
	/* A switch probe reading a counter runs with IRQs off: wait it out. */
	synchronize_rcu();
	ktp_perf_free(sc);
}

/* Make and enable @sc's events, all or none. Like ktp_perf_free(). */
static int ktp_perf_create(struct ktp_sample_cpu *sc)
{
	const struct ktp_config *cfg = &ktp_session.cfg;
	int gen = atomic_read(&sc->offline_gen);
	struct perf_event *ev;
	unsigned int i;

	for (i = 0; i < cfg->nr_samples + cfg->nr_counters; i++) {
		bool sampling = i < cfg->nr_samples;
		const struct ktp_event_spec *spec = sampling ?
			&cfg->samples[i] : &cfg->counters[i - cfg->nr_samples];

		ev = ktp_open_event(spec, sc->cpu, sampling, i);
		if (IS_ERR(ev)) {
			ktp_perf_failure.cpu = sc->cpu;
			ktp_perf_failure.err = PTR_ERR(ev);
			ktp_perf_failure.spec = spec;
			ktp_perf_free(sc);
			return PTR_ERR(ev);
		}
		if (sampling)
			sc->sources[i] = ev;
		else
			sc->counters_made[i - cfg->nr_samples] = ev;
	}
	sc->has_events = true;
	sc->events_gen = gen;
	for (i = 0; i < cfg->nr_counters; i++) {
		/* Unpublished, the probe leaves the base alone: a new count. */
		sc->counter_last[i] = 0;
		/* The base before the pointer the probe finds it by. */
		smp_store_release(&sc->counters[i], sc->counters_made[i]);
	}
	return 0;
}

/*
 * perf detaches a dying CPU's events for good (state OFF): they never
 * count again, even when the CPU comes back. Either sign tells: the CPU
 * went offline since they were made, or one of them is off.
 */
static bool ktp_perf_detached(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	if (sc->events_gen != atomic_read(&sc->offline_gen))
		return true;
	for (i = 0; i < KTP_MAX_SOURCES; i++)
		if (sc->sources[i] &&
		    READ_ONCE(sc->sources[i]->state) < PERF_EVENT_STATE_INACTIVE)
			return true;
	for (i = 0; i < KTP_MAX_COUNTERS; i++)
		if (sc->counters_made[i] &&
		    READ_ONCE(sc->counters_made[i]->state) < PERF_EVENT_STATE_INACTIVE)
			return true;
	return false;
}

/*
 * Give every traced CPU live events if it is online and none if not. A
 * CPU that went offline and came back since gets new ones.
 */
static int ktp_perf_reconcile(bool starting)
{
	int cpu, ret = 0;

	mutex_lock(&ktp_perf_lock);
	for_each_cpu(cpu, &ktp_session.cfg.cpus) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);
		int err;

		if (!sc)
			continue;
		if (sc->has_events && (!cpu_online(cpu) || ktp_perf_detached(sc)))
			ktp_perf_release(sc);
		if (sc->has_events || !cpu_online(cpu))
			continue;
		err = ktp_perf_create(sc);
		/* Gone offline meanwhile: its callback queues another pass. */
		if (err == -ENODEV)
			continue;
		if (err && starting) {
			ret = err;
			break;
		}
		if (err)
			pr_warn_ratelimited("CPU %d came online but cannot sample: error %d\n",
					    cpu, err);
	}
	mutex_unlock(&ktp_perf_lock);
	return ret;
}

static void ktp_perf_work_fn(struct work_struct *work)
{
	ktp_perf_reconcile(false);
}

/* Hotplug callbacks: under the hotplug lock, so they only queue work. */
static int ktp_perf_cpu_online(unsigned int cpu)
{
	queue_work(ktp_unbound_wq, &ktp_perf_work);
	return 0;
}

static int ktp_perf_cpu_offline(unsigned int cpu)
{
	struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

	if (sc)
		atomic_inc(&sc->offline_gen);
	queue_work(ktp_unbound_wq, &ktp_perf_work);
	return 0;
}

static void ktp_sample_cpu_free(struct ktp_sample_cpu *sc)
{
	unsigned int i;

	irq_work_sync(&sc->drain_work);
	for (i = 0; i < KTP_NR_CTX; i++)
		irq_work_sync(&sc->cache[i].unlock_work);
	cancel_work_sync(&sc->file_work);
	ktp_files_drop_pending(sc);
	vfree(sc->stage);
	kfree(sc);
}

static struct ktp_sample_cpu *ktp_sample_cpu_new(unsigned int cpu)
{
	struct ktp_sample_cpu *sc = kzalloc_obj(*sc, GFP_KERNEL);
	unsigned int i;

	if (!sc)
		return NULL;
	sc->stage = vzalloc(sizeof(*sc->stage));
	if (!sc->stage) {
		kfree(sc);
		return NULL;
	}
	sc->cpu = cpu;
	init_irq_work(&sc->drain_work, ktp_drain_fn);
	for (i = 0; i < KTP_NR_CTX; i++)
		init_irq_work(&sc->cache[i].unlock_work, ktp_unlock_fn);
	INIT_WORK(&sc->file_work, ktp_files_fn);
	return sc;
}

static const char *ktp_errno_hint(int err)
{
	switch (err) {
	case -ENOENT:
	case -EOPNOTSUPP:
		return "this machine cannot count it (no hardware PMU, e.g. under qemu TCG?)";
	case -EINVAL:
		return "invalid for this CPU or rate too high";
	case -EACCES:
	case -EPERM:
		return "not permitted";
	case -EBUSY:
		return "the PMU is in use";
	}
	return "cannot open it";
}

/*
 * Sampling state for every traced CPU (possible ones too, so a CPU that
 * comes online later needs no allocation), then events on the online
 * ones. Process context, ktp_lock held, no hotplug lock.
 */
int ktp_sample_start(char *err, size_t errlen)
{
	const struct ktp_config *cfg = &ktp_session.cfg;
	int cpu, ret;

	ktp_nr_counters = 0;
	ktp_quiesced = false;
	/* User stacks need the mapped files' state, with or without events. */
	ktp_sampling = cfg->nr_samples || cfg->nr_counters ||
		       (cfg->stacks & KTP_STACKS_USER) ||
		       (READ_ONCE(ktp_stacks_on) & KTP_STACKS_PROBE_USER);
	if (!ktp_sampling)
		return 0;
	/* Before anything can fail: the undo path cancels it. */
	INIT_WORK(&ktp_perf_work, ktp_perf_work_fn);
	ret = ktp_files_start();
	if (ret) {
		snprintf(err, errlen, "no memory for the table of mapped files");
		goto undo;
	}
	for_each_cpu(cpu, &cfg->cpus) {
		struct ktp_sample_cpu *sc = ktp_sample_cpu_new(cpu);

		if (!sc) {
			snprintf(err, errlen, "no memory for sampling on CPU %d", cpu);
			ret = -ENOMEM;
			goto undo;
		}
		per_cpu(ktp_sample_cpus, cpu) = sc;
	}
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "ktprof:perf",
					ktp_perf_cpu_online,
					ktp_perf_cpu_offline);
	if (ret < 0) {
		snprintf(err, errlen, "cannot set up sampling: error %d", ret);
		goto undo;
	}
	ktp_perf_hp = ret;
	ktp_perf_hp_set = true;
	memset(&ktp_perf_failure, 0, sizeof(ktp_perf_failure));
	ret = ktp_perf_reconcile(true);
	if (ret) {
		snprintf(err, errlen, "event %s on CPU %d: error %d: %s",
			 ktp_perf_failure.spec->name, ktp_perf_failure.cpu,
			 ktp_perf_failure.err,
			 ktp_errno_hint(ktp_perf_failure.err));
		goto undo;
	}
	WRITE_ONCE(ktp_nr_counters, cfg->nr_counters);
	return 0;
undo:
	ktp_sample_quiesce();
	ktp_sample_stop();
	return ret;
}

/*
 * No more samples: free every event, outside the hotplug lock. What the
 * sources staged or queued stays to be written (ktp_files_flush(),
 * the STOP marks). Process context; may be called again.
 */
void ktp_sample_quiesce(void)
{
	int cpu;

	if (!ktp_sampling)
		return;
	ktp_quiesced = true;
	WRITE_ONCE(ktp_nr_counters, 0);
	if (ktp_perf_hp_set) {
		cpuhp_remove_state_nocalls(ktp_perf_hp);
		ktp_perf_hp_set = false;
	}
	cancel_work_sync(&ktp_perf_work);
	mutex_lock(&ktp_perf_lock);
	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		if (sc)
			ktp_perf_unpublish(sc);
	}
	/* One grace period for all: no switch probe holds a counter. */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		if (sc)
			ktp_perf_free(sc);
	}
	mutex_unlock(&ktp_perf_lock);
	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		if (sc)
			irq_work_sync(&sc->drain_work);
	}
}

/* Has a stop ended sampling? Under ktp_lock. */
bool ktp_sample_quiesced(void)
{
	lockdep_assert_held(&ktp_lock);
	return ktp_quiesced;
}

/* A traced CPU that is online and recording, or -1 if none is. */
int ktp_sample_traced_cpu(void)
{
	int cpu;

	for_each_cpu_and(cpu, &ktp_session.cfg.cpus, cpu_online_mask)
		if (READ_ONCE(per_cpu_ptr(&ktp_cpus, cpu)->active))
			return cpu;
	return -1;
}

/*
 * Free the sampling state: after the STOP marks (which drained the rings)
 * and after the probes are gone, so nothing looks the state up any more.
 */
void ktp_sample_stop(void)
{
	int cpu;

	if (!ktp_sampling)
		return;
	for_each_possible_cpu(cpu) {
		struct ktp_sample_cpu *sc = per_cpu(ktp_sample_cpus, cpu);

		per_cpu(ktp_sample_cpus, cpu) = NULL;
		if (sc)
			ktp_sample_cpu_free(sc);
	}
	ktp_files_forget();
	ktp_sampling = false;
}

/* Per-switch counters: this CPU's deltas since the last switch. IRQs off. */
unsigned int ktp_counters_read(u64 *deltas)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);
	unsigned int i, n = READ_ONCE(ktp_nr_counters);

	if (!n || !sc)
		return 0;
	for (i = 0; i < n; i++) {
		/* Pairs with ktp_perf_create(): the base is set before. */
		struct perf_event *ev = smp_load_acquire(&sc->counters[i]);
		u64 v;

		deltas[i] = 0;
		if (!ev || ev->state != PERF_EVENT_STATE_ACTIVE ||
		    ev->oncpu != smp_processor_id())
			continue;
		ev->pmu->read(ev);
		v = local64_read(&ev->count);
		deltas[i] = v - sc->counter_last[i];
		sc->counter_last[i] = v;
	}
	return n;
}

/* Start counting afresh on this CPU (its START or ONLINE mark). IRQs off. */
void ktp_counters_reset_local(void)
{
	u64 unused[KTP_MAX_COUNTERS];

	ktp_counters_read(unused);
}

/* Staged records go out before this CPU's STOP mark. IRQs off. */
void ktp_sample_drain_local(void)
{
	struct ktp_sample_cpu *sc = this_cpu_read(ktp_sample_cpus);

	if (sc)
		ktp_stage_drain(sc->stage);
}
