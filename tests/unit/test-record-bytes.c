// SPDX-License-Identifier: GPL-2.0
/*
 * Byte fixtures of the record stream, written from the offset tables of
 * docs/record-format.md and not from ktprof_abi.h: every byte is commented
 * with its offset in the record and its field. The real decoder reads them
 * (relay_decoder, then record_fields() for the fields), and what it gives
 * is checked against values written by hand, so a structure whose layout
 * drifted from the documented one fails here even though the module and
 * the tools would still agree with each other.
 */
#include "decode/record.h"
#include "decode/relay-decode.h"
#include "unit.h"

#define T0 1000000000ull	/* the time of subbuf_cpu3 */

/* The head of every record fixture: CPU 3, sequence 0, nothing lost, at 1 s. */
static const uint8_t subbuf_cpu3[] = {
	0x01,                                           /* 0 type: 1 SUBBUF */
	0x00,                                           /* 1 flags: 0 */
	0x30, 0x00,                                     /* 2 size: 48 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 0 ns */
	0x4b, 0x54, 0x50, 0x31,                         /* 8 magic: "KTP1" */
	0x03, 0x00,                                     /* 12 cpu: 3 */
	0x01,                                           /* 14 abi_major: 1 */
	0x01,                                           /* 15 abi_minor: 1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 seq: 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 lost: 0 */
	0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00, /* 32 ts: 1000000000 ns */
	0x10, 0x55, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00, /* 40 session_id: 0x5e5510 */
};

/*
 * A first sub-buffer header that is not the session's first: 5 sub-buffers
 * before it were lost, and 2^40 + 7 records.
 */
static const uint8_t subbuf_late[] = {
	0x01,                                           /* 0 type: 1 SUBBUF */
	0x00,                                           /* 1 flags: 0 */
	0x30, 0x00,                                     /* 2 size: 48 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 0 ns */
	0x4b, 0x54, 0x50, 0x31,                         /* 8 magic: "KTP1" */
	0x03, 0x00,                                     /* 12 cpu: 3 */
	0x01,                                           /* 14 abi_major: 1 */
	0x01,                                           /* 15 abi_minor: 1 */
	0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 seq: 5 */
	0x07, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, /* 24 lost: 0x10000000007 */
	0x9a, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, /* 32 ts: 0x123456789a ns */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* 40 session_id: 0x1122334455667788 */
};

static const uint8_t rec_time[] = {
	0x02,                                           /* 0 type: 2 TIME */
	0x00,                                           /* 1 flags: 0 */
	0x10, 0x00,                                     /* 2 size: 16 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 0 ns */
	0x00, 0xbc, 0xa0, 0x65, 0x01, 0x00, 0x00, 0x00, /* 8 ts: 6000000000 ns */
};

static const uint8_t rec_selftest[] = {
	0x14,                                           /* 0 type: 20 SELFTEST */
	0x00,                                           /* 1 flags: 0 */
	0x10, 0x00,                                     /* 2 size: 16 */
	0x07, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 7 ns */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, /* 8 seq: 0x0102030405060708 */
};

static const uint8_t rec_cpu_start[] = {
	0x03,                                           /* 0 type: 3 CPU */
	0x00,                                           /* 1 flags: 0 */
	0x20, 0x00,                                     /* 2 size: 32 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 0 ns */
	0xd2, 0x04, 0x00, 0x00,                         /* 8 pid: 1234 */
	0x01, 0x00,                                     /* 12 reason: 1 START */
	0x78,                                           /* 14 prio: 120 */
	0x00,                                           /* 15 pad */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 records: 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 lost: 0 */
};

static const uint8_t rec_cpu_stop[] = {
	0x03,                                           /* 0 type: 3 CPU */
	0x00,                                           /* 1 flags: 0 */
	0x20, 0x00,                                     /* 2 size: 32 */
	0xd0, 0x07, 0x00, 0x00,                         /* 4 ts_delta: 2000 ns */
	0x4d, 0x00, 0x00, 0x00,                         /* 8 pid: 77 */
	0x02, 0x00,                                     /* 12 reason: 2 STOP */
	0xff,                                           /* 14 prio: 0xff (deadline) */
	0x00,                                           /* 15 pad */
	0x2c, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 records: 300 */
	0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 lost: 5 */
};

