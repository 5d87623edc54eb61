/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler as a capture saw it: who ran on each CPU, each thread's
 * state, the wakeup and runqueue clocks, IRQ nesting, and which times are
 * unknown (lost records, offline CPUs, CPUs without data). Fed the merged
 * events in global time order; tells its clients (the analyzers) what
 * happened through the callbacks of struct sched_ops, with every interval
 * inside known time: nothing spans a gap.
 *
 * Definitions: docs/report.md.
 */
#ifndef KTPROF_SCHED_H
#define KTPROF_SCHED_H

#include <stdint.h>

#include "decode/event.h"
#include "ktprof_abi.h"
#include "util/u64-map.h"

#define SCHED_IDLE UINT32_MAX	/* the idle task, where a thread index goes */
#define SCHED_NONE (UINT32_MAX - 1)
#define SCHED_MASK_MAX_BITS 8192	/* CPUs of an allowed mask kept (KTPC_MAX_CPUS) */

enum sched_state {
	SCHED_UNKNOWN,		/* not observed (before birth, after a loss) */
	SCHED_RUNNING,
	SCHED_RUNNABLE,		/* woken or preempted, waiting for a CPU */
	SCHED_SLEEPING,		/* S */
	SCHED_BLOCKED,		/* D */
	SCHED_OTHER,		/* I, T, t, P, new (forked, not yet woken) */
	SCHED_DEAD,		/* X, Z: exited */
	SCHED_NR_STATES
};

enum sched_latency { SCHED_WAKEUP, SCHED_RUNQUEUE };

enum sched_gap {
	SCHED_GAP_NODATA,	/* before the CPU's first record, after its last */
	SCHED_GAP_LOSS,		/* records lost: from the last record before the
				 * loss to the next switch */
	SCHED_GAP_OFFLINE,	/* hotplug: the CPU was offline */
	SCHED_NR_GAPS
};

enum sched_waker_kind {
	SCHED_WAKER_THREAD,	/* @id: thread index */
	SCHED_WAKER_IDLE,	/* @id: CPU (the idle task) */
	SCHED_WAKER_HARDIRQ,	/* @id: irq number */
	SCHED_WAKER_SOFTIRQ,	/* @id: softirq vector */
	SCHED_WAKER_UNKNOWN,	/* the CPU's state was unknown */
};

struct sched_waker {
	uint32_t kind;		/* enum sched_waker_kind */
	uint32_t id;
};

enum sched_irq_kind { SCHED_HARDIRQ, SCHED_SOFTIRQ, SCHED_WORK };

/* One run of an IRQ handler, a softirq or a work item, as the model saw it. */
struct sched_irq {
	enum sched_irq_kind kind;
	uint64_t id;		/* irq, softirq vector, or work function */
	uint64_t start, end;	/* its entry, and its exit or where the data ended */
	uint64_t self;		/* its own time inside the window (nested hardirqs
				 * excluded): what the CPU's irq time adds up */
	int counted;		/* it started inside the window and its exit
				 * was seen: one run, [start, end) its duration */
};

