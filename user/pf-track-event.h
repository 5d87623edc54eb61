/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One TrackEvent packet, built field by field and encoded by hand (see
 * pb-enc.h): the thread view writes one to three per scheduler event.
 */
#ifndef KTPROF_PF_TRACK_EVENT_H
#define KTPROF_PF_TRACK_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "pb-enc.h"

#define TE_MAX_ANN 12
/* Room a packet may need: callers keep names and strings under 512 bytes. */
#define TE_MAX_BYTES 8192

enum te_type { TE_SLICE_BEGIN = 1, TE_SLICE_END = 2, TE_INSTANT = 3 };
enum te_ann_kind { TE_UINT, TE_STR, TE_BOOL };

struct te_ann {
	uint64_t name_iid;	/* interned name, or 0 and @name */
	const char *name;
	enum te_ann_kind kind;
	uint64_t u;		/* TE_UINT, TE_BOOL */
	const char *s;		/* TE_STR */
};

struct te {
	uint64_t ts, track;
	enum te_type type;
	uint64_t name_iid;	/* interned name, or 0 and @name (may be NULL) */
	const char *name;
	uint32_t seq_id, seq_flags;
	struct te_ann ann[TE_MAX_ANN];
	unsigned int nann;
	uint64_t flows[2], term[2];
	unsigned int nflows, nterm;
};

static inline void te_init(struct te *e, uint64_t ts, uint64_t track,
			   enum te_type type)
{
	e->ts = ts;
	e->track = track;
	e->type = type;
	e->name_iid = 0;
	e->name = NULL;
	e->nann = e->nflows = e->nterm = 0;
}

static inline struct te_ann *te_ann(struct te *e, uint64_t name_iid, const char *name,
				    enum te_ann_kind kind)
{
	struct te_ann *a = &e->ann[e->nann < TE_MAX_ANN ? e->nann++ : TE_MAX_ANN - 1];

	a->name_iid = name_iid;
	a->name = name;
	a->kind = kind;
	return a;
}

static inline void te_uint(struct te *e, uint64_t iid, const char *name, uint64_t v)
{
	te_ann(e, iid, name, TE_UINT)->u = v;
}

static inline void te_bool(struct te *e, uint64_t iid, const char *name, int v)
{
	te_ann(e, iid, name, TE_BOOL)->u = !!v;
}

static inline void te_str(struct te *e, uint64_t iid, const char *name, const char *v)
{
	te_ann(e, iid, name, TE_STR)->s = v;
}

/* The TracePacket fields of @e, appended to @out (out->overflow if too small). */
void te_encode(const struct te *e, struct pb_buf *out);

#endif
