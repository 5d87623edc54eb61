// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "script.h"

#define MAX_WORDS 48	/* a schedstat domain line has 38 */

struct line {
	unsigned int no;
	char *word[MAX_WORDS];
	unsigned int n;
};

static int bad(struct script *s, const struct line *l, const char *fmt, ...)
{
	int off = snprintf(s->error, sizeof(s->error), "line %u: ", l->no);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->error + off, sizeof(s->error) - off, fmt, ap);
	va_end(ap);
	return -1;
}

/* The value of KEY=VALUE among the line's words, or NULL. */
static const char *value(const struct line *l, unsigned int first, const char *key)
{
	size_t n = strlen(key);
	unsigned int i;

	for (i = first; i < l->n; i++)
		if (!strncmp(l->word[i], key, n) && l->word[i][n] == '=')
			return l->word[i] + n + 1;
	return NULL;
}

static int flag(const struct line *l, unsigned int first, const char *name)
{
	unsigned int i;

	for (i = first; i < l->n; i++)
		if (!strcmp(l->word[i], name))
			return 1;
	return 0;
}

/* A number (decimal or 0x hex) for KEY, or @def when absent. */
static int num(struct script *s, const struct line *l, const char *key, uint64_t def,
	       int required, uint64_t *out)
{
	const char *v = value(l, 3, key);
	char *end;

	if (!v) {
		if (required)
			return bad(s, l, "%s needs %s=", l->word[2], key);
		*out = def;
		return 0;
	}
	*out = strtoull(v, &end, 0);
	if (end == v || *end)
		return bad(s, l, "%s=%s is not a number", key, v);
	return 0;
}

static uint16_t state_bits(const char *v)
{
	static const struct { const char *name; uint16_t bits; } states[] = {
		{ "R", KTP_STATE_RUNNING }, { "R+", KTP_STATE_PREEMPTED },
		{ "S", KTP_STATE_INTERRUPTIBLE }, { "D", KTP_STATE_UNINTERRUPTIBLE },
		{ "T", KTP_STATE_STOPPED }, { "t", KTP_STATE_TRACED },
		{ "X", KTP_STATE_EXIT_DEAD }, { "Z", KTP_STATE_EXIT_ZOMBIE },
		{ "P", KTP_STATE_PARKED }, { "I", KTP_STATE_IDLE },
	};
	unsigned int i;

	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(v, states[i].name))
			return states[i].bits;
	return (uint16_t)strtoul(v, NULL, 0);
}

static void put_string(struct stream_writer *w, uint64_t ts, uint8_t type, uint8_t flags,
		       const void *fixed, size_t fixed_len, const char *str)
{
	uint8_t buf[2048] = { 0 };
	size_t len = strlen(str);

	if (len > sizeof(buf) - fixed_len - 4)
		len = sizeof(buf) - fixed_len - 4;
	memcpy(buf, fixed, fixed_len);
	memcpy(buf + fixed_len, str, len);
	stream_writer_record(w, buf, type, flags, (fixed_len + len + 1 + 3) & ~(size_t)3, ts);
}

static int put_mark(struct script *s, const struct line *l, struct stream_writer *w,
		    uint64_t ts, uint16_t reason)
{
	uint64_t pid;

	if (num(s, l, "pid", 0, 0, &pid))
		return -1;
	stream_writer_cpu_mark(w, ts, reason, pid);
	return 0;
}

static int put_task(struct script *s, const struct line *l, struct stream_writer *w,
		    uint64_t ts)
{
	struct ktp_task t = { 0 };
	const char *comm = value(l, 3, "comm"), *state = value(l, 3, "state");
	uint64_t pid, tgid, ppid, prio;

	if (num(s, l, "pid", 0, 1, &pid) || num(s, l, "tgid", pid, 0, &tgid) ||
	    num(s, l, "ppid", 0, 0, &ppid) || num(s, l, "prio", 120, 0, &prio))
		return -1;
	t.pid = pid;
	t.tgid = tgid;
	t.ppid = ppid;
	t.prio = prio;
	t.state = state ? state_bits(state) : 0;
	t.flags = (flag(l, 3, "snapshot") ? KTP_TASK_SNAPSHOT : 0) |
		  (flag(l, 3, "kthread") ? KTP_TASK_KTHREAD : 0) |
		  (flag(l, 3, "fork") ? KTP_TASK_FORK : 0) |
		  (flag(l, 3, "exec") ? KTP_TASK_EXEC : 0) |
		  (flag(l, 3, "rename") ? KTP_TASK_RENAME : 0);
	if (comm)
		strncpy(t.comm, comm, KTP_COMM_LEN - 1);
	stream_writer_record(w, &t, KTP_REC_TASK, 0, sizeof(t), ts);
	return 0;
}

