// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "decode/record.h"

const char *record_state_str(uint16_t state, char *buf, unsigned int len)
{
	static const char letters[] = "SDTtXZPI";
	unsigned int i, off = 0;

	/* Per switch in conversions: no printf here. */
	if (state & KTP_STATE_PREEMPTED)
		return "R+";
	if (!state)
		return "R";
	for (i = 0; i < sizeof(letters) - 1 && off + 2 < len; i++) {
		if (!(state & (1u << i)))
			continue;
		if (off)
			buf[off++] = '|';
		buf[off++] = letters[i];
	}
	if (len)
		buf[off < len ? off : len - 1] = '\0';
	return buf;
}

uint32_t record_stack_id(const struct event *ev)
{
	uint32_t id;

	if (ev->type == KTP_REC_PROBE && (ev->flags & KTP_PROBE_HIT_STACK)) {
		struct ktp_probe_hit r;

		/* After the arguments, before their strings (the decoder checked). */
		memcpy(&r, ev->rec, sizeof(r));
		memcpy(&id, (const char *)ev->rec + sizeof(r) + 8u * r.nargs, 4);
		return id;
	}
	if (!((ev->type == KTP_REC_SWITCH && (ev->flags & KTP_SWITCH_STACK)) ||
	      (ev->type == KTP_REC_WAKING && (ev->flags & KTP_WAKING_STACK))) ||
	    ev->size < sizeof(struct ktp_hdr) + 4)
		return 0;
	memcpy(&id, (const char *)ev->rec + ev->size - 4, 4);
	return id;
}

int record_prio(uint8_t prio)
{
	return prio == KTP_PRIO_DL ? -1 : prio;
}

int record_probe_arg(const struct event *ev, unsigned int i, uint64_t *v,
		     const char **s, uint32_t *len)
{
	struct ktp_probe_hit r;
	uint32_t off;

	memcpy(&r, ev->rec, sizeof(r));
	*s = NULL;
	*len = 0;
	if (i >= r.nargs)
		return -1;
	memcpy(v, (const uint8_t *)ev->rec + sizeof(r) + 8u * i, sizeof(*v));
	if (!(r.strings & 1u << i))
		return 0;
	off = (uint32_t)*v;
	*len = (uint32_t)(*v >> 32);
	if (off < sizeof(r) + 8u * r.nargs || off > ev->size || *len > ev->size - off ||
	    *len > KTP_PROBE_STR_MAX)
		return -1;
	*s = (const char *)ev->rec + off;
	return 0;
}

const char *record_mark_text(const struct event *ev, uint32_t *len)
{
	struct ktp_mark m;

	memcpy(&m, ev->rec, sizeof(m));
	*len = m.len;
	return (const char *)ev->rec + sizeof(m);
}

int record_affinity_has(const struct event *ev, uint32_t cpu)
{
	struct ktp_affinity a;
	uint32_t word;

	memcpy(&a, ev->rec, sizeof(a));
	if (cpu >= a.nr_bits || ev->size < sizeof(a) + 4 * (cpu / 32 + 1))
		return 0;
	memcpy(&word, (const char *)ev->rec + sizeof(a) + 4 * (cpu / 32), 4);
	return (word >> (cpu % 32)) & 1;
}

const char *record_affinity_list(const struct event *ev, char *buf, size_t len)
{
	struct ktp_affinity a;
	size_t off = 0;
	uint32_t cpu, end;
	int n;

	memcpy(&a, ev->rec, sizeof(a));
	buf[0] = '\0';
	for (cpu = 0; cpu < a.nr_bits; cpu = end + 1) {
		if (!record_affinity_has(ev, cpu)) {
			end = cpu;
			continue;
		}
		for (end = cpu; end + 1 < a.nr_bits && record_affinity_has(ev, end + 1); end++)
			;
		n = end > cpu ? snprintf(buf + off, len - off, "%s%u-%u", off ? "," : "", cpu, end)
			      : snprintf(buf + off, len - off, "%s%u", off ? "," : "", cpu);
		if (n < 0 || (size_t)n >= len - off) {
			if (len >= 4)
				memcpy(buf + len - 4, "...", 4);
			break;
		}
		off += (size_t)n;
	}
	return buf;
}

