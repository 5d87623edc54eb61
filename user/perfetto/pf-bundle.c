// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto.pb-c.h"
#include "perfetto/pf-bundle.h"
#include "util/hash.h"
#include "util/str-intern.h"

/* 2 comms per event at most, in a table at most half full */
#define INTERN_SLOTS(b) (4 * (b)->cap)

/* Where a payload field's value comes from. */
enum slot { S_NONE, S_A, S_B, S_C, S_D, S_S1, S_S2, S_TRUE };

/* Each plain kind: its FtraceEvent oneof field and its payload fields. */
static const struct plain_layout {
	const char *event;
	struct { const char *name; enum slot slot; } f[5];
} layouts[PLAIN_NR_KINDS] = {
	[PLAIN_WAKEUP_NEW] = { "sched_wakeup_new", { { "comm", S_S1 }, { "pid", S_A },
			       { "prio", S_B }, { "success", S_TRUE },
			       { "target_cpu", S_C } } },
	[PLAIN_MIGRATE] = { "sched_migrate_task", { { "comm", S_S1 }, { "pid", S_A },
			    { "orig_cpu", S_C }, { "dest_cpu", S_D } } },
	[PLAIN_FORK] = { "sched_process_fork", { { "parent_comm", S_S1 },
			 { "parent_pid", S_A }, { "child_comm", S_S2 },
			 { "child_pid", S_B } } },
	[PLAIN_NEWTASK] = { "task_newtask", { { "pid", S_A }, { "comm", S_S1 },
			    { "clone_flags", S_B } } },
	[PLAIN_RENAME] = { "task_rename", { { "pid", S_A }, { "oldcomm", S_S1 },
			   { "newcomm", S_S2 } } },
	[PLAIN_EXEC] = { "sched_process_exec", { { "filename", S_S1 }, { "pid", S_A },
			 { "old_pid", S_B } } },
	[PLAIN_EXIT] = { "sched_process_exit", { { "comm", S_S1 }, { "pid", S_A },
			 { "tgid", S_B } } },
	[PLAIN_FREE] = { "sched_process_free", { { "comm", S_S1 }, { "pid", S_A } } },
	[PLAIN_IRQ_ENTRY] = { "irq_handler_entry", { { "irq", S_A }, { "name", S_S1 } } },
	[PLAIN_IRQ_EXIT] = { "irq_handler_exit", { { "irq", S_A }, { "ret", S_B } } },
	[PLAIN_SOFTIRQ_ENTRY] = { "softirq_entry", { { "vec", S_A } } },
	[PLAIN_SOFTIRQ_EXIT] = { "softirq_exit", { { "vec", S_A } } },
	[PLAIN_CPU_IDLE] = { "cpu_idle", { { "state", S_A }, { "cpu_id", S_B } } },
	[PLAIN_CPU_FREQUENCY] = { "cpu_frequency", { { "state", S_A }, { "cpu_id", S_B } } },
};

/* The layouts with field numbers and types from the descriptors, sorted. */
struct enc_field {
	uint32_t num;
	ProtobufCType type;
	enum slot slot;
};

static struct {
	uint32_t pkt_bundle, pkt_seq;
	uint32_t b_cpu, b_event, b_lost, b_compact;
	uint32_t cs_sw_ts, cs_sw_state, cs_sw_pid, cs_sw_prio, cs_intern, cs_sw_comm;
	uint32_t cs_wk_ts, cs_wk_pid, cs_wk_cpu, cs_wk_prio, cs_wk_comm;
	uint32_t ev_ts, ev_pid;
	struct {
		uint32_t event;
		struct enc_field f[5];
		unsigned int n;
	} kind[PLAIN_NR_KINDS];
} fn;
static pthread_once_t fn_once = PTHREAD_ONCE_INIT;

static int by_number(const void *a, const void *b)
{
	const struct enc_field *x = a, *y = b;

	return (x->num > y->num) - (x->num < y->num);
}

