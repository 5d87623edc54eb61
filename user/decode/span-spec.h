/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spans of a pair of probes (record --span): their text, parsed.
 *
 *   NAME=BEGIN,END
 *
 * BEGIN and END name two probes of the session (record --probe's NAME,
 * or its default name): on each thread, a hit of BEGIN opens a span
 * named NAME and a hit of END closes that thread's innermost open one
 * (spans of one pair nest, as begin and end markers do; each pair pairs
 * on its own). NAME and the probe names hold letters, digits, _, . and
 * %, and do not start with a digit. A capture keeps each span as
 * span_spec_format() writes it, one a line, in its meta (span_table),
 * by the probes' names: its readers find their ids in the capture's
 * probe list.
 */
#ifndef KTPROF_SPAN_SPEC_H
#define KTPROF_SPAN_SPEC_H

#include "decode/probe-spec.h"
#include "util/error.h"

/* Spans a session may define. */
#define SPAN_TABLE_MAX 32

struct span_spec {
	char name[PROBE_NAME_MAX];
	char begin[PROBE_NAME_MAX], end[PROBE_NAME_MAX];	/* probe names */
	unsigned int begin_id, end_id;	/* after span_spec_resolve() */
};

/* Parse @text (see above) into @s. -EINVAL with the reason in @err. */
int span_spec_parse(const char *text, struct span_spec *s, struct error *err);

/* @s as text span_spec_parse() reads back, in @buf. */
const char *span_spec_format(const struct span_spec *s, char *buf, unsigned int len);

/*
 * The ids of @s's probes in @probes; -ENOENT with the reason in @err when
 * either is not there, -EINVAL when both are one probe.
 */
int span_spec_resolve(struct span_spec *s, const struct probe_table *probes,
		      struct error *err);

/* A capture's spans, each resolved. */
struct span_table {
	unsigned int n;
	struct span_spec *spans;
};

/*
 * Parse meta text, one span_spec_format() line each, against the
 * capture's @probes; an empty table for NULL. A line that does not parse
 * or resolve, or a name given twice: -EINVAL (the line in @err), the
 * table empty.
 */
int span_table_parse(const char *text, const struct probe_table *probes,
		     struct span_table *t, struct error *err);
void span_table_fini(struct span_table *t);

/* Span @i, or NULL. */
static inline const struct span_spec *span_table_get(const struct span_table *t, unsigned int i)
{
	return i < t->n ? &t->spans[i] : NULL;
}

#endif
