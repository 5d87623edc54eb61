/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktprof.ko internals shared between its files.
 */
#ifndef KTPROF_H
#define KTPROF_H

#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "ktprof_abi.h"

struct dentry;

#define KTP_MAX_SOURCES 8
#define KTP_MAX_COUNTERS 4
#define KTP_EVENT_LIST_MAX 256	/* bytes of a spec list */

/* A perf event to sample with or to count. */
struct ktp_event_spec {
	char name[32];		/* as given: "cpu-clock", "r01c2" */
	u32 type;		/* PERF_TYPE_* */
	u64 config;
	u64 rate;		/* Hz if @freq, else a period */
	bool freq;
};

/* What a session records and how it buffers. */
struct ktp_config {
	u32 events;		/* KTP_EV_* groups requested */
	u32 subbuf_size;
	u32 n_subbufs;
	bool overwrite;
	u32 clock;		/* enum ktp_clock_id asked for */
	struct cpumask cpus;	/* CPUs to trace */
	unsigned int nr_samples;
	struct ktp_event_spec samples[KTP_MAX_SOURCES];
	unsigned int nr_counters;
	struct ktp_event_spec counters[KTP_MAX_COUNTERS];
	bool sample_defer;	/* test knob: stage like NMI samples */
	bool stack_check;	/* test knob: walk cached stacks too */
	unsigned int files_delay_ms;	/* test knob: first FILE records late */
	bool sample_irqs_on;	/* test knob: see ktp_overflow() */
	/*
	 * Sample filter: keep samples of these tgids or this comm (any set),
	 * and of those only the ones in the cgroup v2 subtree
	 * @sample_cgroup_id names (0: any cgroup). The session holds that
	 * cgroup as @sample_cgrp from its start to its stop.
	 */
	unsigned int nr_sample_pids;
	pid_t sample_pids[KTP_MAX_SAMPLE_PIDS];
	char sample_comm[TASK_COMM_LEN];
	u64 sample_cgroup_id;
	struct cgroup *sample_cgrp;
	u32 stacks;		/* KTP_STACKS_*: at switches and wakings */
	/* record --probe's, checked in the sender's context; the start takes it */
	struct ktp_dyn_set *dyn;
};

/*
 * The session. Control paths change it under ktp_lock; the write path reads
 * @chan and the bitmaps, which stay valid while any CPU is active.
 */
struct ktp_session {
	enum ktp_session_state state;
	u64 id;
	struct ktp_config cfg;
	u32 events_on;		/* groups whose probes are registered */
	struct rchan *chan;
	/* The records' clock (BOOT or TSC) and the TSC's: see clock.c. */
	u32 clock;
	u32 clock_mult, clock_shift;
	u64 clock_span;		/* cycles between a CPU's CLOCK records */
	u64 clock_boot;		/* clocks read together at start, ns */
	u64 clock_mono;
	u64 clock_real;
	unsigned long *seen_pids;	/* identity already written */
	u32 *affinity_keys;	/* by pid: the key of the mask written, 0: none */
	unsigned long *seen_irqs;	/* irq name already written */
	unsigned int nr_seen_irqs;
	DECLARE_BITMAP(seen_vectors, KTP_IRQ_NR_VECTORS); /* vector name written */
	u32 owner_portid;	/* netlink socket that started it, 0: none */
	/* Times a traced CPU came up without a relay buffer: not traced. */
	atomic_t unbuffered;
};

extern struct ktp_session ktp_session;
extern struct mutex ktp_lock;
extern struct dentry *ktp_debugfs_dir;

#define KTP_NEST_BUF 256

/* The counters of KTP_CPU_STATS() (ktprof_abi.h), in its order. */
#define KTP_STAT_INDEX(NAME, ...) KTP_STAT_##NAME,
enum ktp_stat {
	KTP_CPU_STATS(KTP_STAT_INDEX)
	KTP_NR_STATS
};
#undef KTP_STAT_INDEX

/* Each counter's key in the stats text and its netlink attribute. */
struct ktp_stat_desc {
	const char *key;
	u16 attr;
};

extern const struct ktp_stat_desc ktp_stat_descs[KTP_NR_STATS];

