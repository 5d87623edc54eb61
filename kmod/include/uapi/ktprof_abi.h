/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ktprof record ABI, shared by ktprof.ko and the ktprof tools.
 *
 * Each per-CPU relay file (/sys/kernel/debug/ktprof/cpuN) is a sequence of
 * sub-buffers; read() skips their tail padding, so a file is a dense stream
 * of records. Every record starts with struct ktp_hdr: its type, its total
 * size in bytes (a multiple of 4) and its time as a delta from the previous
 * record of the same sub-buffer. Every sub-buffer starts with a
 * KTP_REC_SUBBUF record carrying the magic, the CPU, a per-CPU sequence
 * number, the cumulative count of records lost on that CPU and an absolute
 * timestamp, so a reader can start at any sub-buffer, detect loss and
 * resynchronise after damage. A reader skips records of types it does not
 * know by their size.
 *
 * All fields are little-endian and fixed-width; structures are packed to
 * 4-byte alignment, so 64-bit fields may be unaligned: readers copy them.
 * Timestamps are CLOCK_BOOTTIME nanoseconds (ktime_get_boot_fast_ns()).
 *
 * Compatibility: a new minor version only adds record types, or fields at
 * the end of a record (readers take the size from the header). Anything else
 * bumps the major version, which older readers refuse.
 */
#ifndef KTPROF_ABI_H
#define KTPROF_ABI_H

#include <linux/types.h>

#define KTP_VERSION_STRING "0.1"
#define KTP_ABI_MAJOR 1
#define KTP_ABI_MINOR 8

/* "KTP1" as little-endian bytes, in every sub-buffer header. */
#define KTP_SUBBUF_MAGIC 0x3150544bU

#define KTP_COMM_LEN 16
#define KTP_EXEC_NAME_MAX 256	/* filename bytes kept, NUL included */
#define KTP_IRQ_NAME_MAX 32	/* irq action name bytes kept, NUL included */
#define KTP_REC_MAX_SIZE 65532	/* sizes are u16, multiples of 4 */

#define __ktp_packed __attribute__((packed, aligned(4)))

enum ktp_rec_type {
	KTP_REC_INVALID = 0,	/* never written: zeroed memory is invalid */
	KTP_REC_SUBBUF,		/* struct ktp_subbuf: sub-buffer header */
	KTP_REC_TIME,		/* struct ktp_time: absolute time */
	KTP_REC_CPU,		/* struct ktp_cpu_mark: start/stop/online/offline */
	KTP_REC_TASK,		/* struct ktp_task: task identity */
	KTP_REC_SWITCH,		/* struct ktp_switch */
	KTP_REC_WAKING,		/* struct ktp_waking (also wakeup_new) */
	KTP_REC_MIGRATE,	/* struct ktp_migrate */
	KTP_REC_FORK,		/* struct ktp_fork */
	KTP_REC_EXEC,		/* struct ktp_exec */
	KTP_REC_EXIT,		/* struct ktp_exit */
	KTP_REC_FREE,		/* struct ktp_free */
	KTP_REC_IRQ_ENTRY,	/* struct ktp_irq */
	KTP_REC_IRQ_EXIT,	/* struct ktp_irq */
	KTP_REC_IRQ_NAME,	/* struct ktp_irq_name */
	KTP_REC_SOFTIRQ_ENTRY,	/* struct ktp_softirq */
	KTP_REC_SOFTIRQ_EXIT,	/* struct ktp_softirq */
	KTP_REC_IPI_SEND,	/* struct ktp_ipi */
	KTP_REC_WQ_START,	/* struct ktp_wq */
	KTP_REC_WQ_END,		/* struct ktp_wq */
	KTP_REC_SELFTEST,	/* struct ktp_selftest */
	KTP_REC_SAMPLE,		/* struct ktp_sample: CPU sample with stacks */
	KTP_REC_MAP,		/* struct ktp_map: a process's file mapping */
	KTP_REC_FILE,		/* struct ktp_file: a mapped file's path */
	KTP_REC_THROTTLE,	/* struct ktp_throttle */
	KTP_REC_STACK,		/* struct ktp_stack: an interned stack (minor 2) */
	KTP_REC_SCX_TASK,	/* struct ktp_scx_task: sched_ext task state (minor 3) */
	KTP_REC_SCX_DSQ,	/* struct ktp_scx_dsq: into or out of a DSQ (minor 3) */
	KTP_REC_SCX_OP,		/* struct ktp_scx_op: scheduler transitions (minor 3) */
	KTP_REC_SCX_DUMP,	/* struct ktp_scx_dump: a sched_ext dump line (minor 3) */
	KTP_REC_IDLE,		/* struct ktp_idle: a CPU enters or leaves idle (minor 4) */
	KTP_REC_FREQ,		/* struct ktp_freq: a CPU's frequency changes (minor 4) */
	KTP_REC_WAKEUP,		/* struct ktp_wakeup: a woken task is enqueued (minor 4) */
	KTP_REC_AFFINITY,	/* struct ktp_affinity: a task's allowed CPUs (minor 5) */
	KTP_REC_CGROUP,		/* struct ktp_cgroup: a task's cgroup v2 (minor 5) */
	KTP_REC_PROBE,		/* struct ktp_probe_hit: a --probe hit (minor 6) */
	KTP_REC_MARK,		/* struct ktp_mark: a marker's text (minor 6) */
	KTP_REC_CLOCK,		/* struct ktp_clock: the cycle counter's time (minor 8) */
	KTP_REC_NR_TYPES
};

