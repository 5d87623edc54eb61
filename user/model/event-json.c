// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "model/event-json.h"
#include "util/text.h"

static void json_u64(void *ctx, const char *key, uint64_t v)
{
	fprintf(ctx, ",\"%s\":%" PRIu64, key, v);
}

static void json_s64(void *ctx, const char *key, int64_t v)
{
	fprintf(ctx, ",\"%s\":%" PRId64, key, v);
}

static void json_hex(void *ctx, const char *key, uint64_t v)
{
	fprintf(ctx, ",\"%s\":\"0x%" PRIx64 "\"", key, v);
}

static void json_str(void *ctx, const char *key, const char *v)
{
	FILE *f = ctx;

	fprintf(f, ",\"%s\":\"", key);
	text_json_fputs(v, f);
	fputc('"', f);
}

static const struct record_sink json_sink = {
	json_u64, json_s64, json_hex, json_str,
};

/* --- A probe hit's fields by name --- */

/* The keys an event has besides its arguments: no argument takes one. */
static const char *const own_keys[] = {
	"ts", "ts_ns", "rel_ns", "cpu", "type", "probe", "probe_id", "pid", "at", "stack",
	"truncated", "fault", "kframes", "uframes",
};

struct probe_fields {
	const struct record_sink *sink;
	void *ctx;
	const struct probe_spec *spec;
	char keys[KTP_PROBE_MAX_ARGS][PROBE_NAME_MAX + 8];	/* argument i's */
};

int event_record_own_key(const char *key)
{
	unsigned int j;

	for (j = 0; j < sizeof(own_keys) / sizeof(own_keys[0]); j++)
		if (!strcmp(own_keys[j], key))
			return 1;
	return 0;
}

/* Whether @key is an own key, or argument j's (j != @i, set already). */
static int key_taken(const struct probe_fields *p, unsigned int i, const char *key)
{
	unsigned int j;

	if (event_record_own_key(key))
		return 1;
	for (j = 0; j < KTP_PROBE_MAX_ARGS; j++)
		if (j != i && !strcmp(p->keys[j], key))
			return 1;
	return 0;
}

/*
 * Each argument's key: its name (names differ), unless an own key; then,
 * and for those the list does not have, argN, with "_" while taken.
 */
static void arg_keys(struct probe_fields *p)
{
	unsigned int i;
	size_t len;

	for (i = 0; p->spec && i < p->spec->nargs; i++)
		if (!key_taken(p, i, p->spec->args[i].name))
			snprintf(p->keys[i], sizeof(p->keys[i]), "%s", p->spec->args[i].name);
	for (i = 0; i < KTP_PROBE_MAX_ARGS; i++) {
		if (p->keys[i][0])
			continue;
		snprintf(p->keys[i], sizeof(p->keys[i]), "arg%u", i);
		/* At most KTP_PROBE_MAX_ARGS - 1 other keys can take one. */
		while (key_taken(p, i, p->keys[i]) && (len = strlen(p->keys[i])) + 1 <
		       sizeof(p->keys[i])) {
			p->keys[i][len] = '_';
			p->keys[i][len + 1] = '\0';
		}
	}
}

/* record_fields()'s "argN": N, else -1. */
static int arg_index(const char *key)
{
	char *end;
	unsigned long i;

	if (strncmp(key, "arg", 3) || key[3] < '0' || key[3] > '9')
		return -1;
	i = strtoul(key + 3, &end, 10);
	return *end || i >= KTP_PROBE_MAX_ARGS ? -1 : (int)i;
}

static void probe_u64(void *ctx, const char *key, uint64_t v)
{
	struct probe_fields *p = ctx;

	if (!strcmp(key, "probe")) {
		if (p->spec)
			p->sink->str(p->ctx, "probe", p->spec->name);
		else
			p->sink->u64(p->ctx, "probe", v);
		p->sink->u64(p->ctx, "probe_id", v);
		return;
	}
	p->sink->u64(p->ctx, key, v);
}

static void probe_s64(void *ctx, const char *key, int64_t v)
{
	struct probe_fields *p = ctx;

	p->sink->s64(p->ctx, key, v);
}

/* A number argument (record_fields() writes each as hex), as its type shows it. */
static void probe_hex(void *ctx, const char *key, uint64_t v)
{
	struct probe_fields *p = ctx;
	int i = arg_index(key);
	const struct probe_arg *a;

	if (i < 0) {
		p->sink->hex(p->ctx, key, v);
		return;
	}
	a = p->spec && (unsigned int)i < p->spec->nargs ? &p->spec->args[i] : NULL;
	if (a && a->show == PROBE_SHOW_SIGNED)
		p->sink->s64(p->ctx, p->keys[i], probe_arg_signed(a, v));
	else if (a && a->show == PROBE_SHOW_UNSIGNED)
		p->sink->u64(p->ctx, p->keys[i], v);
	else
		p->sink->hex(p->ctx, p->keys[i], v);
}

