// SPDX-License-Identifier: GPL-2.0
/*
 * The tables' definitions. Times are CLOCK_BOOTTIME nanoseconds, as the
 * capture's; durations nanoseconds. utid and upid are the model's thread
 * and process indices: a thread is one pid from its birth to its death,
 * so a reused pid is two threads (docs/report.md).
 */
#include <stddef.h>
#include <string.h>

#include "tables/table-def.h"

#define COLS(a) .cols = (a), .nr_cols = sizeof(a) / sizeof((a)[0])

static const struct table_column captures_cols[] = {
	{ "capture", TABLE_TEXT, "the capture's name: HOST/SESSION_ID (what export tags rows with)" },
	{ "path", TABLE_TEXT, "the file or directory read" },
	{ "host", TABLE_TEXT, "the recording machine's host name (NULL: not recorded)" },
	{ "kernel", TABLE_TEXT, "uname -r of the traced kernel" },
	{ "machine", TABLE_TEXT, "uname -m" },
	{ "session_id", TABLE_INT, "the module's session id" },
	{ "start_ns", TABLE_INT, "the session's start (CLOCK_BOOTTIME)" },
	{ "stop_ns", TABLE_INT, "its stop, or the last event's time when not recorded" },
	{ "realtime_start_ns", TABLE_INT, "CLOCK_REALTIME at the start: lines captures up" },
	{ "nr_cpus", TABLE_INT, "the session's CPUs" },
	{ "records", TABLE_INT, "records read" },
	{ "lost", TABLE_INT, "records lost, all CPUs" },
	{ "truncated", TABLE_INT, "1 when the input ends early or a stream was damaged" },
};

static const struct table_column cpus_cols[] = {
	{ "cpu", TABLE_INT, "the CPU" },
	{ "package", TABLE_INT, "its package (NULL: topology not recorded)" },
	{ "core", TABLE_INT, "its core" },
	{ "llc", TABLE_INT, "its last-level cache's id" },
	{ "node", TABLE_INT, "its NUMA node" },
	{ "records", TABLE_INT, "records of its stream" },
	{ "lost", TABLE_INT, "records it lost" },
	{ "busy_ns", TABLE_INT, "time it ran a thread" },
	{ "idle_ns", TABLE_INT, "time it ran its idle task" },
	{ "unknown_ns", TABLE_INT, "time with no data, after losses, or offline (see gaps)" },
};

static const struct table_column processes_cols[] = {
	{ "upid", TABLE_INT, "the process (thread group from its leader's birth or first sight)" },
	{ "tgid", TABLE_INT, "its pid" },
	{ "comm", TABLE_TEXT, "its leader's name, or its first thread's" },
	{ "leader_utid", TABLE_INT, "its leader thread (NULL: not seen)" },
	{ "threads", TABLE_INT, "its threads" },
	{ "runtime_ns", TABLE_INT, "its threads' time on a CPU" },
};

static const struct table_column threads_cols[] = {
	{ "utid", TABLE_INT, "the thread (one pid from its birth or first sight to its death)" },
	{ "tid", TABLE_INT, "its pid" },
	{ "tgid", TABLE_INT, "its process's pid" },
	{ "upid", TABLE_INT, "its process" },
	{ "comm", TABLE_TEXT, "its name (the last one)" },
	{ "kthread", TABLE_INT, "1 for a kernel thread" },
	{ "cgroup", TABLE_TEXT, "its cgroup v2 path (NULL: not recorded)" },
	{ "runtime_ns", TABLE_INT, "time on a CPU (the sum of its slices)" },
	{ "switches", TABLE_INT, "switches out" },
	{ "involuntary_switches", TABLE_INT, "switches out while still runnable (preempted)" },
	{ "migrations", TABLE_INT, "moves to another CPU" },
};

static const struct table_column slices_cols[] = {
	{ "utid", TABLE_INT, "the thread" },
	{ "cpu", TABLE_INT, "the CPU it ran on" },
	{ "ts", TABLE_INT, "the start" },
	{ "dur", TABLE_INT, "how long it ran" },
};

static const struct table_column thread_states_cols[] = {
	{ "utid", TABLE_INT, "the thread" },
	{ "state", TABLE_TEXT,
	  "running, runnable, sleeping (S), blocked (D), other (I, T, t, P, new), dead" },
	{ "ts", TABLE_INT, "the start" },
	{ "dur", TABLE_INT, "how long" },
};