/* Record type names, indexed by enum ktp_rec_type. */
#define KTP_REC_NAMES {							\
	"invalid", "subbuf", "time", "cpu", "task", "sched_switch",	\
	"sched_waking", "sched_migrate", "fork", "exec", "exit", "free", \
	"irq_entry", "irq_exit", "irq_name", "softirq_entry",		\
	"softirq_exit", "ipi_send", "wq_start", "wq_end", "selftest",	\
	"sample", "map", "file", "throttle", "stack", "scx_task",	\
	"scx_dsq", "scx_op", "scx_dump", "cpu_idle", "cpu_frequency",	\
	"sched_wakeup", "affinity", "cgroup", "probe", "mark", "clock",	\
}

/* Common header of every record. */
struct ktp_hdr {
	__u8 type;		/* enum ktp_rec_type */
	__u8 flags;		/* per-type flags */
	__u16 size;		/* whole record in bytes, multiple of 4, >= 8 */
	__u32 ts_delta;		/* ns (or cycles: struct ktp_clock) after the previous record */
} __ktp_packed;

/*
 * First record of every sub-buffer. Its time is @ts (its ts_delta is 0) and
 * the following records' deltas start from it. @lost counts every record
 * this CPU dropped since the session started, up to this sub-buffer; a jump
 * between consecutive headers is loss between them. @seq counts sub-buffers
 * started on this CPU, so a gap in @seq is a sub-buffer lost in overwrite
 * mode (its records are also in @lost).
 */
struct ktp_subbuf {
	struct ktp_hdr h;
	__u32 magic;		/* KTP_SUBBUF_MAGIC */
	__u16 cpu;
	__u8 abi_major;
	__u8 abi_minor;
	__u64 seq;
	__u64 lost;
	__u64 ts;
	__u64 session_id;
} __ktp_packed;

/* An absolute time, written when a delta would not fit in 32 bits. */
struct ktp_time {
	struct ktp_hdr h;
	__u64 ts;
} __ktp_packed;

/*
 * The cycle counter's time (minor 8), in a session that stamps records
 * with it (KTP_CLOCK_TSC): when the counter read @cycles, CLOCK_BOOTTIME
 * was @ts. From this record to the next one or to the next sub-buffer
 * header, ts_delta counts cycles, and a record whose counter reads c is at
 * @ts + ((c - @cycles) * @mult >> @shift) ns. @mult 0: ts_delta counts ns
 * again from @ts (the counter was found unstable). The writer takes one at
 * least every KTP_CLOCK_SPAN_US of its own counter, so the rate's error
 * stays small against the kernel's timekeeping.
 */
struct ktp_clock {
	struct ktp_hdr h;
	__u64 ts;
	__u64 cycles;
	__u32 mult;
	__u32 shift;		/* at most 32 */
} __ktp_packed;

#define KTP_CLOCK_SPAN_US 1000

/*
 * Short records (minor 8). A record whose first byte has its high bit set
 * has a 4-byte header in place of struct ktp_hdr: that byte is its type
 * (enum ktp_srec_type), the next three its ts_delta, and its size is its
 * type's. A reader must know every short type it meets (an unknown one is
 * damage). Writers keep every delta within KTP_DELTA_MAX, writing a TIME
 * or CLOCK record first where one would not be.
 */
#define KTP_REC_SHORT 0x80
#define KTP_DELTA_MAX 0xffffffU

enum ktp_srec_type {
	KTP_SREC_SWITCH = KTP_REC_SHORT,	/* struct ktp_switch_short */
	KTP_SREC_WAKING,			/* struct ktp_waking_short */
};

/*
 * A sched_switch without counters or stack, 12 bytes (struct ktp_switch:
 * 20). @bits: prev_pid in bits 0-21 and next_pid in 22-43 (pids are below
 * PID_MAX_LIMIT, 2^22), prev_prio in 44-51, next_prio in 52-59, and in
 * 60-63 the index of prev_state: 0 for KTP_STATE_RUNNING, i for 1 << (i - 1)
 * (1 to 9; more is damage).
 */
struct ktp_switch_short {
	__u32 hdr;		/* KTP_SREC_SWITCH | ts_delta << 8 */
	__u64 bits;
} __ktp_packed;

#define KTP_SSW_PID_BITS 22
#define KTP_SSW_NEXT_PID_SHIFT 22
#define KTP_SSW_PREV_PRIO_SHIFT 44
#define KTP_SSW_NEXT_PRIO_SHIFT 52
#define KTP_SSW_STATE_SHIFT 60
#define KTP_SSW_STATE_MAX 9

/*
 * A sched_waking or sched_wakeup_new without a stack, 12 bytes (struct
 * ktp_waking: 16). @bits: pid in bits 0-21, target_cpu in 22-37, prio in
 * 38-45, bit 46 set for sched_wakeup_new (KTP_WAKING_NEW); bits 47-63 0.
 */
struct ktp_waking_short {
	__u32 hdr;		/* KTP_SREC_WAKING | ts_delta << 8 */
	__u64 bits;
} __ktp_packed;

#define KTP_SWK_CPU_SHIFT 22
#define KTP_SWK_CPU_BITS 16
#define KTP_SWK_PRIO_SHIFT 38
#define KTP_SWK_NEW_BIT 46

/* The clock a session stamps its records with (KTP_A_CLOCK). */
enum ktp_clock_id {
	KTP_CLOCK_AUTO = 0,	/* the TSC where constant and nonstop, else boot */
	KTP_CLOCK_BOOT = 1,	/* ktime_get_boot_fast_ns() for every record */
	KTP_CLOCK_TSC = 2,	/* the TSC, tied to boot time by KTP_REC_CLOCK */
};