static void resolve_fields(void)
{
	const ProtobufCMessageDescriptor *pkt = &perfetto__protos__trace_packet__descriptor;
	const ProtobufCMessageDescriptor *b = &perfetto__protos__ftrace_event_bundle__descriptor;
	const ProtobufCMessageDescriptor *cs =
		&perfetto__protos__ftrace_event_bundle__compact_sched__descriptor;
	const ProtobufCMessageDescriptor *ev = &perfetto__protos__ftrace_event__descriptor;
	unsigned int k, i;

	fn.pkt_bundle = pb_field_number(pkt, "ftrace_events");
	fn.pkt_seq = pb_field_number(pkt, "trusted_packet_sequence_id");
	fn.b_cpu = pb_field_number(b, "cpu");
	fn.b_event = pb_field_number(b, "event");
	fn.b_lost = pb_field_number(b, "lost_events");
	fn.b_compact = pb_field_number(b, "compact_sched");
	fn.cs_sw_ts = pb_field_number(cs, "switch_timestamp");
	fn.cs_sw_state = pb_field_number(cs, "switch_prev_state");
	fn.cs_sw_pid = pb_field_number(cs, "switch_next_pid");
	fn.cs_sw_prio = pb_field_number(cs, "switch_next_prio");
	fn.cs_intern = pb_field_number(cs, "intern_table");
	fn.cs_sw_comm = pb_field_number(cs, "switch_next_comm_index");
	fn.cs_wk_ts = pb_field_number(cs, "waking_timestamp");
	fn.cs_wk_pid = pb_field_number(cs, "waking_pid");
	fn.cs_wk_cpu = pb_field_number(cs, "waking_target_cpu");
	fn.cs_wk_prio = pb_field_number(cs, "waking_prio");
	fn.cs_wk_comm = pb_field_number(cs, "waking_comm_index");
	fn.ev_ts = pb_field_number(ev, "timestamp");
	fn.ev_pid = pb_field_number(ev, "pid");
	for (k = 1; k < PLAIN_NR_KINDS; k++) {
		const ProtobufCFieldDescriptor *ef =
			protobuf_c_message_descriptor_get_field_by_name(ev, layouts[k].event);
		const ProtobufCMessageDescriptor *pd = ef ? ef->descriptor : NULL;

		fn.kind[k].event = pb_field_number(ev, layouts[k].event);
		for (i = 0; i < 5 && layouts[k].f[i].name; i++) {
			const ProtobufCFieldDescriptor *f =
				protobuf_c_message_descriptor_get_field_by_name(pd,
						layouts[k].f[i].name);

			fn.kind[k].f[i].num = pb_field_number(pd, layouts[k].f[i].name);
			fn.kind[k].f[i].type = f->type;
			fn.kind[k].f[i].slot = layouts[k].f[i].slot;
		}
		fn.kind[k].n = i;
		qsort(fn.kind[k].f, i, sizeof(fn.kind[k].f[0]), by_number);
	}
}

void pf_bundle_fini(struct pf_bundle *b)
{
	pf_bundle_reset(b);
	free(b->sw_ts);
	free(b->sw_state);
	free(b->sw_pid);
	free(b->sw_prio);
	free(b->sw_comm);
	free(b->wk_ts);
	free(b->wk_pid);
	free(b->wk_cpu);
	free(b->wk_prio);
	free(b->wk_comm);
	free(b->intern);
	free(b->intern_slots);
	free(b->plain);
	memset(b, 0, sizeof(*b));
}

