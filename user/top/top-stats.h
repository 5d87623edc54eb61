/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof top`'s figures: one client of the model (as every analysis of
 * the report is) that counts what happened in the current interval, and at
 * its end, after model_cut() closed every open interval there, gives the
 * interval's rows and starts the next. Runtimes, idle and unknown time,
 * switches and migrations are those of `ktprof report --from A --to B` for
 * the interval [A, B); wakeup and runqueue latencies are those that ended
 * in it (report counts a latency in the window where it began: a live
 * view cannot wait for the waits still open). Definitions: docs/report.md
 * and docs/top.md.
 */
#ifndef KTPROF_TOP_STATS_H
#define KTPROF_TOP_STATS_H

#include <stdint.h>

#include "ktprof_abi.h"
#include "model/model.h"
#include "util/u64-map.h"

#define TOP_WAITS 16		/* the worst waits of an interval kept */
#define TOP_IRQ_NAME 48
#define TOP_IRQ_KINDS 3	/* enum sched_irq_kind */

struct top_thread {
	uint32_t t;			/* the model's thread index */
	uint32_t pid, tgid;
	char comm[KTP_COMM_LEN];
	uint8_t own;			/* the recorder's (this ktprof's) thread */
	uint8_t kthread;
	int32_t cpu;			/* where it ran last, -1: not in the interval */
	uint64_t runtime_ns;
	uint32_t voluntary, involuntary;	/* its switch-outs */
	uint32_t migrations;
	uint32_t wakeups, runqueue_waits;	/* latencies that ended */
	uint64_t wakeup_p99_ns, wakeup_max_ns;	/* nearest rank; 0: none */
	uint64_t runqueue_p99_ns, runqueue_max_ns;
};

struct top_cpu {
	uint32_t cpu;
	uint64_t busy_ns, idle_ns, unknown_ns;	/* unknown: no data, loss, offline */
	uint64_t hardirq_ns, softirq_ns, work_ns;	/* inside busy and idle */
	uint32_t switches, migrations_in;
	uint64_t lost;			/* records the module lost */
	int depth;			/* runnable threads at the end, -1: unknown */
};

/* One wait for a CPU that ended in the interval. */
struct top_wait {
	enum sched_latency kind;
	uint32_t pid, tgid;
	char comm[KTP_COMM_LEN];
	uint32_t cpu;			/* the runqueue it waited in longest */
	uint64_t start, latency_ns;	/* start: absolute */
	/* Who ran on that CPU last before it (pid 0: idle; UINT32_MAX: unknown). */
	uint32_t ran_pid;
	char ran_comm[KTP_COMM_LEN];
};

struct top_irq {
	enum sched_irq_kind kind;
	uint64_t id;
	char name[TOP_IRQ_NAME];	/* "irq 24 virtio0", "softirq TIMER", a work function */
	uint32_t count;			/* runs that started in the interval and ended */
	uint64_t time_ns;		/* its own time in the interval */
};

/* A dispatch queue of sched_ext that changed in the interval. */
struct top_dsq {
	uint64_t id;			/* the kernel's DSQ id */
	uint32_t uid;			/* which DSQ of that id */
	uint32_t cpu;			/* the first task's CPU (a local DSQ's) */
	uint32_t depth, max_depth;	/* at the interval's end; its largest in it */
	uint64_t inserts, removes;
};

#define TOP_SCX_EVENTS 32	/* event counters named per interval, at most */

/* A sched_ext event counter (SCX_EV_...) that grew in the interval. */
struct top_scx_event {
	char name[48];
	int64_t grew;
};

/* sched_ext in the interval: the scheduler, its transitions, its counters. */
struct top_scx {
	int present;			/* the kernel has sched_ext */
	char state[32];			/* "enabled", "disabled", ... */
	char ops[64];			/* the BPF scheduler, "" when none */
	uint64_t enable_seq;
	uint32_t enables, exits;	/* transitions in the interval */
	int64_t exit_kind;		/* the last exit's kind, 0: none */
	int bypass;			/* -1: not changed, else the last bypass state */
	struct top_scx_event events[TOP_SCX_EVENTS];
	uint32_t nr_events;
};

struct top_interval {
	uint64_t index;			/* 0, 1, ... */
	uint64_t from, to;		/* absolute CLOCK_BOOTTIME ns */
	uint64_t session_start;
	uint64_t events, lost;		/* in the interval, every CPU */
	uint64_t lost_total;		/* since the session's start */
	struct top_cpu *cpus;
	uint32_t nr_cpus;
	struct top_thread *threads;	/* those that ran, switched, waited or moved */
	uint32_t nr_threads;
	struct top_wait waits[TOP_WAITS];	/* the longest, longest first */
	uint32_t nr_waits;
	struct top_irq *irqs;		/* by time, largest first */
	uint32_t nr_irqs;
	struct top_scx scx;
	struct top_dsq *dsqs;		/* by largest depth, then inserts */
	uint32_t nr_dsqs;
};

struct top_thread_acc;
struct top_latency;
struct top_irq_acc;
struct top_dsq_acc;

struct top_stats {
	struct model *m;
	uint32_t own_tgid;		/* 0: none */
	struct top_thread_acc *acc;	/* by thread index */
	uint32_t nr_acc;
	uint32_t *touched;		/* threads with figures this interval */
	uint32_t nr_touched, cap_touched;
	struct top_latency *lat;	/* this interval's latencies */
	uint32_t nr_lat, cap_lat;
	uint64_t *vals, *heap;		/* scratch of top_stats_take(), kept */
	uint32_t cap_vals, cap_heap;
	uint32_t *gstart;		/* (thread, kind) groups' starts in vals */
	uint32_t cap_g;
	struct top_cpu *cpus;		/* this interval's, by CPU */
	uint32_t nr_cpus, cap_cpus;
	uint32_t *last_ran;		/* by CPU: the thread that ran last, or SCHED_IDLE/NONE */
	uint32_t cap_last_ran;
	struct top_irq_acc *irqs;	/* every handler seen */
	uint32_t nr_irqs, cap_irqs;
	struct u64_map irq_index[TOP_IRQ_KINDS];	/* by kind, id -> index + 1 */
	struct top_dsq_acc *dsq;	/* every DSQ seen; depth kept across intervals */
	uint32_t nr_dsq, cap_dsq;
	struct u64_map dsq_index;	/* (uid, id) -> index + 1 */
	struct top_scx scx;		/* this interval's transitions and counters */
	struct top_wait waits[TOP_WAITS];	/* this interval's worst, longest first */
	uint32_t nr_waits;
	uint64_t events, lost, lost_total;
	uint64_t index;
	struct top_interval out;	/* the last interval given */
	int error;
};

/* A client of @m (before model_start()); @own_tgid: this ktprof's threads, to mark. */
int top_stats_init(struct top_stats *ts, struct model *m, uint32_t own_tgid);
void top_stats_fini(struct top_stats *ts);

/*
 * The interval [@from, @to) ended, the model stepped and cut at @to: its
 * figures in *@out (top_stats' own, valid until the next call), threads
 * unsorted; the next interval starts empty. 0 or -ENOMEM.
 */
int top_stats_take(struct top_stats *ts, uint64_t from, uint64_t to,
		   struct top_interval **out);

/*
 * The scheduler's state as its source knows it (live: read at the
 * interval's end; a replay: the capture's, at the session's start), for
 * the next top_stats_take().
 */
void top_stats_set_scx(struct top_stats *ts, const struct sched_ext *now);

/* How the views order threads. */
enum top_sort { TOP_SORT_RUNTIME, TOP_SORT_WAKEUP, TOP_SORT_RUNQUEUE, TOP_SORT_SWITCHES,
		TOP_SORT_MIGRATIONS, TOP_SORT_PID, TOP_NR_SORTS };

/* Its name ("runtime", "wakeup", ...), and the sort of a name (-1: none). */
const char *top_sort_name(enum top_sort s);
int top_sort_of(const char *name);

/* Order @iv's threads by @s, largest first (pid: smallest first); ties by pid. */
void top_interval_sort(struct top_interval *iv, enum top_sort s);

/* Whether thread @th matches @filter: "" all, a number its pid or tgid, else a part of its name. */
int top_thread_matches(const struct top_thread *th, const char *filter);

#endif