static const uint8_t rec_task[] = {
	0x04,                                           /* 0 type: 4 TASK */
	0x00,                                           /* 1 flags: 0 */
	0x2c, 0x00,                                     /* 2 size: 44 */
	0x0a, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 10 ns */
	0x92, 0x10, 0x00, 0x00,                         /* 8 pid: 4242 */
	0x90, 0x10, 0x00, 0x00,                         /* 12 tgid: 4240 */
	0x02, 0x00, 0x00, 0x00,                         /* 16 ppid: 2 */
	0x03, 0x00,                                     /* 20 flags: 0x01 kthread | 0x02 snapshot */
	0x02, 0x00,                                     /* 22 state: 0x0002 D */
	0xff,                                           /* 24 prio: 0xff (deadline) */
	0x00, 0x00, 0x00,                               /* 25 pad */
	0x6b, 0x77, 0x6f, 0x72, 0x6b, 0x65, 0x72, 0x2f, /* 28 comm: "kworker/3:1H", NUL-padded */
	0x33, 0x3a, 0x31, 0x48, 0x00, 0x00, 0x00, 0x00, /*   ... */
};

static const uint8_t rec_switch[] = {
	0x05,                                           /* 0 type: 5 SWITCH */
	0x02,                                           /* 1 flags: 2 counters follow */
	0x24, 0x00,                                     /* 2 size: 36 */
	0x64, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 100 ns */
	0x2a, 0x00, 0x00, 0x00,                         /* 8 prev_pid: 42 */
	0x2b, 0x00, 0x00, 0x00,                         /* 12 next_pid: 43 */
	0x00, 0x01,                                     /* 16 prev_state: 0x0100 R+ */
	0x78,                                           /* 18 prev_prio: 120 */
	0x64,                                           /* 19 next_prio: 100 */
	0x40, 0x42, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, /* 20 counter 0: 1000000 */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, /* 28 counter 1: 0x0123456789abcdef */
};

static const uint8_t rec_waking[] = {
	0x06,                                           /* 0 type: 6 WAKING */
	0x01,                                           /* 1 flags: 0x01 wakeup_new */
	0x10, 0x00,                                     /* 2 size: 16 */
	0x03, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 3 ns */
	0x2b, 0x02, 0x00, 0x00,                         /* 8 pid: 555 */
	0x02, 0x00,                                     /* 12 target_cpu: 2 */
	0x62,                                           /* 14 prio: 98 */
	0x00,                                           /* 15 pad */
};

static const uint8_t rec_migrate[] = {
	0x07,                                           /* 0 type: 7 MIGRATE */
	0x00,                                           /* 1 flags: 0 */
	0x10, 0x00,                                     /* 2 size: 16 */
	0x04, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 4 ns */
	0x2b, 0x02, 0x00, 0x00,                         /* 8 pid: 555 */
	0x02, 0x00,                                     /* 12 orig_cpu: 2 */
	0x07, 0x00,                                     /* 14 dest_cpu: 7 */
};

static const uint8_t rec_fork[] = {
	0x08,                                           /* 0 type: 8 FORK */
	0x01,                                           /* 1 flags: 0x01 thread */
	0x14, 0x00,                                     /* 2 size: 20 */
	0x05, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 5 ns */
	0x64, 0x00, 0x00, 0x00,                         /* 8 parent_pid: 100 */
	0x65, 0x00, 0x00, 0x00,                         /* 12 child_pid: 101 */
	0x64, 0x00, 0x00, 0x00,                         /* 16 child_tgid: 100 */
};

static const uint8_t rec_exec[] = {
	0x09,                                           /* 0 type: 9 EXEC */
	0x00,                                           /* 1 flags: 0 */
	0x18, 0x00,                                     /* 2 size: 24 */
	0x06, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 6 ns */
	0x64, 0x00, 0x00, 0x00,                         /* 8 pid: 100 */
	0x65, 0x00, 0x00, 0x00,                         /* 12 old_pid: 101 */
	0x2f, 0x62, 0x69, 0x6e, 0x2f, 0x73, 0x68, 0x00, /* 16 filename: "/bin/sh" and its NUL */
};

static const uint8_t rec_exit[] = {
	0x0a,                                           /* 0 type: 10 EXIT */
	0x00,                                           /* 1 flags: 0 */
	0x14, 0x00,                                     /* 2 size: 20 */
	0x07, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 7 ns */
	0x65, 0x00, 0x00, 0x00,                         /* 8 pid: 101 */
	0x64, 0x00, 0x00, 0x00,                         /* 12 tgid: 100 */
	0xfe, 0xff, 0xff, 0xff,                         /* 16 exit_code: -2 */
};

static const uint8_t rec_free[] = {
	0x0b,                                           /* 0 type: 11 FREE */
	0x00,                                           /* 1 flags: 0 */
	0x0c, 0x00,                                     /* 2 size: 12 */
	0x08, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 8 ns */
	0x65, 0x00, 0x00, 0x00,                         /* 8 pid: 101 */
};

static const uint8_t rec_irq_entry[] = {
	0x0c,                                           /* 0 type: 12 IRQ_ENTRY */
	0x00,                                           /* 1 flags: 0 */
	0x10, 0x00,                                     /* 2 size: 16 */
	0x09, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 9 ns */
	0x18, 0x00, 0x00, 0x00,                         /* 8 irq: 24 */
	0x00, 0x00, 0x00, 0x00,                         /* 12 ret: 0 (entry) */
};