/* A switch or waking, with "stack=ID": the id at its end and @stack_flag. */
static int put_with_stack(struct script *s, const struct line *l, struct stream_writer *w,
			  uint64_t ts, uint8_t type, uint8_t flags, uint8_t stack_flag,
			  const void *r, size_t size)
{
	uint8_t buf[64];
	uint64_t id;
	uint32_t id32;

	if (num(s, l, "stack", 0, 0, &id))
		return -1;
	memcpy(buf, r, size);
	if (value(l, 3, "stack")) {
		id32 = id;
		memcpy(buf + size, &id32, 4);
		size += 4;
		flags |= stack_flag;
	}
	stream_writer_record(w, buf, type, flags, size, ts);
	return 0;
}

static int put_switch(struct script *s, const struct line *l, struct stream_writer *w,
		      uint64_t ts)
{
	const char *state = value(l, 3, "state");
	struct ktp_switch r = { 0 };
	uint64_t prev, next, pp, np;

	if (num(s, l, "prev", 0, 1, &prev) || num(s, l, "next", 0, 1, &next) ||
	    num(s, l, "prev_prio", 120, 0, &pp) || num(s, l, "next_prio", 120, 0, &np))
		return -1;
	r.prev_pid = prev;
	r.next_pid = next;
	r.prev_state = state ? state_bits(state) : KTP_STATE_RUNNING;
	r.prev_prio = pp;
	r.next_prio = np;
	return put_with_stack(s, l, w, ts, KTP_REC_SWITCH, 0, KTP_SWITCH_STACK, &r, sizeof(r));
}

static int put_waking(struct script *s, const struct line *l, struct stream_writer *w,
		      uint64_t ts)
{
	struct ktp_waking r = { 0 };
	uint64_t pid, target, prio;

	if (num(s, l, "pid", 0, 1, &pid) || num(s, l, "target", w->cpu, 0, &target) ||
	    num(s, l, "prio", 120, 0, &prio))
		return -1;
	r.pid = pid;
	r.target_cpu = target;
	r.prio = prio;
	return put_with_stack(s, l, w, ts, KTP_REC_WAKING, flag(l, 3, "new") ? KTP_WAKING_NEW : 0,
			      KTP_WAKING_STACK, &r, sizeof(r));
}

static int put_ipi(struct script *s, const struct line *l, struct stream_writer *w,
		   uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_ipi) + 8 * 4] = { 0 };
	const char *cpus = value(l, 3, "cpus");
	struct ktp_ipi r = { 0 };
	uint64_t words[4] = { 0 }, cpu, cb;
	unsigned int nw = 0;
	char *end;

	if (num(s, l, "callback", 0, 0, &cb))
		return -1;
	r.callback = cb;
	if (!cpus) {
		if (num(s, l, "cpu", 0, 1, &cpu))
			return -1;
		r.cpu = cpu;
		stream_writer_record(w, &r, KTP_REC_IPI_SEND, 0, sizeof(r), ts);
		return 0;
	}
	while (*cpus) {
		cpu = strtoul(cpus, &end, 10);
		if (end == cpus || cpu >= 256)
			return bad(s, l, "cpus= wants a list of CPUs below 256");
		words[cpu / 64] |= 1ull << (cpu % 64);
		if (cpu / 64 + 1 > nw)
			nw = cpu / 64 + 1;
		cpus = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return bad(s, l, "cpus= wants a comma-separated list");
	}
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), words, 8 * nw);
	stream_writer_record(w, buf, KTP_REC_IPI_SEND, nw, sizeof(r) + 8 * nw, ts);
	return 0;
}

/* "0x401000,0x401100" into @ips; the count or -1. */
static int addresses(struct script *s, const struct line *l, const char *key,
		     uint64_t *ips, unsigned int max)
{
	const char *v = value(l, 3, key);
	unsigned int n = 0;
	char *end;

	while (v && *v) {
		if (n == max)
			return bad(s, l, "%s= has more than %u addresses", key, max);
		ips[n++] = strtoull(v, &end, 0);
		if (end == v || (*end && *end != ','))
			return bad(s, l, "%s= wants addresses separated by commas", key);
		v = *end ? end + 1 : end;
	}
	return n;
}

