// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "decode/record.h"
#include "mcp/mcp-events.h"
#include "model/event-json.h"
#include "model/model.h"
#include "report/json-build.h"
#include "report/render.h"
#include "util/units.h"

/* As event_type_name() names them (tests/unit/test-mcp.c checks that it does). */
const char *const mcp_events_types[] = {
	"subbuf", "time", "cpu", "task", "sched_switch", "sched_waking", "sched_migrate",
	"fork", "exec", "exit", "free", "irq_entry", "irq_exit", "irq_name",
	"softirq_entry", "softirq_exit", "ipi_send", "wq_start", "wq_end", "selftest",
	"sample", "map", "file", "throttle", "stack", "scx_task", "scx_dsq", "scx_op",
	"scx_dump", "cpu_idle", "cpu_frequency", "sched_wakeup", "affinity", "cgroup", "probe",
	"mark", "clock", "lost",
	"garbage",
	NULL
};

_Static_assert(sizeof(mcp_events_types) / sizeof(mcp_events_types[0]) == KTP_REC_NR_TYPES + 2,
	       "one name per record type but 'invalid', then lost and garbage, then NULL");

/* Where a page starts: the merge's order of events. */
struct event_key {
	uint64_t ts;
	uint32_t cpu;
	uint64_t seq;
};

struct query {
	uint64_t from, to;		/* absolute; to: UINT64_MAX for the end */
	int64_t cpu, pid;		/* -1: any */
	int64_t probe;			/* a probe's id, -1: any */
	const char *probe_name;		/* its name, found at the scan; NULL: none */
	uint64_t types;			/* bits of type_bit(); 0: any */
	uint64_t limit;
	struct event_key start;
	int have_start;
	uint64_t session_start;
	const struct probe_table *probes;	/* the capture's, during the scan */
	json_object *events;
	uint64_t n;
	int more;			/* a match beyond the page: @next */
	struct event_key next;
	struct json_build b;
};

static int type_bit(unsigned int type)
{
	if (type < KTP_REC_NR_TYPES)
		return type - 1;
	if (type == EVENT_LOST || type == EVENT_GARBAGE)
		return KTP_REC_NR_TYPES - 1 + type - EVENT_LOST;
	return -1;
}

static int before(const struct event_key *a, const struct event_key *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu;
	return a->seq < b->seq;
}

/* --- Fields --- */

struct pid_match {
	int64_t pid;
	int found;
};

static void match_u64(void *ctx, const char *key, uint64_t v)
{
	static const char *const keys[] = { "pid", "tid", "tgid", "prev_pid", "next_pid",
					    "parent_pid", "child_pid", "child_tgid", "old_pid" };
	struct pid_match *m = ctx;
	unsigned int i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && (int64_t)v == m->pid; i++)
		m->found |= !strcmp(key, keys[i]);
}

static void match_s64(void *ctx, const char *key, int64_t v)
{
	(void)ctx, (void)key, (void)v;
}

static void match_str(void *ctx, const char *key, const char *v)
{
	(void)ctx, (void)key, (void)v;
}

/* Any of the event's pid fields (pid, tid, prev_pid, next_pid, ...) is @pid. */
static int names_pid(const struct event *ev, int64_t pid)
{
	static const struct record_sink sink = { match_u64, match_s64, match_u64, match_str };
	struct pid_match m = { pid, 0 };

	record_fields(ev, &sink, &m);
	return m.found;
}

/* The event as `ktprof dump --json` writes it, with its time from the session's start. */
static json_object *event_object(struct query *q, const struct event *ev)
{
	json_object *o = NULL;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		event_json_write(f, ev, EVENT_JSON_REL, q->session_start, NULL, q->probes);
		if (!fclose(f))
			o = json_tokener_parse(text);
	}
	free(text);
	return o;
}

/* --- The scan --- */

/* A hit of probe @id. */
static int probe_hit(const struct event *ev, int64_t id)
{
	struct ktp_probe_hit h;

	if (ev->type != KTP_REC_PROBE)
		return 0;
	memcpy(&h, ev->rec, sizeof(h));
	return h.id == id;
}