enum ktp_cpu_reason {
	KTP_CPU_START = 1,	/* session started: @pid is running here */
	KTP_CPU_STOP,		/* session stopped: final counts */
	KTP_CPU_ONLINE,		/* CPU came online during the session */
	KTP_CPU_OFFLINE,	/* CPU is going offline: final counts */
};

/*
 * Per-CPU session markers. At START and ONLINE, @pid is the task running
 * on this CPU, the first "prev" of the switch sequence. At STOP and OFFLINE,
 * @records and @lost are this CPU's totals so far (this record excluded).
 */
struct ktp_cpu_mark {
	struct ktp_hdr h;
	__u32 pid;
	__u16 reason;		/* enum ktp_cpu_reason */
	__u8 prio;		/* see KTP_PRIO_DL */
	__u8 pad;
	__u64 records;
	__u64 lost;
} __ktp_packed;

/* Priorities are the kernel's 0..139; deadline tasks (-1) are stored as: */
#define KTP_PRIO_DL 0xff

/* struct ktp_task flags */
#define KTP_TASK_KTHREAD	0x01	/* a kernel thread */
#define KTP_TASK_SNAPSHOT	0x02	/* from the session-start snapshot */
#define KTP_TASK_RENAME		0x04	/* comm changed (task_rename) */
#define KTP_TASK_EXEC		0x08	/* after exec */
#define KTP_TASK_FORK		0x10	/* a new task (fork/clone) */

/*
 * Task identity: written once per task per session, before or near its
 * first appearance, and again when it changes (rename, exec). @state is the
 * task-report state (as sched_switch's prev_state) for snapshot records.
 */
struct ktp_task {
	struct ktp_hdr h;
	__u32 pid;
	__u32 tgid;
	__u32 ppid;		/* real parent's tgid */
	__u16 flags;		/* KTP_TASK_* */
	__u16 state;
	__u8 prio;
	__u8 pad[3];
	char comm[KTP_COMM_LEN];	/* NUL-padded */
} __ktp_packed;

/* Task-report states (prev_state) as the kernel's sched_switch shows them. */
#define KTP_STATE_RUNNING	0x0000
#define KTP_STATE_INTERRUPTIBLE	0x0001	/* S */
#define KTP_STATE_UNINTERRUPTIBLE 0x0002	/* D */
#define KTP_STATE_STOPPED	0x0004	/* T */
#define KTP_STATE_TRACED	0x0008	/* t */
#define KTP_STATE_EXIT_DEAD	0x0010	/* X */
#define KTP_STATE_EXIT_ZOMBIE	0x0020	/* Z */
#define KTP_STATE_PARKED	0x0040	/* P */
#define KTP_STATE_IDLE		0x0080	/* I */
#define KTP_STATE_PREEMPTED	0x0100	/* TASK_REPORT_MAX: preempted, R+ */

/*
 * sched_switch. h.flags & KTP_SWITCH_COUNTERS is the number of per-switch
 * counter deltas that follow the fixed part (u64 each, the outgoing task's
 * counts this slice). With KTP_SWITCH_STACK (-S offcpu) a u32 stack id
 * ends the record: the kernel stack of a task that left asleep (see
 * struct ktp_stack).
 */
#define KTP_SWITCH_COUNTERS	0x0f
#define KTP_SWITCH_STACK	0x80

struct ktp_switch {
	struct ktp_hdr h;
	__u32 prev_pid;
	__u32 next_pid;
	__u16 prev_state;	/* KTP_STATE_* */
	__u8 prev_prio;
	__u8 next_prio;
} __ktp_packed;

#define KTP_WAKING_NEW 0x01	/* h.flags: sched_wakeup_new */
#define KTP_WAKING_STACK 0x02	/* h.flags: a u32 stack id ends the record */

/*
 * sched_waking / sched_wakeup_new; the waker is the task running here,
 * or the interrupt it is in. With KTP_WAKING_STACK (-S waker) a u32 id
 * of the waker's stack follows: its kernel stack from the waking up,
 * through the interrupt's when in one.
 */
struct ktp_waking {
	struct ktp_hdr h;
	__u32 pid;
	__u16 target_cpu;
	__u8 prio;
	__u8 pad;
} __ktp_packed;

struct ktp_migrate {
	struct ktp_hdr h;
	__u32 pid;
	__u16 orig_cpu;
	__u16 dest_cpu;
} __ktp_packed;

#define KTP_FORK_THREAD 0x01	/* h.flags: the child shares its tgid */

struct ktp_fork {
	struct ktp_hdr h;
	__u32 parent_pid;
	__u32 child_pid;
	__u32 child_tgid;
} __ktp_packed;

/* sched_process_exec; @filename is NUL-terminated, padded to the size. */
struct ktp_exec {
	struct ktp_hdr h;
	__u32 pid;
	__u32 old_pid;
	char filename[];
} __ktp_packed;

struct ktp_exit {
	struct ktp_hdr h;
	__u32 pid;
	__u32 tgid;
	__s32 exit_code;
} __ktp_packed;

struct ktp_free {
	struct ktp_hdr h;
	__u32 pid;
} __ktp_packed;

/*
 * Hardirqs: irq_handler_entry / irq_handler_exit (@ret only at exit), and on
 * x86 the system vectors' own tracepoints (local APIC timer, IPIs, irq_work:
 * irq_vectors:*_entry / *_exit), as @irq = KTP_IRQ_VECTOR_BASE + vector
 * with @ret 0. Linux numbers device irqs from 0 up, far below the base.
 */
#define KTP_IRQ_VECTOR_BASE 0x10000
#define KTP_IRQ_NR_VECTORS 256

