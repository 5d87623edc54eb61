// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler model behind `ktprof report`. Its rules (docs/report.md):
 *
 * - Each CPU is known (its running task is known), unknown (after lost or
 *   damaged records, until its next switch says who runs), offline, or
 *   without data (before its START/ONLINE mark, after its STOP mark or its
 *   last record). Only known time is ever counted.
 * - While any CPU is unknown, any thread could have run there unseen: a
 *   latency clock running then is not trusted, and a thread that is not
 *   running on a known CPU has an unknown state until its next event.
 * - The idle task is pid 0 on every CPU; it is never a thread.
 * - A pid's thread ends at sched_process_free; a FORK or a new TASK
 *   identity after that starts a new thread (pid reuse).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "model/sched.h"
#include "util/hash.h"
#include "util/array.h"
#include "util/text.h"

#define PID_DIRECT_MAX (1u << 22)	/* PID_MAX_LIMIT on 64-bit */

enum cpu_mode { CPU_NODATA, CPU_KNOWN, CPU_UNKNOWN, CPU_OFFLINE, CPU_STOPPED };

struct sched_cpu {
	uint8_t mode;		/* enum cpu_mode */
	uint8_t seen;		/* any record of this CPU */
	uint8_t awaited;	/* NODATA, but online and traced: unknown */
	uint32_t cur;		/* KNOWN: the running thread or SCHED_IDLE */
	uint64_t since;		/* KNOWN: cur's start; else the mode's start */
	uint64_t last_ts;	/* the CPU's last record */
	int64_t hardirq;	/* irq being handled, -1: none */
	uint64_t hardirq_ts;
	int64_t softirq;	/* softirq vector running, -1: none */
	uint64_t softirq_ts, softirq_inner;
	uint32_t waiting;	/* threads whose wait_cpu is this CPU */
};

/*
 * Each client @c that has hook @h (enum sched_hook), in the order added:
 * a call walks only those, where testing every client's ops for the hook
 * cost more than the calls themselves (a report has some twenty clients,
 * most with few hooks).
 */
#define EACH_HOOKED(s, h, c)							\
	for (const uint8_t *i_ = (s)->hooked[h];				\
	     i_ < (s)->hooked[h] + (s)->nr_hooked[h] && ((c) = &(s)->clients[*i_], 1); i_++)

static int cpu_selected(const struct sched *s, uint32_t cpu)
{
	return !s->cpu_selected || (cpu < s->nr_cpu_selected && s->cpu_selected[cpu]);
}

static void fail(struct sched *s, int err)
{
	if (err < 0 && !s->error)
		s->error = err;
}

/* --- Telling the clients --- */

static void emit_cpu_time(struct sched *s, uint32_t cpu, uint32_t t,
			  uint64_t from, uint64_t to)
{
	const struct sched_client *c;

	if (!cpu_selected(s, cpu) || !sched_clip(s, &from, &to))
		return;
	if (!s->first)
		s->first = from;
	EACH_HOOKED(s, SCHED_HOOK_CPU_TIME, c)
		c->ops->cpu_time(c->ctx, cpu, t, from, to);
}

static void emit_gap(struct sched *s, uint32_t cpu, enum sched_gap gap,
		     uint64_t from, uint64_t to)
{
	const struct sched_client *c;

	if (!cpu_selected(s, cpu) || !sched_clip(s, &from, &to))
		return;
	EACH_HOOKED(s, SCHED_HOOK_GAP, c)
		c->ops->gap(c->ctx, cpu, gap, from, to);
}

/* Thread @t waits in @cpu's runqueue from @ts (-1: nowhere). */
static void wait_at(struct sched *s, uint32_t t, int32_t cpu, uint64_t ts)
{
	struct sched_thread *th = &s->threads[t];
	const struct sched_client *c;
	int32_t from = th->wait_cpu;

	if (cpu >= (int64_t)s->nr_cpus)
		cpu = -1;
	if (from == cpu)
		return;
	if (from >= 0)
		s->cpus[from].waiting--;
	if (cpu >= 0)
		s->cpus[cpu].waiting++;
	th->wait_cpu = cpu;
	EACH_HOOKED(s, SCHED_HOOK_WAIT, c)
		c->ops->wait(c->ctx, t, from, cpu, ts);
}

/* Thread @t leaves its state at @ts for @state. */
static void set_state(struct sched *s, uint32_t t, enum sched_state state, uint64_t ts)
{
	struct sched_thread *th = &s->threads[t];
	const struct sched_client *c;
	uint64_t from = th->state_since, to = ts;

	if (from < to && th->state != SCHED_UNKNOWN && sched_clip(s, &from, &to)) {
		EACH_HOOKED(s, SCHED_HOOK_STATE_TIME, c)
			c->ops->state_time(c->ctx, t, th->state, from, to);
	}
	if (ts > th->state_since)
		th->state_since = ts;
	th->state = state;
	if (state == SCHED_DEAD)
		wait_at(s, t, -1, ts);
}

static void emit_latency(struct sched *s, enum sched_latency kind, uint32_t t,
			 uint32_t cpu, uint64_t start, uint64_t end)
{
	const struct sched_client *c;

	if (!sched_in_window(s, start) || !cpu_selected(s, cpu))
		return;
	EACH_HOOKED(s, SCHED_HOOK_LATENCY, c)
		fail(s, c->ops->latency(c->ctx, kind, t, cpu, start, end,
					&s->threads[t].waker));
}

/* A latency clock stops: counted, or excluded when a gap overlapped it. */
static void latency_done(struct sched *s, enum sched_latency kind, uint32_t t,
			 uint32_t cpu, uint64_t start, uint64_t end, int valid)
{
	if (!sched_in_window(s, start) || !cpu_selected(s, cpu))
		return;
	if (valid && !s->unknown_cpus)
		emit_latency(s, kind, t, cpu, start, end);
	else
		s->latency_excluded[kind]++;
}

/* --- Threads and processes --- */

uint32_t sched_lookup_pid(const struct sched *s, uint32_t pid)
{
	void *v;

	if (pid < s->by_pid_len)
		return s->by_pid[pid] ? s->by_pid[pid] - 1 : SCHED_NONE;
	if (pid < PID_DIRECT_MAX)
		return SCHED_NONE;
	v = u64_map_get(&s->big_pids, pid);
	return v ? (uint32_t)((uintptr_t)v - 1) : SCHED_NONE;
}