/*
 * A DSQ id as sched_ext spells its built-in ones (include/linux/sched/ext.h:
 * bit 63 built-in, bit 62 local-on with a CPU), the scheduler's own in
 * decimal.
 */
const char *record_dsq_name(uint64_t id, char *buf, unsigned int len)
{
	static const char *const builtin[] = { "invalid", "global", "local", "bypass",
					       "reject", "rescue" };
	uint64_t v = id & ~RECORD_DSQ_BUILTIN;

	if (!(id & RECORD_DSQ_BUILTIN))
		snprintf(buf, len, "%" PRIu64, id);
	else if (id & RECORD_DSQ_LOCAL_ON)
		snprintf(buf, len, "local_on:%" PRIu64, id & 0xffffffffu);
	else if (v < sizeof(builtin) / sizeof(builtin[0]))
		snprintf(buf, len, "%s", builtin[v]);
	else
		snprintf(buf, len, "builtin:%#" PRIx64, v);
	return buf;
}

const char *record_dsq_label(uint64_t id, uint32_t cpu, char *buf, unsigned int len)
{
	char name[40];

	record_dsq_name(id, name, sizeof(name));
	if (record_dsq_per_cpu(id))
		snprintf(buf, len, "%s:%u", name, cpu);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

#define REC(type, var, ev) \
	type var; memcpy(&var, (ev)->rec, sizeof(var))

static void task_fields(const struct event *ev, const struct record_sink *s,
			void *ctx)
{
	REC(struct ktp_task, r, ev);
	char comm[KTP_COMM_LEN + 1], st[32];

	memcpy(comm, r.comm, KTP_COMM_LEN);
	comm[KTP_COMM_LEN] = '\0';
	s->u64(ctx, "pid", r.pid);
	s->u64(ctx, "tgid", r.tgid);
	s->u64(ctx, "ppid", r.ppid);
	s->str(ctx, "comm", comm);
	s->hex(ctx, "flags", r.flags);
	if (r.flags & KTP_TASK_SNAPSHOT)
		s->str(ctx, "state", record_state_str(r.state, st, sizeof(st)));
	s->s64(ctx, "prio", record_prio(r.prio));
}

static void switch_fields(const struct event *ev, const struct record_sink *s,
			  void *ctx)
{
	REC(struct ktp_switch, r, ev);
	char st[32], key[16];
	unsigned int i;

	s->u64(ctx, "prev_pid", r.prev_pid);
	s->str(ctx, "prev_state", record_state_str(r.prev_state, st, sizeof(st)));
	s->s64(ctx, "prev_prio", record_prio(r.prev_prio));
	s->u64(ctx, "next_pid", r.next_pid);
	s->s64(ctx, "next_prio", record_prio(r.next_prio));
	for (i = 0; i < record_switch_counters(ev); i++) {
		uint64_t v;

		memcpy(&v, (const char *)ev->rec + sizeof(r) + 8 * i, 8);
		snprintf(key, sizeof(key), "counter%u", i);
		s->u64(ctx, key, v);
	}
	if (ev->flags & KTP_SWITCH_STACK)
		s->u64(ctx, "stack", record_stack_id(ev));
}

static void cpu_fields(const struct event *ev, const struct record_sink *s,
		       void *ctx)
{
	static const char *const reasons[] = {
		[KTP_CPU_START] = "start", [KTP_CPU_STOP] = "stop",
		[KTP_CPU_ONLINE] = "online", [KTP_CPU_OFFLINE] = "offline",
	};
	REC(struct ktp_cpu_mark, r, ev);

	s->str(ctx, "reason", r.reason < sizeof(reasons) / sizeof(reasons[0]) &&
		       reasons[r.reason] ? reasons[r.reason] : "?");
	s->u64(ctx, "pid", r.pid);
	if (r.reason == KTP_CPU_STOP || r.reason == KTP_CPU_OFFLINE) {
		s->u64(ctx, "records", r.records);
		s->u64(ctx, "lost", r.lost);
	}
}

/* Appends "a" or "a-b" to @buf; false once it does not fit. */
static bool append_range(char *buf, size_t len, size_t *off, unsigned int a,
			 unsigned int b)
{
	int n = a == b ? snprintf(buf + *off, len - *off, "%s%u", *off ? "," : "", a) :
		snprintf(buf + *off, len - *off, "%s%u-%u", *off ? "," : "", a, b);

	if (n < 0 || (size_t)n >= len - *off)
		return false;
	*off += n;
	return true;
}

const char *record_ipi_targets(const struct event *ev, char *buf, size_t len)
{
	const uint8_t *words = (const uint8_t *)ev->rec + sizeof(struct ktp_ipi);
	unsigned int cpu, nbits = ev->flags * 64u, start = 0;
	const size_t ellipsis = sizeof(",...");
	bool in_run = false;
	uint64_t word = 0;
	size_t off = 0;

	if (len < ellipsis) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	buf[0] = '\0';
	for (cpu = 0; cpu <= nbits; cpu++) {
		bool set;

		if (cpu < nbits && !(cpu % 64))
			memcpy(&word, words + 8 * (cpu / 64), 8);
		set = cpu < nbits && (word >> (cpu % 64) & 1);
		if (set && !in_run)
			start = cpu;
		if (!set && in_run &&
		    !append_range(buf, len - ellipsis + 1, &off, start, cpu - 1)) {
			snprintf(buf + off, len - off, "%s...", off ? "," : "");
			return buf;
		}
		in_run = set;
	}
	return buf;
}

static void ipi_fields(const struct event *ev, const struct record_sink *s,
		       void *ctx)
{
	REC(struct ktp_ipi, r, ev);
	char list[1024];

	s->hex(ctx, "callback", r.callback);
	if (!ev->flags)
		s->u64(ctx, "target_cpu", r.cpu);
	else
		s->str(ctx, "target_cpus", record_ipi_targets(ev, list, sizeof(list)));
}

/* Addresses as one hex list, leaf first. */
static void stack_field(const struct record_sink *s, void *ctx, const char *key,
			const uint8_t *ips, unsigned int n)
{
	char buf[KTP_MAX_FRAMES * 19 + 1];
	unsigned int i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		uint64_t ip;

		memcpy(&ip, ips + 8 * i, 8);
		off += snprintf(buf + off, sizeof(buf) - off, "%s%" PRIx64,
				i ? "," : "", ip);
	}
	s->str(ctx, key, buf);
}