static const uint8_t rec_irq_exit[] = {
	0x0d,                                           /* 0 type: 13 IRQ_EXIT */
	0x00,                                           /* 1 flags: 0 */
	0x10, 0x00,                                     /* 2 size: 16 */
	0x0b, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 11 ns */
	0x18, 0x00, 0x00, 0x00,                         /* 8 irq: 24 */
	0x02, 0x00, 0x00, 0x00,                         /* 12 ret: 2 */
};

static const uint8_t rec_irq_name[] = {
	0x0e,                                           /* 0 type: 14 IRQ_NAME */
	0x00,                                           /* 1 flags: 0 */
	0x1c, 0x00,                                     /* 2 size: 28 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 0 ns */
	0x18, 0x00, 0x00, 0x00,                         /* 8 irq: 24 */
	0x76, 0x69, 0x72, 0x74, 0x69, 0x6f, 0x30, 0x2d, /* 12 name: "virtio0-input", NUL, 2 pad */
	0x69, 0x6e, 0x70, 0x75, 0x74, 0x00, 0x00, 0x00, /*   ... */
};

static const uint8_t rec_softirq_entry[] = {
	0x0f,                                           /* 0 type: 15 SOFTIRQ_ENTRY */
	0x00,                                           /* 1 flags: 0 */
	0x0c, 0x00,                                     /* 2 size: 12 */
	0x0c, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 12 ns */
	0x07, 0x00, 0x00, 0x00,                         /* 8 vec: 7 SCHED */
};

static const uint8_t rec_softirq_exit[] = {
	0x10,                                           /* 0 type: 16 SOFTIRQ_EXIT */
	0x00,                                           /* 1 flags: 0 */
	0x0c, 0x00,                                     /* 2 size: 12 */
	0x0d, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 13 ns */
	0x09, 0x00, 0x00, 0x00,                         /* 8 vec: 9 RCU */
};

static const uint8_t rec_ipi_one[] = {
	0x11,                                           /* 0 type: 17 IPI_SEND */
	0x00,                                           /* 1 flags: 0: one target */
	0x14, 0x00,                                     /* 2 size: 20 */
	0x0e, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 14 ns */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 8 callback: 0 (reschedule) */
	0x05, 0x00, 0x00, 0x00,                         /* 16 cpu: 5 */
};

static const uint8_t rec_ipi_many[] = {
	0x11,                                           /* 0 type: 17 IPI_SEND */
	0x02,                                           /* 1 flags: 2 bitmap words follow */
	0x24, 0x00,                                     /* 2 size: 36 */
	0x0f, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 15 ns */
	0x00, 0x70, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, /* 8 callback: 0xffffffff81007000 */
	0x00, 0x00, 0x00, 0x00,                         /* 16 cpu: unused */
	0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, /* 20 targets word 0: CPUs 0, 2, 63 */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 28 targets word 1: CPU 64 */
};

static const uint8_t rec_wq_start[] = {
	0x12,                                           /* 0 type: 18 WQ_START */
	0x00,                                           /* 1 flags: 0 */
	0x18, 0x00,                                     /* 2 size: 24 */
	0x10, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 16 ns */
	0x00, 0x60, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, /* 8 function: 0xffffffff81006000 */
	0x00, 0x10, 0x00, 0x00, 0x80, 0x88, 0xff, 0xff, /* 16 work: 0xffff888000001000 */
};

static const uint8_t rec_wq_end[] = {
	0x13,                                           /* 0 type: 19 WQ_END */
	0x00,                                           /* 1 flags: 0 */
	0x18, 0x00,                                     /* 2 size: 24 */
	0x11, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 17 ns */
	0x00, 0x60, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, /* 8 function: 0xffffffff81006000 */
	0x00, 0x10, 0x00, 0x00, 0x80, 0x88, 0xff, 0xff, /* 16 work: 0xffff888000001000 */
};

static const uint8_t rec_sample[] = {
	0x15,                                           /* 0 type: 21 SAMPLE */
	0x0b,                                           /* 1 flags: 0x0b = user, kstack cut, staged */
	0x38, 0x00,                                     /* 2 size: 56 */
	0x12, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 18 ns */
	0x18, 0xc6, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00, /* 8 ts: 999999000 ns (before it was written) */
	0x2c, 0x01, 0x00, 0x00,                         /* 16 pid: 300 */
	0x2d, 0x01, 0x00, 0x00,                         /* 20 tid: 301 */
	0x01,                                           /* 24 source: 1 */
	0x00,                                           /* 25 pad */
	0x02, 0x00,                                     /* 26 nr_kernel: 2 */
	0x01, 0x00,                                     /* 28 nr_user: 1 */
	0x00, 0x00,                                     /* 30 pad2 */
	0x10, 0x30, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, /* 32 kernel frame 0: 0xffffffff81003010 */
	0x20, 0x20, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff, /* 40 kernel frame 1: 0xffffffff81002020 */
	0x34, 0x12, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* 48 user frame 0: 0x401234 */
};