/* @pid names thread @t from now on (SCHED_NONE: no thread, as lookups then say). */
static int bind_pid(struct sched *s, uint32_t pid, uint32_t t)
{
	if (pid < PID_DIRECT_MAX) {
		if (pid >= s->by_pid_len) {
			uint32_t len = s->by_pid_len ? s->by_pid_len : 4096;
			uint32_t *n;

			while (len <= pid)
				len *= 2;
			n = realloc(s->by_pid, len * sizeof(*n));
			if (!n)
				return -ENOMEM;
			memset(n + s->by_pid_len, 0, (len - s->by_pid_len) * sizeof(*n));
			s->by_pid = n;
			s->by_pid_len = len;
		}
		s->by_pid[pid] = t + 1;
		return 0;
	}
	return u64_map_put(&s->big_pids, pid, (void *)(uintptr_t)(t + 1));
}

static uint32_t process_for(struct sched *s, uint32_t tgid, int new_generation)
{
	void *v = u64_map_get(&s->proc_by_tgid, tgid);
	struct sched_process *p;

	if (v && !new_generation)
		return (uint32_t)((uintptr_t)v - 1);
	if (array_reserve((void **)&s->procs, &s->cap_procs, s->nr_procs, sizeof(*s->procs), 256))
		return SCHED_NONE;
	p = &s->procs[s->nr_procs];
	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
	p->leader = SCHED_NONE;
	if (u64_map_put(&s->proc_by_tgid, tgid, (void *)(uintptr_t)(s->nr_procs + 1)))
		return SCHED_NONE;
	return s->nr_procs++;
}

/*
 * Whether @comm is @want: as bytes, or as JSON shows it (util/text.h), so
 * that a name a JSON reader saw selects what it names.
 */
static int comm_matches(const char *comm, const char *want)
{
	char shown[2 * KTP_COMM_LEN + 1];

	if (!strncmp(comm, want, KTP_COMM_LEN))
		return 1;
	text_utf8_fix(comm, strnlen(comm, KTP_COMM_LEN), shown);
	return !strcmp(shown, want);
}

/* The leader of process @pi is named @comm now. */
static void name_process(struct sched *s, uint32_t pi, const char *comm)
{
	struct sched_process *p = &s->procs[pi];

	memcpy(p->comm, comm, KTP_COMM_LEN);
	if (s->match_comm && comm_matches(comm, s->match_comm))
		p->comm_matched = 1;
}

/* Put thread @t in the process of @tgid; its leader starts a new one. */
static int join_process(struct sched *s, uint32_t t, uint32_t tgid, int born)
{
	struct sched_thread *th = &s->threads[t];
	struct sched_process *p;
	uint32_t pi;

	pi = process_for(s, tgid, born && th->pid == tgid);
	if (pi == SCHED_NONE)
		return -ENOMEM;
	th->tgid = tgid;
	th->process = pi;
	p = &s->procs[pi];
	if (th->pid == tgid) {
		p->leader = t;
		name_process(s, pi, th->comm);
	} else if (!p->comm[0]) {
		memcpy(p->comm, th->comm, KTP_COMM_LEN);
	}
	return 0;
}

static uint32_t new_thread(struct sched *s, uint32_t pid, uint64_t ts)
{
	const struct sched_client *c;
	struct sched_thread *th;
	uint32_t t;

	if (array_reserve((void **)&s->threads, &s->cap_threads, s->nr_threads, sizeof(*s->threads), 1024))
		return SCHED_NONE;
	t = s->nr_threads;
	th = &s->threads[t];
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->tgid = pid;
	th->cpu = -1;
	th->wait_cpu = -1;
	th->state = SCHED_UNKNOWN;
	th->state_since = ts;
	/* Its process is known from its TASK or FORK record, else at the end. */
	th->process = SCHED_NONE;
	if (bind_pid(s, pid, t))
		return SCHED_NONE;
	s->nr_threads++;
	EACH_HOOKED(s, SCHED_HOOK_THREAD_NEW, c)
		if (c->ops->thread_new(c->ctx, t))
			return SCHED_NONE;
	return t;
}

/* The thread of @pid now, made if new. SCHED_IDLE for pid 0. */
static uint32_t thread_of(struct sched *s, uint32_t pid, uint64_t ts)
{
	uint32_t t;

	if (!pid)
		return SCHED_IDLE;
	t = sched_lookup_pid(s, pid);
	if (t == SCHED_NONE || s->threads[t].freed)
		t = new_thread(s, pid, ts);
	if (t == SCHED_NONE)
		fail(s, -ENOMEM);
	else
		s->threads[t].fresh = 0;
	return t;
}

/*
 * The thread a describing record (AFFINITY, CGROUP) names: the live one of
 * @pid, made if there is none. Unlike thread_of() it leaves a birth open:
 * the records of one fork (TASK, CGROUP, FORK) make one thread.
 */
static uint32_t thread_described(struct sched *s, uint32_t pid, uint64_t ts)
{
	uint32_t t = pid ? sched_lookup_pid(s, pid) : SCHED_IDLE;

	if (t == SCHED_NONE || (t != SCHED_IDLE && s->threads[t].freed))
		t = thread_of(s, pid, ts);
	return t;
}

/* A new task with @pid is born at @ts (fork, or a TASK record saying so). */
static uint32_t birth(struct sched *s, uint32_t pid, uint64_t ts)
{
	uint32_t t = sched_lookup_pid(s, pid);

	if (!pid)
		return SCHED_IDLE;
	/* The FORK and TASK records of one birth: one thread. */
	if (t != SCHED_NONE && s->threads[t].fresh)
		return t;
	if (t != SCHED_NONE && s->threads[t].state != SCHED_DEAD &&
	    s->threads[t].state != SCHED_UNKNOWN)
		set_state(s, t, SCHED_DEAD, ts);
	t = new_thread(s, pid, ts);
	if (t == SCHED_NONE) {
		fail(s, -ENOMEM);
		return t;
	}
	s->threads[t].fresh = 1;
	/* Forked, not yet woken (sched_wakeup_new comes next). */
	set_state(s, t, SCHED_OTHER, ts);
	return t;
}

/* --- CPUs --- */