static int matches(const struct query *q, const struct event *ev)
{
	int bit = type_bit(ev->type);

	if (q->cpu >= 0 && ev->cpu != q->cpu)
		return 0;
	if (q->probe >= 0 && !probe_hit(ev, q->probe))
		return 0;
	if (q->types && (bit < 0 || !(q->types & (1ull << bit))))
		return 0;
	return q->pid < 0 || names_pid(ev, q->pid);
}

/* MODEL_STOP: the page is done; 0: go on. */
static int take(void *ctx, const struct event *ev)
{
	struct query *q = ctx;
	struct event_key k = { ev->ts, ev->cpu, ev->seq };

	if (ev->ts >= q->to)
		return MODEL_STOP;
	if (ev->ts < q->from || (q->have_start && before(&k, &q->start)) || !matches(q, ev))
		return 0;
	if (q->n == q->limit) {
		q->more = 1;
		q->next = k;
		return MODEL_STOP;
	}
	json_build_push(&q->b, q->events, event_object(q, ev));
	q->n++;
	return q->b.nomem ? -ENOMEM : 0;
}

static const struct sched_ops query_ops = { .event = take };

/* The probe's id from its name, in the capture's list; -EINVAL saying which it has. */
static int find_probe(struct query *q, const struct probe_table *t, struct error *err)
{
	char names[256] = "";
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->probes[i].name, q->probe_name)) {
			q->probe = i;
			return 0;
		}
	for (i = 0; i < t->n && used < sizeof(names); i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
				 t->probes[i].name);
	return error_set(err, -EINVAL, "probe: the capture has no probe named '%.64s' (%s%s)",
			 q->probe_name, t->n ? "its probes: " : "no probe list",
			 t->n ? names : "");
}

/* A pass of the model over the capture, until the page is full. */
static int scan(struct query *q, const char *path, struct error *err, char *problem, size_t len)
{
	/* Damage ends a CPU's stream, as in the report. */
	struct model_config mc = { .tolerant = 1 };
	struct model *m;
	int ret;

	mc.filter.from_rel = q->from;
	mc.filter.have_from = q->from > 0;
	mc.filter.to_rel = q->to;
	mc.filter.have_to = q->to != UINT64_MAX;
	m = model_open(path, &mc, err);
	if (!m)
		return err->code;
	q->session_start = m->session_start;
	q->probes = &m->probes;
	if (q->probe_name && find_probe(q, &m->probes, err)) {
		model_close(m);
		return err->code;
	}
	q->from = m->from;
	q->to = m->to;
	ret = model_add_client(m, &query_ops, q, 0);
	if (!ret)
		ret = model_run(m, err);
	if (!ret && m->damaged)
		snprintf(problem, len, "damaged: %s; the events after the damage are missing",
			 m->problem);
	model_close(m);
	return ret;
}

/* --- The tool --- */

static int parse_cursor(struct mcp_call *c, struct query *q)
{
	const char *s = mcp_args_str(c->args, "cursor");
	unsigned long long ts, seq;
	unsigned int cpu;
	int end = 0;

	if (!s)
		return 0;
	if (sscanf(s, "%llu.%u.%llu%n", &ts, &cpu, &seq, &end) != 3 || s[end])
		return error_set(&c->err, -EINVAL,
				 "cursor: pass the next_cursor of an earlier answer, not '%.64s'", s);
	q->start = (struct event_key){ ts, cpu, seq };
	q->have_start = 1;
	return 0;
}