static void sample_fields(const struct event *ev, const struct record_sink *s,
			  void *ctx)
{
	REC(struct ktp_sample, r, ev);
	const uint8_t *ips = (const uint8_t *)ev->rec + sizeof(r);

	s->u64(ctx, "sample_ts", r.ts);
	s->u64(ctx, "pid", r.pid);
	s->u64(ctx, "tid", r.tid);
	s->u64(ctx, "source", r.source);
	s->str(ctx, "mode", ev->flags & KTP_SAMPLE_USER ? "user" : "kernel");
	if (ev->flags & (KTP_SAMPLE_KTRUNC | KTP_SAMPLE_UTRUNC))
		s->str(ctx, "truncated", "1");
	stack_field(s, ctx, "kstack", ips, r.nr_kernel);
	stack_field(s, ctx, "ustack", ips + 8 * r.nr_kernel, r.nr_user);
}

static void file_fields(const struct event *ev, const struct record_sink *s,
			void *ctx)
{
	REC(struct ktp_file, r, ev);
	char id[2 * KTP_BUILD_ID_MAX + 1];
	unsigned int i;

	for (i = 0; i < r.build_id_len && i < KTP_BUILD_ID_MAX; i++)
		snprintf(id + 2 * i, 3, "%02x", r.build_id[i]);
	id[2 * i] = '\0';
	s->u64(ctx, "dev", r.dev);
	s->u64(ctx, "ino", r.ino);
	s->str(ctx, "build_id", id);
	/* No build id read: the module looks in the page cache only. */
	if (r.flags & KTP_FILE_UNCACHED)
		s->str(ctx, "uncached", "1");
	s->str(ctx, "path", (const char *)ev->rec + sizeof(r));
}