static int grow_cpus(struct sched *s, uint32_t cpu)
{
	struct sched_cpu *n;
	uint32_t i, len = s->nr_cpus ? s->nr_cpus : 1;

	if (cpu >= 65536)
		return -ERANGE;
	while (len <= cpu)
		len *= 2;
	n = realloc(s->cpus, len * sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (i = s->nr_cpus; i < len; i++) {
		memset(&n[i], 0, sizeof(n[i]));
		n[i].mode = CPU_NODATA;
		n[i].since = s->session_start;
		n[i].hardirq = n[i].softirq = -1;
	}
	s->cpus = n;
	s->nr_cpus = len;
	return 0;
}

/* End what runs on @cpu at @ts: its slice and its running state. */
static void close_running(struct sched *s, uint32_t cpu, uint64_t ts, enum sched_state after)
{
	struct sched_cpu *c = &s->cpus[cpu];

	if (c->mode != CPU_KNOWN)
		return;
	emit_cpu_time(s, cpu, c->cur, c->since, ts);
	c->since = ts;
	if (c->cur != SCHED_IDLE && c->cur < s->nr_threads &&
	    s->threads[c->cur].cpu == (int32_t)cpu) {
		set_state(s, c->cur, after, ts);
		s->threads[c->cur].cpu = -1;
	}
}

static void cpu_unknown(struct sched *s, uint32_t cpu, uint64_t ts);

/* The kind of unknown time a CPU not known (@mode) is in. */
static enum sched_gap gap_of(uint8_t mode)
{
	switch (mode) {
	case CPU_UNKNOWN:
		return SCHED_GAP_LOSS;
	case CPU_OFFLINE:
		return SCHED_GAP_OFFLINE;
	default:
		return SCHED_GAP_NODATA;	/* no data yet, or stopped */
	}
}

/* A latency clock of @t starts at @ts with the thread queued on @cpu (-1: unknown). */
static void queue_enter(struct sched *s, uint32_t t, int32_t cpu, uint64_t ts)
{
	struct sched_thread *th = &s->threads[t];

	wait_at(s, t, cpu, ts);
	th->q_cpu = th->q_best = cpu;
	th->q_since = ts;
	th->q_best_ns = 0;
}

/*
 * @th leaves its runqueue at @ts for @cpu's (a migration, or its switch-in):
 * the wait is charged to the queue it waited in longest, the later on a
 * tie, so a pull at the instant of the switch-in is charged to the queue
 * it was pulled from, and a wakeup's placement (sched_waking names the
 * CPU the task last ran on; select_task_rq() may move it at once) to the
 * queue it was placed on.
 */
static void queue_move(struct sched_thread *th, int32_t cpu, uint64_t ts)
{
	uint64_t len = ts - th->q_since;

	if (th->q_cpu >= 0 && (len >= th->q_best_ns || th->q_best < 0)) {
		th->q_best = th->q_cpu;
		th->q_best_ns = len;
	}
	th->q_cpu = cpu;
	th->q_since = ts;
}

/* The CPU a latency of @th ending by its switch-in on @cpu at @ts is charged to. */
static uint32_t queue_charged(struct sched_thread *th, uint32_t cpu, uint64_t ts)
{
	queue_move(th, th->q_cpu, ts);
	return th->q_best >= 0 ? (uint32_t)th->q_best : cpu;
}

/* @cpu starts running @t at @ts. */
static void start_running(struct sched *s, uint32_t cpu, uint32_t t, uint64_t ts)
{
	struct sched_cpu *c = &s->cpus[cpu];
	struct sched_thread *th;

	c->mode = CPU_KNOWN;
	c->cur = t;
	c->since = ts;
	if (t == SCHED_IDLE || t >= s->nr_threads)
		return;
	th = &s->threads[t];
	if (th->cpu >= 0 && th->cpu != (int32_t)cpu) {
		/*
		 * Running on two CPUs at once: the records contradict (damage,
		 * or clocks out of step). The other CPU's state is unknown
		 * until its next switch.
		 */
		s->inconsistent++;
		if (s->cpus[th->cpu].mode == CPU_KNOWN && s->cpus[th->cpu].cur == t)
			cpu_unknown(s, th->cpu, ts);
		th->cpu = -1;
	}
	if (th->wake_pending)
		latency_done(s, SCHED_WAKEUP, t, queue_charged(th, cpu, ts), th->wake_ts, ts,
			     th->wake_valid);
	if (th->rq_pending)
		latency_done(s, SCHED_RUNQUEUE, t, queue_charged(th, cpu, ts), th->rq_ts, ts,
			     th->rq_valid);
	/* A late waking is confirmed: it waited for a CPU since its switch-out. */
	if (th->wake_late && (th->state == SCHED_SLEEPING || th->state == SCHED_BLOCKED))
		th->state = SCHED_RUNNABLE;
	th->wake_pending = th->rq_pending = th->wake_late = 0;
	wait_at(s, t, -1, ts);
	set_state(s, t, SCHED_RUNNING, ts);
	th->cpu = cpu;
}

/* Every thread not running on a known CPU: its state is unknown from @ts. */
static void distrust_threads(struct sched *s, uint64_t ts)
{
	uint32_t t;

	for (t = 0; t < s->nr_threads; t++) {
		struct sched_thread *th = &s->threads[t];

		th->wake_valid = th->rq_valid = 0;
		if (th->cpu >= 0 || th->state == SCHED_DEAD || th->state == SCHED_UNKNOWN)
			continue;
		set_state(s, t, SCHED_UNKNOWN, ts);
	}
}

/* The length of [from, to) inside the window. */
static uint64_t clipped(const struct sched *s, uint64_t from, uint64_t to)
{
	return sched_clip(s, &from, &to) ? to - from : 0;
}

/*
 * An IRQ, softirq or work item [start, end) on @cpu, of which @inner ns
 * inside the window were nested hardirqs. Its own time is what lies inside
 * the window, from @told on (what a cut told already is before it: see
 * sched_cut()); it is counted (a duration) only if it started there and
 * @whole: its exit was seen, not the end of the CPU's data.
 */
static void emit_irq(struct sched *s, uint32_t cpu, enum sched_irq_kind kind, uint64_t id,
		     uint64_t start, uint64_t told, uint64_t end, uint64_t inner, int whole)
{
	uint64_t in = clipped(s, start > told ? start : told, end);
	struct sched_irq irq = {
		.kind = kind, .id = id, .start = start, .end = end,
		.self = in - (inner < in ? inner : in),
		.counted = whole && sched_in_window(s, start),
	};
	const struct sched_client *c;

	if ((!in && !irq.counted) || !cpu_selected(s, cpu))
		return;
	EACH_HOOKED(s, SCHED_HOOK_IRQ, c)
		fail(s, c->ops->irq(c->ctx, cpu, &irq));
}

/*
 * The hardirq open on @cpu, told up to @ts (from the last cut on); @whole:
 * @ts is its exit. The part inside a softirq is not the softirq's own.
 */
static void tell_hardirq(struct sched *s, uint32_t cpu, uint64_t ts, int whole)
{
	struct sched_cpu *c = &s->cpus[cpu];

	emit_irq(s, cpu, SCHED_HARDIRQ, (uint64_t)c->hardirq, c->hardirq_ts, s->cut, ts, 0, whole);
	if (c->softirq >= 0)
		c->softirq_inner += clipped(s, c->hardirq_ts > s->cut ? c->hardirq_ts : s->cut, ts);
}

/* The softirq open on @cpu, told up to @ts (from the last cut on). */
static void tell_softirq(struct sched *s, uint32_t cpu, uint64_t ts, int whole)
{
	struct sched_cpu *c = &s->cpus[cpu];

	emit_irq(s, cpu, SCHED_SOFTIRQ, (uint64_t)c->softirq, c->softirq_ts, s->cut, ts,
		 c->softirq_inner, whole);
}

/* The hardirq open on @cpu ends at @ts; @whole: at its exit. */
static void end_hardirq(struct sched *s, uint32_t cpu, uint64_t ts, int whole)
{
	tell_hardirq(s, cpu, ts, whole);
	s->cpus[cpu].hardirq = -1;
}

static void end_softirq(struct sched *s, uint32_t cpu, uint64_t ts, int whole)
{
	tell_softirq(s, cpu, ts, whole);
	s->cpus[cpu].softirq = -1;
}

/*
 * @cpu's data ends at @ts (a gap, a stop, the end of the capture) inside
 * a hardirq or softirq: the part seen is its time, but not a duration.
 */
static void cut_irqs(struct sched *s, uint32_t cpu, uint64_t ts)
{
	struct sched_cpu *c = &s->cpus[cpu];

	if (c->hardirq >= 0)
		end_hardirq(s, cpu, ts, 0);
	if (c->softirq >= 0)
		end_softirq(s, cpu, ts, 0);
}

/* @cpu's state is unknown from @ts (a loss or damage): until its next switch. */
static void cpu_unknown(struct sched *s, uint32_t cpu, uint64_t ts)
{
	struct sched_cpu *c = &s->cpus[cpu];

	if (c->mode == CPU_UNKNOWN)
		return;
	if (ts < c->since)
		ts = c->since;
	if (c->mode == CPU_KNOWN)
		close_running(s, cpu, ts, SCHED_UNKNOWN);
	else if (c->mode == CPU_NODATA || c->mode == CPU_OFFLINE)
		emit_gap(s, cpu, gap_of(c->mode), c->since, ts);
	cut_irqs(s, cpu, ts);
	c->mode = CPU_UNKNOWN;
	c->since = ts;
	s->unknown_cpus++;
	distrust_threads(s, ts);
}

/* Leave the unknown, offline or no-data mode at @ts. */
static void end_gap(struct sched *s, uint32_t cpu, uint64_t ts)
{
	struct sched_cpu *c = &s->cpus[cpu];

	switch (c->mode) {
	case CPU_UNKNOWN:
		emit_gap(s, cpu, SCHED_GAP_LOSS, c->since, ts);
		s->unknown_cpus--;
		break;
	case CPU_OFFLINE:
		emit_gap(s, cpu, SCHED_GAP_OFFLINE, c->since, ts);
		break;
	case CPU_NODATA:
		if (c->awaited) {
			c->awaited = 0;
			s->unknown_cpus--;
		}
		/* fall through */
	case CPU_STOPPED:
		emit_gap(s, cpu, SCHED_GAP_NODATA, c->since, ts);
		break;
	}
}

void sched_await_cpu(struct sched *s, uint32_t cpu)
{
	struct sched_cpu *c;

	if (cpu >= s->nr_cpus && grow_cpus(s, cpu)) {
		fail(s, -ENOMEM);
		return;
	}
	c = &s->cpus[cpu];
	if (c->mode != CPU_NODATA || c->awaited)
		return;
	c->awaited = 1;
	s->unknown_cpus++;
}

void sched_gap_ahead(void *sched, const struct event *ev)
{
	struct sched *s = sched;
	uint64_t since = ev->since ? ev->since : s->session_start;

	if (ev->cpu >= s->nr_cpus && grow_cpus(s, ev->cpu)) {
		fail(s, -ENOMEM);
		return;
	}
	if (s->cpus[ev->cpu].mode == CPU_STOPPED)
		return;
	cpu_unknown(s, ev->cpu, since);
}

uint32_t sched_cpu_pid(const struct sched *s, uint32_t cpu)
{
	const struct sched_cpu *c = cpu < s->nr_cpus ? &s->cpus[cpu] : NULL;

	if (!c || c->mode != CPU_KNOWN)
		return SCHED_PID_UNKNOWN;
	return c->cur == SCHED_IDLE ? 0 : s->threads[c->cur].pid;
}

uint32_t sched_process_of(const struct sched *s, uint32_t tgid)
{
	void *v = u64_map_get(&s->proc_by_tgid, tgid);

	return v ? (uint32_t)((uintptr_t)v - 1) : SCHED_NONE;
}

/* --- Records --- */

enum sched_state sched_state_of(uint16_t prev_state)
{
	if (!(prev_state & 0xff))
		return SCHED_RUNNABLE;	/* R, R+ (preempted) */
	if (prev_state & KTP_STATE_INTERRUPTIBLE)
		return SCHED_SLEEPING;
	if (prev_state & KTP_STATE_UNINTERRUPTIBLE)
		return SCHED_BLOCKED;
	if (prev_state & (KTP_STATE_EXIT_DEAD | KTP_STATE_EXIT_ZOMBIE))
		return SCHED_DEAD;
	return SCHED_OTHER;
}

static void on_cpu_mark(struct sched *s, const struct event *ev)
{
	struct sched_cpu *c = &s->cpus[ev->cpu];
	struct ktp_cpu_mark m;
	uint32_t t;

	memcpy(&m, ev->rec, sizeof(m));
	switch (m.reason) {
	case KTP_CPU_START:
	case KTP_CPU_ONLINE:
		if (c->mode == CPU_KNOWN)
			close_running(s, ev->cpu, ev->ts, SCHED_UNKNOWN);
		else
			end_gap(s, ev->cpu, ev->ts);
		t = thread_of(s, m.pid, ev->ts);
		if (t != SCHED_NONE)
			start_running(s, ev->cpu, t, ev->ts);
		break;
	case KTP_CPU_STOP:
	case KTP_CPU_OFFLINE:
		cut_irqs(s, ev->cpu, ev->ts);
		if (c->mode == CPU_KNOWN)
			close_running(s, ev->cpu, ev->ts, SCHED_UNKNOWN);
		else
			end_gap(s, ev->cpu, ev->ts);
		c->mode = m.reason == KTP_CPU_STOP ? CPU_STOPPED : CPU_OFFLINE;
		if (m.reason == KTP_CPU_STOP && ev->ts > s->stopped)
			s->stopped = ev->ts;
		c->since = ev->ts;
		break;
	}
}

static void on_switch(struct sched *s, const struct event *ev)
{
	struct sched_cpu *c = &s->cpus[ev->cpu];
	uint32_t prev = SCHED_NONE, next;
	const struct sched_client *cl;
	enum sched_state after;
	struct ktp_switch r;

	memcpy(&r, ev->rec, sizeof(r));
	after = sched_state_of(r.prev_state);
	if (c->mode == CPU_KNOWN) {
		prev = c->cur;
		if ((prev == SCHED_IDLE) != !r.prev_pid ||
		    (prev != SCHED_IDLE && s->threads[prev].pid != r.prev_pid)) {
			/*
			 * Another task switched out than the one that came in:
			 * who ran since the last switch is unknown.
			 */
			s->inconsistent++;
			cpu_unknown(s, ev->cpu, c->since);
			end_gap(s, ev->cpu, ev->ts);
			prev = thread_of(s, r.prev_pid, ev->ts);
		} else {
			close_running(s, ev->cpu, ev->ts, after);
		}
	} else {
		end_gap(s, ev->cpu, ev->ts);
		prev = thread_of(s, r.prev_pid, ev->ts);
	}
	if (prev == SCHED_NONE)
		return;
	if (prev != SCHED_IDLE) {
		struct sched_thread *th = &s->threads[prev];

		/* It ran unseen (its switch-in was lost): its clocks stopped then. */
		if (th->wake_pending)
			latency_done(s, SCHED_WAKEUP, prev, ev->cpu, th->wake_ts, ev->ts, 0);
		if (th->rq_pending)
			latency_done(s, SCHED_RUNQUEUE, prev, ev->cpu, th->rq_ts, ev->ts, 0);
		th->wake_pending = th->rq_pending = th->wake_late = 0;
		wait_at(s, prev, -1, ev->ts);
		if (th->cpu == (int32_t)ev->cpu)
			th->cpu = -1;
		if (th->cpu < 0)
			set_state(s, prev, after, ev->ts);
		if (after == SCHED_RUNNABLE) {
			th->rq_pending = 1;
			th->rq_valid = !s->unknown_cpus;
			th->rq_ts = ev->ts;
			queue_enter(s, prev, ev->cpu, ev->ts);
		} else if (th->woke_running &&
			   (after == SCHED_SLEEPING || after == SCHED_BLOCKED)) {
			/*
			 * try_to_wake_up() traces sched_waking before it waits
			 * for a dequeued task to leave its CPU: a waking stamped
			 * while the thread still ran may be for this very sleep.
			 * It was if the thread runs again with no other waking
			 * (a waking while it ran but before it slept would have
			 * kept it runnable); until then it sleeps.
			 */
			th->wake_pending = th->wake_late = 1;
			th->wake_valid = !s->unknown_cpus;
			th->wake_new = 0;
			th->wake_ts = ev->ts;
			queue_enter(s, prev,
				    th->wake_target < s->nr_cpus ? th->wake_target : -1, ev->ts);
		}
		th->woke_running = 0;
	}
	next = thread_of(s, r.next_pid, ev->ts);
	if (next == SCHED_NONE)
		return;
	if (sched_in_window(s, ev->ts) && cpu_selected(s, ev->cpu)) {
		EACH_HOOKED(s, SCHED_HOOK_SWITCH_OUT, cl)
			cl->ops->switch_out(cl->ctx, ev->cpu, ev->ts, prev, next,
					    after == SCHED_RUNNABLE);
	}
	start_running(s, ev->cpu, next, ev->ts);
}

/* Who is waking on @cpu now: an IRQ, a softirq, or the running task. */
static struct sched_waker waker_on(const struct sched *s, uint32_t cpu)
{
	const struct sched_cpu *c = &s->cpus[cpu];

	if (c->hardirq >= 0)
		return (struct sched_waker){ SCHED_WAKER_HARDIRQ, (uint32_t)c->hardirq };
	if (c->softirq >= 0)
		return (struct sched_waker){ SCHED_WAKER_SOFTIRQ, (uint32_t)c->softirq };
	if (c->mode != CPU_KNOWN)
		return (struct sched_waker){ SCHED_WAKER_UNKNOWN, 0 };
	if (c->cur == SCHED_IDLE)
		return (struct sched_waker){ SCHED_WAKER_IDLE, cpu };
	return (struct sched_waker){ SCHED_WAKER_THREAD, c->cur };
}

static void on_waking(struct sched *s, const struct event *ev)
{
	struct sched_waker waker = waker_on(s, ev->cpu);
	int new = ev->flags & KTP_WAKING_NEW, running;
	const struct sched_client *c;
	struct sched_thread *th;
	struct ktp_waking r;
	uint32_t t;

	memcpy(&r, ev->rec, sizeof(r));
	t = thread_of(s, r.pid, ev->ts);
	if (t == SCHED_NONE || t == SCHED_IDLE)
		return;
	th = &s->threads[t];
	running = th->cpu >= 0;
	if (sched_in_window(s, ev->ts)) {
		EACH_HOOKED(s, SCHED_HOOK_WAKING, c)
			fail(s, c->ops->waking(c->ctx, ev->cpu, ev->ts, t, &waker,
					       running, new));
	}
	/* A running task has no latency (but see on_switch()). */
	if (running) {
		th->woke_running = 1;
		th->waker = waker;
		th->wake_target = r.target_cpu;
		return;
	}
	/* A late waking was not for this sleep: this one is. */
	if (th->wake_late)
		th->wake_pending = th->wake_late = 0;
	/* A second waking keeps the clock. */
	if (th->wake_pending || th->rq_pending)
		return;
	th->wake_pending = 1;
	th->wake_valid = !s->unknown_cpus;
	th->wake_new = !!new;
	th->wake_ts = ev->ts;
	th->waker = waker;
	queue_enter(s, t, r.target_cpu < s->nr_cpus ? r.target_cpu : -1, ev->ts);
	if (!s->unknown_cpus)
		set_state(s, t, SCHED_RUNNABLE, ev->ts);
}

/*
 * Thread @t exec'd from outside its group's leader: de_thread() gave it the
 * leader's @pid (and the old leader, dead, its old pid, under which it is
 * then freed). The thread stays one thread, now its process's leader.
 */
static void take_over_pid(struct sched *s, uint32_t t, uint32_t pid)
{
	struct sched_thread *th = &s->threads[t];
	uint32_t lead = sched_lookup_pid(s, pid);

	if (th->pid == pid)
		return;
	if (lead != SCHED_NONE && lead != t)
		fail(s, bind_pid(s, th->pid, lead));
	else
		fail(s, bind_pid(s, th->pid, SCHED_NONE));
	fail(s, bind_pid(s, pid, t));
	th->pid = pid;
	if (th->tgid == pid && th->process != SCHED_NONE) {
		s->procs[th->process].leader = t;
		name_process(s, th->process, th->comm);
	}
}

/*
 * The thread an exec's TASK record describes: the one running here, if it
 * is in the record's thread group under another pid (exec from a
 * non-leader); else the record's pid's.
 */
static uint32_t exec_thread(struct sched *s, const struct event *ev, const struct ktp_task *r)
{
	const struct sched_cpu *c = &s->cpus[ev->cpu];
	uint32_t t = c->mode == CPU_KNOWN ? c->cur : SCHED_IDLE;

	if (t != SCHED_IDLE && s->threads[t].tgid == r->tgid && s->threads[t].pid != r->pid) {
		take_over_pid(s, t, r->pid);
		return t;
	}
	return thread_of(s, r->pid, ev->ts);
}

static void on_exec(struct sched *s, const struct event *ev)
{
	struct ktp_exec r;
	uint32_t t;

	memcpy(&r, ev->rec, sizeof(r));
	if (!r.pid || r.pid == r.old_pid)
		return;
	/* Where the CPU's state was unknown, the TASK record could not tell. */
	t = sched_lookup_pid(s, r.old_pid);
	if (t != SCHED_NONE && !s->threads[t].freed)
		take_over_pid(s, t, r.pid);
}

static void on_task(struct sched *s, const struct event *ev)
{
	struct sched_thread *th;
	struct ktp_task r;
	uint32_t t;

	memcpy(&r, ev->rec, sizeof(r));
	if (!r.pid)
		return;
	if (r.flags & KTP_TASK_FORK)
		t = birth(s, r.pid, ev->ts);
	else if (r.flags & KTP_TASK_EXEC)
		t = exec_thread(s, ev, &r);
	else
		t = thread_of(s, r.pid, ev->ts);
	if (t == SCHED_NONE)
		return;
	th = &s->threads[t];
	memcpy(th->comm, r.comm, KTP_COMM_LEN);
	th->comm[KTP_COMM_LEN - 1] = '\0';
	th->kthread = !!(r.flags & KTP_TASK_KTHREAD);
	if (!th->tgid_known || th->tgid != r.tgid) {
		th->tgid_known = 1;
		fail(s, join_process(s, t, r.tgid, !!(r.flags & KTP_TASK_FORK)));
	} else if (th->pid == th->tgid) {
		name_process(s, th->process, th->comm);
	}
	if (r.flags & KTP_TASK_FORK)
		th->fresh = 1;
	/* The start snapshot's state, unless a START mark said it runs. */
	if ((r.flags & KTP_TASK_SNAPSHOT) && th->state == SCHED_UNKNOWN && th->cpu < 0)
		set_state(s, t, sched_state_of(r.state), ev->ts);
}

static void on_fork(struct sched *s, const struct event *ev)
{
	uint32_t parent, child;
	struct ktp_fork r;

	memcpy(&r, ev->rec, sizeof(r));
	parent = sched_lookup_pid(s, r.parent_pid);
	child = birth(s, r.child_pid, ev->ts);
	if (child == SCHED_NONE || child == SCHED_IDLE)
		return;
	/* Named after its parent until its own TASK record says otherwise. */
	if (!s->threads[child].comm[0] && parent != SCHED_NONE)
		memcpy(s->threads[child].comm, s->threads[parent].comm, KTP_COMM_LEN);
	/*
	 * And in its parent's cgroup, until a record says otherwise (its own
	 * comes with its identity, unless dropped). Not with its parent's
	 * mask: a mask is written at the task's first sight when it is not
	 * "all", and a child may have been given another before it.
	 */
	if (parent != SCHED_NONE && parent != SCHED_IDLE && !s->threads[child].cgroup)
		s->threads[child].cgroup = s->threads[parent].cgroup;
	if (!s->threads[child].tgid_known) {
		s->threads[child].tgid_known = 1;
		fail(s, join_process(s, child, r.child_tgid, 1));
	}
}

static void on_free(struct sched *s, const struct event *ev)
{
	struct ktp_free r;
	uint32_t t;

	memcpy(&r, ev->rec, sizeof(r));
	t = sched_lookup_pid(s, r.pid);
	if (t == SCHED_NONE || t == SCHED_IDLE)
		return;
	if (s->threads[t].cpu < 0 && s->threads[t].state != SCHED_DEAD)
		set_state(s, t, SCHED_DEAD, ev->ts);
	s->threads[t].freed = 1;
}

static void on_irq(struct sched *s, const struct event *ev)
{
	struct sched_cpu *c = &s->cpus[ev->cpu];

	if (ev->type == KTP_REC_IRQ_ENTRY || ev->type == KTP_REC_IRQ_EXIT) {
		struct ktp_irq r;

		memcpy(&r, ev->rec, sizeof(r));
		if (ev->type == KTP_REC_IRQ_ENTRY) {
			c->hardirq = r.irq;
			c->hardirq_ts = ev->ts;
		} else if (c->hardirq == (int64_t)r.irq) {
			/* (Else entered before the session or a gap.) */
			end_hardirq(s, ev->cpu, ev->ts, 1);
		}
	} else {
		struct ktp_softirq r;

		memcpy(&r, ev->rec, sizeof(r));
		if (ev->type == KTP_REC_SOFTIRQ_ENTRY) {
			c->softirq = r.vec;
			c->softirq_ts = ev->ts;
			c->softirq_inner = 0;
		} else if (c->softirq == (int64_t)r.vec) {
			end_softirq(s, ev->cpu, ev->ts, 1);
		}
	}
}

/* Work items belong to the worker thread: it may sleep and move meanwhile. */
static void on_work(struct sched *s, const struct event *ev)
{
	struct sched_cpu *c = &s->cpus[ev->cpu];
	struct sched_thread *th;
	struct ktp_wq r;

	if (c->mode != CPU_KNOWN || c->cur == SCHED_IDLE)
		return;
	memcpy(&r, ev->rec, sizeof(r));
	th = &s->threads[c->cur];
	if (ev->type == KTP_REC_WQ_START) {
		th->work_ts = ev->ts;
		th->work_fn = r.function;
		th->work_told = 0;
		return;
	}
	if (th->work_ts && th->work_fn == r.function)
		emit_irq(s, ev->cpu, SCHED_WORK, r.function, th->work_ts, th->work_told, ev->ts, 0, 1);
	th->work_ts = 0;
}

static void on_migrate(struct sched *s, const struct event *ev)
{
	const struct sched_client *c;
	struct ktp_migrate r;
	uint32_t t;

	memcpy(&r, ev->rec, sizeof(r));
	/*
	 * A CPU the session did not have (it knows all from the start) is
	 * damage: per-CPU tables would grow to 65536 CPUs for it.
	 */
	if (r.orig_cpu >= s->nr_cpus || r.dest_cpu >= s->nr_cpus)
		return;
	t = sched_lookup_pid(s, r.pid);
	if (t != SCHED_NONE && (s->threads[t].wake_pending || s->threads[t].rq_pending)) {
		queue_move(&s->threads[t], r.dest_cpu, ev->ts);
		wait_at(s, t, r.dest_cpu, ev->ts);
	}
	if (!sched_in_window(s, ev->ts))
		return;
	t = thread_of(s, r.pid, ev->ts);
	if (t == SCHED_NONE || t == SCHED_IDLE)
		return;
	EACH_HOOKED(s, SCHED_HOOK_MIGRATE, c)
		fail(s, c->ops->migrate(c->ctx, t, r.orig_cpu, r.dest_cpu, ev->ts));
}

/* --- Allowed CPUs --- */

static uint64_t mask_hash(const uint64_t *w, uint32_t words)
{
	return hash_fnv1a(w, words * sizeof(*w), HASH_FNV1A_SEED);
}

/* The index of mask @w (@words words, @nr_allowed set), interned; 0 on failure. */
static uint32_t mask_intern(struct sched *s, const uint64_t *w, uint32_t words,
			    uint32_t nr_allowed)
{
	uint64_t h = mask_hash(w, words);
	struct sched_mask *m;
	uintptr_t v;

	if (!s->nr_masks)
		s->nr_masks = 1;	/* index 0: all */
	/* Probe on from the hash while another mask holds it. */
	while ((v = (uintptr_t)u64_map_get(&s->mask_by_hash, h))) {
		m = &s->masks[v - 1];
		if (m->words == words && !memcmp(s->mask_pool + m->off, w, words * sizeof(*w)))
			return (uint32_t)(v - 1);
		h++;
	}
	if (array_reserve((void **)&s->masks, &s->cap_masks, s->nr_masks, sizeof(*s->masks), 16) ||
	    array_reserve((void **)&s->mask_pool, &s->pool_cap, s->pool_len + words - 1,
			  sizeof(*s->mask_pool), 64) ||
	    u64_map_put(&s->mask_by_hash, h, (void *)(uintptr_t)(s->nr_masks + 1))) {
		fail(s, -ENOMEM);
		return 0;
	}
	m = &s->masks[s->nr_masks];
	m->off = s->pool_len;
	m->words = words;
	m->nr_allowed = nr_allowed;
	memcpy(s->mask_pool + m->off, w, words * sizeof(*w));
	s->pool_len += words;
	return s->nr_masks++;
}

int sched_mask_has(const struct sched *s, uint32_t m, uint32_t cpu)
{
	const struct sched_mask *e;

	if (!m || m >= s->nr_masks)
		return 1;
	e = &s->masks[m];
	return cpu / 64 < e->words && (s->mask_pool[e->off + cpu / 64] >> (cpu % 64)) & 1;
}

int sched_allowed(const struct sched *s, uint32_t t, uint32_t cpu)
{
	return sched_mask_has(s, s->threads[t].mask, cpu);
}

int sched_cpu_depth(const struct sched *s, uint32_t cpu)
{
	const struct sched_cpu *c;

	if (cpu >= s->nr_cpus)
		return -1;
	c = &s->cpus[cpu];
	if (c->mode != CPU_KNOWN)
		return -1;
	return (int)c->waiting + (c->cur != SCHED_IDLE);
}

static void on_affinity(struct sched *s, const struct event *ev)
{
	uint64_t w[SCHED_MASK_MAX_BITS / 64] = { 0 };
	const struct sched_client *c;
	struct ktp_affinity r;
	uint32_t t, cpu, words, m = 0;

	memcpy(&r, ev->rec, sizeof(r));
	t = thread_described(s, r.pid, ev->ts);
	if (t == SCHED_NONE || t == SCHED_IDLE)
		return;
	s->affinity_records++;
	if (r.nr_allowed < r.nr_bits) {
		/* Bits past the table's (SCHED_MASK_MAX_BITS) are not kept. */
		words = (r.nr_bits < SCHED_MASK_MAX_BITS ? r.nr_bits : SCHED_MASK_MAX_BITS) + 63;
		words /= 64;
		for (cpu = 0; cpu < words * 64; cpu++)
			if (record_affinity_has(ev, cpu))
				w[cpu / 64] |= 1ull << (cpu % 64);
		m = mask_intern(s, w, words, r.nr_allowed);
	}
	if (s->threads[t].mask == m)
		return;
	s->threads[t].mask = m;
	EACH_HOOKED(s, SCHED_HOOK_AFFINITY, c)
		c->ops->affinity(c->ctx, t, ev->ts);
}

/*
 * A thread's cgroup (@t's own, or its whole thread group's). On a move
 * (@move: an attach record), or a change from a cgroup known before, a
 * running thread's time so far goes to its old cgroup: its CPU time is cut
 * here. A first identity record of a thread already running only says
 * where it has been all along (the module writes a running task's identity
 * after it sees it run): nothing is cut.
 */
static void set_cgroup(struct sched *s, uint32_t t, uint64_t id, uint64_t ts, int move)
{
	struct sched_thread *th = &s->threads[t];
	struct sched_cpu *c;

	if (th->cgroup == id)
		return;
	if ((move || th->cgroup) && th->cpu >= 0 && (uint32_t)th->cpu < s->nr_cpus) {
		c = &s->cpus[th->cpu];
		if (c->mode == CPU_KNOWN && c->cur == t && ts > c->since) {
			emit_cpu_time(s, th->cpu, t, c->since, ts);
			c->since = ts;
		}
	}
	th->cgroup = id;
}

static void on_cgroup(struct sched *s, const struct event *ev)
{
	struct ktp_cgroup r;
	uint32_t t, u, tgid;
	int move;

	memcpy(&r, ev->rec, sizeof(r));
	t = thread_described(s, r.pid, ev->ts);
	if (t == SCHED_NONE || t == SCHED_IDLE)
		return;
	move = !!(ev->flags & KTP_CGROUP_ATTACH);
	if (!(ev->flags & KTP_CGROUP_THREADGROUP)) {
		set_cgroup(s, t, r.id, ev->ts, move);
		return;
	}
	/* Rare (a write to cgroup.procs): every live thread of the group. */
	tgid = s->threads[t].tgid;
	for (u = 0; u < s->nr_threads; u++)
		if (s->threads[u].tgid == tgid && !s->threads[u].freed &&
		    s->threads[u].state != SCHED_DEAD)
			set_cgroup(s, u, r.id, ev->ts, move);
}

int sched_event(struct sched *s, const struct event *ev)
{
	struct sched_cpu *cpu;

	if (ev->cpu >= s->nr_cpus && grow_cpus(s, ev->cpu))
		return -ENOMEM;
	cpu = &s->cpus[ev->cpu];
	cpu->seen = 1;
	switch (ev->type) {
	case KTP_REC_CPU:
		on_cpu_mark(s, ev);
		break;
	case KTP_REC_SWITCH:
		on_switch(s, ev);
		break;
	case KTP_REC_WAKING:
		on_waking(s, ev);
		break;
	case KTP_REC_TASK:
		on_task(s, ev);
		break;
	case KTP_REC_FORK:
		on_fork(s, ev);
		break;
	case KTP_REC_EXEC:
		on_exec(s, ev);
		break;
	case KTP_REC_FREE:
		on_free(s, ev);
		break;
	case KTP_REC_MIGRATE:
		on_migrate(s, ev);
		break;
	case KTP_REC_AFFINITY:
		on_affinity(s, ev);
		break;
	case KTP_REC_CGROUP:
		on_cgroup(s, ev);
		break;
	case KTP_REC_IRQ_ENTRY:
	case KTP_REC_IRQ_EXIT:
	case KTP_REC_SOFTIRQ_ENTRY:
	case KTP_REC_SOFTIRQ_EXIT:
		/* IRQ time lies inside known busy or idle time. */
		if (cpu->mode == CPU_KNOWN)
			on_irq(s, ev);
		break;
	case KTP_REC_WQ_START:
	case KTP_REC_WQ_END:
		on_work(s, ev);
		break;
	}
	if (ev->type < KTP_REC_NR_TYPES)
		cpu->last_ts = ev->ts;
	if (ev->ts > s->end)
		s->end = ev->ts;
	return s->error;
}

/* @cpu's time up to @ts, told as at its end, and the interval reopened there. */
static void cut_cpu(struct sched *s, uint32_t cpu, uint64_t ts)
{
	struct sched_cpu *c = &s->cpus[cpu];

	if (ts <= c->since)
		return;
	/*
	 * A CPU not traced since the start (offline then) has no time to
	 * tell until it comes: what it will call no data starts here.
	 */
	if (!c->seen && !c->awaited) {
		c->since = ts;
		return;
	}
	if (c->mode == CPU_KNOWN)
		emit_cpu_time(s, cpu, c->cur, c->since, ts);
	else
		emit_gap(s, cpu, gap_of(c->mode), c->since, ts);
	c->since = ts;
}

/*
 * What @cpu's open hardirq, softirq and running work item took up to @ts,
 * told as time but not a run (that is told at its exit, with the rest).
 */
static void cut_irqs_at(struct sched *s, uint32_t cpu, uint64_t ts)
{
	struct sched_cpu *c = &s->cpus[cpu];
	struct sched_thread *th;

	if (c->hardirq >= 0)
		tell_hardirq(s, cpu, ts, 0);
	if (c->softirq >= 0) {
		tell_softirq(s, cpu, ts, 0);
		c->softirq_inner = 0;	/* told with this part */
	}
	/* A work item of a worker that does not run now is told whole at its end. */
	if (c->mode != CPU_KNOWN || c->cur >= s->nr_threads)
		return;
	th = &s->threads[c->cur];
	if (th->work_ts && th->cpu == (int32_t)cpu) {
		emit_irq(s, cpu, SCHED_WORK, th->work_fn, th->work_ts, th->work_told, ts, 0, 0);
		th->work_told = ts;
	}
}

void sched_cut(struct sched *s, uint64_t ts)
{
	uint32_t cpu, t;

	if (ts <= s->cut)
		return;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		cut_irqs_at(s, cpu, ts);
		cut_cpu(s, cpu, ts);
	}
	s->cut = ts;
	/* Every thread's state, for clients that want states: else no work a thread. */
	if (!s->state_clients)
		return;
	for (t = 0; t < s->nr_threads; t++)
		if (s->threads[t].state_since < ts)
			set_state(s, t, s->threads[t].state, ts);
}