static int parse_query(struct mcp_call *c, struct query *q)
{
	json_object *types = mcp_args_get(c->args, "types");
	const char *from = mcp_args_str(c->args, "from"), *to = mcp_args_str(c->args, "to");
	const char *probe;
	unsigned long id;
	char *end;
	size_t i;

	q->to = UINT64_MAX;
	q->cpu = mcp_args_int(c->args, "cpu", -1);
	q->pid = mcp_args_int(c->args, "pid", -1);
	q->probe = -1;
	probe = mcp_args_str(c->args, "probe");
	if (probe && isdigit((unsigned char)probe[0])) {
		errno = 0;
		id = strtoul(probe, &end, 10);
		if (*end || errno || id > UINT16_MAX)
			return error_set(&c->err, -EINVAL,
					 "probe: a name, or an id from 0 to 65535, not '%.64s'", probe);
		q->probe = id;
	} else if (probe) {
		q->probe_name = probe;
	}
	q->limit = mcp_args_int(c->args, "limit", MCP_EVENTS_DEFAULT);
	if ((from && units_parse_time(from, &q->from)) || (to && units_parse_time(to, &q->to)))
		return error_set(&c->err, -EINVAL,
				 "from and to want a time from the capture's start with a unit, such as 500ms, 2s or 1500us");
	if (from && to && q->from >= q->to)
		return error_set(&c->err, -EINVAL, "from must come before to");
	for (i = 0; types && i < json_object_array_length(types); i++) {
		int k = mcp_args_choice(mcp_events_types, json_object_get_string(
						json_object_array_get_idx(types, i)));

		q->types |= 1ull << k;	/* the arguments' check made k valid */
	}
	return parse_cursor(c, q);
}

int mcp_events_query(struct mcp_call *c)
{
	struct mcp_trace *tr = mcp_call_trace(c, "trace_id");
	struct query q = { 0 };
	char problem[320] = "", next[80] = "";

	if (!tr || parse_query(c, &q) || mcp_traces_check(tr, &c->err))
		return c->err.code;
	q.events = json_object_new_array();
	if (!q.events)
		return error_set(&c->err, -ENOMEM, NULL);
	if (scan(&q, tr->path, &c->err, problem, sizeof(problem))) {
		json_object_put(q.events);
		return c->err.code;
	}
	c->doc = json_object_new_object();
	if (q.more)
		snprintf(next, sizeof(next), "%" PRIu64 ".%u.%" PRIu64, q.next.ts, q.next.cpu,
			 q.next.seq);
	if (mcp_call_put(c, "trace_id", json_object_new_string(tr->id)) ||
	    mcp_call_put(c, "events", q.events) ||
	    mcp_call_put(c, "returned", json_object_new_uint64(q.n)) ||
	    (q.more && mcp_call_put(c, "next_cursor", json_object_new_string(next))) ||
	    mcp_call_put(c, "problem", json_object_new_string(problem)))
		return c->err.code;
	if (q.more)
		return mcp_call_text(c, "%" PRIu64 " events of trace '%s'; more match: pass cursor '%s' for the next page.%s%s",
				     q.n, tr->id, next, *problem ? " " : "", problem);
	return mcp_call_text(c, "%" PRIu64 " events of trace '%s'; no more match.%s%s", q.n, tr->id,
			     *problem ? " " : "", problem);
}

static const struct json_field event_fields[] = {
	{ .name = "ts_ns", .type = JSON_INT, .description = "CLOCK_BOOTTIME" },
	{ .name = "rel_ns", .type = JSON_INT, .description = "from the session's start" },
	{ .name = "cpu", .type = JSON_INT },
	{ .name = "type", .type = JSON_STR, .description = "sched_switch, sched_waking, ..." },
	{ NULL },
};

static const struct json_field query_fields[] = {
	{ .name = "trace_id", .type = JSON_STR, .description = "the trace" },
	{ .name = "events", .type = JSON_ARR, .sub = event_fields, .flags = JSON_EXTRA, .description = "in time order; each with its record's fields, as ktprof dump --json" },
	{ .name = "returned", .type = JSON_INT, .description = "how many events this page holds" },
	{ .name = "next_cursor", .type = JSON_STR, .flags = JSON_OPTIONAL, .description = "present when more events match: pass it as cursor for the next page" },
	{ .name = "problem", .type = JSON_STR, .description = "why events may be missing (a damaged capture); \"\"" },
	{ NULL },
};

json_object *mcp_events_schema(const struct mcp_tool *t)
{
	(void)t;
	return json_doc_schema(query_fields, 0);
}
