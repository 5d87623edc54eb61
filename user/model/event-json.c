// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
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
		      uint64_t session_start, struct symbolizer *sym)
{
	char tbuf[16];
	const char *name = event_json_type(ev, tbuf, sizeof(tbuf));

	if (flags & EVENT_JSON_REL)
		fprintf(out, "{\"ts_ns\":%" PRIu64 ",\"rel_ns\":%" PRId64, ev->ts,
			(int64_t)(ev->ts - session_start));
	else
		fprintf(out, "{\"ts\":%" PRIu64, ev->ts);
	fprintf(out, ",\"cpu\":%u,\"type\":\"%s\"", ev->cpu, name);
	record_fields(ev, &json_sink, out);
	if (sym && (ev->type == KTP_REC_SAMPLE || ev->type == KTP_REC_STACK))
		write_stacks(out, ev, sym);
	fputc('}', out);
}