static int put_sample(struct script *s, const struct line *l, struct stream_writer *w,
		      uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_sample) + 8 * 64] = { 0 };
	struct ktp_sample r = { .ts = ts };
	uint64_t pid, tid, source, ips[64];
	int nk, nu;

	if (num(s, l, "pid", 0, 1, &pid) || num(s, l, "tid", pid, 0, &tid) ||
	    num(s, l, "source", 0, 0, &source))
		return -1;
	nk = addresses(s, l, "k", ips, 32);
	nu = nk < 0 ? -1 : addresses(s, l, "u", ips + nk, 32);
	if (nk < 0 || nu < 0)
		return -1;
	r.pid = pid;
	r.tid = tid;
	r.source = source;
	r.nr_kernel = nk;
	r.nr_user = nu;
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), ips, 8 * (nk + nu));
	stream_writer_record(w, buf, KTP_REC_SAMPLE, nu ? KTP_SAMPLE_USER : 0,
			     sizeof(r) + 8 * (nk + nu), ts);
	return 0;
}

/* "stack id=N k=ADDRS [u=ADDRS]": an interned stack (switch/waking stack=N). */
static int put_stack(struct script *s, const struct line *l, struct stream_writer *w,
		     uint64_t ts)
{
	uint8_t buf[sizeof(struct ktp_stack) + 8 * 64] = { 0 };
	struct ktp_stack r = { 0 };
	uint64_t id, ips[64];
	int nk, nu;

	if (num(s, l, "id", 0, 1, &id))
		return -1;
	nk = addresses(s, l, "k", ips, 32);
	nu = nk < 0 ? -1 : addresses(s, l, "u", ips + nk, 32);
	if (nk < 0 || nu < 0)
		return -1;
	r.id = id;
	r.nr_kernel = nk;
	r.nr_user = nu;
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), ips, 8 * (nk + nu));
	stream_writer_record(w, buf, KTP_REC_STACK, 0, sizeof(r) + 8 * (nk + nu), ts);
	return 0;
}

/*
 * sched_ext: "scx_task pid= at=in|out|waking slice= weight= vtime=",
 * "scx_dsq pid= dsq= nr= cpu= slice= [insert]" (dsq: global, local, or a
 * number), "scx_op kind=enable|bypass|exit|event value= [name=]",
 * "scx_dump line=WORD".
 */
static int put_scx(struct script *s, const struct line *l, struct stream_writer *w,
		   uint64_t ts, const char *rec)
{
	static const char *const ats[] = { "out", "in", "waking" };
	static const char *const kinds[] = { "", "enable", "bypass", "exit", "event" };
	uint8_t buf[sizeof(struct ktp_scx_op) + 64] = { 0 };
	const char *v, *name;
	uint64_t a, b, c, d;
	unsigned int i;

	if (!strcmp(rec, "scx_task")) {
		struct ktp_scx_task r = { 0 };

		v = value(l, 3, "at");
		for (i = 0; v && i < 3 && strcmp(v, ats[i]); i++)
			;
		if (!v || i == 3)
			return bad(s, l, "scx_task wants at=in|out|waking");
		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "slice", 0, 0, &b) ||
		    num(s, l, "weight", 100, 0, &c) || num(s, l, "vtime", 0, 0, &d))
			return -1;
		r = (struct ktp_scx_task){ .pid = a, .slice = b, .weight = c, .dsq_vtime = d,
					   .flags = 4 << 8 };
		stream_writer_record(w, &r, KTP_REC_SCX_TASK, i, sizeof(r), ts);
	} else if (!strcmp(rec, "scx_dsq")) {
		struct ktp_scx_dsq r = { 0 };

		v = value(l, 3, "dsq");
		if (!v)
			return bad(s, l, "scx_dsq wants dsq=");
		r.dsq_id = !strcmp(v, "global") ? RECORD_DSQ_GLOBAL :
			   !strcmp(v, "local") ? RECORD_DSQ_LOCAL : strtoull(v, NULL, 0);
		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "nr", 0, 1, &b) ||
		    num(s, l, "cpu", w->cpu, 0, &c) || num(s, l, "slice", 0, 0, &d))
			return -1;
		r.pid = a;
		r.nr = b;
		r.cpu = c;
		r.slice = d;
		/* Which DSQ of that id: by default a local one per CPU, one of the others. */
		if (num(s, l, "uid", r.dsq_id == RECORD_DSQ_LOCAL ? 0x1000 + c : 1, 0, &a))
			return -1;
		r.dsq_uid = a;
		stream_writer_record(w, &r, KTP_REC_SCX_DSQ,
				     flag(l, 3, "insert") ? KTP_SCX_DSQ_INSERT : 0, sizeof(r), ts);
	} else if (!strcmp(rec, "scx_op")) {
		struct ktp_scx_op r = { 0 };
		size_t n;

		v = value(l, 3, "kind");
		for (i = 1; v && i < 5 && strcmp(v, kinds[i]); i++)
			;
		if (!v || i == 5)
			return bad(s, l, "scx_op wants kind=enable|bypass|exit|event");
		if (num(s, l, "value", 0, 0, &a))
			return -1;
		name = value(l, 3, "name");
		n = name ? strlen(name) : 0;
		if (n > 60)
			return bad(s, l, "scx_op name= is too long");
		r.value = (int64_t)a;
		memcpy(buf, &r, sizeof(r));
		memcpy(buf + sizeof(r), name ? name : "", n);
		stream_writer_record(w, buf, KTP_REC_SCX_OP, i, (sizeof(r) + n + 4) & ~3u, ts);
	} else {
		struct ktp_scx_dump r = { 0 };
		size_t n;

		name = value(l, 3, "line");
		n = name ? strlen(name) : 0;
		if (n > 60)
			return bad(s, l, "scx_dump line= is too long");
		memcpy(buf, &r, sizeof(r));
		memcpy(buf + sizeof(r), name ? name : "", n);
		stream_writer_record(w, buf, KTP_REC_SCX_DUMP, 0, (sizeof(r) + n + 4) & ~3u, ts);
	}
	return 0;
}