static const uint8_t rec_map[] = {
	0x16,                                           /* 0 type: 22 MAP */
	0x00,                                           /* 1 flags: 0 */
	0x30, 0x00,                                     /* 2 size: 48 */
	0x13, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 19 ns */
	0x2c, 0x01, 0x00, 0x00,                         /* 8 pid: 300 */
	0x01, 0x08, 0x00, 0x00,                         /* 12 dev: 0x801 (8:1) */
	0x92, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 ino: 4242 */
	0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 start: 0x400000 */
	0x00, 0x20, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* 32 end: 0x402000 */
	0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 40 pgoff: 0x1000 */
};

static const uint8_t rec_file[] = {
	0x17,                                           /* 0 type: 23 FILE */
	0x00,                                           /* 1 flags: 0 */
	0x3c, 0x00,                                     /* 2 size: 60 */
	0x14, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 20 ns */
	0x01, 0x08, 0x00, 0x00,                         /* 8 dev: 0x801 */
	0x04,                                           /* 12 build_id_len: 4 */
	0x00, 0x00, 0x00,                               /* 13 pad */
	0x92, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 ino: 4242 */
	0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x00, /* 24 build_id: de ad be ef, then unused */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /*   ... */
	0x00, 0x00, 0x00, 0x00,                         /*   ... */
	0x2f, 0x75, 0x73, 0x72, 0x2f, 0x62, 0x69, 0x6e, /* 44 path: "/usr/bin/app", NUL, 3 bytes padding */
	0x2f, 0x61, 0x70, 0x70, 0x00, 0x00, 0x00, 0x00, /*   ... */
};

static const uint8_t rec_throttle[] = {
	0x18,                                           /* 0 type: 24 THROTTLE */
	0x00,                                           /* 1 flags: 0 */
	0x0c, 0x00,                                     /* 2 size: 12 */
	0x15, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 21 ns */
	0x02,                                           /* 8 source: 2 */
	0x00, 0x00, 0x00,                               /* 9 pad */
};

static const uint8_t rec_clock[] = {
	0x25,                                           /* 0 type: 37 CLOCK */
	0x00,                                           /* 1 flags: 0 */
	0x20, 0x00,                                     /* 2 size: 32 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: (its own ts) */
	0xf4, 0xcb, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00, /* 8 ts: 1000000500 ns */
	0xe8, 0x97, 0x35, 0x77, 0x00, 0x00, 0x00, 0x00, /* 16 cycles: 2000001000 */
	0x00, 0x00, 0x00, 0x80,                         /* 24 mult: 2^31 */
	0x20, 0x00, 0x00, 0x00,                         /* 28 shift: 32 (2 GHz) */
};

/* A short switch 3000 cycles (1500 ns) after rec_clock. */
static const uint8_t rec_switch_short[] = {
	0x80,                                           /* 0 type: 0x80 short SWITCH */
	0xb8, 0x0b, 0x00,                               /* 1 ts_delta: 3000 */
	/* 4 bits: prev_pid 42 | next_pid 43 << 22 | prev_prio 120 << 44 |
	 * next_prio 100 << 52 | state 2 (D) << 60 */
	0x2a, 0x00, 0xc0, 0x0a, 0x00, 0x80, 0x47, 0x26,
};

/* A short sched_wakeup_new 7 ns after the header (no CLOCK: ns). */
static const uint8_t rec_waking_short[] = {
	0x81,                                           /* 0 type: 0x81 short WAKING */
	0x07, 0x00, 0x00,                               /* 1 ts_delta: 7 ns */
	/* 4 bits: pid 555 | target_cpu 2 << 22 | prio 98 << 38 | new << 46 */
	0x2b, 0x02, 0x80, 0x00, 0x80, 0x58, 0x00, 0x00,
};

static const uint8_t rec_unknown[] = {
	0x64,                                           /* 0 type: 100 (a newer minor ABI's) */
	0x5a,                                           /* 1 flags: 0x5a */
	0x0c, 0x00,                                     /* 2 size: 12 */
	0x16, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 22 ns */
	0xfe, 0xca, 0x00, 0x00,                         /* 8 a field we do not know */
};