/* @*arr to @n elements of @size; 0 or -ENOMEM (then @*arr is as it was). */
static int grow(void *arr, size_t n, size_t size)
{
	void **p = arr, *q = realloc(*p, n * size);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

static uint32_t intern_slot(const struct pf_bundle *b, const char *comm)
{
	return hash_fnv1a(comm, strlen(comm), HASH_FNV1A_SEED) & (INTERN_SLOTS(b) - 1);
}

/* A new hash table of INTERN_SLOTS(@b), holding the comms interned so far. */
static int rehash(struct pf_bundle *b)
{
	uint32_t *slots = calloc(INTERN_SLOTS(b), sizeof(*slots)), slot;
	size_t i;

	if (!slots)
		return -ENOMEM;
	free(b->intern_slots);
	b->intern_slots = slots;
	b->intern_gen = 1;
	for (i = 0; i < b->nintern; i++) {
		for (slot = intern_slot(b, b->intern[i]); slots[slot];
		     slot = (slot + 1) & (INTERN_SLOTS(b) - 1))
			;
		slots[slot] = 1U << 16 | (i + 1);
	}
	return 0;
}

int pf_bundle_room(struct pf_bundle *b, size_t n)
{
	size_t used = b->nsw > b->nwk ? b->nsw : b->nwk;
	size_t cap = b->cap ? b->cap : BUNDLE_EVENTS_MIN;

	if (b->nplain > used)
		used = b->nplain;
	if (used + n <= b->cap)
		return 0;
	while (cap < used + n && cap < BUNDLE_EVENTS)
		cap *= 2;
	if (grow(&b->sw_ts, cap, sizeof(*b->sw_ts)) ||
	    grow(&b->sw_state, cap, sizeof(*b->sw_state)) ||
	    grow(&b->sw_pid, cap, sizeof(*b->sw_pid)) ||
	    grow(&b->sw_prio, cap, sizeof(*b->sw_prio)) ||
	    grow(&b->sw_comm, cap, sizeof(*b->sw_comm)) ||
	    grow(&b->wk_ts, cap, sizeof(*b->wk_ts)) ||
	    grow(&b->wk_pid, cap, sizeof(*b->wk_pid)) ||
	    grow(&b->wk_cpu, cap, sizeof(*b->wk_cpu)) ||
	    grow(&b->wk_prio, cap, sizeof(*b->wk_prio)) ||
	    grow(&b->wk_comm, cap, sizeof(*b->wk_comm)) ||
	    grow(&b->intern, 2 * cap, sizeof(*b->intern)) ||
	    grow(&b->plain, cap, sizeof(*b->plain)))
		return -ENOMEM;
	/* Every array is at least @cap long now; the table follows. */
	b->cap = cap;
	return rehash(b);
}

void pf_bundle_reset(struct pf_bundle *b)
{
	size_t i;

	for (i = 0; i < b->nintern; i++)
		free(b->intern[i]);
	b->nintern = 0;
	/* A new generation empties the intern hash without clearing it. */
	if (!++b->intern_gen) {
		if (b->intern_slots)
			memset(b->intern_slots, 0, INTERN_SLOTS(b) * sizeof(*b->intern_slots));
		b->intern_gen = 1;
	}
	for (i = 0; i < b->nplain; i++) {
		free(b->plain[i].s1);
		free(b->plain[i].s2);
	}
	b->nsw = b->nwk = b->nplain = 0;
	b->lost = 0;
}

/* Index of @comm in the bundle's intern table; -ENOMEM. */
static int64_t intern_comm(struct pf_bundle *b, const char *comm)
{
	uint32_t slot = intern_slot(b, comm), v, i;

	for (;; slot = (slot + 1) & (INTERN_SLOTS(b) - 1)) {
		v = b->intern_slots[slot];
		if (v >> 16 != b->intern_gen)
			break;	/* empty in this generation */
		i = (v & 0xffff) - 1;
		if (!strcmp(b->intern[i], comm))
			return i;
	}
	b->intern[b->nintern] = strdup(comm);
	if (!b->intern[b->nintern])
		return -ENOMEM;
	b->intern_slots[slot] = (uint32_t)b->intern_gen << 16 | (b->nintern + 1);
	return b->nintern++;
}

int pf_bundle_switch(struct pf_bundle *b, uint64_t ts, int64_t prev_state,
		     int32_t next_pid, int32_t next_prio, const char *next_comm)
{
	int64_t comm = intern_comm(b, next_comm);

	if (comm < 0)
		return comm;
	b->sw_ts[b->nsw] = ts;
	b->sw_state[b->nsw] = prev_state;
	b->sw_pid[b->nsw] = next_pid;
	b->sw_prio[b->nsw] = next_prio;
	b->sw_comm[b->nsw] = comm;
	b->nsw++;
	return 0;
}

int pf_bundle_waking(struct pf_bundle *b, uint64_t ts, int32_t pid, int32_t target_cpu,
		     int32_t prio, const char *comm)
{
	int64_t idx = intern_comm(b, comm);

	if (idx < 0)
		return idx;
	b->wk_ts[b->nwk] = ts;
	b->wk_pid[b->nwk] = pid;
	b->wk_cpu[b->nwk] = target_cpu;
	b->wk_prio[b->nwk] = prio;
	b->wk_comm[b->nwk] = idx;
	b->nwk++;
	return 0;
}

struct pf_plain *pf_bundle_plain(struct pf_bundle *b, uint64_t ts, uint32_t pid,
				 enum pf_plain_kind kind)
{
	struct pf_plain *p = &b->plain[b->nplain++];

	memset(p, 0, sizeof(*p));
	p->ts = ts;
	p->pid = pid;
	p->kind = kind;
	return p;
}

/*
 * Packed arrays: signed values as 64-bit two's complement, like int32. One
 * pass: the length goes in after the values (pb_close() moves them up when
 * it takes more than its byte), instead of a pass to count their sizes.
 */
#define PACKED(out, field, arr, n, cast)					\
	do {								\
		size_t i_, m_ = pb_open(out, field);			\
		for (i_ = 0; i_ < (n); i_++)				\
			pb_varint(out, (uint64_t)(cast)(arr)[i_]);	\
		pb_close(out, m_);					\
	} while (0)

/* Timestamps are deltas from the previous one in the bundle. */
static void packed_deltas(struct pb_buf *out, uint32_t field, const uint64_t *ts, size_t n)
{
	size_t i, m = pb_open(out, field);

	for (i = 0; i < n; i++)
		pb_varint(out, ts[i] - (i ? ts[i - 1] : 0));
	pb_close(out, m);
}

static void encode_compact(const struct pf_bundle *b, struct pb_buf *out)
{
	size_t m = pb_open(out, fn.b_compact), i;

	if (b->nsw) {
		packed_deltas(out, fn.cs_sw_ts, b->sw_ts, b->nsw);
		PACKED(out, fn.cs_sw_state, b->sw_state, b->nsw, int64_t);
		PACKED(out, fn.cs_sw_pid, b->sw_pid, b->nsw, int64_t);
		PACKED(out, fn.cs_sw_prio, b->sw_prio, b->nsw, int64_t);
	}
	for (i = 0; i < b->nintern; i++)
		pb_string(out, fn.cs_intern, b->intern[i]);
	if (b->nsw)
		PACKED(out, fn.cs_sw_comm, b->sw_comm, b->nsw, uint64_t);
	if (b->nwk) {
		packed_deltas(out, fn.cs_wk_ts, b->wk_ts, b->nwk);
		PACKED(out, fn.cs_wk_pid, b->wk_pid, b->nwk, int64_t);
		PACKED(out, fn.cs_wk_cpu, b->wk_cpu, b->nwk, int64_t);
		PACKED(out, fn.cs_wk_prio, b->wk_prio, b->nwk, int64_t);
		PACKED(out, fn.cs_wk_comm, b->wk_comm, b->nwk, uint64_t);
	}
	pb_close(out, m);
}

static void encode_plain(const struct pf_plain *p, struct pb_buf *out)
{
	size_t m = pb_open(out, fn.b_event), pm;
	unsigned int i;

	pb_uint(out, fn.ev_ts, p->ts);
	if (p->pid != PF_PID_UNKNOWN)
		pb_uint(out, fn.ev_pid, p->pid);
	pm = pb_open(out, fn.kind[p->kind].event);
	for (i = 0; i < fn.kind[p->kind].n; i++) {
		const struct enc_field *f = &fn.kind[p->kind].f[i];
		const char *s = f->slot == S_S1 ? p->s1 : f->slot == S_S2 ? p->s2 : NULL;
		int64_t v = f->slot == S_A ? p->a : f->slot == S_B ? p->b :
			    f->slot == S_C ? p->c : f->slot == S_D ? p->d : 1;

		if (f->type == PROTOBUF_C_TYPE_STRING) {
			if (s)
				pb_string(out, f->num, s);
		} else if (f->type == PROTOBUF_C_TYPE_UINT32) {
			pb_uint(out, f->num, (uint32_t)v);
		} else {
			pb_uint(out, f->num, (uint64_t)v);	/* int32/64, uint64, bool */
		}
	}
	pb_close(out, pm);
	pb_close(out, m);
}

int pf_bundle_encode(struct pf_bundle *b, uint32_t cpu, uint32_t seq_id,
		     struct pb_buf *out)
{
	size_t m, i;

	pthread_once(&fn_once, resolve_fields);
	out->len = 0;
	out->overflow = 0;
	m = pb_open(out, fn.pkt_bundle);
	pb_uint(out, fn.b_cpu, cpu);
	for (i = 0; i < b->nplain; i++)
		encode_plain(&b->plain[i], out);
	if (b->lost)
		pb_uint(out, fn.b_lost, 1);
	if (b->nsw || b->nwk)
		encode_compact(b, out);
	pb_close(out, m);
	pb_uint(out, fn.pkt_seq, seq_id);
	if (out->overflow)
		return -EMSGSIZE;
	pf_bundle_reset(b);
	return 0;
}