/* A thread: one pid from its birth (or first sight) to its death. */
struct sched_thread {
	uint32_t pid, tgid;
	uint32_t process;	/* index of its process (SCHED_NONE until known;
				 * every thread has one after sched_finish()) */
	char comm[KTP_COMM_LEN];
	uint8_t kthread;
	uint8_t tgid_known;	/* a TASK or FORK record gave the tgid */
	uint8_t fresh;		/* born by a FORK/TASK record, not seen since */
	uint8_t freed;		/* its pid was released (sched_process_free) */
	uint8_t state;		/* enum sched_state */
	uint8_t wake_pending, wake_valid, wake_new;
	uint8_t woke_running;	/* woken while it ran: since its last switch-in */
	uint8_t wake_late;	/* the pending wakeup is such a waking, taken at
				 * its switch-out in S or D; see on_switch() */
	uint8_t rq_pending, rq_valid;
	int32_t cpu;		/* the CPU it runs on, or -1 */
	/*
	 * While a latency clock runs: the runqueue it waits in (-1: not
	 * known) since @q_since, and of those it waited in so far the one it
	 * waited in longest, @q_best for @q_best_ns. See queue_move().
	 */
	int32_t q_cpu, q_best;
	uint64_t q_since, q_best_ns;
	uint16_t wake_target;	/* the target CPU of a waking while it ran */
	uint64_t state_since;
	uint64_t wake_ts, rq_ts;
	struct sched_waker waker;	/* of the pending wakeup */
	uint64_t work_ts, work_fn;	/* a work item it runs (0: none) */
	uint64_t work_told;	/* its time up to here was told at a cut */
	/*
	 * The runqueue it waits in (-1: it does not wait, or where is not
	 * known): from its waking or preemption to its switch-in, moved by
	 * its migrations. See sched_ops.wait.
	 */
	int32_t wait_cpu;
	uint32_t mask;		/* its allowed CPUs (sched_allowed()); 0: all */
	uint64_t cgroup;	/* its cgroup v2 id (CGROUP records), 0: not known */
};

/* A process: a thread group from its leader's birth (or first sight). */
struct sched_process {
	uint32_t tgid;
	uint32_t leader;	/* thread index, or SCHED_NONE */
	char comm[KTP_COMM_LEN];	/* the leader's, or the first thread's */
	uint8_t comm_matched;	/* the leader was named sched.match_comm once */
};

/*
 * What the model tells its clients. Every hook may be NULL. Times are
 * CLOCK_BOOTTIME ns; intervals [from, to) are clipped to the report window
 * and to the CPU filter, and never overlap unknown time.
 */
struct sched_ops {
	/* Thread @t was added (index = count - 1): grow per-thread arrays. */
	int (*thread_new)(void *ctx, uint32_t t);
	/* CPU @cpu ran @t (a thread, or SCHED_IDLE) during [from, to). */
	void (*cpu_time)(void *ctx, uint32_t cpu, uint32_t t, uint64_t from, uint64_t to);
	/* Thread @t was in @state during [from, to). */
	void (*state_time)(void *ctx, uint32_t t, enum sched_state state,
			   uint64_t from, uint64_t to);
	/*
	 * A switch on @cpu at @ts inside the window: @prev out (a thread or
	 * SCHED_IDLE; SCHED_NONE when the CPU's state was unknown), @next in.
	 * @involuntary: @prev was still runnable.
	 */
	void (*switch_out)(void *ctx, uint32_t cpu, uint64_t ts, uint32_t prev,
			   uint32_t next, int involuntary);
	/*
	 * A latency of thread @t ended by its switch-in: from @start (inside
	 * the window) to @end. It is charged to @cpu, the CPU in whose
	 * runqueue the thread waited longest (its switch-out CPU or waking
	 * target, moved by each migration); the last one on a tie. @waker for
	 * SCHED_WAKEUP.
	 */
	int (*latency)(void *ctx, enum sched_latency kind, uint32_t t, uint32_t cpu,
		       uint64_t start, uint64_t end, const struct sched_waker *waker);
	/* A waking of @t on @cpu inside the window; @new: sched_wakeup_new. */
	int (*waking)(void *ctx, uint32_t cpu, uint64_t ts, uint32_t t,
		      const struct sched_waker *waker, int running, int new);
	/* Thread @t migrated from CPU @from to CPU @to, inside the window. */
	int (*migrate)(void *ctx, uint32_t t, uint32_t from, uint32_t to, uint64_t ts);
	/*
	 * An IRQ, softirq or work item on @cpu that overlapped the window or
	 * started inside it. Its time is clipped to the window (irq->self); a
	 * run that began before the window, or was cut by the end of the
	 * CPU's data, is time but not a run (irq->counted).
	 */
	int (*irq)(void *ctx, uint32_t cpu, const struct sched_irq *irq);
	/*
	 * Thread @t's wait for a CPU moved at @ts from @from's runqueue to
	 * @to's (-1: none: it began to wait, or ran, died, or its place is
	 * not known). Told wherever it happens, window and -C or not, so that
	 * a client knows who waits where when the window opens; clients clip.
	 */
	void (*wait)(void *ctx, uint32_t t, int32_t from, int32_t to, uint64_t ts);
	/* Thread @t's allowed CPUs changed at @ts (an AFFINITY record). */
	void (*affinity)(void *ctx, uint32_t t, uint64_t ts);
	/* Time [from, to) of @cpu that is unknown, for the reason @gap. */
	void (*gap)(void *ctx, uint32_t cpu, enum sched_gap gap, uint64_t from, uint64_t to);
	/*
	 * Any event, after the model took it (IPIs, samples, counts): called
	 * by the model (model.h), which may end the pass when it returns > 0.
	 */
	int (*event)(void *ctx, const struct event *ev);
	/*
	 * The record types @event acts on, as SCHED_TYPE() bits (EVENT_LOST
	 * and the like always come); 0: every event. It spares the calls that
	 * would return at once, most of them for most clients.
	 */
	uint64_t event_types;
};