void record_fields(const struct event *ev, const struct record_sink *s,
		   void *ctx)
{
	const char *str;

	switch (ev->type) {
	case EVENT_LOST:
		s->u64(ctx, "records", ev->lost);
		break;
	case EVENT_GARBAGE:
		s->u64(ctx, "bytes", ev->lost);
		break;
	case KTP_REC_SUBBUF: {
		REC(struct ktp_subbuf, r, ev);
		s->u64(ctx, "seq", r.seq);
		s->u64(ctx, "lost", r.lost);
		s->u64(ctx, "session", r.session_id);
		break;
	}
	case KTP_REC_TIME:
		break;
	case KTP_REC_CLOCK: {
		REC(struct ktp_clock, r, ev);
		s->u64(ctx, "cycles", r.cycles);
		s->u64(ctx, "mult", r.mult);
		s->u64(ctx, "shift", r.shift);
		break;
	}
	case KTP_REC_CPU:
		cpu_fields(ev, s, ctx);
		break;
	case KTP_REC_TASK:
		task_fields(ev, s, ctx);
		break;
	case KTP_REC_SWITCH:
		switch_fields(ev, s, ctx);
		break;
	case KTP_REC_WAKING: {
		REC(struct ktp_waking, r, ev);
		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "target_cpu", r.target_cpu);
		s->s64(ctx, "prio", record_prio(r.prio));
		if (ev->flags & KTP_WAKING_NEW)
			s->str(ctx, "new", "1");
		if (ev->flags & KTP_WAKING_STACK)
			s->u64(ctx, "waker_stack", record_stack_id(ev));
		break;
	}
	case KTP_REC_MIGRATE: {
		REC(struct ktp_migrate, r, ev);
		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "orig_cpu", r.orig_cpu);
		s->u64(ctx, "dest_cpu", r.dest_cpu);
		break;
	}
	case KTP_REC_FORK: {
		REC(struct ktp_fork, r, ev);
		s->u64(ctx, "parent_pid", r.parent_pid);
		s->u64(ctx, "child_pid", r.child_pid);
		s->u64(ctx, "child_tgid", r.child_tgid);
		s->str(ctx, "thread", ev->flags & KTP_FORK_THREAD ? "1" : "0");
		break;
	}
	case KTP_REC_EXEC: {
		REC(struct ktp_exec, r, ev);
		str = (const char *)ev->rec + sizeof(r);
		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "old_pid", r.old_pid);
		s->str(ctx, "filename", str);
		break;
	}
	case KTP_REC_EXIT: {
		REC(struct ktp_exit, r, ev);
		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "tgid", r.tgid);
		s->s64(ctx, "exit_code", r.exit_code);
		break;
	}
	case KTP_REC_FREE: {
		REC(struct ktp_free, r, ev);
		s->u64(ctx, "pid", r.pid);
		break;
	}
	case KTP_REC_IRQ_ENTRY:
	case KTP_REC_IRQ_EXIT: {
		REC(struct ktp_irq, r, ev);
		s->u64(ctx, "irq", r.irq);
		if (r.irq - KTP_IRQ_VECTOR_BASE < KTP_IRQ_NR_VECTORS)
			s->u64(ctx, "vector", r.irq - KTP_IRQ_VECTOR_BASE);
		if (ev->type == KTP_REC_IRQ_EXIT)
			s->s64(ctx, "ret", r.ret);
		break;
	}
	case KTP_REC_SCX_TASK: {
		static const char *const at[] = { "switch_out", "switch_in", "waking" };
		REC(struct ktp_scx_task, r, ev);

		s->u64(ctx, "pid", r.pid);
		s->str(ctx, "at", ev->flags < 3 ? at[ev->flags] : "?");
		s->u64(ctx, "slice", r.slice);
		s->u64(ctx, "weight", r.weight);
		s->u64(ctx, "dsq_vtime", r.dsq_vtime);
		s->hex(ctx, "flags", r.flags);
		break;
	}
	case KTP_REC_SCX_DSQ: {
		REC(struct ktp_scx_dsq, r, ev);
		char name[40];

		s->str(ctx, "op", ev->flags & KTP_SCX_DSQ_INSERT ? "insert" : "remove");
		s->u64(ctx, "pid", r.pid);
		s->str(ctx, "dsq", record_dsq_name(r.dsq_id, name, sizeof(name)));
		s->hex(ctx, "dsq_id", r.dsq_id);
		s->hex(ctx, "dsq_uid", r.dsq_uid);
		s->u64(ctx, "nr", r.nr);
		s->u64(ctx, "task_cpu", r.cpu);
		if (ev->flags & KTP_SCX_DSQ_INSERT)
			s->hex(ctx, "enq_flags", r.enq_flags);
		s->u64(ctx, "slice", r.slice);
		s->u64(ctx, "dsq_vtime", r.dsq_vtime);
		break;
	}
	case KTP_REC_SCX_OP: {
		static const char *const kinds[] = { "?", "enable", "bypass", "exit", "event" };
		REC(struct ktp_scx_op, r, ev);

		s->str(ctx, "op", ev->flags < 5 ? kinds[ev->flags] : "?");
		s->s64(ctx, "value", r.value);
		if (*((const char *)ev->rec + sizeof(r)))
			s->str(ctx, "name", (const char *)ev->rec + sizeof(r));
		break;
	}
	case KTP_REC_IDLE: {
		REC(struct ktp_idle, r, ev);

		if (r.state == KTP_IDLE_EXIT)
			s->str(ctx, "state", "exit");
		else
			s->u64(ctx, "state", r.state);
		break;
	}
	case KTP_REC_WAKEUP: {
		REC(struct ktp_wakeup, r, ev);

		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "target_cpu", r.target_cpu);
		break;
	}
	case KTP_REC_AFFINITY: {
		REC(struct ktp_affinity, r, ev);
		char list[256];

		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "nr_allowed", r.nr_allowed);
		s->str(ctx, "cpus", record_affinity_list(ev, list, sizeof(list)));
		break;
	}
	case KTP_REC_PROBE: {
		REC(struct ktp_probe_hit, r, ev);
		char key[8], text[KTP_PROBE_STR_MAX + 1];
		const char *sv;
		unsigned int i;
		uint32_t len;
		uint64_t v;

		s->u64(ctx, "probe", r.id);
		s->u64(ctx, "pid", r.pid);
		if (ev->flags & KTP_PROBE_HIT_RETURN)
			s->str(ctx, "at", "return");
		if (ev->flags & KTP_PROBE_HIT_STACK)
			s->u64(ctx, "stack", record_stack_id(ev));
		for (i = 0; i < r.nargs; i++) {
			snprintf(key, sizeof(key), "arg%u", i);
			if (record_probe_arg(ev, i, &v, &sv, &len)) {
				s->str(ctx, key, "?");
			} else if (sv) {
				memcpy(text, sv, len);
				text[len] = '\0';
				s->str(ctx, key, text);
			} else {
				s->hex(ctx, key, v);
			}
		}
		if (ev->flags & KTP_PROBE_HIT_TRUNC)
			s->u64(ctx, "truncated", 1);
		if (ev->flags & KTP_PROBE_HIT_FAULT)
			s->u64(ctx, "fault", 1);
		break;
	}
	case KTP_REC_MARK: {
		REC(struct ktp_mark, m, ev);
		char text[KTP_MARK_MAX + 1];
		const char *t;
		uint32_t len;

		t = record_mark_text(ev, &len);
		memcpy(text, t, len);
		text[len] = '\0';
		s->u64(ctx, "pid", m.pid);
		if (ev->flags & (KTP_MARK_BEGIN | KTP_MARK_END))
			s->str(ctx, "span", ev->flags & KTP_MARK_BEGIN ? "begin" : "end");
		s->str(ctx, "text", text);
		if (ev->flags & KTP_MARK_TRUNC)
			s->u64(ctx, "truncated", 1);
		break;
	}
	case KTP_REC_CGROUP: {
		REC(struct ktp_cgroup, r, ev);

		s->u64(ctx, "pid", r.pid);
		s->u64(ctx, "id", r.id);
		if (ev->flags & KTP_CGROUP_ATTACH)
			s->str(ctx, "attach", ev->flags & KTP_CGROUP_THREADGROUP ? "threadgroup" :
									     "thread");
		break;
	}
	case KTP_REC_FREQ: {
		REC(struct ktp_freq, r, ev);

		s->u64(ctx, "khz", r.khz);
		s->u64(ctx, "target_cpu", r.cpu);
		break;
	}
	case KTP_REC_SCX_DUMP:
		s->str(ctx, "line", (const char *)ev->rec + sizeof(struct ktp_scx_dump));
		break;
	case KTP_REC_IRQ_NAME: {
		REC(struct ktp_irq_name, r, ev);
		s->u64(ctx, "irq", r.irq);
		if (r.irq - KTP_IRQ_VECTOR_BASE < KTP_IRQ_NR_VECTORS)
			s->u64(ctx, "vector", r.irq - KTP_IRQ_VECTOR_BASE);
		s->str(ctx, "name", (const char *)ev->rec + sizeof(r));
		break;
	}
	case KTP_REC_SOFTIRQ_ENTRY:
	case KTP_REC_SOFTIRQ_EXIT: {
		REC(struct ktp_softirq, r, ev);
		s->u64(ctx, "vec", r.vec);
		break;
	}
	case KTP_REC_IPI_SEND:
		ipi_fields(ev, s, ctx);
		break;
	case KTP_REC_WQ_START:
	case KTP_REC_WQ_END: {
		REC(struct ktp_wq, r, ev);
		s->hex(ctx, "function", r.function);
		s->hex(ctx, "work", r.work);
		break;
	}
	case KTP_REC_SELFTEST: {
		REC(struct ktp_selftest, r, ev);
		s->u64(ctx, "seq", r.seq);
		break;
	}
	case KTP_REC_SAMPLE:
		sample_fields(ev, s, ctx);
		break;
	case KTP_REC_MAP: {
		REC(struct ktp_map, r, ev);
		s->u64(ctx, "pid", r.pid);
		s->hex(ctx, "start", r.start);
		s->hex(ctx, "end", r.end);
		s->hex(ctx, "pgoff", r.pgoff);
		s->u64(ctx, "dev", r.dev);
		s->u64(ctx, "ino", r.ino);
		break;
	}
	case KTP_REC_FILE:
		file_fields(ev, s, ctx);
		break;
	case KTP_REC_THROTTLE: {
		REC(struct ktp_throttle, r, ev);
		s->u64(ctx, "source", r.source);
		break;
	}
	case KTP_REC_STACK: {
		REC(struct ktp_stack, r, ev);
		const uint8_t *ips = (const uint8_t *)ev->rec + sizeof(r);

		s->u64(ctx, "id", r.id);
		if (ev->flags & (KTP_STACK_KTRUNC | KTP_STACK_UTRUNC))
			s->str(ctx, "truncated", "1");
		stack_field(s, ctx, "kstack", ips, r.nr_kernel);
		stack_field(s, ctx, "ustack", ips + 8 * r.nr_kernel, r.nr_user);
		break;
	}
	default:
		s->u64(ctx, "size", ev->size);
		break;
	}
}
