/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model of a capture that every consumer stands on, as perf's machine
 * and thread are for its tools: one pass over the merged events of every
 * CPU, in time order, which keeps
 *
 * - the session: metadata, start and stop, the CPU topology, the streams'
 *   counts of records and losses, whether the input was cut short;
 * - the filter (filter.h): the window, the CPUs, the selected processes,
 *   and whether a thread or process is selected (one rule for all);
 * - who each pid is now (task-table.h), and the scheduler (sched.h): who
 *   runs on each CPU, which time is known, every thread's state;
 * - the names of IRQs, and the symbolizer, fed the records it needs
 *   (with every FILE record before the first event, see model_open());
 *
 * and tells its clients what happened through one ops structure, struct
 * sched_ops: the scheduler's callbacks as it takes each event, then the
 * event itself (ops->event), after the model has taken it.
 */
#ifndef KTPROF_MODEL_H
#define KTPROF_MODEL_H

#include <stdint.h>
#include <string.h>

#include "capture/cgroup-table.h"
#include "capture/input.h"
#include "capture/sched-ext.h"
#include "capture/topology.h"
#include "decode/probe-spec.h"
#include "model/filter.h"
#include "model/sched.h"
#include "model/stack-table.h"
#include "model/task-table.h"
#include "symbols/symbolizer.h"

enum model_symbols {
	MODEL_SYMBOLS_NONE,	/* no symbolizer */
	MODEL_SYMBOLS_KERNEL,	/* kernel addresses (kallsyms) */
	MODEL_SYMBOLS_ALL,	/* and user stacks: MAP and FILE records */
	MODEL_SYMBOLS_SAMPLED,	/* ALL when the session has user frames, else KERNEL */
};

struct model_config {
	struct filter filter;
	int sched;			/* keep the scheduler model */
	enum model_symbols symbols;
	const char *symfs;		/* where binaries are looked for */
	int tolerant;			/* a damaged stream ends there; the others go on */
	int session_cpus;		/* events of CPUs beyond the session's are
					 * skipped (and counted) */
};

/*
 * A client's ops->event sees only the window: from the first event at or
 * after its start, the CPUs' running tasks as START marks (as at a
 * session's start); at its end, STOP marks, and nothing after. Records
 * that describe rather than happen (TASK, IRQ_NAME) are seen wherever they
 * are. Without --from and --to, every event.
 */
#define MODEL_WINDOWED 1u

/* What ops->event returns to end the pass early, as at the input's end. */
#define MODEL_STOP 1

/* A CPU's stream, as decoded: records, and what is missing or damaged. */
struct model_stream {
	uint32_t cpu;
	uint64_t records, lost, lost_subbufs, garbage_bytes;
	uint64_t truncated;		/* bytes of a record cut short at the end */
};

struct model_client {
	const struct sched_ops *ops;
	void *ctx;
	unsigned int flags;
	uint64_t types;		/* ops->event_types, all bits for 0 */
};

#define MODEL_MAX_CLIENTS 32
#define MODEL_OTHER_TYPES 64	/* types with no bit in sched_ops.event_types */

struct model {
	struct model_config cfg;
	char path[512];
	struct input *in;
	struct meta meta;
	int have_meta;
	uint64_t session_start, session_stop;	/* stop 0: unknown */
	struct sched_ext sched_ext[2];		/* at start, at stop */
	struct cgroup_table cgroups;		/* id -> path, of start and stop */
	struct probe_table probes;		/* record --probe's list; empty: none
						 * (or damaged: hits keep their ids) */
	struct topology_cpu *topo;
	unsigned int nr_topo;
	uint32_t nr_cpus;			/* the session's */
	uint8_t *cpu_selected;			/* -C; NULL: all */
	uint32_t nr_cpu_selected;

	/* The window: absolute; to is the capture's end after model_run(). */
	uint64_t from, to, window_ns;

	struct sched sched;
	struct task_table tasks;
	struct symbolizer *sym;
	struct stack_table stacks;		/* STACK records (-S offcpu, waker) */
	/* The scheduler's text (__sched) and the locks' (model_blocking_function). */
	uint64_t sched_text[2][2];
	int sched_text_known;			/* 0: not looked up; 1: yes; -1: no */
	char (*irq_names)[KTP_IRQ_NAME_MAX];	/* IRQ_NAME records, by irq */
	uint32_t nr_irq_names;
	/* x86 system vectors' (irq KTP_IRQ_VECTOR_BASE + vector), by vector */
	char vector_names[KTP_IRQ_NR_VECTORS][KTP_IRQ_NAME_MAX];

	struct merge *mg;			/* the pass's, from model_start() */
	struct model_client clients[MODEL_MAX_CLIENTS];
	unsigned int nr_clients;
	/*
	 * Per record type, the clients whose event hook takes it, in the
	 * order added; the last list for EVENT_LOST and the like.
	 */
	const struct model_client *hooked[MODEL_OTHER_TYPES + 1][MODEL_MAX_CLIENTS];
	unsigned int nr_hooked[MODEL_OTHER_TYPES + 1];
	int windowed;				/* --from or --to */

	/* After model_run(). */
	uint64_t events;			/* read */
	uint64_t lost_seen;			/* records lost, as the gaps read said */
	uint64_t outside_cpus;			/* skipped: cfg.session_cpus */
	uint64_t lost;				/* records lost, all streams */
	struct model_stream *streams;
	unsigned int nr_streams;
	int truncated;				/* the capture file ends early */
	int damaged;				/* a damaged chunk ended a stream */
	char problem[256];			/* why */

	/* The window as ops->event of MODEL_WINDOWED clients sees it. */
	int window_state;			/* 0 before, 1 in, 2 after */
};