static void probe_str(void *ctx, const char *key, const char *v)
{
	struct probe_fields *p = ctx;
	int i = arg_index(key);

	p->sink->str(p->ctx, i < 0 ? key : p->keys[i], v);
}

static const struct record_sink probe_sink = {
	probe_u64, probe_s64, probe_hex, probe_str,
};

void event_record_fields(const struct event *ev, const struct probe_table *probes,
		  const struct record_sink *sink, void *ctx)
{
	struct probe_fields p = { sink, ctx, NULL, { { 0 } } };
	struct ktp_probe_hit h;

	if (ev->type != KTP_REC_PROBE) {
		record_fields(ev, sink, ctx);
		return;
	}
	memcpy(&h, ev->rec, sizeof(h));
	p.spec = probes ? probe_table_get(probes, h.id) : NULL;
	arg_keys(&p);
	record_fields(ev, &probe_sink, &p);
}

const char *event_json_type(const struct event *ev, char *buf, size_t len)
{
	const char *name = event_type_name(ev->type);

	if (name)
		return name;
	snprintf(buf, len, "type%u", ev->type);
	return buf;
}

void event_sample_frames(const struct event *ev, struct symbolizer *sym,
			 event_frame_fn fn, void *ctx)
{
	const uint8_t *ips;
	struct ktp_sample r;
	unsigned int i;

	if (ev->type == KTP_REC_STACK) {
		struct ktp_stack st;

		/* Shared by a process's switches: no pid of its own. */
		memcpy(&st, ev->rec, sizeof(st));
		r = (struct ktp_sample){ .nr_kernel = st.nr_kernel, .nr_user = st.nr_user };
		ips = (const uint8_t *)ev->rec + sizeof(st);
	} else {
		memcpy(&r, ev->rec, sizeof(r));
		ips = (const uint8_t *)ev->rec + sizeof(r);
	}
	for (i = 0; i < r.nr_kernel + r.nr_user; i++) {
		int kernel = i < r.nr_kernel;
		struct frame f;
		char buf[512];
		uint64_t ip;

		memcpy(&ip, ips + 8 * i, 8);
		symbolizer_frame(sym, r.pid, ip, kernel, &f);
		frame_str(&f, 1, buf, sizeof(buf));
		fn(ctx, ip, kernel, i == 0 || i == r.nr_kernel, buf,
		   !kernel && f.resolved ? f.object : NULL);
	}
}

struct stacks {
	FILE *out;
	int in_user;	/* the "uframes" array is open */
};

/* Two arrays of "func+0x1a [object] (object)": "kframes", then "uframes". */
static void json_frame(void *ctx, uint64_t ip, int kernel, int first, const char *name,
		       const char *object)
{
	struct stacks *s = ctx;

	(void)ip;
	if (!kernel && !s->in_user) {
		fputs("],\"uframes\":[", s->out);
		s->in_user = 1;
	} else if (!first) {
		fputc(',', s->out);
	}
	fputc('"', s->out);
	text_json_fputs(name, s->out);
	if (object) {
		fputs(" (", s->out);
		text_json_fputs(object, s->out);
		fputc(')', s->out);
	}
	fputc('"', s->out);
}

static void write_stacks(FILE *out, const struct event *ev, struct symbolizer *sym)
{
	struct stacks s = { out, 0 };

	fputs(",\"kframes\":[", out);
	event_sample_frames(ev, sym, json_frame, &s);
	fputs(s.in_user ? "]" : "],\"uframes\":[]", out);
}

void event_json_write(FILE *out, const struct event *ev, unsigned int flags,
		      uint64_t session_start, struct symbolizer *sym,
		      const struct probe_table *probes)
{
	char tbuf[16];
	const char *name = event_json_type(ev, tbuf, sizeof(tbuf));

	if (flags & EVENT_JSON_REL)
		fprintf(out, "{\"ts_ns\":%" PRIu64 ",\"rel_ns\":%" PRId64, ev->ts,
			(int64_t)(ev->ts - session_start));
	else
		fprintf(out, "{\"ts\":%" PRIu64, ev->ts);
	fprintf(out, ",\"cpu\":%u,\"type\":\"%s\"", ev->cpu, name);
	event_record_fields(ev, probes, &json_sink, out);
	if (sym && (ev->type == KTP_REC_SAMPLE || ev->type == KTP_REC_STACK))
		write_stacks(out, ev, sym);
	fputc('}', out);
}