static const struct table_column switches_cols[] = {
	{ "ts", TABLE_INT, "when" },
	{ "cpu", TABLE_INT, "the CPU" },
	{ "prev_utid", TABLE_INT, "the thread switched out (NULL: idle, or not known)" },
	{ "next_utid", TABLE_INT, "the thread switched in (NULL: idle)" },
	{ "involuntary", TABLE_INT, "1 when prev was still runnable (preempted)" },
	{ "stack_id", TABLE_INT, "prev's kernel stack when it left asleep (-S offcpu), or NULL" },
};

static const struct table_column wakeups_cols[] = {
	{ "utid", TABLE_INT, "the thread woken" },
	{ "cpu", TABLE_INT, "the CPU whose runqueue it waited in longest" },
	{ "waking_ts", TABLE_INT, "its waking (sched_waking)" },
	{ "switch_in_ts", TABLE_INT, "its switch-in" },
	{ "latency_ns", TABLE_INT, "switch_in_ts - waking_ts: the wakeup latency" },
	{ "waker", TABLE_TEXT, "thread, idle, hardirq, softirq or unknown" },
	{ "waker_utid", TABLE_INT, "the waking thread (waker = thread), else NULL" },
	{ "waker_id", TABLE_INT, "hardirq: the irq; softirq: the vector; idle: the CPU" },
};

static const struct table_column runqueue_waits_cols[] = {
	{ "utid", TABLE_INT, "the thread preempted" },
	{ "cpu", TABLE_INT, "the CPU whose runqueue it waited in longest" },
	{ "ts", TABLE_INT, "its preemption" },
	{ "end_ts", TABLE_INT, "its switch-in" },
	{ "latency_ns", TABLE_INT, "end_ts - ts: the runqueue latency" },
};

static const struct table_column migrations_cols[] = {
	{ "utid", TABLE_INT, "the thread" },
	{ "ts", TABLE_INT, "when" },
	{ "from_cpu", TABLE_INT, "the CPU it left" },
	{ "to_cpu", TABLE_INT, "the CPU it went to" },
};

static const struct table_column irqs_cols[] = {
	{ "cpu", TABLE_INT, "the CPU" },
	{ "kind", TABLE_TEXT, "hardirq, softirq or work" },
	{ "id", TABLE_INT, "the irq, the softirq vector, or the work function's address" },
	{ "name", TABLE_TEXT, "the handler's name, the softirq's, or the work function's" },
	{ "ts", TABLE_INT, "its entry" },
	{ "dur", TABLE_INT, "to its exit, or to where the data ended" },
	{ "self_ns", TABLE_INT, "its own time (nested hardirqs excluded)" },
	{ "complete", TABLE_INT, "1 when its entry and exit were both seen" },
};

static const struct table_column gaps_cols[] = {
	{ "cpu", TABLE_INT, "the CPU" },
	{ "reason", TABLE_TEXT, "nodata, loss or offline" },
	{ "ts", TABLE_INT, "the start of the unknown time" },
	{ "dur", TABLE_INT, "how long" },
};

static const struct table_column samples_cols[] = {
	{ "ts", TABLE_INT, "when it was taken" },
	{ "cpu", TABLE_INT, "the CPU" },
	{ "utid", TABLE_INT, "the thread (NULL: idle or not known)" },
	{ "tid", TABLE_INT, "its pid, as the sample says" },
	{ "tgid", TABLE_INT, "its process's pid" },
	{ "source", TABLE_INT, "the sample source's index (info lists them)" },
	{ "user_mode", TABLE_INT, "1 when the CPU was in user mode" },
	{ "stack_id", TABLE_INT, "its stack (stack_frames)" },
};

static const struct table_column stack_frames_cols[] = {
	{ "stack_id", TABLE_INT, "the stack: each distinct stack once" },
	{ "depth", TABLE_INT, "0 for the leaf, then its callers" },
	{ "kernel", TABLE_INT, "1 for a kernel frame" },
	{ "address", TABLE_TEXT, "the address, hexadecimal" },
	{ "function", TABLE_TEXT, "the function (NULL: not resolved)" },
	{ "offset", TABLE_INT, "from the function's start (or the object's)" },
	{ "object", TABLE_TEXT, "[kernel], a module, or the binary's name" },
};

