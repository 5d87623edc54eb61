/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of each record type, named once for every output format: a
 * printer (text, JSON) supplies a sink and gets each field in turn.
 */
#ifndef KTPROF_RECORD_H
#define KTPROF_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "decode/relay-decode.h"

struct record_sink {
	void (*u64)(void *ctx, const char *key, uint64_t v);
	void (*s64)(void *ctx, const char *key, int64_t v);
	void (*hex)(void *ctx, const char *key, uint64_t v);
	void (*str)(void *ctx, const char *key, const char *v);
};

/* Call @sink for every field of @ev (type, time and CPU excluded). */
void record_fields(const struct event *ev, const struct record_sink *sink,
		   void *ctx);

/* prev_state as the kernel's trace prints it: "S", "D", "R", "R+", "S|D"... */
const char *record_state_str(uint16_t state, char *buf, unsigned int len);

/*
 * The targets of a multi-CPU IPI record (flags > 0) as a CPU list, "0-3,6",
 * in @buf; too many to fit end in "...".
 */
const char *record_ipi_targets(const struct event *ev, char *buf, size_t len);

/*
 * The stack id a switch (-S offcpu), a waking (-S waker) or a probe's hit
 * (its spec's stack) carries, 0 when it has none; see struct ktp_stack.
 */
uint32_t record_stack_id(const struct event *ev);

/* A switch's number of counter deltas (--pmu). */
static inline unsigned int record_switch_counters(const struct event *ev)
{
	return ev->flags & KTP_SWITCH_COUNTERS;
}

/* sched_ext's DSQ id bits (include/linux/sched/ext.h, enum scx_dsq_id_flags). */
#define RECORD_DSQ_BUILTIN (1ULL << 63)
#define RECORD_DSQ_LOCAL_ON (1ULL << 62)
#define RECORD_DSQ_GLOBAL (RECORD_DSQ_BUILTIN | 1)
#define RECORD_DSQ_LOCAL (RECORD_DSQ_BUILTIN | 2)

/* A DSQ id's name: "global", "local", "bypass", "local_on:3", or the number. */
const char *record_dsq_name(uint64_t id, char *buf, unsigned int len);

/*
 * Whether DSQ id @id is a per-CPU built-in one (local, bypass): its label
 * names the CPU.
 */
static inline int record_dsq_per_cpu(uint64_t id)
{
	return (id & RECORD_DSQ_BUILTIN) && id != RECORD_DSQ_GLOBAL && !(id & RECORD_DSQ_LOCAL_ON);
}

/* One DSQ's key in a session: its id and uid together (several share an id). */
static inline uint64_t record_dsq_key(uint64_t id, uint32_t uid)
{
	return (uint64_t)uid << 32 ^ id ^ id >> 32;
}

/*
 * A DSQ as reports and traces label it: the per-CPU built-in ones (local,
 * bypass) with the CPU of the first task seen on them, "local:1"; the
 * others by their name.
 */
const char *record_dsq_label(uint64_t id, uint32_t cpu, char *buf, unsigned int len);

/*
 * A PROBE record's argument @i: its number in *@v, or for a string
 * argument its bytes in *@s (*@len of them, not NUL-terminated; *@s is
 * NULL for a number). -1 when the record has no argument @i or the
 * string's place is outside the record.
 */
int record_probe_arg(const struct event *ev, unsigned int i, uint64_t *v,
		     const char **s, uint32_t *len);

/* A MARK record's text (*@len bytes, not NUL-terminated). */
const char *record_mark_text(const struct event *ev, uint32_t *len);

/* A stored priority back to the kernel's: KTP_PRIO_DL is -1. */
int record_prio(uint8_t prio);

/*
 * An AFFINITY record's mask: bit @cpu (0 beyond the record's bits). The
 * decoder checked its size against its nr_bits.
 */
int record_affinity_has(const struct event *ev, uint32_t cpu);

/* Its CPUs as a list, "0-3,6", cut with "..." where @len ends. */
const char *record_affinity_list(const struct event *ev, char *buf, size_t len);

#endif