/* The next sub-buffer of the same session, 1 us later. */
static const uint8_t subbuf_cpu3_seq1[] = {
	0x01,                                           /* 0 type: 1 SUBBUF */
	0x00,                                           /* 1 flags: 0 */
	0x30, 0x00,                                     /* 2 size: 48 */
	0x00, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 0 ns */
	0x4b, 0x54, 0x50, 0x31,                         /* 8 magic: "KTP1" */
	0x03, 0x00,                                     /* 12 cpu: 3 */
	0x01,                                           /* 14 abi_major: 1 */
	0x01,                                           /* 15 abi_minor: 1 */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 seq: 1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 24 lost: 0 */
	0xe8, 0xcd, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00, /* 32 ts: 1000001000 ns */
	0x10, 0x55, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00, /* 40 session_id: 0x5e5510 */
};

/* Damage: a switch 24 bytes long, though without counters it is 20. */
static const uint8_t bad_switch_size[] = {
	0x05,                                           /* 0 type: 5 SWITCH */
	0x00,                                           /* 1 flags: 0 counters */
	0x18, 0x00,                                     /* 2 size: 24 */
	0x01, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 1 ns */
	0x2a, 0x00, 0x00, 0x00,                         /* 8 prev_pid: 42 */
	0x2b, 0x00, 0x00, 0x00,                         /* 12 next_pid: 43 */
	0x00, 0x00,                                     /* 16 prev_state: R */
	0x78,                                           /* 18 prev_prio: 120 */
	0x78,                                           /* 19 next_prio: 120 */
	0x00, 0x00, 0x00, 0x00,                         /* 20 four bytes no field explains */
};

/* Damage: a FILE record whose build id is longer than its field. */
static const uint8_t bad_file_build_id[] = {
	0x17,                                           /* 0 type: 23 FILE */
	0x00,                                           /* 1 flags: 0 */
	0x30, 0x00,                                     /* 2 size: 48 */
	0x01, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 1 ns */
	0x01, 0x08, 0x00, 0x00,                         /* 8 dev: 0x801 */
	0x15,                                           /* 12 build_id_len: 21, one too many */
	0x00, 0x00, 0x00,                               /* 13 pad */
	0x92, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 16 ino: 4242 */
	0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, /* 24 build_id */
	0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, /*   ... */
	0x11, 0x11, 0x11, 0x11,                         /*   ... */
	0x2f, 0x61, 0x00, 0x00,                         /* 44 path: "/a" */
};

/* Damage: a sample that claims a frame its size has no room for. */
static const uint8_t bad_sample_frames[] = {
	0x15,                                           /* 0 type: 21 SAMPLE */
	0x00,                                           /* 1 flags: 0 */
	0x20, 0x00,                                     /* 2 size: 32 */
	0x01, 0x00, 0x00, 0x00,                         /* 4 ts_delta: 1 ns */
	0x01, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00, /* 8 ts */
	0x2c, 0x01, 0x00, 0x00,                         /* 16 pid: 300 */
	0x2c, 0x01, 0x00, 0x00,                         /* 20 tid: 300 */
	0x00,                                           /* 24 source: 0 */
	0x00,                                           /* 25 pad */
	0x01, 0x00,                                     /* 26 nr_kernel: 1, but no frame follows */
	0x00, 0x00,                                     /* 28 nr_user: 0 */
	0x00, 0x00,                                     /* 30 pad2 */
};

/* The worked example of docs/record-format.md, as printed there. */
static const uint8_t doc_example[] = {
	0x01, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00,	/* SUBBUF, flags 0, size 48, delta 0 */
	0x4b, 0x54, 0x50, 0x31,				/* magic "KTP1" */
	0x03, 0x00, 0x01, 0x01,				/* cpu 3, ABI 1.1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* seq 0 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* lost 0 */
	0x00, 0xca, 0x9a, 0x3b, 0x00, 0x00, 0x00, 0x00,	/* ts 1000000000 */
	0x10, 0x55, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00,	/* session 0x5e5510 */
	0x05, 0x00, 0x14, 0x00, 0xf4, 0x01, 0x00, 0x00,	/* SWITCH, flags 0, size 20, delta 500 */
	0x2a, 0x00, 0x00, 0x00,				/* prev_pid 42 */
	0x00, 0x00, 0x00, 0x00,				/* next_pid 0 */
	0x01, 0x00, 0x78, 0x78,				/* prev_state S, prev_prio 120, next_prio 120 */
};

/* The fields record_fields() gives, as "key=value key=value". */
struct fields {
	char s[1024];
	size_t len;
};

static void put(struct fields *f, const char *key, const char *fmt, unsigned long long v)
{
	char val[64];

	snprintf(val, sizeof(val), fmt, v);
	f->len += snprintf(f->s + f->len, sizeof(f->s) - f->len, "%s%s=%s",
			   f->len ? " " : "", key, val);
}

static void sink_u64(void *ctx, const char *key, uint64_t v)
{
	put(ctx, key, "%llu", v);
}