struct ktp_irq {
	struct ktp_hdr h;
	__u32 irq;
	__s32 ret;
} __ktp_packed;

/*
 * An irq's action name, written once per irq per session; a system vector's
 * is its tracepoint's ("timer" for local_timer, "reschedule", "irq_work").
 */
struct ktp_irq_name {
	struct ktp_hdr h;
	__u32 irq;
	char name[];		/* NUL-terminated, padded to the size */
} __ktp_packed;

struct ktp_softirq {
	struct ktp_hdr h;
	__u32 vec;
} __ktp_packed;

/*
 * IPI sent from this CPU. @callback is the function the target runs (0:
 * reschedule IPI). h.flags == 0: one target, @cpu. h.flags == N > 0: the
 * targets are the bitmap of N u64 words that follows @cpu (@cpu unused).
 */
struct ktp_ipi {
	struct ktp_hdr h;
	__u64 callback;
	__u32 cpu;
} __ktp_packed;

/* workqueue_execute_start / _end; the worker is the task running here. */
struct ktp_wq {
	struct ktp_hdr h;
	__u64 function;
	__u64 work;
} __ktp_packed;

/* Emitted on demand through the debugfs selftest file. */
struct ktp_selftest {
	struct ktp_hdr h;
	__u64 seq;
} __ktp_packed;

#define KTP_MAX_FRAMES 127	/* per stack, kernel and user each */
#define KTP_BUILD_ID_MAX 20
#define KTP_PATH_MAX 1024	/* path bytes kept, NUL included */
#define KTP_MAX_SAMPLE_PIDS 64	/* kernel-side sample filter */

/* struct ktp_sample h.flags */
#define KTP_SAMPLE_USER		0x01	/* the CPU was in user mode */
#define KTP_SAMPLE_KTRUNC	0x02	/* kernel stack cut at KTP_MAX_FRAMES */
#define KTP_SAMPLE_UTRUNC	0x04	/* user stack cut at KTP_MAX_FRAMES */
#define KTP_SAMPLE_DEFERRED	0x08	/* staged (NMI): h time is not @ts */

/*
 * A CPU sample. @ts is when it was taken (a staged sample is written to
 * the buffer later). The frames follow: @nr_kernel kernel addresses, then
 * @nr_user user addresses, each stack leaf first; the first kernel frame
 * is the interrupted instruction.
 */
struct ktp_sample {
	struct ktp_hdr h;
	__u64 ts;
	__u32 pid;		/* tgid */
	__u32 tid;
	__u8 source;		/* index of the sample source */
	__u8 pad;
	__u16 nr_kernel;
	__u16 nr_user;
	__u16 pad2;
} __ktp_packed;

/*
 * A file mapping of process @pid that user frames landed in, written once
 * per process and mapping before the samples that need it: user address A
 * in [@start, @end) is file offset @pgoff + (A - @start) of the file
 * (@dev, @ino), which a KTP_REC_FILE record describes.
 */
struct ktp_map {
	struct ktp_hdr h;
	__u32 pid;
	__u32 dev;		/* new_encode_dev() form */
	__u64 ino;
	__u64 start;
	__u64 end;
	__u64 pgoff;		/* bytes */
} __ktp_packed;

/*
 * A mapped file, once per session: its path and GNU build id. The module
 * reads the build id from the page cache only: KTP_FILE_UNCACHED says the
 * pages that hold it were not there (build_id_len is 0, the file may still
 * have one: read it from the file).
 */
#define KTP_FILE_UNCACHED 0x01

struct ktp_file {
	struct ktp_hdr h;
	__u32 dev;
	__u8 build_id_len;	/* 0: none found */
	__u8 flags;		/* KTP_FILE_* */
	__u8 pad[2];
	__u64 ino;
	__u8 build_id[KTP_BUILD_ID_MAX];
	char path[];		/* NUL-terminated, padded to the size */
} __ktp_packed;

/* The kernel throttled sample source @source here (too many samples). */
struct ktp_throttle {
	struct ktp_hdr h;
	__u8 source;
	__u8 pad[3];
} __ktp_packed;

/* struct ktp_stack h.flags */
#define KTP_STACK_KTRUNC	0x02	/* kernel stack cut at KTP_MAX_FRAMES */
#define KTP_STACK_UTRUNC	0x04	/* user stack cut at KTP_MAX_FRAMES */

/*
 * A stack taken at a switch or a waking, written the first time this CPU
 * sees it in the session (and again, same id, before overwrite mode could
 * lose its record); switches and wakings name it by @id. Ids are per CPU
 * and per session, never reused (0: none), so an id whose STACK record
 * was lost resolves to nothing, never to another stack. The frames follow
 * as in struct ktp_sample: @nr_kernel kernel addresses (the scheduler's
 * entry first, then its callers), then @nr_user user addresses.
 */
struct ktp_stack {
	struct ktp_hdr h;
	__u32 id;
	__u16 nr_kernel;
	__u16 nr_user;
} __ktp_packed;

/* struct ktp_scx_task h.flags: where the state was read */
enum ktp_scx_at {
	KTP_SCX_AT_SWITCH_OUT = 0,	/* sched_switch, the task leaving */
	KTP_SCX_AT_SWITCH_IN = 1,	/* sched_switch, the task coming in */
	KTP_SCX_AT_WAKING = 2,		/* sched_waking and wakeup_new */
};

/*
 * A task on the sched_ext class (task->scx) at a switch or a waking,
 * written right after that SWITCH or WAKING record, on the same CPU:
 * @slice is what is left of the slice the BPF scheduler gave (at a
 * switch-in, what the task may run; at a switch-out, 0 when it ran out),
 * @flags the kernel's scx_ent_flags (its task state in bits 8 and up).
 */
