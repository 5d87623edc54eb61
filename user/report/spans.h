/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spans, paired per thread, from one source: begin and end markers
 * (ktprof mark --begin/--end, "B TEXT" and "E TEXT" written to the
 * module's marker file), or a pair of probes (record --span NAME=BEGIN,END,
 * decode/span-spec.h: a hit of BEGIN begins, one of END ends). Each
 * thread has a stack of open begins of the source, and an end closes its
 * thread's innermost one (spans nest; a marker end's text is not
 * compared: a span is named by its begin's text, a probe pair's by the
 * pair). While a span is open, its thread's time in each scheduler state
 * is added up from the model's state_time; at the end, the time since the
 * thread's last change of state is in the state it is in. Per span name:
 * the count, the durations and the state times summed, and the durations
 * of the processes and the threads with the most spans. `convert` pairs
 * them the same way (its thread view's span tracks).
 */
#ifndef KTPROF_SPANS_H
#define KTPROF_SPANS_H

#include <stdint.h>
#include <stdio.h>

#include "decode/event.h"
#include "decode/span-spec.h"
#include "model/sched.h"
#include "report/hist.h"
#include "report/json-doc.h"
#include "util/str-intern.h"
#include "util/u64-map.h"

/* Processes and threads listed per span name; the rest's spans summed. */
#define SPANS_TOP 10

/* The spans of a name of one thread (key: its thread key) or process (key: its tgid). */
struct span_who {
	uint64_t key;
	struct hist d;		/* durations, ns */
};

/* The spans of one name. */
struct span_name {
	struct hist d;		/* durations, ns */
	uint64_t state_ns[SCHED_NR_STATES];	/* its threads' time in each state */
	struct u64_map by_thread;	/* thread key -> its durations (struct hist *) */
	/*
	 * After spans_finish(): the processes and threads with the most spans
	 * (ties: the smaller tgid, pid), at most SPANS_TOP each, and the
	 * spans of the others.
	 */
	struct span_who *procs, *threads;
	unsigned int nprocs, nthreads;
	uint64_t other_procs, other_threads;
};

struct spans {
	const struct sched *sched;
	const struct span_spec *pair;	/* the probe pair; NULL: markers */
	struct u64_map stacks;	/* thread index (or SPANS_NO_THREAD | pid)
				 * -> its open spans, innermost last */
	struct str_intern names;
	struct span_name *by_name;	/* by the name's id */
	uint32_t cap;
	uint32_t *order;	/* after spans_finish(): the names' ids, the
				 * most spans first (ties: by name) */
	uint64_t unmatched_begin;	/* after spans_finish() */
	uint64_t unmatched_end;
};

/*
 * A begin or end of a pid the model has no thread for: its spans, without
 * states; a process of its own.
 */
#define SPANS_NO_THREAD (1ull << 32)

/* A thread key's thread id, and its process's. */
uint32_t spans_key_pid(const struct sched *sched, uint64_t key);
uint32_t spans_key_tgid(const struct sched *sched, uint64_t key);

/* The spans of markers (@pair NULL) or of the probe pair @pair (kept by the caller). */
void spans_init(struct spans *s, const struct sched *sched, const struct span_spec *pair);
void spans_fini(struct spans *s);

/*
 * An event: a MARK record (markers) or a PROBE record (a probe pair) may
 * begin or end a span; others do nothing. 0 or -ENOMEM.
 */
int spans_event(struct spans *s, const struct event *ev);

/* The model's state_time: thread @t in @state during [from, to). */
void spans_state_time(struct spans *s, uint32_t t, enum sched_state state,
		      uint64_t from, uint64_t to);

/*
 * After the pass: the begins still open are unmatched; the names ordered
 * (a probe pair has its one name, if no span of it ended). 0 or -ENOMEM.
 */
int spans_finish(struct spans *s);

static inline uint32_t spans_count(const struct spans *s)
{
	return s->names.n;
}

static inline const char *spans_name(const struct spans *s, uint32_t id)
{
	return str_intern_get(&s->names, id);
}

/* The time of @n's spans in no known state: unknown time, or a thread not known. */
static inline uint64_t span_unknown_ns(const struct span_name *n)
{
	uint64_t known = 0;
	int k;

	for (k = 0; k < SCHED_NR_STATES; k++)
		if (k != SCHED_UNKNOWN)
			known += n->state_ns[k];
	return n->d.sum > known ? n->d.sum - known : 0;
}

struct report;

/*
 * Text: a line of each of @m's names, the most spans first, at most @top,
 * with its busiest processes and threads (@r names them), under @what
 * ("spans (begin and end markers)") and the unmatched counts. HTML: a
 * table of the names.
 */
void spans_text(FILE *out, const struct report *r, const struct spans *m, const char *what,
		unsigned int top);
void spans_html(FILE *f, const struct spans *m, const char *what, unsigned int top);

/*
 * JSON: a span name's duration, states, processes and threads, the
 * context's item its struct span_name.
 */
extern const struct json_field spans_name_fields[];

#endif