static void sink_s64(void *ctx, const char *key, int64_t v)
{
	put(ctx, key, "%lld", (unsigned long long)v);
}

static void sink_hex(void *ctx, const char *key, uint64_t v)
{
	put(ctx, key, "0x%llx", v);
}

static void sink_str(void *ctx, const char *key, const char *v)
{
	struct fields *f = ctx;

	f->len += snprintf(f->s + f->len, sizeof(f->s) - f->len, "%s%s=%s",
			   f->len ? " " : "", key, v);
}

static const struct record_sink sink = { sink_u64, sink_s64, sink_hex, sink_str };

#define MAX_EVENTS 8

struct decoded {
	struct event ev[MAX_EVENTS];	/* ev.rec is not valid afterwards */
	struct fields f[MAX_EVENTS];
	unsigned int n;
	int cpu;
	struct relay_decoder_stats stats;
};

/* Decode the concatenation of up to four pieces (NULL ends the list). */
static void decode(struct decoded *out, const uint8_t *a, size_t alen, const uint8_t *b,
		   size_t blen, const uint8_t *c, size_t clen, const uint8_t *d, size_t dlen)
{
	struct relay_decoder *dec = relay_decoder_new(-1);
	const uint8_t *piece[4] = { a, b, c, d };
	size_t len[4] = { alen, blen, clen, dlen };
	struct event ev;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (!dec) {
		UNIT_FAIL("relay_decoder_new failed");
		return;
	}
	for (i = 0; i < 4 && piece[i]; i++)
		CHECK_EQ(relay_decoder_feed(dec, piece[i], len[i]), 0);
	relay_decoder_set_eof(dec);
	while (relay_decoder_next(dec, &ev) == 1) {
		if (out->n == MAX_EVENTS) {
			UNIT_FAIL("more than %d events", MAX_EVENTS);
			break;
		}
		record_fields(&ev, &sink, &out->f[out->n]);
		out->ev[out->n] = ev;
		out->ev[out->n].rec = NULL;
		out->n++;
	}
	out->cpu = relay_decoder_cpu(dec);
	out->stats = *relay_decoder_stats(dec);
	relay_decoder_free(dec);
}

#define PIECE(x) x, sizeof(x)
#define NONE NULL, 0

/* Event @i of @o is of @type at @ts with the fields @fields. */
static void check_event(const struct decoded *o, unsigned int i, unsigned int type,
			uint64_t ts, const char *fields)
{
	if (i >= o->n) {
		UNIT_FAIL("event %u of %u missing (type %u)", i, o->n, type);
		return;
	}
	CHECK_EQ(o->ev[i].type, type);
	CHECK_EQ(o->ev[i].ts, ts);
	CHECK_EQ(o->ev[i].cpu, 3);
	CHECK_STR(o->f[i].s, fields);
}

/* A clean decode: no byte skipped, resynchronised or left over. */
static void check_clean(const struct decoded *o)
{
	CHECK_EQ(o->cpu, 3);
	CHECK_EQ(o->stats.garbage_bytes, 0);
	CHECK_EQ(o->stats.resyncs, 0);
	CHECK_EQ(o->stats.truncated, 0);
}

/* The sub-buffer header alone: its fields, its CPU and its time. */
UNIT_TEST(subbuf_header)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_cpu3), NONE, NONE, NONE);
	CHECK_EQ(o.n, 1);
	check_event(&o, 0, 1, T0, "seq=0 lost=0 session=6182160");
	CHECK_EQ(o.ev[0].size, 48);
	CHECK_EQ(o.stats.subbufs, 1);
	CHECK_EQ(o.stats.lost, 0);
	CHECK_EQ(o.stats.lost_subbufs, 0);
	check_clean(&o);
}

/*
 * A stream whose first header is not the session's first: the records and
 * sub-buffers it counts as lost come first, as one LOST event.
 */
UNIT_TEST(subbuf_header_after_loss)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_late), NONE, NONE, NONE);
	CHECK_EQ(o.n, 2);
	check_event(&o, 0, EVENT_LOST, 0x123456789aull, "records=1099511627783");
	CHECK_EQ(o.ev[0].lost, 0x10000000007ull);
	check_event(&o, 1, 1, 0x123456789aull,
		    "seq=5 lost=1099511627783 session=1234605616436508552");
	CHECK_EQ(o.stats.lost_subbufs, 5);
	CHECK_EQ(o.stats.lost, 0x10000000007ull);
	check_clean(&o);
}

