/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An event as one JSON object, the one writer of the event document:
 * `ktprof dump --json` writes a line of it per event, and the MCP tool
 * query_events answers with the same objects. Its fields: "ts" (or, with
 * EVENT_JSON_REL, "ts_ns" and "rel_ns", the time from the session's
 * start), "cpu", "type", then the record's own (event_record_fields()), and with
 * a symbolizer a sample's "kframes" and "uframes". Strings from the capture
 * follow text_json_fputs().
 */
#ifndef KTPROF_EVENT_JSON_H
#define KTPROF_EVENT_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "decode/event.h"
#include "decode/probe-spec.h"
#include "decode/record.h"
#include "symbols/symbolizer.h"

#define EVENT_JSON_REL 1u	/* "ts_ns" and "rel_ns" instead of "ts" */

/*
 * The record's fields to @sink (decode/record.h's record_fields()), but a
 * hit of a probe of @probes (the capture's list; NULL or empty: none)
 * named: "probe" its name (a string) and "probe_id" its id, and each
 * argument under its name as its type shows it (s-types signed, u-types
 * unsigned, x-types hex, strings as strings). An argument whose name is
 * one of the event's own keys (ts, ts_ns, rel_ns, cpu, type, probe,
 * probe_id, pid, at, stack, truncated, fault, kframes, uframes) is written
 * as argN (N from 0, as without the list), with "_" added while that too
 * is taken. A probe the list does not name: "probe" its id too, its
 * arguments arg0... in hex (strings as strings).
 */
void event_record_fields(const struct event *ev, const struct probe_table *probes,
		  const struct record_sink *sink, void *ctx);

/* Whether @key is one of the event's own keys (above), not an argument's. */
int event_record_own_key(const char *key);

/* @ev as a JSON object, without a newline; @probes names probe hits (NULL: none). */
void event_json_write(FILE *out, const struct event *ev, unsigned int flags,
		      uint64_t session_start, struct symbolizer *sym,
		      const struct probe_table *probes);

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