/* The bit of record type @t in sched_ops.event_types. */
#define SCHED_TYPE(t) (UINT64_C(1) << (t))
_Static_assert(KTP_REC_NR_TYPES <= 64, "every record type has a bit in sched_ops.event_types");

struct sched_client {
	const struct sched_ops *ops;
	void *ctx;
};

#define SCHED_MAX_CLIENTS 32

/* The hooks of struct sched_ops that the model calls (@event is model.h's). */
enum sched_hook {
	SCHED_HOOK_THREAD_NEW, SCHED_HOOK_CPU_TIME, SCHED_HOOK_STATE_TIME,
	SCHED_HOOK_SWITCH_OUT, SCHED_HOOK_LATENCY, SCHED_HOOK_WAKING,
	SCHED_HOOK_MIGRATE, SCHED_HOOK_IRQ, SCHED_HOOK_WAIT, SCHED_HOOK_AFFINITY,
	SCHED_HOOK_GAP, SCHED_NR_HOOKS
};

struct sched_cpu;

/* An allowed-CPUs mask of struct sched: @words u64 words at @off in its pool. */
struct sched_mask {
	uint32_t off, words;
	uint32_t nr_allowed;
};

struct sched {
	uint64_t from, to;		/* the report window */
	uint64_t session_start;
	const uint8_t *cpu_selected;	/* -C: NULL for all */
	const char *match_comm;		/* note processes whose leader had this name */
	unsigned int nr_cpu_selected;
	struct sched_client clients[SCHED_MAX_CLIENTS];
	unsigned int nr_clients;
	/* Per hook, the indexes in @clients of those that have it, in order. */
	uint8_t hooked[SCHED_NR_HOOKS][SCHED_MAX_CLIENTS];
	uint8_t nr_hooked[SCHED_NR_HOOKS];
	struct sched_cpu *cpus;
	uint32_t nr_cpus;
	struct sched_thread *threads;
	uint32_t nr_threads, cap_threads;
	struct sched_process *procs;
	uint32_t nr_procs, cap_procs;
	uint32_t *by_pid;		/* pid -> thread index + 1 */
	uint32_t by_pid_len;
	struct u64_map big_pids;	/* pids too large for by_pid */
	struct u64_map proc_by_tgid;	/* tgid -> process index + 1 */
	/* Allowed-CPUs masks, each once; index 0 is "all CPUs". */
	struct sched_mask *masks;
	uint32_t nr_masks, cap_masks;
	uint64_t *mask_pool;
	uint32_t pool_len, pool_cap;
	struct u64_map mask_by_hash;	/* hash (probed on) -> mask index + 1 */
	uint64_t affinity_records;
	unsigned int unknown_cpus;	/* CPUs in a gap right now */
	uint64_t end;			/* the last event's time */
	uint64_t first;			/* the start of the first known CPU time */
	uint64_t stopped;		/* the last STOP mark's time, 0: none */
	uint64_t inconsistent;		/* records that contradict the model */
	uint64_t latency_excluded[2];	/* clocks a gap overlapped */
	int error;			/* the first failure of a client or an allocation */
	uint64_t cut;			/* the last sched_cut(), 0: none */
	unsigned int state_clients;	/* clients with a state_time hook */
};

