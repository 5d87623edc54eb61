/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU sampling internals, shared by its files:
 *   evspec.c   event specs ("cpu-clock@999hz", "r01c2") from text
 *   perf.c     the per-CPU perf events: made and freed outside the hotplug
 *              lock, and the per-switch counters
 *   sample.c   the overflow handler: stacks and the SAMPLE record
 *   stage.c    the NMI staging ring between NMI and relay
 *   maps.c     user mappings and their files: MAP records, files queued
 *   files.c    FILE records: paths and build ids, read by jobs that may
 *              block, which stop does not wait for long
 */
#ifndef KTPROF_SAMPLE_H
#define KTPROF_SAMPLE_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/perf_event.h>
#include <linux/workqueue.h>

#include "ktprof.h"

#define KTP_STAGE_SIZE (64 << 10)	/* per-CPU NMI staging ring, bytes */
#define KTP_MAP_CACHE 256		/* per-CPU, per context */
#define KTP_FILE_CACHE 64
#define KTP_PENDING_FILES 32

/*
 * Records made in NMI, where relay must not be called, waiting for the
 * drain irq_work: one producer (NMI, which does not nest) and one consumer
 * (this CPU with IRQs off).
 */
struct ktp_stage {
	bool producing;		/* a push is under way (see ktp_stage_push) */
	u32 head;		/* written by the NMI producer */
	u32 tail;		/* written by the consumer */
	atomic64_t dropped[KTP_REC_NR_TYPES];	/* producers: ring full */
	u64 dropped_seen[KTP_REC_NR_TYPES];	/* consumer: already in the loss */
	u8 data[KTP_STAGE_SIZE];
};

struct ktp_map_slot {
	u64 start_time;		/* the process's start: pid reuse */
	u64 start, end, ino;
	u32 pid;
};

/*
 * The state one sampling context uses: samples outside NMI run with IRQs
 * off (task-context software events such as page faults included), so
 * task, softirq and hardirq samples share one; NMI samples have their own.
 */
enum ktp_sample_ctx { KTP_CTX_IRQ, KTP_CTX_NMI, KTP_NR_CTX };

/*
 * A file queued for its FILE record (the key is both, exactly), valid in
 * one epoch of ktp_files_epoch (0: never).
 */
struct ktp_file_slot {
	u64 ino;
	u32 dev;
	u32 epoch;
};

struct ktp_cache {
	struct ktp_map_slot maps[KTP_MAP_CACHE];
	struct ktp_file_slot files[KTP_FILE_CACHE];	/* files queued */
	/* Files waiting for their FILE record: this context produces. */
	struct {
		struct file *file;
		pid_t tgid;	/* who mapped it: paths as that process sees them */
	} pending[KTP_PENDING_FILES];
	u32 pending_head, pending_tail;
	struct irq_work unlock_work;	/* deferred mmap_read_unlock */
	struct mm_struct *unlock_mm;
	u8 scratch[sizeof(struct ktp_sample) + 2 * KTP_MAX_FRAMES * 8];
};

/* One traced CPU's sampling state, for the whole session. */
struct ktp_sample_cpu {
	unsigned int cpu;
	/* Made and freed by perf.c in process context, under its lock. */
	struct perf_event *sources[KTP_MAX_SOURCES];
	struct perf_event *counters_made[KTP_MAX_COUNTERS];
	bool has_events;
	int events_gen;		/* @offline_gen when they were made */
	atomic_t offline_gen;	/* times the CPU went offline */
	/* counters_made[] as the switch probe sees them (RCU), and its base. */
	struct perf_event *counters[KTP_MAX_COUNTERS];
	u64 counter_last[KTP_MAX_COUNTERS];
	struct ktp_stage *stage;
	struct irq_work drain_work;	/* staging ring -> relay, files */
	struct work_struct file_work;	/* FILE records, process context */
	bool files_delayed;	/* files_delay_ms knob: its first pass waited */
	struct ktp_cache cache[KTP_NR_CTX];
};

DECLARE_PER_CPU(struct ktp_sample_cpu *, ktp_sample_cpus);

/* stage.c */
bool ktp_emit(struct ktp_sample_cpu *sc, const void *rec, bool staged);
bool ktp_stage_push(struct ktp_stage *st, const void *rec);
const void *ktp_stage_set_nested(const void *rec);
void ktp_stage_drain(struct ktp_stage *st);

/* perf.c */
int ktp_sample_traced_cpu(void);

/* maps.c */
void ktp_maps_resolve(struct ktp_sample_cpu *sc, struct ktp_cache *c,
		      const u64 *ips, unsigned int n, bool staged);
void ktp_unlock_fn(struct irq_work *work);

/* files.c */
extern atomic_t ktp_files_epoch;
u64 ktp_file_key(u32 dev, u64 ino);
bool ktp_files_pending(struct ktp_sample_cpu *sc);
void ktp_files_fn(struct work_struct *work);
void ktp_files_drop_pending(struct ktp_sample_cpu *sc);
int ktp_files_start(void);
void ktp_files_forget(void);

/* sample.c */
unsigned int ktp_user_stack(struct pt_regs *uregs, u64 *ips, bool *truncated);
void ktp_overflow(struct perf_event *event, struct perf_sample_data *data,
		  struct pt_regs *regs);
void ktp_drain_fn(struct irq_work *work);

#endif /* KTPROF_SAMPLE_H */