/* Per-CPU writer state and counters (relay.c); reset at each start. */
struct ktp_cpu {
	/* Writer side: only this CPU touches these, with IRQs off. */
	bool active;		/* between this CPU's start and stop marks */
	bool in_write;		/* a record is being written: nesting guard */
	bool finishing;		/* the final flush: start no sub-buffer */
	bool closing;		/* at the final mark: no more samples, no NMI */
	bool full;		/* drop mode: relay refused a sub-buffer */
	u32 cur_subbuf;		/* index of the sub-buffer being filled */
	u64 last_ts;		/* time of the last record, base for deltas */
	u64 pending_ts;		/* boot-time stamp of the record being reserved */
	/*
	 * Stamps are TSC cycles (struct ktp_clock) relative to the last CLOCK
	 * record, which read @anchor_cycles at boot time @anchor_ns; 0 before
	 * the first, so that a CPU's first record takes one.
	 */
	bool tsc;
	u64 anchor_cycles;
	u64 anchor_ns;
	struct ktp_clock pending_clock;	/* for the record being reserved */
	/*
	 * The counters, by enum ktp_stat. RECORDS to OVERWRITTEN are the
	 * writer's; LOST leaves out drops in NMI until they are folded in
	 * (ktp_cpu_stats() adds them). SAMPLES, THROTTLED, UNRESOLVED and
	 * FILES_DEFERRED are counted with this_cpu_inc() (NMI-safe), and
	 * FILES_DEFERRED also by a stop that gives up on files.
	 */
	u64 stats[KTP_NR_STATS];
	u32 *subbuf_records;	/* records per sub-buffer (overwrite loss) */
	u64 written[KTP_REC_NR_TYPES];
	u64 dropped[KTP_REC_NR_TYPES];
	/* Drops in NMI (this_cpu_inc only), and how many are in @dropped. */
	u64 nmi_dropped[KTP_REC_NR_TYPES];
	u64 nmi_dropped_seen[KTP_REC_NR_TYPES];
	/*
	 * Records from tracepoints that fire inside the write path (relay's
	 * reader wakeup raises an IPI): kept here, written right after.
	 */
	bool draining;
	u16 nest_len;
	u8 nest_buf[KTP_NEST_BUF] __aligned(8);
	/* A record a tracepoint writes in NMI, on its way to staging. */
	bool nmi_busy;
	u8 nmi_rec[KTP_NEST_BUF] __aligned(8);
};

DECLARE_PER_CPU(struct ktp_cpu, ktp_cpus);

/* One record being written; see ktp_reserve(). */
struct ktp_wr {
	struct ktp_cpu *kc;
	unsigned long irqflags;
	u8 type;
	u16 size;
	bool nested;		/* goes to kc->nest_buf */
	bool nmi;		/* goes to kc->nmi_rec, then staging */
	bool not_short;		/* short refused here: write the full record */
};

/*
 * Reserve a record of @size bytes (a multiple of 4) on this CPU's relay
 * buffer and fill its header. Returns NULL, with the drop counted, when
 * this CPU is not tracing or the buffer is full. A record reserved while
 * another is being written on this CPU goes aside and follows it. On
 * success IRQs stay off until ktp_commit().
 */
void *ktp_reserve(struct ktp_wr *w, unsigned int type, unsigned int flags,
		  unsigned int size);
/*
 * The same for a short record of short type @stype (its 4-byte header
 * filled in), counted as a record of @type. Short records are not set
 * aside nor staged: inside the write path or in NMI this returns NULL
 * with w->not_short set, and the caller reserves the full record.
 */
void *ktp_reserve_short(struct ktp_wr *w, unsigned int stype,
			unsigned int type, unsigned int size);
void ktp_commit(struct ktp_wr *w);

/* clock.c */
int ktp_clock_parse(const char *s, u32 *id);
const char *ktp_clock_name(u32 id);
int ktp_clock_choose(u32 want, char *err, size_t errlen);
void ktp_clock_pair(struct ktp_cpu *kc, struct ktp_clock *c);
u64 ktp_clock_next(struct ktp_cpu *kc, struct ktp_clock *c);
void ktp_clock_taken(struct ktp_cpu *kc, const struct ktp_clock *c);

