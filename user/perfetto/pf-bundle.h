/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's FtraceEventBundle being filled: switches and wakings as the
 * compact_sched arrays (comms through the bundle's intern table), other
 * events as plain FtraceEvents; then encoded by hand (see pb.h) into
 * a TracePacket, because this runs for every scheduler event.
 */
#ifndef KTPROF_PF_BUNDLE_H
#define KTPROF_PF_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "perfetto/pb.h"

/*
 * At most this many events of each kind a bundle. The arrays grow to it
 * from BUNDLE_EVENTS_MIN as the CPU's events come: a capture may claim
 * thousands of CPUs with a few events each.
 */
#define BUNDLE_EVENTS 4096
#define BUNDLE_EVENTS_MIN 8

/*
 * The plain events: each is one Perfetto ftrace event, its numbers and
 * strings in the slots the encoder's table names.
 */
enum pf_plain_kind {
	PLAIN_WAKEUP_NEW = 1,	/* comm s1, pid a, prio b, target_cpu c */
	PLAIN_MIGRATE,		/* comm s1, pid a, orig_cpu c, dest_cpu d */
	PLAIN_FORK,		/* parent_comm s1, parent_pid a, child_comm s2,
				 * child_pid b */
	PLAIN_NEWTASK,		/* pid a, comm s1, clone_flags b */
	PLAIN_RENAME,		/* pid a, oldcomm s1, newcomm s2 */
	PLAIN_EXEC,		/* filename s1, pid a, old_pid b */
	PLAIN_EXIT,		/* comm s1, pid a, tgid b */
	PLAIN_FREE,		/* comm s1, pid a */
	PLAIN_IRQ_ENTRY,	/* irq a, name s1 */
	PLAIN_IRQ_EXIT,		/* irq a, ret b */
	PLAIN_SOFTIRQ_ENTRY,	/* vec a */
	PLAIN_SOFTIRQ_EXIT,	/* vec a */
	PLAIN_CPU_IDLE,		/* state a, cpu_id b */
	PLAIN_CPU_FREQUENCY,	/* state (kHz) a, cpu_id b */
	PLAIN_NR_KINDS
};

struct pf_plain {
	uint64_t ts;
	uint32_t pid;		/* running on the CPU */
	enum pf_plain_kind kind;
	int64_t a, b, c, d;
	char *s1, *s2;		/* owned */
};

struct pf_bundle {
	uint64_t *sw_ts;
	int64_t *sw_state;
	int32_t *sw_pid, *sw_prio;
	uint32_t *sw_comm;
	size_t nsw;
	uint64_t *wk_ts;
	int32_t *wk_pid, *wk_cpu, *wk_prio;
	uint32_t *wk_comm;
	size_t nwk;
	char **intern;
	size_t nintern;
	uint32_t *intern_slots;	/* hash -> generation << 16 | index + 1 */
	uint16_t intern_gen;
	size_t cap;		/* room in each array, in events */
	struct pf_plain *plain;
	size_t nplain;
	int lost;		/* data was lost before these events */
};

/* A zeroed bundle is empty and holds no memory; this frees what it grew. */
void pf_bundle_fini(struct pf_bundle *b);

/*
 * Grow the arrays so that each kind has room for @n more events; call
 * when not pf_bundle_full() and @n fits below BUNDLE_EVENTS. 0 or -ENOMEM
 * (the bundle is kept as it was).
 */
int pf_bundle_room(struct pf_bundle *b, size_t n);

/* Room for one more event of every kind? */
static inline int pf_bundle_full(const struct pf_bundle *b)
{
	return b->nsw == BUNDLE_EVENTS || b->nwk == BUNDLE_EVENTS ||
	       b->nplain == BUNDLE_EVENTS;
}

static inline int pf_bundle_empty(const struct pf_bundle *b)
{
	return !b->nsw && !b->nwk && !b->nplain && !b->lost;
}

/* Each returns 0 or -ENOMEM. */
int pf_bundle_switch(struct pf_bundle *b, uint64_t ts, int64_t prev_state,
		     int32_t next_pid, int32_t next_prio, const char *next_comm);
int pf_bundle_waking(struct pf_bundle *b, uint64_t ts, int32_t pid, int32_t target_cpu,
		     int32_t prio, const char *comm);

/* The running task is unknown (after lost records): no FtraceEvent.pid. */
#define PF_PID_UNKNOWN UINT32_MAX

/* A zeroed plain event to fill in (strings malloc'ed: the bundle frees them). */
struct pf_plain *pf_bundle_plain(struct pf_bundle *b, uint64_t ts, uint32_t pid,
				 enum pf_plain_kind kind);

/*
 * The TracePacket (on sequence @seq_id) of the bundle of CPU @cpu, into
 * @out; then the bundle is empty again. 0, or -EMSGSIZE if @out was too
 * small (the bundle is kept: retry with a larger buffer).
 */
int pf_bundle_encode(struct pf_bundle *b, uint32_t cpu, uint32_t seq_id,
		     struct pb_buf *out);

/* Drop the events (after an error). */
void pf_bundle_reset(struct pf_bundle *b);

#endif