static const struct table_column probe_hits_cols[] = {
	{ "ts", TABLE_INT, "when" },
	{ "cpu", TABLE_INT, "the CPU" },
	{ "utid", TABLE_INT, "the thread that hit it (NULL: not known)" },
	{ "tid", TABLE_INT, "its pid" },
	{ "probe", TABLE_TEXT, "the probe's name (record --probe), or its id" },
	{ "args", TABLE_TEXT, "its arguments, a JSON object by name" },
	{ "stack_id", TABLE_INT, "its stack (a probe with stack), or NULL" },
};

static const struct table_column markers_cols[] = {
	{ "ts", TABLE_INT, "when" },
	{ "cpu", TABLE_INT, "the CPU" },
	{ "utid", TABLE_INT, "the writer (NULL: not known)" },
	{ "tid", TABLE_INT, "its pid" },
	{ "kind", TABLE_TEXT, "instant, begin or end" },
	{ "text", TABLE_TEXT, "the marker's text" },
};

static const struct table_column scx_dsq_cols[] = {
	{ "ts", TABLE_INT, "when a task went into or out of a sched_ext dispatch queue" },
	{ "cpu", TABLE_INT, "the CPU that changed it" },
	{ "utid", TABLE_INT, "the task (NULL: not known)" },
	{ "tid", TABLE_INT, "its pid" },
	{ "dsq_id", TABLE_TEXT, "the DSQ's id, hexadecimal (the kernel's: global, local, or the BPF scheduler's)" },
	{ "dsq_uid", TABLE_INT, "which DSQ of that id" },
	{ "depth", TABLE_INT, "its count of tasks after the change" },
	{ "task_cpu", TABLE_INT, "task_cpu() of the task" },
};

const struct table_def table_defs[TABLE_NR] = {
	[TABLE_CAPTURES] = { "captures", "the captures read, one row each", COLS(captures_cols), .keyed = 1 },
	[TABLE_CPUS] = { "cpus", "each CPU of the session", COLS(cpus_cols), .keyed = 1 },
	[TABLE_PROCESSES] = { "processes", "each process", COLS(processes_cols), .keyed = 1 },
	[TABLE_THREADS] = { "threads", "each thread", COLS(threads_cols), .keyed = 1 },
	[TABLE_SLICES] = { "slices", "each interval a thread ran on a CPU", COLS(slices_cols) },
	[TABLE_THREAD_STATES] = { "thread_states", "each interval of a thread in one state",
				  COLS(thread_states_cols) },
	[TABLE_SWITCHES] = { "switches", "each context switch", COLS(switches_cols) },
	[TABLE_WAKEUPS] = { "wakeups", "each wakeup that ended in a switch-in",
			    COLS(wakeups_cols) },
	[TABLE_RUNQUEUE_WAITS] = { "runqueue_waits",
				   "each wait of a preempted thread for a CPU",
				   COLS(runqueue_waits_cols) },
	[TABLE_MIGRATIONS] = { "migrations", "each migration", COLS(migrations_cols) },
	[TABLE_IRQS] = { "irqs", "each hardirq, softirq and work item", COLS(irqs_cols) },
	[TABLE_GAPS] = { "gaps", "each interval of a CPU's unknown time", COLS(gaps_cols) },
	[TABLE_SAMPLES] = { "samples", "each CPU sample", COLS(samples_cols) },
	[TABLE_STACK_FRAMES] = { "stack_frames", "the frames of every stack named",
				 COLS(stack_frames_cols) },
	[TABLE_PROBE_HITS] = { "probe_hits", "each hit of a record --probe probe",
			       COLS(probe_hits_cols) },
	[TABLE_MARKERS] = { "markers", "each marker (ktprof mark)", COLS(markers_cols) },
	[TABLE_SCX_DSQ] = { "scx_dsq", "each change of a sched_ext dispatch queue",
			    COLS(scx_dsq_cols) },
};

const struct table_def *table_def_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < TABLE_NR; i++)
		if (!strcmp(table_defs[i].name, name))
			return &table_defs[i];
	return NULL;
}

const char *table_type_sql(enum table_type t)
{
	return t == TABLE_INT ? "INTEGER" : t == TABLE_REAL ? "REAL" : "TEXT";
}