static const struct record_case {
	const char *name;
	const uint8_t *rec;
	size_t len;
	unsigned int type, flags;
	uint64_t ts;		/* T0 + the fixture's ts_delta */
	const char *fields;
} record_cases[] = {
	{ "cpu start", PIECE(rec_cpu_start), 3, 0, T0, "reason=start pid=1234" },
	{ "task", PIECE(rec_task), 4, 0, T0 + 10,
	  "pid=4242 tgid=4240 ppid=2 comm=kworker/3:1H flags=0x3 state=D prio=-1" },
	{ "switch", PIECE(rec_switch), 5, 2, T0 + 100,
	  "prev_pid=42 prev_state=R+ prev_prio=120 next_pid=43 next_prio=100 "
	  "counter0=1000000 counter1=81985529216486895" },
	{ "waking", PIECE(rec_waking), 6, 1, T0 + 3, "pid=555 target_cpu=2 prio=98 new=1" },
	{ "migrate", PIECE(rec_migrate), 7, 0, T0 + 4, "pid=555 orig_cpu=2 dest_cpu=7" },
	{ "fork", PIECE(rec_fork), 8, 1, T0 + 5,
	  "parent_pid=100 child_pid=101 child_tgid=100 thread=1" },
	{ "exec", PIECE(rec_exec), 9, 0, T0 + 6, "pid=100 old_pid=101 filename=/bin/sh" },
	{ "exit", PIECE(rec_exit), 10, 0, T0 + 7, "pid=101 tgid=100 exit_code=-2" },
	{ "free", PIECE(rec_free), 11, 0, T0 + 8, "pid=101" },
	{ "irq entry", PIECE(rec_irq_entry), 12, 0, T0 + 9, "irq=24" },
	{ "irq exit", PIECE(rec_irq_exit), 13, 0, T0 + 11, "irq=24 ret=2" },
	{ "irq name", PIECE(rec_irq_name), 14, 0, T0, "irq=24 name=virtio0-input" },
	{ "softirq entry", PIECE(rec_softirq_entry), 15, 0, T0 + 12, "vec=7" },
	{ "softirq exit", PIECE(rec_softirq_exit), 16, 0, T0 + 13, "vec=9" },
	{ "ipi to one", PIECE(rec_ipi_one), 17, 0, T0 + 14, "callback=0x0 target_cpu=5" },
	{ "ipi to many", PIECE(rec_ipi_many), 17, 2, T0 + 15,
	  "callback=0xffffffff81007000 target_cpus=0,2,63-64" },
	{ "wq start", PIECE(rec_wq_start), 18, 0, T0 + 16,
	  "function=0xffffffff81006000 work=0xffff888000001000" },
	{ "wq end", PIECE(rec_wq_end), 19, 0, T0 + 17,
	  "function=0xffffffff81006000 work=0xffff888000001000" },
	{ "selftest", PIECE(rec_selftest), 20, 0, T0 + 7, "seq=72623859790382856" },
	{ "sample", PIECE(rec_sample), 21, 0x0b, T0 + 18,
	  "sample_ts=999999000 pid=300 tid=301 source=1 mode=user truncated=1 "
	  "kstack=ffffffff81003010,ffffffff81002020 ustack=401234" },
	{ "map", PIECE(rec_map), 22, 0, T0 + 19,
	  "pid=300 start=0x400000 end=0x402000 pgoff=0x1000 dev=2049 ino=4242" },
	{ "file", PIECE(rec_file), 23, 0, T0 + 20,
	  "dev=2049 ino=4242 build_id=deadbeef path=/usr/bin/app" },
	{ "throttle", PIECE(rec_throttle), 24, 0, T0 + 21, "source=2" },
	/* Not known to this decoder: passed on whole, by its size. */
	{ "clock", PIECE(rec_clock), 37, 0, T0 + 500, "cycles=2000001000 mult=2147483648 shift=32" },
	{ "unknown type", PIECE(rec_unknown), 100, 0x5a, T0 + 22, "size=12" },
};

/*
 * A short switch after a CLOCK record: the full switch it stands for, its
 * time 3000 cycles of 2 GHz after the CLOCK's.
 */
UNIT_TEST(short_switch_bytes)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_cpu3), PIECE(rec_clock), PIECE(rec_switch_short), NONE);
	CHECK_EQ(o.n, 3);
	check_event(&o, 2, 5, T0 + 500 + 1500,
		    "prev_pid=42 prev_state=D prev_prio=120 next_pid=43 next_prio=100");
	CHECK_EQ(o.ev[2].size, 20);
	CHECK_EQ(o.stats.records, 3);
	check_clean(&o);
}

/* A short waking: the full waking it stands for (flag new), 16 bytes. */
UNIT_TEST(short_waking_bytes)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_cpu3), PIECE(rec_waking_short), NONE, NONE);
	CHECK_EQ(o.n, 2);
	check_event(&o, 1, 6, T0 + 7, "pid=555 target_cpu=2 prio=98 new=1");
	CHECK_EQ(o.ev[1].flags, KTP_WAKING_NEW);
	CHECK_EQ(o.ev[1].size, 16);
	check_clean(&o);
}