/* "probe id= pid= args=V,... [stack=N] [ret]" and "mark pid= text= [begin|end]". */
static int put_probe(struct script *s, const struct line *l, struct stream_writer *w,
		     uint64_t ts, const char *rec)
{
	uint8_t buf[1024] = { 0 };
	const char *v, *end;
	uint64_t a, b;
	size_t size, n;

	if (!strcmp(rec, "mark")) {
		struct ktp_mark m = { 0 };

		v = value(l, 3, "text");
		n = v ? strlen(v) : 0;
		if (num(s, l, "pid", 0, 1, &a) || n > 200)
			return bad(s, l, "mark wants pid= and a text= of at most 200 bytes");
		m.pid = a;
		m.len = n;
		memcpy(buf, &m, sizeof(m));
		memcpy(buf + sizeof(m), v ? v : "", n);
		stream_writer_record(w, buf, KTP_REC_MARK,
				     (flag(l, 3, "begin") ? KTP_MARK_BEGIN : 0) |
				     (flag(l, 3, "end") ? KTP_MARK_END : 0),
				     (sizeof(m) + n + 3) & ~3u, ts);
		return 0;
	}
	{
		struct ktp_probe_hit h = { 0 };
		uint64_t args[KTP_PROBE_MAX_ARGS], stack = 0;
		char strs[512];
		size_t slen = 0, extra;

		if (num(s, l, "id", 0, 1, &a) || num(s, l, "pid", 0, 1, &b))
			return -1;
		h.id = a;
		h.pid = b;
		v = value(l, 3, "args");
		while (v && *v) {
			if (h.nargs == KTP_PROBE_MAX_ARGS)
				return bad(s, l, "probe: at most %d args", KTP_PROBE_MAX_ARGS);
			end = strchr(v, ',');
			n = end ? (size_t)(end - v) : strlen(v);
			if (!strncmp(v, "s:", 2)) {
				if (slen + n - 2 > sizeof(strs))
					return bad(s, l, "probe: strings too long");
				h.strings |= 1u << h.nargs;
				args[h.nargs] = (uint64_t)(n - 2) << 32 | slen;	/* offset below */
				memcpy(strs + slen, v + 2, n - 2);
				slen += n - 2;
			} else {
				args[h.nargs] = strtoull(v, NULL, 0);
			}
			h.nargs++;
			v = end ? end + 1 : v + n;
		}
		/* A stack id after the arguments, before the strings. */
		extra = value(l, 3, "stack") ? 4 : 0;
		if (extra && num(s, l, "stack", 0, 1, &stack))
			return -1;
		size = sizeof(h) + 8 * h.nargs + extra;
		for (n = 0; n < h.nargs; n++)
			if (h.strings & 1u << n)
				args[n] += size;
		memcpy(buf, &h, sizeof(h));
		memcpy(buf + sizeof(h), args, 8 * h.nargs);
		if (extra)
			memcpy(buf + sizeof(h) + 8 * h.nargs, &(uint32_t){ (uint32_t)stack }, 4);
		memcpy(buf + size, strs, slen);
		stream_writer_record(w, buf, KTP_REC_PROBE,
				     (flag(l, 3, "ret") ? KTP_PROBE_HIT_RETURN : 0) |
				     (extra ? KTP_PROBE_HIT_STACK : 0),
				     (size + slen + 3) & ~3u, ts);
	}
	return 0;
}