struct ktp_scx_task {
	struct ktp_hdr h;
	__u32 pid;
	__u32 weight;		/* p->scx.weight: 100 for nice 0 */
	__u64 slice;		/* p->scx.slice, ns */
	__u64 dsq_vtime;	/* p->scx.dsq_vtime */
	__u32 flags;		/* p->scx.flags */
	__u32 pad;
} __ktp_packed;

/* struct ktp_scx_dsq h.flags */
#define KTP_SCX_DSQ_INSERT 0x01	/* into the DSQ; else out of it */

/*
 * A task into or out of a dispatch queue (DSQ), at the kernel's one
 * place for each (the DSQ's count goes up or down there), whatever the
 * path: BPF's inserts and moves, direct dispatch, consumption, dequeue.
 * @dsq_id is the kernel's: SCX_DSQ_GLOBAL, SCX_DSQ_LOCAL or the BPF
 * scheduler's own. Several DSQs share an id (a local and a bypass DSQ per
 * CPU, a global one per NUMA node, each sub-scheduler's): @dsq_uid tells
 * them apart, a per-session keyed hash of the queue's address (never 0).
 * @nr is the DSQ's count after the change.
 */
struct ktp_scx_dsq {
	struct ktp_hdr h;
	__u64 dsq_id;
	__u32 pid;
	__u32 nr;
	__u64 enq_flags;	/* insert: SCX_ENQ_*; else 0 */
	__u64 slice;		/* insert: p->scx.slice given; else left */
	__u64 dsq_vtime;	/* p->scx.dsq_vtime */
	__u32 cpu;		/* task_cpu(p) */
	__u32 dsq_uid;		/* which DSQ of that id */
} __ktp_packed;

/* struct ktp_scx_op h.flags: what happened to the BPF scheduler */
enum ktp_scx_op_kind {
	KTP_SCX_OP_ENABLE = 1,	/* enabling began (@value 0) */
	KTP_SCX_OP_BYPASS = 2,	/* bypass mode on (@value 1) or off (0) */
	KTP_SCX_OP_EXIT = 3,	/* it exits: @value the kernel's exit kind */
	KTP_SCX_OP_EVENT = 4,	/* an event counter @name grew by @value */
};

/*
 * The BPF scheduler's transitions and its event counters' changes (the
 * sched_ext_exit and sched_ext_event tracepoints, kprobes where there is
 * none). @name, NUL-terminated and padded to the size, is the event's
 * ("SCX_EV_..."), empty for the others.
 */
struct ktp_scx_op {
	struct ktp_hdr h;
	__s64 value;
	char name[];
} __ktp_packed;

#define KTP_SCX_LINE_MAX 256	/* dump line bytes kept, NUL included */

/*
 * One line of the debug dump a failing BPF scheduler leaves (the
 * sched_ext_dump tracepoint; also SysRq-D's), NUL-terminated and padded
 * to the size. Lines come in order on the CPU that dumps.
 */
struct ktp_scx_dump {
	struct ktp_hdr h;
	char line[];
} __ktp_packed;

#define KTP_IDLE_EXIT 0xffffffffU	/* struct ktp_idle state: the CPU left idle */

/*
 * power:cpu_idle on the CPU it is about: @state is the idle state the
 * CPU enters (its cpuidle index, as the capture's topology names them),
 * KTP_IDLE_EXIT when it leaves idle.
 */
struct ktp_idle {
	struct ktp_hdr h;
	__u32 state;
} __ktp_packed;

/*
 * power:cpu_frequency: CPU @cpu now runs at @khz (cpufreq's target; a
 * driver may write it from another CPU). Machines whose hardware picks
 * the frequency (HWP) write none: the capture's topology has each CPU's
 * frequency at the start.
 */
struct ktp_freq {
	struct ktp_hdr h;
	__u32 khz;
	__u32 cpu;
} __ktp_packed;

/*
 * sched_wakeup: the task woken (its SCHED_WAKING earlier) is on @target_cpu's
 * runqueue now: a wakeup's latency splits into waking to enqueue (the
 * remote wakeup's IPI and queueing) and enqueue to switch-in.
 */
struct ktp_wakeup {
	struct ktp_hdr h;
	__u32 pid;
	__u32 target_cpu;
} __ktp_packed;

/*
 * A task's allowed CPUs (its cpus_mask), followed by the mask: @nr_bits
 * bits (the kernel's nr_cpu_ids) in DIV_ROUND_UP(@nr_bits, 32) little-endian
 * u32 words, CPU n in bit n % 32 of word n / 32. Written at a task's first
 * sight when the mask is not every possible CPU, and whenever it differs
 * from the one written last: a task without one may run anywhere.
 */
struct ktp_affinity {
	struct ktp_hdr h;
	__u32 pid;
	__u16 nr_allowed;	/* CPUs in the mask */
	__u16 nr_bits;
} __ktp_packed;

/*
 * A task's cgroup v2 (the default hierarchy's; its id is the kernfs id,
 * the inode number of its directory in the cgroup2 mount). Written with
 * each identity the TASK record gives (first sight, the start snapshot,
 * fork, exec), and at cgroup_attach_task (KTP_CGROUP_ATTACH): a move
 * during the session; with KTP_CGROUP_THREADGROUP the whole thread group
 * of @pid (its leader) moved.
 */
struct ktp_cgroup {
	struct ktp_hdr h;
	__u32 pid;
	__u32 pad;
	__u64 id;
} __ktp_packed;

