/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One TrackEvent packet, built field by field and encoded by hand (see
 * pb.h): the thread view writes one to three per scheduler event.
 */
#ifndef KTPROF_TRACK_EVENT_H
#define KTPROF_TRACK_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "perfetto/pb.h"

#define TRACK_EVENT_MAX_ANN 12
/*
 * Room a packet may need: callers keep names and strings under 512 bytes,
 * and a callstack to TRACK_EVENT_MAX_FRAMES names under 128.
 */
#define TRACK_EVENT_MAX_FRAMES 32
#define TRACK_EVENT_MAX_BYTES (8192 + TRACK_EVENT_MAX_FRAMES * 136)

enum track_event_type { TRACK_EVENT_SLICE_BEGIN = 1, TRACK_EVENT_SLICE_END = 2, TRACK_EVENT_INSTANT = 3,
		       TRACK_EVENT_COUNTER = 4 };
enum track_event_ann_kind { TRACK_EVENT_UINT, TRACK_EVENT_STR, TRACK_EVENT_BOOL, TRACK_EVENT_INT };

struct track_event_ann {
	uint64_t name_iid;	/* interned name, or 0 and @name */
	const char *name;
	enum track_event_ann_kind kind;
	uint64_t u;		/* TRACK_EVENT_UINT, TRACK_EVENT_BOOL; TRACK_EVENT_INT's bits */
	const char *s;		/* TRACK_EVENT_STR */
};

struct track_event {
	uint64_t ts, track;
	enum track_event_type type;
	uint64_t name_iid;	/* interned name, or 0 and @name (may be NULL) */
	const char *name;
	uint32_t seq_id, seq_flags;
	struct track_event_ann ann[TRACK_EVENT_MAX_ANN];
	unsigned int nann;
	uint64_t flows[2], term[2];
	unsigned int nflows, nterm;
	int64_t counter;	/* TRACK_EVENT_COUNTER: the value */
	/* A callstack, outermost frame first (names kept by the caller). */
	const char *const *frames;
	unsigned int nframes;
};

static inline void track_event_init(struct track_event *e, uint64_t ts, uint64_t track,
			   enum track_event_type type)
{
	e->ts = ts;
	e->track = track;
	e->type = type;
	e->name_iid = 0;
	e->name = NULL;
	e->nann = e->nflows = e->nterm = 0;
	e->frames = NULL;
	e->nframes = 0;
}

static inline struct track_event_ann *track_event_ann(struct track_event *e, uint64_t name_iid, const char *name,
				    enum track_event_ann_kind kind)
{
	struct track_event_ann *a = &e->ann[e->nann < TRACK_EVENT_MAX_ANN ? e->nann++ : TRACK_EVENT_MAX_ANN - 1];

	a->name_iid = name_iid;
	a->name = name;
	a->kind = kind;
	return a;
}

static inline void track_event_uint(struct track_event *e, uint64_t iid, const char *name, uint64_t v)
{
	track_event_ann(e, iid, name, TRACK_EVENT_UINT)->u = v;
}

static inline void track_event_int(struct track_event *e, uint64_t iid, const char *name, int64_t v)
{
	track_event_ann(e, iid, name, TRACK_EVENT_INT)->u = (uint64_t)v;
}

static inline void track_event_bool(struct track_event *e, uint64_t iid, const char *name, int v)
{
	track_event_ann(e, iid, name, TRACK_EVENT_BOOL)->u = !!v;
}

static inline void track_event_str(struct track_event *e, uint64_t iid, const char *name, const char *v)
{
	track_event_ann(e, iid, name, TRACK_EVENT_STR)->s = v;
}

/* The TracePacket fields of @e, appended to @out (out->overflow if too small). */
void track_event_encode(const struct track_event *e, struct pb_buf *out);

#endif