/* A loss: the records of [last record, @ts) are dropped; a sub-buffer starts at @ts. */
static int put_lost(struct script *s, const struct line *l, struct stream_writer *w,
		    uint64_t ts)
{
	uint64_t n, skip;

	if (num(s, l, "n", 0, 1, &n) || num(s, l, "skip", 0, 0, &skip))
		return -1;
	stream_writer_drop(w, n);
	stream_writer_skip_subbufs(w, skip);
	w->ts = ts;
	stream_writer_subbuf(w);
	return 0;
}

/* The records with a fixed layout of u32/u64 fields, one table. */
static int put_simple(struct script *s, const struct line *l, struct stream_writer *w,
		      uint64_t ts, const char *rec)
{
	uint64_t a = 0, b = 0, c = 0;

	if (!strcmp(rec, "migrate")) {
		struct ktp_migrate r = { 0 };

		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "from", w->cpu, 0, &b) ||
		    num(s, l, "to", 0, 1, &c))
			return -1;
		r = (struct ktp_migrate){ .pid = a, .orig_cpu = b, .dest_cpu = c };
		stream_writer_record(w, &r, KTP_REC_MIGRATE, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "fork")) {
		struct ktp_fork r;

		if (num(s, l, "parent", 0, 1, &a) || num(s, l, "child", 0, 1, &b) ||
		    num(s, l, "tgid", b, 0, &c))
			return -1;
		r = (struct ktp_fork){ .parent_pid = a, .child_pid = b, .child_tgid = c };
		stream_writer_record(w, &r, KTP_REC_FORK, flag(l, 3, "thread") ? KTP_FORK_THREAD : 0,
				     sizeof(r), ts);
	} else if (!strcmp(rec, "exit")) {
		struct ktp_exit r;

		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "tgid", a, 0, &b) ||
		    num(s, l, "code", 0, 0, &c))
			return -1;
		r = (struct ktp_exit){ .pid = a, .tgid = b, .exit_code = (int32_t)c };
		stream_writer_record(w, &r, KTP_REC_EXIT, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "free")) {
		struct ktp_free r;

		if (num(s, l, "pid", 0, 1, &a))
			return -1;
		r = (struct ktp_free){ .pid = a };
		stream_writer_record(w, &r, KTP_REC_FREE, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "irq_entry") || !strcmp(rec, "irq_exit")) {
		struct ktp_irq r;
		int exit;

		if (num(s, l, "irq", 0, 1, &a) || num(s, l, "ret", 1, 0, &b))
			return -1;
		exit = !strcmp(rec, "irq_exit");

		r = (struct ktp_irq){ .irq = a, .ret = exit ? (int32_t)b : 0 };
		stream_writer_record(w, &r, exit ? KTP_REC_IRQ_EXIT : KTP_REC_IRQ_ENTRY, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "softirq_entry") || !strcmp(rec, "softirq_exit")) {
		struct ktp_softirq r;

		if (num(s, l, "vec", 0, 1, &a))
			return -1;
		r = (struct ktp_softirq){ .vec = a };
		stream_writer_record(w, &r, strcmp(rec, "softirq_exit") ? KTP_REC_SOFTIRQ_ENTRY :
				     KTP_REC_SOFTIRQ_EXIT, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "idle")) {
		struct ktp_idle r;
		const char *v = value(l, 3, "state");

		if (!v)
			return bad(s, l, "idle wants state=N or state=exit");
		r = (struct ktp_idle){ .state = !strcmp(v, "exit") ? KTP_IDLE_EXIT :
						(uint32_t)strtoul(v, NULL, 0) };
		stream_writer_record(w, &r, KTP_REC_IDLE, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "wakeup")) {
		struct ktp_wakeup r;

		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "target", w->cpu, 0, &b))
			return -1;
		r = (struct ktp_wakeup){ .pid = a, .target_cpu = b };
		stream_writer_record(w, &r, KTP_REC_WAKEUP, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "affinity")) {
		/* affinity pid=N cpus=0,2-3 [bits=N]: bits default to the CPUs' count. */
		struct {
			struct ktp_affinity a;
			uint32_t words[8];
		} r = { 0 };
		const char *v = value(l, 3, "cpus");
		char *end;

		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "bits", s->nr_cpus, 0, &b))
			return -1;
		if (!v || !b || b > 256)
			return bad(s, l, "affinity wants cpus=LIST and bits=1..256");
		while (*v) {
			unsigned long lo = strtoul(v, &end, 10), hi = lo;

			if (end == v)
				return bad(s, l, "bad cpus list");
			if (*end == '-')
				hi = strtoul(end + 1, &end, 10);
			if (hi < lo || hi >= b)
				return bad(s, l, "cpus beyond bits");
			for (; lo <= hi; lo++) {
				r.words[lo / 32] |= 1u << (lo % 32);
				r.a.nr_allowed++;
			}
			v = *end == ',' ? end + 1 : end;
			if (*end && *end != ',')
				return bad(s, l, "bad cpus list");
		}
		r.a.pid = a;
		r.a.nr_bits = b;
		stream_writer_record(w, &r, KTP_REC_AFFINITY, 0,
				     sizeof(r.a) + 4 * ((b + 31) / 32), ts);
	} else if (!strcmp(rec, "cgroup")) {
		/* cgroup pid=N id=N [attach] [threadgroup] */
		struct ktp_cgroup r = { 0 };

		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "id", 0, 1, &b))
			return -1;
		r.pid = a;
		r.id = b;
		stream_writer_record(w, &r, KTP_REC_CGROUP,
				     (flag(l, 3, "attach") ? KTP_CGROUP_ATTACH : 0) |
				     (flag(l, 3, "threadgroup") ? KTP_CGROUP_THREADGROUP : 0),
				     sizeof(r), ts);
	} else if (!strcmp(rec, "freq")) {
		struct ktp_freq r;

		if (num(s, l, "khz", 0, 1, &a) || num(s, l, "cpu", w->cpu, 0, &b))
			return -1;
		r = (struct ktp_freq){ .khz = a, .cpu = b };
		stream_writer_record(w, &r, KTP_REC_FREQ, 0, sizeof(r), ts);
	} else if (!strcmp(rec, "wq_start") || !strcmp(rec, "wq_end")) {
		struct ktp_wq r;

		if (num(s, l, "fn", 0, 1, &a) || num(s, l, "work", 0, 0, &b))
			return -1;
		r = (struct ktp_wq){ .function = a, .work = b };
		stream_writer_record(w, &r, rec[3] == 's' ? KTP_REC_WQ_START : KTP_REC_WQ_END, 0,
				     sizeof(r), ts);
	} else {
		return bad(s, l, "unknown record '%s'", rec);
	}
	return 0;
}