#define KTP_CGROUP_ATTACH	0x01	/* h.flags: moved by cgroup_attach_task */
#define KTP_CGROUP_THREADGROUP	0x02	/* h.flags: with its whole thread group */

/*
 * Probes of the user's choosing (record --probe, minor 6): kprobes and
 * return probes on kernel functions, uprobes and return probes on a file's
 * code (minor 7: USDT probes, as uprobes with a semaphore and arguments
 * in memory, and stacks). The recorder resolves what it can (a uprobe's
 * symbol to its file offset, a USDT probe to its sites) and sends the
 * list as KTP_A_PROBES, an array of struct ktp_probe_spec, one a site: a
 * probe's hits carry its @id, which sites of one probe share.
 */
#define KTP_MAX_PROBES 16	/* probes in a session, ids 0..15 */
#define KTP_MAX_PROBE_SITES 64	/* their sites, KTP_A_PROBES entries */
#define KTP_PROBE_MAX_ARGS 8
#define KTP_PROBE_STR_MAX 128	/* string argument bytes kept, NUL excluded */
#define KTP_PROBE_TARGET_MAX 256	/* symbol or path, NUL included */
#define KTP_MARK_MAX 1024	/* marker text bytes kept */

enum ktp_probe_kind {
	KTP_PROBE_KPROBE = 1,	/* @target: a kernel symbol, @offset into it */
	KTP_PROBE_KRETPROBE,	/* its return */
	KTP_PROBE_UPROBE,	/* @target: a file's path, @offset in the file */
	KTP_PROBE_URETPROBE,	/* its return */
};

/* Where an argument comes from. */
enum ktp_probe_src {
	KTP_ARG_FN = 1,		/* @index-th function argument (0-based), by the ABI */
	KTP_ARG_REG,		/* register @index, enum ktp_probe_reg */
	KTP_ARG_RET,		/* the return value (return probes) */
	KTP_ARG_MEM,		/* the memory at register @index + @disp (minor 7) */
	KTP_ARG_CONST,		/* @disp itself (minor 7) */
};

/* x86-64 registers an argument may name, as struct pt_regs has them. */
enum ktp_probe_reg {
	KTP_REG_AX, KTP_REG_BX, KTP_REG_CX, KTP_REG_DX, KTP_REG_SI,
	KTP_REG_DI, KTP_REG_BP, KTP_REG_SP, KTP_REG_R8, KTP_REG_R9,
	KTP_REG_R10, KTP_REG_R11, KTP_REG_R12, KTP_REG_R13, KTP_REG_R14,
	KTP_REG_R15, KTP_REG_IP, KTP_NR_REGS
};

/*
 * How an argument is kept. KTP_ARG_MEM reads the fetch's width (8 bytes
 * for a string's pointer) from user memory in a uprobe, kernel memory in
 * a kprobe, without faulting.
 */
enum ktp_probe_fetch {
	KTP_FETCH_U8 = 1,	/* the value's low byte, ... */
	KTP_FETCH_U16,
	KTP_FETCH_U32,
	KTP_FETCH_U64,		/* the whole value */
	KTP_FETCH_STR,		/* a kernel string at the value */
	KTP_FETCH_USTR,		/* a user string at the value, read without faulting */
};

struct ktp_probe_arg {
	__u8 src;		/* enum ktp_probe_src */
	__u8 index;
	__u8 fetch;		/* enum ktp_probe_fetch */
	__u8 pad;
	__s32 disp;		/* KTP_ARG_MEM, KTP_ARG_CONST */
};

/* struct ktp_probe_spec @flags: the stacks each hit takes (minor 7). */
#define KTP_PROBE_STACK_KERNEL	0x01
#define KTP_PROBE_STACK_USER	0x02
#define KTP_PROBE_STACKS	(KTP_PROBE_STACK_KERNEL | KTP_PROBE_STACK_USER)
/*
 * A uprobe at a function's first instruction: its frame is not made yet,
 * so its caller's return address is at the stack pointer, not above the
 * frame pointer (a user stack takes it from there).
 */
#define KTP_PROBE_AT_ENTRY	0x04

struct ktp_probe_spec {
	__u8 kind;		/* enum ktp_probe_kind */
	__u8 nargs;
	__u16 id;		/* the probe's, in its hits; < KTP_MAX_PROBES */
	__u32 flags;		/* KTP_PROBE_STACK_*, KTP_PROBE_AT_ENTRY */
	__u64 offset;
	__u64 ref_ctr_offset;	/* uprobes: a USDT semaphore's file offset, or 0 */
	struct ktp_probe_arg args[KTP_PROBE_MAX_ARGS];
	char target[KTP_PROBE_TARGET_MAX];
} __ktp_packed;

/*
 * A probe's hit: probe @id (its index in the session's list; the
 * capture's meta names it and its arguments), the task @pid, and its
 * arguments in order, each a u64 (numbers masked to their width). A
 * string argument (bit i of @strings) has as its u64 (length << 32 |
 * offset of its bytes from the record's start); the bytes follow the
 * arguments, no NUL, the record padded to 4. h.flags: KTP_PROBE_HIT_RETURN
 * for a return probe's, KTP_PROBE_HIT_TRUNC when a string was cut at
 * KTP_PROBE_STR_MAX, KTP_PROBE_HIT_FAULT when one could not be read (its
 * length 0; an argument in memory that could not be read is 0 with this
 * flag). KTP_PROBE_HIT_STACK (minor 7): a u32 stack id follows the
 * arguments (struct ktp_stack; 0 when none could be taken).
 */
struct ktp_probe_hit {
	struct ktp_hdr h;
	__u32 pid;
	__u16 id;
	__u8 nargs;
	__u8 strings;		/* bit i: argument i is a string */
	__u64 args[];
} __ktp_packed;