int sched_finish(struct sched *s, uint64_t end)
{
	uint32_t cpu, t;

	if (end < s->end)
		end = s->end;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sched_cpu *c = &s->cpus[cpu];
		/* Without a STOP mark the CPU's data ends at its last record. */
		uint64_t cpu_end = c->mode == CPU_KNOWN ? c->last_ts : end;

		if (!c->seen)
			continue;
		if (c->mode == CPU_KNOWN) {
			cut_irqs(s, cpu, cpu_end);
			close_running(s, cpu, cpu_end, SCHED_UNKNOWN);
			c->mode = CPU_STOPPED;
			c->since = cpu_end;
		}
		end_gap(s, cpu, end);
		c->mode = CPU_STOPPED;
		c->since = end;
	}
	for (t = 0; t < s->nr_threads; t++) {
		if (s->threads[t].state != SCHED_DEAD)
			set_state(s, t, SCHED_UNKNOWN, end);
		/* Never described: a process of its own (or its pid's). */
		if (s->threads[t].process == SCHED_NONE)
			fail(s, join_process(s, t, s->threads[t].pid, 0));
	}
	return s->error;
}

int sched_init(struct sched *s, uint32_t nr_cpus, uint64_t session_start,
	       uint64_t from, uint64_t to)
{
	memset(s, 0, sizeof(*s));
	s->from = from;
	s->to = to;
	s->session_start = session_start;
	u64_map_init(&s->big_pids);
	u64_map_init(&s->proc_by_tgid);
	u64_map_init(&s->mask_by_hash);
	return grow_cpus(s, nr_cpus ? nr_cpus - 1 : 0);
}