static int put_record(struct script *s, const struct line *l, uint64_t ts, unsigned int cpu)
{
	struct stream_writer *w = &s->cpu[cpu];
	const char *rec = l->word[2];
	uint64_t a, old;

	if (ts < w->ts)
		return bad(s, l, "time goes back on CPU %u", cpu);
	if (!strcmp(rec, "start"))
		return put_mark(s, l, w, ts, KTP_CPU_START);
	if (!strcmp(rec, "stop"))
		return put_mark(s, l, w, ts, KTP_CPU_STOP);
	if (!strcmp(rec, "online"))
		return put_mark(s, l, w, ts, KTP_CPU_ONLINE);
	if (!strcmp(rec, "offline"))
		return put_mark(s, l, w, ts, KTP_CPU_OFFLINE);
	if (!strcmp(rec, "task"))
		return put_task(s, l, w, ts);
	if (!strcmp(rec, "switch"))
		return put_switch(s, l, w, ts);
	if (!strcmp(rec, "waking"))
		return put_waking(s, l, w, ts);
	if (!strcmp(rec, "ipi"))
		return put_ipi(s, l, w, ts);
	if (!strcmp(rec, "sample"))
		return put_sample(s, l, w, ts);
	if (!strcmp(rec, "stack"))
		return put_stack(s, l, w, ts);
	if (!strcmp(rec, "lost"))
		return put_lost(s, l, w, ts);
	if (!strncmp(rec, "scx_", 4))
		return put_scx(s, l, w, ts, rec);
	if (!strcmp(rec, "probe") || !strcmp(rec, "mark"))
		return put_probe(s, l, w, ts, rec);
	if (!strcmp(rec, "exec")) {
		struct ktp_exec r = { 0 };
		const char *file = value(l, 3, "file");

		if (num(s, l, "pid", 0, 1, &a) || num(s, l, "old", a, 0, &old))
			return -1;
		r.pid = a;
		r.old_pid = old;
		put_string(w, ts, KTP_REC_EXEC, 0, &r, sizeof(r), file ? file : "");
		return 0;
	}
	if (!strcmp(rec, "irq_name")) {
		struct ktp_irq_name r = { 0 };
		const char *name = value(l, 3, "name");

		if (num(s, l, "irq", 0, 1, &a))
			return -1;
		r.irq = a;
		put_string(w, ts, KTP_REC_IRQ_NAME, 0, &r, sizeof(r), name ? name : "");
		return 0;
	}
	return put_simple(s, l, w, ts, rec);
}