#define KTP_PROBE_HIT_TRUNC	0x01
#define KTP_PROBE_HIT_FAULT	0x02
#define KTP_PROBE_HIT_RETURN	0x04
#define KTP_PROBE_HIT_STACK	0x08

/*
 * A marker (the debugfs "marker" file, like ftrace's trace_marker): the
 * writer @pid and @len bytes of text, no NUL, the record padded to 4.
 * h.flags: KTP_MARK_BEGIN or KTP_MARK_END for spans ("B "/"E " text
 * prefixes, taken off), KTP_MARK_TRUNC when cut at KTP_MARK_MAX.
 */
struct ktp_mark {
	struct ktp_hdr h;
	__u32 pid;
	__u16 len;
	__u16 pad;
	char text[];
} __ktp_packed;

#define KTP_MARK_BEGIN	0x01
#define KTP_MARK_END	0x02
#define KTP_MARK_TRUNC	0x04

/* Which stacks the switch and waking take (param "stacks", meta "stacks"). */
enum ktp_stack_kind {
	KTP_STACKS_OFFCPU = 0x01,	/* a task leaving the CPU asleep */
	KTP_STACKS_WAKER = 0x02,	/* whoever wakes a task */
	KTP_STACKS_USER = 0x04,		/* their user stacks too */
};
#define KTP_STACKS_ALL 0x07

/* Event groups (module parameter "events", meta "events"). */
enum ktp_event_group {
	KTP_EV_SCHED = 0x01,
	KTP_EV_IRQ = 0x02,
	KTP_EV_SOFTIRQ = 0x04,
	KTP_EV_IPI = 0x08,
	KTP_EV_WQ = 0x10,
	KTP_EV_SCX = 0x20,	/* sched_ext: task state, DSQs, dumps (minor 3) */
	KTP_EV_POWER = 0x40,	/* idle states and frequency (minor 4) */
	KTP_EV_WAKEUP = 0x80,	/* sched_wakeup: the enqueue of a woken task (minor 4) */
};
#define KTP_EV_ALL 0xff
/* What a session records unless told: every group but power and wakeup. */
#define KTP_EV_DEFAULT 0x3f

/*
 * Generic netlink family "ktprof" (version 1). Every command needs
 * CAP_NET_ADMIN. START takes the session configuration; omitted attributes
 * take the module parameters' values. GET_STATS and GET_META reply with the
 * same command and attributes.
 */
#define KTP_GENL_NAME "ktprof"
#define KTP_GENL_VERSION 1

enum ktp_genl_cmd {
	KTP_CMD_UNSPEC,
	KTP_CMD_START,
	KTP_CMD_STOP,
	KTP_CMD_FLUSH,
	KTP_CMD_GET_STATS,
	KTP_CMD_GET_META,
	__KTP_CMD_MAX
};

enum ktp_genl_attr {
	KTP_A_UNSPEC,
	KTP_A_EVENTS,		/* u32: KTP_EV_* */
	KTP_A_SUBBUF_SIZE,	/* u32: bytes */
	KTP_A_N_SUBBUFS,	/* u32 */
	KTP_A_CPUS,		/* string: CPU list, "" for all */
	KTP_A_OVERWRITE,	/* u8: 0 drop new records when full, 1 overwrite */
	KTP_A_ABI_MAJOR,	/* u32 (reply) */
	KTP_A_ABI_MINOR,	/* u32 (reply) */
	KTP_A_STATE,		/* u32: enum ktp_session_state (reply) */
	KTP_A_SESSION_ID,	/* u64 (reply) */
	KTP_A_RELEASE,		/* string: kernel release (reply) */
	KTP_A_NR_CPUS,		/* u32: possible CPUs (reply) */
	KTP_A_CLOCK_BOOT,	/* u64: start clocks, ns (reply) */
	KTP_A_CLOCK_MONO,	/* u64 */
	KTP_A_CLOCK_REAL,	/* u64 */
	KTP_A_EVENTS_UNAVAIL,	/* u32: groups this kernel lacks (reply) */
	KTP_A_CPU_STATS,	/* nested, repeated: one per CPU (reply) */
	KTP_A_PAD,
	KTP_A_SAMPLES,		/* string: sample sources, "cpu-clock@999hz,..." */
	KTP_A_COUNTERS,		/* string: per-switch counters, "cycles,..." */
	KTP_A_SAMPLE_PIDS,	/* binary: u32[] tgids whose samples are kept */
	KTP_A_SAMPLE_COMM,	/* string: keep samples of tasks with this comm */
	KTP_A_STOP_WITH_OWNER,	/* flag: stop when the starting socket closes */
	KTP_A_STACKS,		/* u32: KTP_STACKS_* (minor 2) */
	KTP_A_SCX_HOOKS,	/* string: sched_ext hooks attached (minor 3, reply) */
	KTP_A_SAMPLE_CGROUP,	/* u64: keep samples of tasks in this cgroup v2 subtree (minor 5) */
	KTP_A_PROBES,		/* binary: struct ktp_probe_spec[], a site each (minor 6) */
	KTP_A_PROBE_STATS,	/* binary: u64[2] per probe id, hits and misses (reply, minor 6) */
	KTP_A_CLOCK,		/* u32: enum ktp_clock_id asked; the reply's, BOOT or TSC (minor 8) */
	__KTP_A_MAX
};
#define KTP_A_MAX (__KTP_A_MAX - 1)