/* The TSC, as the kernel's own clocksource reads it (ordered). */
#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
static __always_inline u64 ktp_cycles(void)
{
	return rdtsc_ordered();
}
#else
static __always_inline u64 ktp_cycles(void)
{
	return 0;
}
#endif

/* relay.c */
int ktp_relay_init(void);
int ktp_relay_open(void);
bool ktp_relay_has_buf(void);
void ktp_relay_close(void);
void ktp_relay_reset_cpus(void);
void ktp_flush_local(void);
void ktp_flush_final(void);
void ktp_fold_nmi_drops(struct ktp_cpu *kc);
u64 ktp_cpu_dropped(struct ktp_cpu *kc, unsigned int t);
void ktp_cpu_stats(struct ktp_cpu *kc, u64 v[KTP_NR_STATS]);
void ktp_relay_wake_readers(void);
void ktp_cpu_mark(enum ktp_cpu_reason reason);

/* probes.c */
int ktp_probes_init(void);
u32 ktp_events_unavailable(void);
int ktp_probes_register(u32 events);
void ktp_probes_unregister(void);
const char *ktp_event_group_name(unsigned int bit);

/* scx.c: sched_ext */
extern u32 ktp_scx_on;
void ktp_scx_task(struct task_struct *p, unsigned int at);
void ktp_scx_register(void);
void ktp_scx_unregister(void);
void ktp_scx_hooks(char *buf, size_t len);
struct scx_sched;
void ktp_probe_scx_dump(void *data, const char *line);
void ktp_probe_scx_exit(void *data, struct scx_sched *sch, u32 kind);
void ktp_probe_scx_event(void *data, const char *name, s64 delta);

/* stacks.c: stacks at the switch and the waking */
extern u32 ktp_stacks_on;
u32 ktp_stack_here(void);
u32 ktp_stack_probe(struct pt_regs *regs, u32 kinds);
/* ktp_stacks_on beside KTP_STACKS_*: the probes' KTP_PROBE_STACK_* << 8. */
#define KTP_STACKS_PROBE_SHIFT 8
#define KTP_STACKS_PROBE_USER (KTP_PROBE_STACK_USER << KTP_STACKS_PROBE_SHIFT)
bool ktp_task_wanted(const struct ktp_config *cfg, struct task_struct *p);
int ktp_stacks_alloc(u32 kinds);
void ktp_stacks_free(void);
int ktp_parse_stacks(const char *s, u32 *kinds);
const char *ktp_stack_kind_name(unsigned int bit);

/* dynprobes.c: record --probe's kprobes and uprobes */
struct ktp_dyn_set;
struct ktp_dyn_set *ktp_dyn_prepare(const struct ktp_probe_spec *specs,
				    unsigned int n, bool sys_admin, char *err,
				    size_t errlen);
void ktp_dyn_free(struct ktp_dyn_set *set);
int ktp_dyn_register(struct ktp_dyn_set *set, char *err, size_t errlen);
void ktp_dyn_unregister(void);
void ktp_dyn_release(void);
unsigned int ktp_dyn_stats(u64 *out, unsigned int n);
u32 ktp_dyn_stack_kinds(const struct ktp_dyn_set *set);

/* marker.c */
extern const struct file_operations ktp_marker_fops;

/* tasks.c */
void ktp_task_seen(struct task_struct *p);
struct cgroup;
void ktp_write_cgroup(struct task_struct *p, struct cgroup *cgrp, unsigned int flags);
bool ktp_emit_task(struct task_struct *p, const char *comm, u16 flags);
void ktp_emit_snapshot(void);
void ktp_forget_pid(pid_t pid);

/* A task's prio in a byte: deadline tasks (prio < 0) as KTP_PRIO_DL. */
static inline u8 ktp_prio(int prio)
{
	return prio < 0 ? KTP_PRIO_DL : min(prio, KTP_PRIO_DL - 1);
}

/* session.c */
int ktp_config_from_params(struct ktp_config *cfg);
int ktp_parse_bits(const char *s, const char *(*name)(unsigned int bit),
		   const char *word, u32 word_bits, u32 *bits);