void sched_fini(struct sched *s)
{
	free(s->cpus);
	free(s->threads);
	free(s->procs);
	free(s->by_pid);
	u64_map_fini(&s->big_pids);
	u64_map_fini(&s->proc_by_tgid);
	free(s->masks);
	free(s->mask_pool);
	u64_map_fini(&s->mask_by_hash);
	memset(s, 0, sizeof(*s));
}

/* Client @ops (the next index) among the callers of each hook it has. */
static void note_hooks(struct sched *s, const struct sched_ops *ops)
{
	const int has[SCHED_NR_HOOKS] = {
		[SCHED_HOOK_THREAD_NEW] = ops->thread_new != NULL,
		[SCHED_HOOK_CPU_TIME] = ops->cpu_time != NULL,
		[SCHED_HOOK_STATE_TIME] = ops->state_time != NULL,
		[SCHED_HOOK_SWITCH_OUT] = ops->switch_out != NULL,
		[SCHED_HOOK_LATENCY] = ops->latency != NULL,
		[SCHED_HOOK_WAKING] = ops->waking != NULL,
		[SCHED_HOOK_MIGRATE] = ops->migrate != NULL,
		[SCHED_HOOK_IRQ] = ops->irq != NULL,
		[SCHED_HOOK_WAIT] = ops->wait != NULL,
		[SCHED_HOOK_AFFINITY] = ops->affinity != NULL,
		[SCHED_HOOK_GAP] = ops->gap != NULL,
	};
	unsigned int h;

	for (h = 0; h < SCHED_NR_HOOKS; h++)
		if (has[h])
			s->hooked[h][s->nr_hooked[h]++] = (uint8_t)s->nr_clients;
}

int sched_add_client(struct sched *s, const struct sched_ops *ops, void *ctx)
{
	if (s->nr_clients == SCHED_MAX_CLIENTS)
		return -ENOSPC;
	note_hooks(s, ops);
	s->clients[s->nr_clients++] = (struct sched_client){ ops, ctx };
	s->state_clients += ops->state_time != NULL;
	return 0;
}