/* Every record type, alone after a sub-buffer header. */
UNIT_TEST(every_record_type)
{
	static struct decoded o;
	size_t i;

	for (i = 0; i < sizeof(record_cases) / sizeof(record_cases[0]); i++) {
		const struct record_case *c = &record_cases[i];
		int failed = unit_failed_now;

		unit_failed_now = 0;
		decode(&o, PIECE(subbuf_cpu3), c->rec, c->len, NONE, NONE);
		CHECK_EQ(o.n, 2);
		check_event(&o, 1, c->type, c->ts, c->fields);
		CHECK_EQ(o.ev[1].flags, c->flags);
		CHECK_EQ(o.ev[1].size, c->len);
		CHECK_EQ(o.stats.records, 2);
		CHECK_EQ(o.stats.unknown, c->type == 100);
		check_clean(&o);
		if (unit_failed_now)
			printf("    (in the %s fixture)\n", c->name);
		unit_failed_now |= failed;
	}
}

/*
 * A TIME record sets the time; the next record's delta counts from it. The
 * TIME record lands at stream offset 68, so its 64-bit field is not 8-byte
 * aligned in the stream.
 */
UNIT_TEST(time_record_and_unaligned_u64)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_cpu3), PIECE(rec_ipi_one), PIECE(rec_time),
	       PIECE(rec_selftest));
	CHECK_EQ(o.n, 4);
	check_event(&o, 2, 2, 6000000000ull, "");
	check_event(&o, 3, 20, 6000000007ull, "seq=72623859790382856");
	check_clean(&o);
}

/*
 * A STOP mark carries the CPU's final loss count: the 5 records dropped
 * since the last sub-buffer header come as a LOST event just before it.
 */
UNIT_TEST(stop_mark_reports_tail_loss)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_cpu3), PIECE(rec_cpu_stop), NONE, NONE);
	CHECK_EQ(o.n, 3);
	check_event(&o, 1, EVENT_LOST, T0 + 2000, "records=5");
	CHECK_EQ(o.ev[1].since, T0);
	check_event(&o, 2, 3, T0 + 2000, "reason=stop pid=77 records=300 lost=5");
	CHECK_EQ(o.stats.lost, 5);
	check_clean(&o);
}

/*
 * A record whose size disagrees with its contents is damage: everything up
 * to the next sub-buffer header is skipped (the bad record and the good one
 * after it) and said so, and decoding goes on from that header.
 */
static void check_resync(const uint8_t *bad, size_t len, const char *name)
{
	static struct decoded o;
	int failed = unit_failed_now;

	unit_failed_now = 0;
	decode(&o, PIECE(subbuf_cpu3), bad, len, PIECE(rec_selftest), PIECE(subbuf_cpu3_seq1));
	CHECK_EQ(o.n, 3);
	check_event(&o, 0, 1, T0, "seq=0 lost=0 session=6182160");
	CHECK_EQ(o.ev[1].type, EVENT_GARBAGE);
	CHECK_EQ(o.ev[1].lost, len + sizeof(rec_selftest));
	check_event(&o, 2, 1, T0 + 1000, "seq=1 lost=0 session=6182160");
	CHECK_EQ(o.stats.resyncs, 1);
	CHECK_EQ(o.stats.garbage_bytes, len + sizeof(rec_selftest));
	if (unit_failed_now)
		printf("    (in the %s fixture)\n", name);
	unit_failed_now |= failed;
}

UNIT_TEST(damaged_records_resync)
{
	check_resync(PIECE(bad_switch_size), "bad_switch_size");
	check_resync(PIECE(bad_file_build_id), "bad_file_build_id");
	check_resync(PIECE(bad_sample_frames), "bad_sample_frames");
}

UNIT_TEST(docs_worked_example)
{
	static struct decoded o;

	decode(&o, PIECE(doc_example), NONE, NONE, NONE);
	CHECK_EQ(o.n, 2);
	check_event(&o, 0, 1, T0, "seq=0 lost=0 session=6182160");
	check_event(&o, 1, 5, T0 + 500,
		    "prev_pid=42 prev_state=S prev_prio=120 next_pid=0 next_prio=120");
	check_clean(&o);
}

/* A stream cut inside a record: what precedes decodes, the rest is counted. */
UNIT_TEST(cut_inside_a_record)
{
	static struct decoded o;

	decode(&o, PIECE(subbuf_cpu3), rec_task, 30, NONE, NONE);
	CHECK_EQ(o.n, 1);
	CHECK_EQ(o.ev[0].type, 1);
	CHECK_EQ(o.stats.truncated, 30);
	CHECK_EQ(o.stats.garbage_bytes, 0);
}

UNIT_MAIN()