/*
 * Open the capture or raw dump directory @path for a pass. With
 * MODEL_SYMBOLS_ALL the symbolizer gets every FILE record first: from the
 * capture's index of them, or from a pass of their own over a raw dump
 * directory's streams. NULL with the reason in @err.
 */
struct model *model_open(const char *path, const struct model_config *cfg,
			 struct error *err);
void model_close(struct model *m);

/* The same over an input already open (a live one: input_live_new()), which it owns; @name names it in messages. */
struct model *model_open_input(struct input *in, const char *name,
			       const struct model_config *cfg, struct error *err);

/* Add a client (@flags: MODEL_WINDOWED); 0 or -ENOSPC. */
int model_add_client(struct model *m, const struct sched_ops *ops, void *ctx,
		     unsigned int flags);

/*
 * The pass: every event to the model and its clients, then, with the
 * scheduler model, every interval closed at the capture's end and the
 * window set to what it covers. 0 or a negative error (@err says what).
 * A stream cut short or damaged ends there (m->truncated, m->damaged).
 */
int model_run(struct model *m, struct error *err);

/*
 * The pass in steps, for a live input (`ktprof top`) or intervals of a
 * recorded one: model_start(), then model_step() as often as wanted, each
 * taking every event before @until (the merge's watermark: the input
 * promises that all of its bytes holding earlier events are readable), and
 * model_finish() once. model_step() returns 1 when the input ended (no
 * more steps are needed), 0 when the next event is at or after @until or
 * not yet readable, or a negative error (@err says what). model_run() is
 * model_start(), model_step(UINT64_MAX), model_finish().
 */
int model_start(struct model *m, struct error *err);
int model_step(struct model *m, uint64_t until, struct error *err);
int model_finish(struct model *m, struct error *err);

/*
 * Between steps: the time of the next event the pass will take: 1 with
 * *@ts, 0 when none is known yet (or the input ended), or -errno.
 */
int model_next_ts(struct model *m, uint64_t *ts);

/*
 * Close, at @ts, every interval the scheduler model holds open (the CPUs'
 * runs and gaps, the threads' states), as if it ended there, and open it
 * again: clients' sums are unchanged, and each ends at or before @ts. For
 * figures per interval of a pass still going on: after model_step(@ts).
 */
void model_cut(struct model *m, uint64_t ts);

/* Whether the session took CPU samples (its metadata says which). */
static inline int model_sampled(const struct model *m)
{
	return m->have_meta && m->meta.samples[0] && strcmp(m->meta.samples, "none");
}

/* Whether it took user stacks at switches and wakings (-S ...,user) or probe hits. */
int model_user_stacks(const struct model *m);

/* Whether @ts is in the window [from, to). */
static inline int model_in_window(const struct model *m, uint64_t ts)
{
	return ts >= m->from && ts < m->to;
}

/* Whether CPU @cpu is among the -C ones. */
static inline int model_cpu_selected(const struct model *m, uint32_t cpu)
{
	return !m->cpu_selected || (cpu < m->nr_cpu_selected && m->cpu_selected[cpu]);
}

/* Selection (-p, --comm, --tid): of thread @t (an index of the scheduler model). */
int model_thread_selected(const struct model *m, uint32_t t);

/* Of process (thread group) @tgid now, and of the thread @pid now. */
int model_tgid_selected(const struct model *m, uint32_t tgid);
int model_pid_selected(const struct model *m, uint32_t pid);

/* Of a sample of thread @tid in process @tgid. */
int model_sample_selected(const struct model *m, uint32_t tgid, uint32_t tid);

/* The pid running on @cpu now (0: idle), or SCHED_PID_UNKNOWN. */
uint32_t model_cpu_pid(const struct model *m, uint32_t cpu);

/* The path of cgroup v2 @id (as the recorder found it at start or stop), or NULL. */
const char *model_cgroup_path(const struct model *m, uint64_t id);

/* The name of IRQ @irq (its action, or a system vector's), or NULL. */
const char *model_irq_name(const struct model *m, uint64_t irq);

/* Bytes model_irq_label() needs at most: "irq " + 10 digits + " " + name. */
#define MODEL_IRQ_LABEL_MAX (16 + KTP_IRQ_NAME_MAX)

/*
 * IRQ @irq for people, in @buf: "irq 24 virtio0" (a device irq), "irq 24"
 * (unnamed), "irq timer" (an x86 system vector), "irq vector 236" (an
 * unnamed one). Put together by hand: it names every IRQ slice of the
 * Perfetto conversion, where snprintf was a twentieth of the time.
 */
const char *model_irq_label(const struct model *m, uint64_t irq, char *buf, size_t len);

/* "TIMER", "NET_RX", ... for softirq vector @vec, or NULL. */
const char *model_softirq_name(uint64_t vec);

/* "func" or "func+0x1a" for a kernel address, or "0x..." unresolved. */
const char *model_ksym(const struct model *m, uint64_t addr, char *buf, size_t len);

/*
 * The blocking function of stack @s (model->stacks): its first kernel
 * frame that is not the scheduler's own, by name (no offset); "[no
 * stack]" for STACK_NONE, "[scheduler]" when every frame is the
 * scheduler's. The scheduler's frames, as the kernel's get_wchan()
 * decides: the __sched functions (schedule(), schedule_timeout(),
 * io_schedule(), the mutex, rwsem and completion slow paths...), the
 * spinlocks' text, and the tracepoint that took the stack. Without a
 * kallsyms snapshot none is, and the first frame is its address.
 */
const char *model_blocking_function(struct model *m, uint32_t s, char *buf, size_t len);

#endif