/*
 * Set up for @nr_cpus CPUs (more are added as records name them), the
 * window [@from, @to) and a session that started at @session_start.
 * 0 or -ENOMEM.
 */
int sched_init(struct sched *s, uint32_t nr_cpus, uint64_t session_start,
	       uint64_t from, uint64_t to);
void sched_fini(struct sched *s);

/* Add a client; 0 or -ENOSPC. */
int sched_add_client(struct sched *s, const struct sched_ops *ops, void *ctx);

/* Take one event, in global time order. 0 or a negative error. */
int sched_event(struct sched *s, const struct event *ev);

/*
 * @cpu was online and traced at the session's start: until its first CPU
 * mark its time is unknown (it ran something unseen), not offline, and
 * latency clocks that overlap it are not counted.
 */
void sched_await_cpu(struct sched *s, uint32_t cpu);

/* A gap announced by the merge (merge_set_gap_fn) before its events. */
void sched_gap_ahead(void *sched, const struct event *ev);

/*
 * Every open interval (CPU runs and gaps, thread states) told to the
 * clients up to @ts and reopened there: the pass goes on (model_cut()).
 */
void sched_cut(struct sched *s, uint64_t ts);

/* The end of the capture: close every interval at @end. */
int sched_finish(struct sched *s, uint64_t end);

static inline const struct sched_thread *sched_thread(const struct sched *s, uint32_t t)
{
	return &s->threads[t];
}

/* Clip [*from, *to) to the window; 0 if nothing is left. */
static inline int sched_clip(const struct sched *s, uint64_t *from, uint64_t *to)
{
	if (*from < s->from)
		*from = s->from;
	if (*to > s->to)
		*to = s->to;
	return *from < *to;
}

static inline int sched_in_window(const struct sched *s, uint64_t ts)
{
	return ts >= s->from && ts < s->to;
}

/* The thread of @pid now, or SCHED_NONE; SCHED_IDLE is never returned. */
uint32_t sched_lookup_pid(const struct sched *s, uint32_t pid);

/* The process of thread group @tgid now, or SCHED_NONE. */
uint32_t sched_process_of(const struct sched *s, uint32_t tgid);

/* The pid running on @cpu (0: idle), or SCHED_PID_UNKNOWN when not known. */
#define SCHED_PID_UNKNOWN UINT32_MAX
uint32_t sched_cpu_pid(const struct sched *s, uint32_t cpu);

/* Whether thread @t may run on @cpu (its last AFFINITY record; none: yes). */
int sched_allowed(const struct sched *s, uint32_t t, uint32_t cpu);

/* How many CPUs mask @m (a thread's ->mask) allows, 0 for "all". */
static inline uint32_t sched_mask_weight(const struct sched *s, uint32_t m)
{
	return m ? s->masks[m].nr_allowed : 0;
}

/* Whether mask @m allows @cpu. */
int sched_mask_has(const struct sched *s, uint32_t m, uint32_t cpu);

/*
 * The runnable threads of @cpu now: the one it runs (not the idle task) and
 * those waiting in its runqueue; -1 while the CPU's state is unknown.
 */
int sched_cpu_depth(const struct sched *s, uint32_t cpu);

/* The state a switch's prev_state (task-report bits) leaves a thread in. */
enum sched_state sched_state_of(uint16_t prev_state);

#endif