/*
 * The module's per-CPU counters, one X(NAME, NR, name, help) each. From
 * this list come the module's counters, a CPU's line in the debugfs "stats"
 * file (in this order, which is why NR is not in order: that line had
 * subbufs before lost), the KTP_CA_* attributes below, and the tools'
 * struct cpu_stats with its readers of that text, of netlink and of a
 * capture's Stats section.
 *   NAME  the netlink attribute KTP_CA_<NAME>, a u64
 *   NR    its number: ABI, never changed nor reused
 *   name  the key in the stats text, and the field of ktprof.CpuStats that
 *         keeps it in a capture (proto/ktprof_capture.proto: protoc does
 *         not read C, so a new counter needs a field there too)
 *   help  what it counts, as ktprof.ko(4) says (scripts/man-module.sh)
 * A new counter goes last, with the next free number: __KTP_CA_MAX is the
 * last one's plus one, and parsers of the text meet its key after the keys
 * they know.
 */
#define KTP_CPU_STATS(X)									\
	X(RECORDS,         2, records,        "records written")				\
	X(BYTES,           3, bytes,          "bytes written, sub-buffer headers excluded")	\
	X(SUBBUFS,         5, subbufs,        "sub-buffers started")				\
	X(LOST,            4, lost,           "records dropped, every reason")			\
	X(NESTED,          6, nested,         "dropped: a nested writer on the same CPU")	\
	X(OVERWRITTEN,     7, overwritten,    "dropped: overwritten (overwrite mode)")		\
	X(SAMPLES,        10, samples,        "samples taken")					\
	X(THROTTLED,      11, throttled,      "times the kernel throttled a sample source")	\
	X(UNRESOLVED,     12, unresolved,     "samples whose user mappings were not read")	\
	X(FILES_DEFERRED, 13, files_deferred, "files with no FILE record: queue full, unread")	\
	X(STACK_CACHED,   14, stack_cached,   "stacks taken from a walk of the same stack words")	\
	X(STACK_MISMATCH, 15, stack_mismatch, "stack_check knob: taken stacks a walk gave otherwise")

/* Attributes inside KTP_A_CPU_STATS. */
#define KTP_CA_COUNTER(NAME, NR, ...) KTP_CA_##NAME = NR,
enum ktp_genl_cpu_attr {
	KTP_CA_UNSPEC,
	KTP_CA_CPU,		/* u32 */
	KTP_CA_DROPPED = 8,	/* binary: u64[KTP_REC_NR_TYPES] drops by type */
	KTP_CA_PAD,
	KTP_CPU_STATS(KTP_CA_COUNTER)	/* u64 each */
	__KTP_CA_MAX
};
#undef KTP_CA_COUNTER
#define KTP_CA_MAX (__KTP_CA_MAX - 1)

enum ktp_session_state {
	KTP_SESSION_IDLE = 0,	/* no session yet */
	KTP_SESSION_RUNNING,	/* tracing */
	KTP_SESSION_STOPPED,	/* stopped; data readable until the next start */
};

#ifdef __KERNEL__
#include <linux/build_bug.h>
#define KTP_ABI_SIZE(type, n) static_assert(sizeof(type) == (n), #type)
#else
#define KTP_ABI_SIZE(type, n) _Static_assert(sizeof(type) == (n), #type)
#endif
KTP_ABI_SIZE(struct ktp_hdr, 8);
KTP_ABI_SIZE(struct ktp_cgroup, 24);
KTP_ABI_SIZE(struct ktp_probe_arg, 8);
KTP_ABI_SIZE(struct ktp_probe_spec, 344);
KTP_ABI_SIZE(struct ktp_probe_hit, 16);
KTP_ABI_SIZE(struct ktp_mark, 16);
KTP_ABI_SIZE(struct ktp_affinity, 16);
KTP_ABI_SIZE(struct ktp_subbuf, 48);
KTP_ABI_SIZE(struct ktp_time, 16);
KTP_ABI_SIZE(struct ktp_cpu_mark, 32);
KTP_ABI_SIZE(struct ktp_task, 44);
KTP_ABI_SIZE(struct ktp_scx_task, 40);
KTP_ABI_SIZE(struct ktp_scx_dsq, 56);
KTP_ABI_SIZE(struct ktp_scx_op, 16);
KTP_ABI_SIZE(struct ktp_scx_dump, 8);
KTP_ABI_SIZE(struct ktp_idle, 12);
KTP_ABI_SIZE(struct ktp_freq, 16);
KTP_ABI_SIZE(struct ktp_wakeup, 16);
KTP_ABI_SIZE(struct ktp_switch, 20);
KTP_ABI_SIZE(struct ktp_waking, 16);
KTP_ABI_SIZE(struct ktp_migrate, 16);
KTP_ABI_SIZE(struct ktp_fork, 20);
KTP_ABI_SIZE(struct ktp_exec, 16);
KTP_ABI_SIZE(struct ktp_exit, 20);
KTP_ABI_SIZE(struct ktp_free, 12);
KTP_ABI_SIZE(struct ktp_irq, 16);
KTP_ABI_SIZE(struct ktp_irq_name, 12);
KTP_ABI_SIZE(struct ktp_softirq, 12);
KTP_ABI_SIZE(struct ktp_ipi, 20);
KTP_ABI_SIZE(struct ktp_wq, 24);
KTP_ABI_SIZE(struct ktp_selftest, 16);
KTP_ABI_SIZE(struct ktp_sample, 32);
KTP_ABI_SIZE(struct ktp_map, 48);
KTP_ABI_SIZE(struct ktp_file, 44);
KTP_ABI_SIZE(struct ktp_throttle, 12);
KTP_ABI_SIZE(struct ktp_stack, 16);

#endif /* KTPROF_ABI_H */