int ktp_parse_events(const char *s, u32 *events);
int ktp_check_geometry(u32 subbuf_size, u32 n_subbufs);
int ktp_session_start(const struct ktp_config *cfg, u32 owner_portid,
		      char *err, size_t errlen);
int ktp_config_set_samples(struct ktp_config *cfg, const char *samples,
			   const char *counters, char *err, size_t errlen);
int ktp_session_stop(void);
int ktp_session_stop_id(u64 id);
int ktp_session_flush(void);
void ktp_session_teardown(void);

/* What a selftest writes (see control.c). */
enum ktp_selftest_mode {
	KTP_SELFTEST_RECORDS,		/* N records */
	KTP_SELFTEST_NMI,		/* N records, as NMI writes them */
	KTP_SELFTEST_NMI_SAMPLES,	/* N samples, as NMI takes them */
	KTP_SELFTEST_NMI_NESTED,	/* N records, half nested in the others */
	KTP_SELFTEST_FILES_DEFERRED,	/* files_deferred counted at once */
};

int ktp_session_selftest(u64 n, enum ktp_selftest_mode mode,
			 unsigned int *cpu, u64 *written, u64 *dropped);
bool ktp_session_write_selftest(u64 seq);
int ktp_hotplug_init(void);
void ktp_hotplug_exit(void);
const char *ktp_session_state_name(enum ktp_session_state state);

/*
 * load.c: selftest records at a set rate on every traced CPU. At most 2000
 * a millisecond tick, each CPU: under a third of the tick at the write
 * path's ~190 instructions a record.
 */
#define KTP_LOAD_RATE_MAX	2000000ULL
void ktp_load_init(void);
int ktp_load_set(u64 rate);
void ktp_load_stop(void);
void ktp_load_show(struct seq_file *m);

/* control.c */
int ktp_control_init(void);
void ktp_control_remove_files(void);
void ktp_control_exit(void);

/* evspec.c */
int ktp_parse_event_list(const char *list, bool sampling,
			 struct ktp_event_spec *out, unsigned int max,
			 char *bad, size_t badlen);

/* perf.c: sampling and counters (sample.h has the internals) */
int ktp_sample_start(char *err, size_t errlen);
void ktp_sample_quiesce(void);
bool ktp_sample_quiesced(void);
void ktp_sample_stop(void);
unsigned int ktp_counters_read(u64 *deltas);
extern unsigned int ktp_nr_counters;

/* Whether switch records carry --pmu counts (the switch probe's test). */
static inline bool ktp_counters_on(void)
{
	return READ_ONCE(ktp_nr_counters);
}
void ktp_counters_reset_local(void);
void ktp_sample_drain_local(void);

/* sample.c */
u64 ktp_sample_selftest_nmi(u64 n);

/* files.c: FILE records, from the dentry and page caches only */
void ktp_files_flush(void);
void ktp_files_room(void);
int ktp_files_selftest_deferred(unsigned long n, unsigned int *cpu);

/*
 * Test modes: NMI context as nmi_enter() makes it (in_nmi(), IRQs off,
 * lockdep off), without an NMI, which qemu TCG cannot raise.
 */
static inline void ktp_fake_nmi_enter(void)
{
	local_irq_disable();
	lockdep_off();
	__preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
}

static inline void ktp_fake_nmi_exit(void)
{
	__preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
	lockdep_on();
	local_irq_enable();
}

/* stage.c */
void ktp_stage_nmi_record(struct ktp_cpu *kc, const void *rec);

/* genl.c */
int ktp_genl_init(void);
void ktp_genl_exit(void);

/* main.c: module parameters, the defaults of every session. */
extern bool ktp_param_overwrite;
extern char *ktp_param_clock;
extern unsigned int ktp_param_subbuf_size;
extern unsigned int ktp_param_n_subbufs;
extern char *ktp_param_events;
extern char *ktp_param_cpus;
extern char *ktp_param_samples;
extern char *ktp_param_counters;
extern char *ktp_param_stacks;
extern bool ktp_param_sample_defer;
extern bool ktp_param_sample_irqs_on;
extern bool ktp_param_stack_check;
extern unsigned int ktp_param_files_delay_ms;

#endif /* KTPROF_H */