static int header_line(struct script *s, const struct line *l)
{
	char *end;

	if (!strcmp(l->word[0], "cpus")) {
		unsigned long n = l->n == 2 ? strtoul(l->word[1], &end, 10) : 0;
		unsigned int i;

		if (s->nr_cpus || !n || n > SCRIPT_MAX_CPUS)
			return bad(s, l, "cpus N, once, N from 1 to %d", SCRIPT_MAX_CPUS);
		s->nr_cpus = n;
		for (i = 0; i < n; i++) {
			stream_writer_init(&s->cpu[i], i, 262144, s->start);
			if (s->cycles)
				stream_writer_use_cycles(&s->cpu[i]);
		}
		return 0;
	}
	if (!strcmp(l->word[0], "stop")) {
		if (l->n != 2)
			return bad(s, l, "stop T");
		s->stop = s->start + strtoull(l->word[1], NULL, 0);
		return 0;
	}
	if (!strcmp(l->word[0], "online")) {
		if (l->n != 2 || strlen(l->word[1]) >= sizeof(s->online))
			return bad(s, l, "online CPULIST");
		strcpy(s->online, l->word[1]);
		return 0;
	}
	if (!strcmp(l->word[0], "probe") || !strcmp(l->word[0], "probe_stats")) {
		char *t = l->word[0][5] ? s->probe_stats : s->probes;
		size_t len = strlen(t), cap = l->word[0][5] ? sizeof(s->probe_stats) :
					      sizeof(s->probes);
		unsigned int i;

		for (i = 1; i < l->n; i++) {
			int n = snprintf(t + len, cap - len, "%s%s", l->word[i],
					 i + 1 < l->n ? " " : "\n");

			if (n < 0 || (size_t)n >= cap - len)
				return bad(s, l, "%s: the text is full", l->word[0]);
			len += n;
		}
		return 0;
	}
	if (!strcmp(l->word[0], "span")) {
		size_t len = strlen(s->spans);
		int n = l->n == 2 ? snprintf(s->spans + len, sizeof(s->spans) - len, "%s\n",
					     l->word[1]) : -1;

		if (n < 0 || (size_t)n >= sizeof(s->spans) - len)
			return bad(s, l, "span NAME=BEGIN,END, the list not full");
		return 0;
	}
	if (!strcmp(l->word[0], "cgroup_path")) {
		int at_stop = l->n == 4 && !strcmp(l->word[3], "stop");
		char *t = s->cgroups[at_stop];
		size_t len = strlen(t);
		int n;

		if (l->n != 3 && !at_stop)
			return bad(s, l, "cgroup_path ID PATH [stop]");
		n = snprintf(t + len, sizeof(s->cgroups[0]) - len, "%s %s\n", l->word[1], l->word[2]);
		if (n < 0 || (size_t)n >= sizeof(s->cgroups[0]) - len)
			return bad(s, l, "cgroup_path: the table is full");
		return 0;
	}
	if (!strcmp(l->word[0], "schedstat")) {
		int at_stop = l->n > 1 && !strcmp(l->word[1], "stop");
		char *t = s->schedstat[at_stop];
		size_t len = strlen(t);
		unsigned int i;

		if (l->n < 3 || (!at_stop && strcmp(l->word[1], "start")))
			return bad(s, l, "schedstat start|stop WORDS...");
		for (i = 2; i < l->n; i++) {
			int n = snprintf(t + len, sizeof(s->schedstat[0]) - len, "%s%s",
					 l->word[i], i + 1 < l->n ? " " : "\n");

			if (n < 0 || (size_t)n >= sizeof(s->schedstat[0]) - len)
				return bad(s, l, "schedstat: the text is full");
			len += n;
		}
		return 0;
	}
	if (!strcmp(l->word[0], "schedstats_enabled")) {
		if (l->n != 2)
			return bad(s, l, "schedstats_enabled 0|1");
		s->schedstats_enabled = !!atoi(l->word[1]);
		return 0;
	}
	if (!strcmp(l->word[0], "cgroup_cpu")) {
		int at_stop = !strcmp(l->word[l->n - 1], "stop");
		char *t = s->cgroup_cpu[at_stop];
		size_t len = strlen(t);
		unsigned int i;

		if (l->n < 3 || (at_stop ? 0 : strcmp(l->word[l->n - 1], "start")))
			return bad(s, l, "cgroup_cpu ID KEY=N... start|stop");
		for (i = 1; i < l->n - 1; i++) {
			int n = snprintf(t + len, sizeof(s->cgroup_cpu[0]) - len, "%s%s",
					 l->word[i], i + 2 < l->n ? " " : "\n");

			if (n < 0 || (size_t)n >= sizeof(s->cgroup_cpu[0]) - len)
				return bad(s, l, "cgroup_cpu: the table is full");
			len += n;
		}
		return 0;
	}
	if (!strcmp(l->word[0], "topology")) {
		struct script_topo *t = &s->topo[s->nr_topo];

		const char *v;
		unsigned int i;

		if (l->n < 6 || s->nr_topo == SCRIPT_MAX_CPUS)
			return bad(s, l, "topology CPU PACKAGE CORE LLC NODE [khz=N] [idle=...]");
		memset(t, 0, sizeof(*t));
		for (i = 6; i < l->n; i++) {
			if (!strncmp(l->word[i], "khz=", 4))
				t->khz = strtoul(l->word[i] + 4, NULL, 0);
			else if (!strncmp(l->word[i], "idle=", 5) &&
				 strlen(v = l->word[i] + 5) < sizeof(t->idle))
				strcpy(t->idle, v);
			else
				return bad(s, l, "topology: unknown '%s'", l->word[i]);
		}
		t->cpu = atoi(l->word[1]);
		t->package = atoi(l->word[2]);
		t->core = atoi(l->word[3]);
		t->llc = atoi(l->word[4]);
		t->node = atoi(l->word[5]);
		s->nr_topo++;
		return 0;
	}
	return 1;
}

