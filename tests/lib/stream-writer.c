// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "stream-writer.h"

static void *grow(struct stream_writer *w, size_t n)
{
	void *p;

	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;

		while (cap < w->len + n)
			cap *= 2;
		w->buf = realloc(w->buf, cap);
		if (!w->buf)
			abort();
		w->cap = cap;
	}
	p = w->buf + w->len;
	memset(p, 0, n);
	w->len += n;
	return p;
}

void stream_writer_init(struct stream_writer *w, uint16_t cpu, size_t subbuf_size,
			uint64_t start_ts)
{
	memset(w, 0, sizeof(*w));
	w->cpu = cpu;
	w->subbuf_size = subbuf_size;
	w->ts = start_ts;
	w->session_id = 0x5e5510;
}

void stream_writer_fini(struct stream_writer *w)
{
	free(w->buf);
	w->buf = NULL;
}

void stream_writer_subbuf(struct stream_writer *w)
{
	struct ktp_subbuf sb = {
		.h = { .type = KTP_REC_SUBBUF, .size = sizeof(sb) },
		.magic = KTP_SUBBUF_MAGIC,
		.cpu = w->cpu,
		.abi_major = KTP_ABI_MAJOR,
		.abi_minor = KTP_ABI_MINOR,
		.seq = w->seq++,
		.lost = w->lost,
		.ts = w->ts,
		.session_id = w->session_id,
	};

	memcpy(grow(w, sizeof(sb)), &sb, sizeof(sb));
	w->subbuf_used = sizeof(sb);
}

void stream_writer_drop(struct stream_writer *w, uint64_t n)
{
	w->lost += n;
}

void stream_writer_skip_subbufs(struct stream_writer *w, uint64_t n)
{
	w->seq += n;
}

void stream_writer_record(struct stream_writer *w, void *rec, uint8_t type, uint8_t flags,
			  uint16_t size, uint64_t ts)
{
	struct ktp_hdr h = { .type = type, .flags = flags, .size = size };

	if (!w->subbuf_used ||
	    (w->subbuf_size && w->subbuf_used + size > w->subbuf_size)) {
		w->ts = ts;
		stream_writer_subbuf(w);
	}
	if (ts - w->ts > UINT32_MAX) {
		struct ktp_time t = {
			.h = { .type = KTP_REC_TIME, .size = sizeof(t) },
			.ts = ts,
		};

		memcpy(grow(w, sizeof(t)), &t, sizeof(t));
		w->ts = ts;
		w->subbuf_used += sizeof(t);
		w->records++;
	}
	h.ts_delta = ts - w->ts;
	memcpy(rec, &h, sizeof(h));
	memcpy(grow(w, size), rec, size);
	w->ts = ts;
	w->subbuf_used += size;
	w->records++;
}

void stream_writer_cpu_mark(struct stream_writer *w, uint64_t ts, uint16_t reason,
			    uint32_t pid)
{
	struct ktp_cpu_mark m = {
		.pid = pid, .reason = reason, .prio = 120,
		.records = w->records, .lost = w->lost,
	};

	stream_writer_record(w, &m, KTP_REC_CPU, 0, sizeof(m), ts);
}

void stream_writer_task(struct stream_writer *w, uint64_t ts, uint32_t pid,
			uint32_t tgid, const char *comm)
{
	struct ktp_task t = { .pid = pid, .tgid = tgid, .ppid = 1, .prio = 120 };

	strncpy(t.comm, comm, KTP_COMM_LEN - 1);
	stream_writer_record(w, &t, KTP_REC_TASK, 0, sizeof(t), ts);
}

void stream_writer_switch(struct stream_writer *w, uint64_t ts, uint32_t prev,
			  uint16_t prev_state, uint32_t next)
{
	struct ktp_switch s = {
		.prev_pid = prev, .next_pid = next, .prev_state = prev_state,
		.prev_prio = 120, .next_prio = 120,
	};

	stream_writer_record(w, &s, KTP_REC_SWITCH, 0, sizeof(s), ts);
}

void stream_writer_waking(struct stream_writer *w, uint64_t ts, uint32_t pid,
			  uint16_t target_cpu)
{
	struct ktp_waking k = { .pid = pid, .target_cpu = target_cpu, .prio = 120 };

	stream_writer_record(w, &k, KTP_REC_WAKING, 0, sizeof(k), ts);
}

void stream_writer_selftest(struct stream_writer *w, uint64_t ts, uint64_t seq)
{
	struct ktp_selftest s = { .seq = seq };

	stream_writer_record(w, &s, KTP_REC_SELFTEST, 0, sizeof(s), ts);
}

void stream_writer_bytes(struct stream_writer *w, const void *p, size_t n)
{
	memcpy(grow(w, n), p, n);
}
