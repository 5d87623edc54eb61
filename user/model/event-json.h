/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event as one JSON object, the one writer of the event document:
 * `ktprof dump --json` writes a line of it per event, and the MCP tool
 * query_events answers with the same objects. Its fields: "ts" (or, with
 * EVENT_JSON_REL, "ts_ns" and "rel_ns", the time from the session's
 * start), "cpu", "type", then the record's own (decode/record.h), and with
 * a symbolizer a sample's "kframes" and "uframes". Strings from the capture
 * follow text_json_fputs().
 */
#ifndef KTPROF_EVENT_JSON_H
#define KTPROF_EVENT_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "decode/event.h"
#include "symbols/symbolizer.h"

#define EVENT_JSON_REL 1u	/* "ts_ns" and "rel_ns" instead of "ts" */

/* @ev as a JSON object, without a newline. */
void event_json_write(FILE *out, const struct event *ev, unsigned int flags,
		      uint64_t session_start, struct symbolizer *sym);

/*
 * Each frame of sample @ev, kernel ones then user ones, symbolized: @name
 * "func+0x1a [object]", @object a user frame's binary or NULL; @first for
 * the first frame of each of the two stacks.
 */
typedef void (*event_frame_fn)(void *ctx, uint64_t ip, int kernel, int first,
			       const char *name, const char *object);
void event_sample_frames(const struct event *ev, struct symbolizer *sym,
			 event_frame_fn fn, void *ctx);

/* "sched_switch", ...; "typeN" into @buf for a type without a name. */
const char *event_json_type(const struct event *ev, char *buf, size_t len);

#endif