static int take_line(struct script *s, struct line *l)
{
	unsigned long cpu;
	uint64_t ts;
	char *end;
	int ret = header_line(s, l);

	if (ret <= 0)
		return ret;
	if (!s->nr_cpus)
		return bad(s, l, "'cpus N' must come first");
	if (l->n < 3)
		return bad(s, l, "want: TIME CPU RECORD [KEY=VALUE...]");
	ts = strtoull(l->word[0], &end, 0);
	if (*end)
		return bad(s, l, "'%s' is not a time", l->word[0]);
	cpu = strtoul(l->word[1], &end, 10);
	if (*end || cpu >= s->nr_cpus)
		return bad(s, l, "'%s' is not a CPU of the script", l->word[1]);
	return put_record(s, l, s->start + s->offset + ts, cpu);
}

static unsigned int split(char *buf, struct line *l)
{
	char *save = NULL, *w, *hash = strchr(buf, '#');

	if (hash)
		*hash = '\0';
	l->n = 0;
	for (w = strtok_r(buf, " \t\r\n", &save); w && l->n < MAX_WORDS;
	     w = strtok_r(NULL, " \t\r\n", &save))
		l->word[l->n++] = w;
	return l->n;
}

#define REPEAT_MAX_LINES 64

/* The lines of a repeat block, run @n times, @step ns apart from @first. */
static int repeat(struct script *s, FILE *in, struct line *l)
{
	char block[REPEAT_MAX_LINES][512], buf[512];
	unsigned long n, step, first, i, k, lines = 0;
	unsigned int at = l->no;

	if (l->n < 3 || l->n > 4)
		return bad(s, l, "repeat N STEP [FIRST] ... end");
	n = strtoul(l->word[1], NULL, 0);
	step = strtoul(l->word[2], NULL, 0);
	first = l->n == 4 ? strtoul(l->word[3], NULL, 0) : 0;
	while (fgets(buf, sizeof(buf), in)) {
		l->no++;
		snprintf(block[lines], sizeof(block[lines]), "%s", buf);
		if (split(buf, l) == 1 && !strcmp(l->word[0], "end"))
			break;
		if (l->n && ++lines == REPEAT_MAX_LINES)
			return bad(s, l, "a repeat block holds at most %d lines", REPEAT_MAX_LINES);
	}
	for (i = 0; i < n; i++) {
		s->offset = first + i * step;
		for (k = 0; k < lines; k++) {
			snprintf(buf, sizeof(buf), "%s", block[k]);
			l->no = at + 1 + k;
			if (split(buf, l) && take_line(s, l))
				return -1;
		}
	}
	s->offset = 0;
	return 0;
}

int script_read(struct script *s, FILE *in, uint64_t start, unsigned int flags)
{
	char buf[4096];
	struct line l = { 0 };

	memset(s, 0, sizeof(*s));
	s->start = start;
	s->cycles = !!(flags & SCRIPT_CYCLES);
	s->schedstats_enabled = -1;
	while (fgets(buf, sizeof(buf), in)) {
		l.no++;
		if (!split(buf, &l))
			continue;
		if (!strcmp(l.word[0], "repeat")) {
			if (repeat(s, in, &l))
				return -1;
		} else if (take_line(s, &l)) {
			return -1;
		}
	}
	if (!s->nr_cpus) {
		snprintf(s->error, sizeof(s->error), "no 'cpus N' line");
		return -1;
	}
	return 0;
}
