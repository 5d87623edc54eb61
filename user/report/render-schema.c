// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON Schemas of the report and diff documents, as tables that follow
 * render-json.c and render-diff.c field by field (docs/report.md and
 * docs/diff.md describe each field).
 */
#include <stdio.h>

#include <json.h>

#include "report/json-build.h"
#include "report/render-schema.h"
#include "report/render.h"

#define F(n, t) { .name = n, .type = t }
#define SUB(n, t, s) { .name = n, .type = t, .sub = s }
#define OPT(n, t) { .name = n, .type = t, .flags = SCHEMA_OPTIONAL }
#define END { .name = NULL }

/* --- The report document (render-json.c) --- */

static const struct render_schema_field dist[] = {
	F("count", SCHEMA_INT), F("min_ns", SCHEMA_INT), F("mean_ns", SCHEMA_NUM),
	F("p50_ns", SCHEMA_INT), F("p90_ns", SCHEMA_INT), F("p99_ns", SCHEMA_INT),
	F("p99_9_ns", SCHEMA_INT), F("max_ns", SCHEMA_INT), F("exact", SCHEMA_BOOL),
	END
};

static const struct render_schema_field latency[] = {
	SUB("wakeup", SCHEMA_OBJ, dist), SUB("runqueue", SCHEMA_OBJ, dist), END
};

static const struct render_schema_field sched_ext_side[] = {
	F("present", SCHEMA_BOOL), F("state", SCHEMA_STR), F("ops", SCHEMA_STR),
	F("enable_seq", SCHEMA_INT), END
};

static const struct render_schema_field sched_ext[] = {
	SUB("start", SCHEMA_OBJ, sched_ext_side), SUB("stop", SCHEMA_OBJ, sched_ext_side), END
};

static const struct render_schema_field capture[] = {
	F("path", SCHEMA_STR), F("kernel", SCHEMA_STR), F("machine", SCHEMA_STR),
	F("cpus", SCHEMA_INT), F("session_start_ns", SCHEMA_INT),
	F("session_stop_ns", SCHEMA_INT), F("events", SCHEMA_INT),
	F("lost_records", SCHEMA_INT), F("samples", SCHEMA_INT),
	F("truncated", SCHEMA_BOOL), F("damaged", SCHEMA_BOOL),
	{ "sched_ext", SCHEMA_OBJ, sched_ext, SCHEMA_OPTIONAL, NULL, 0 },
	F("problem", SCHEMA_STR), F("events_by_type", SCHEMA_COUNTS), END
};

static const struct render_schema_field window[] = {
	F("from_ns", SCHEMA_INT), F("to_ns", SCHEMA_INT), F("duration_ns", SCHEMA_INT),
	F("from_rel_ns", SCHEMA_INT), F("to_rel_ns", SCHEMA_INT), END
};

static const struct render_schema_field histograms[] = {
	F("exact_up_to", SCHEMA_INT), F("max_relative_error", SCHEMA_NUM), END
};

static const struct render_schema_field excluded[] = {
	F("wakeup_latencies", SCHEMA_INT), F("runqueue_latencies", SCHEMA_INT),
	F("inconsistent_records", SCHEMA_INT), END
};

static const struct render_schema_field unknown[] = {
	F("nodata_ns", SCHEMA_INT), F("loss_ns", SCHEMA_INT), F("offline_ns", SCHEMA_INT), END
};

static const struct render_schema_field cpu[] = {
	F("cpu", SCHEMA_INT), F("busy_ns", SCHEMA_INT), F("idle_ns", SCHEMA_INT),
	F("utilization_pct", SCHEMA_NUM), F("hardirq_ns", SCHEMA_INT),
	F("softirq_ns", SCHEMA_INT), F("work_ns", SCHEMA_INT), F("switches", SCHEMA_INT),
	F("switches_per_s", SCHEMA_NUM), F("migrations_in", SCHEMA_INT),
	F("migrations_out", SCHEMA_INT), F("ipi_sent", SCHEMA_INT),
	F("ipi_received", SCHEMA_INT), SUB("unknown", SCHEMA_OBJ, unknown),
	F("records", SCHEMA_INT), F("lost_records", SCHEMA_INT),
	{ "latency", SCHEMA_OBJ, latency, SCHEMA_OPTIONAL, NULL, 0 }, END
};

static const struct render_schema_field machine[] = {
	F("busy_ns", SCHEMA_INT), F("known_ns", SCHEMA_INT),
	F("utilization_pct", SCHEMA_NUM), END
};

static const struct render_schema_field states[] = {
	F("running_ns", SCHEMA_INT), F("runnable_ns", SCHEMA_INT),
	F("sleeping_ns", SCHEMA_INT), F("blocked_ns", SCHEMA_INT),
	F("other_ns", SCHEMA_INT), F("unknown_ns", SCHEMA_INT), END
};

static const struct render_schema_field migration_counts[] = {
	F("same_llc", SCHEMA_INT), F("cross_llc", SCHEMA_INT), F("cross_numa", SCHEMA_INT),
	F("unknown_topology", SCHEMA_INT), END
};

static const struct render_schema_field thread[] = {
	F("pid", SCHEMA_INT), F("tgid", SCHEMA_INT), F("comm", SCHEMA_STR),
	F("kthread", SCHEMA_BOOL), F("runtime_ns", SCHEMA_INT), F("cpu_pct", SCHEMA_NUM),
	F("machine_pct", SCHEMA_NUM), F("voluntary_switches", SCHEMA_INT),
	F("involuntary_switches", SCHEMA_INT), SUB("slices", SCHEMA_OBJ, dist),
	SUB("states", SCHEMA_OBJ, states), SUB("latency", SCHEMA_OBJ, latency),
	SUB("migrations", SCHEMA_OBJ, migration_counts), END
};

static const struct render_schema_field process[] = {
	F("tgid", SCHEMA_INT), F("comm", SCHEMA_STR), F("threads", SCHEMA_INT),
	F("runtime_ns", SCHEMA_INT), F("cpu_pct", SCHEMA_NUM), F("machine_pct", SCHEMA_NUM),
	F("voluntary_switches", SCHEMA_INT), F("involuntary_switches", SCHEMA_INT),
	F("migrations", SCHEMA_INT), SUB("latency", SCHEMA_OBJ, latency), END
};

static const struct render_schema_field cpu_pair[] = {
	F("from", SCHEMA_INT), F("to", SCHEMA_INT), F("count", SCHEMA_INT),
	F("class", SCHEMA_STR), END
};

static const struct render_schema_field migrations[] = {
	SUB("total", SCHEMA_OBJ, migration_counts), SUB("cpu_pairs", SCHEMA_ARR, cpu_pair), END
};

/* A thread as others name it; the idle task has no tgid. */
static const struct render_schema_field thread_ref[] = {
	F("pid", SCHEMA_INT), OPT("tgid", SCHEMA_INT), F("comm", SCHEMA_STR), END
};

static const struct render_schema_field preempt_pair[] = {
	SUB("preemptor", SCHEMA_OBJ, thread_ref), SUB("preempted", SCHEMA_OBJ, thread_ref),
	F("count", SCHEMA_INT), END
};

static const struct render_schema_field preemption[] = {
	F("total", SCHEMA_INT), SUB("pairs", SCHEMA_ARR, preempt_pair), END
};

/* A thread, an idle CPU, a hardirq or a softirq vector. */
static const struct render_schema_field waker[] = {
	OPT("pid", SCHEMA_INT), OPT("tgid", SCHEMA_INT), OPT("comm", SCHEMA_STR),
	F("kind", SCHEMA_STR), OPT("cpu", SCHEMA_INT), OPT("irq", SCHEMA_INT),
	OPT("vector", SCHEMA_INT), F("name", SCHEMA_STR), END
};

static const struct render_schema_field edge_latency[] = {
	F("count", SCHEMA_INT), F("mean_ns", SCHEMA_NUM), F("max_ns", SCHEMA_INT), END
};

static const struct render_schema_field edge[] = {
	SUB("waker", SCHEMA_OBJ, waker), SUB("wakee", SCHEMA_OBJ, thread_ref),
	F("count", SCHEMA_INT), SUB("latency", SCHEMA_OBJ, edge_latency), END
};

static const struct render_schema_field wakers[] = {
	F("wakings", SCHEMA_INT), F("wakings_of_running", SCHEMA_INT),
	SUB("edges", SCHEMA_ARR, edge), END
};

static const struct render_schema_field handler[] = {
	F("kind", SCHEMA_STR), OPT("irq", SCHEMA_INT), OPT("vector", SCHEMA_INT),
	OPT("function", SCHEMA_INT), F("name", SCHEMA_STR), F("self_ns", SCHEMA_INT),
	SUB("duration", SCHEMA_OBJ, dist), END
};

static const struct render_schema_field ipi[] = {
	F("function", SCHEMA_STR), F("sent", SCHEMA_INT), F("targets", SCHEMA_INT), END
};

static const struct render_schema_field irq[] = {
	SUB("handlers", SCHEMA_ARR, handler), SUB("ipis", SCHEMA_ARR, ipi), END
};

/* The machine, a CPU or a thread. */
static const struct render_schema_field subject[] = {
	F("kind", SCHEMA_STR), OPT("cpu", SCHEMA_INT), OPT("pid", SCHEMA_INT),
	OPT("tgid", SCHEMA_INT), OPT("comm", SCHEMA_STR), END
};

static const struct render_schema_field finding[] = {
	F("rule", SCHEMA_STR), SUB("subject", SCHEMA_OBJ, subject), F("value", SCHEMA_NUM),
	F("threshold", SCHEMA_NUM), F("unit", SCHEMA_STR), F("text", SCHEMA_STR), END
};

static const struct render_schema_field outlier[] = {
	F("metric", SCHEMA_STR), F("unit", SCHEMA_STR), SUB("subject", SCHEMA_OBJ, subject),
	F("value", SCHEMA_NUM), F("limit", SCHEMA_NUM), F("score", SCHEMA_NUM), END
};

static const struct render_schema_field outliers[] = {
	F("method", SCHEMA_STR), SUB("items", SCHEMA_ARR, outlier), END
};

static const struct render_schema_field symbol[] = {
	F("symbol", SCHEMA_STR), F("self", SCHEMA_INT), F("total", SCHEMA_INT), END
};

static const struct render_schema_field profile_process[] = {
	F("tgid", SCHEMA_INT), F("comm", SCHEMA_STR), F("samples", SCHEMA_INT),
	SUB("symbols", SCHEMA_ARR, symbol), END
};

static const struct render_schema_field profile[] = {
	F("samples", SCHEMA_INT), F("sources", SCHEMA_STR), SUB("symbols", SCHEMA_ARR, symbol),
	SUB("processes", SCHEMA_ARR, profile_process), END
};

#define THREAD_SECTIONS (SECTION_RUNTIME | SECTION_LATENCY | SECTION_STATES | SECTION_MIGRATIONS)

static const struct render_schema_field report_doc[] = {
	{ "schema", SCHEMA_STR, NULL, 0, "\"ktprof-report\"", 0 },
	{ "version", SCHEMA_STR, NULL, 0, "MAJOR.MINOR of the document's schema", 0 },
	{ "capture", SCHEMA_OBJ, capture, 0, "the capture: kernel, CPUs, session, events", 0 },
	{ "window", SCHEMA_OBJ, window, 0,
	  "the time analysed, CLOCK_BOOTTIME ns (_rel_ns: from the session's start)", 0 },
	{ "histograms", SCHEMA_OBJ, histograms, 0,
	  "distributions keep every value up to exact_up_to, then log-linear buckets", 0 },
	{ "excluded", SCHEMA_OBJ, excluded, 0,
	  "latencies left out because they overlap time the capture lost", 0 },
	{ "cpus", SCHEMA_ARR, cpu, 0, "per CPU, within its known time",
	  SECTION_CPU | SECTION_LATENCY | SECTION_IRQ },
	{ "machine", SCHEMA_OBJ, machine, 0, "all CPUs together", 0 },
	{ "threads", SCHEMA_ARR, thread, 0, "per thread, by runtime", THREAD_SECTIONS },
	{ "processes", SCHEMA_ARR, process, 0, "per process (thread group)", THREAD_SECTIONS },
	{ "latency", SCHEMA_OBJ, latency, 0, "wakeup and runqueue latency of the selected threads",
	  SECTION_LATENCY },
	{ "migrations", SCHEMA_OBJ, migrations, 0, "by cache and NUMA distance, per CPU pair",
	  SECTION_MIGRATIONS },
	{ "preemption", SCHEMA_OBJ, preemption, 0, "(preemptor, preempted) pairs by count",
	  SECTION_PREEMPTION },
	{ "wakers", SCHEMA_OBJ, wakers, 0, "waker -> wakee edges by count", SECTION_WAKERS },
	{ "irq", SCHEMA_OBJ, irq, 0, "hardirq, softirq and work-item handlers; IPIs", SECTION_IRQ },
	{ "findings", SCHEMA_ARR, finding, 0,
	  "rule-based bottlenecks, ranked; each names its rule, threshold and value",
	  SECTION_FINDINGS },
	{ "outliers", SCHEMA_OBJ, outliers, 0, "outlying threads and CPUs (IQR or MAD)",
	  SECTION_OUTLIERS },
	{ "profile", SCHEMA_OBJ, profile, SCHEMA_OPTIONAL,
	  "CPU profile: top symbols by samples (only when the capture has samples)",
	  SECTION_PROFILE },
	END
};

/* --- The diff document (render-diff.c) --- */

static const struct render_schema_field diff_side[] = {
	F("path", SCHEMA_STR), F("kernel", SCHEMA_STR), F("cpus", SCHEMA_INT),
	F("window_ns", SCHEMA_INT), F("events", SCHEMA_INT), F("lost_records", SCHEMA_INT),
	END
};

static const struct render_schema_field diff_compare[] = {
	F("rates", SCHEMA_BOOL), F("per_cpu", SCHEMA_BOOL), F("test", SCHEMA_STR),
	F("alpha", SCHEMA_NUM), F("min_effect", SCHEMA_NUM), END
};

static const struct render_schema_field diff_test[] = {
	F("test", SCHEMA_STR), F("tested", SCHEMA_BOOL), F("u", SCHEMA_NUM),
	F("z", SCHEMA_NUM), F("p", SCHEMA_NUM), F("effect", SCHEMA_NUM),
	F("significant", SCHEMA_BOOL), END
};

static const struct render_schema_field diff_item[] = {
	F("entity", SCHEMA_STR), F("name", SCHEMA_STR), F("metric", SCHEMA_STR),
	F("unit", SCHEMA_STR), F("in_a", SCHEMA_BOOL), F("in_b", SCHEMA_BOOL),
	F("a", SCHEMA_NUM), F("b", SCHEMA_NUM), F("delta", SCHEMA_NUM),
	F("relative", SCHEMA_NUM), F("score", SCHEMA_NUM), F("text", SCHEMA_STR),
	/* A distribution absent from one side is {}. */
	{ "a_dist", SCHEMA_OBJ, dist, SCHEMA_OPTIONAL | SCHEMA_OPEN, NULL, 0 },
	{ "b_dist", SCHEMA_OBJ, dist, SCHEMA_OPTIONAL | SCHEMA_OPEN, NULL, 0 },
	{ "test", SCHEMA_OBJ, diff_test, SCHEMA_OPTIONAL, NULL, 0 },
	END
};

static const struct render_schema_field diff_doc[] = {
	{ "schema", SCHEMA_STR, NULL, 0, "\"ktprof-diff\"", 0 },
	{ "version", SCHEMA_STR, NULL, 0, "MAJOR.MINOR of the document's schema", 0 },
	{ "a", SCHEMA_OBJ, diff_side, 0, "capture A", 0 },
	{ "b", SCHEMA_OBJ, diff_side, 0, "capture B", 0 },
	{ "compare", SCHEMA_OBJ, diff_compare, 0, "how they were compared", 0 },
	{ "verdict", SCHEMA_ARR, diff_item, 0, "the changes that matter most, ranked", 0 },
	{ "items", SCHEMA_ARR, diff_item, 0, "every figure, A beside B", 0 },
	END
};

/* --- Building --- */

/*
 * Objects that recur (a distribution stands ten times in the report's
 * schema) are defined once under $defs and referred to: the schemas are
 * read by clients, and sometimes by models, so their size matters.
 */
static const struct schema_def {
	const char *name;
	const struct render_schema_field *fields;
} defs[] = {
	{ "distribution", dist },
	{ "latency", latency },
	{ "thread_ref", thread_ref },
	{ "subject", subject },
	{ "migration_counts", migration_counts },
};

#define NR_DEFS (sizeof(defs) / sizeof(defs[0]))

struct builder {
	struct json_build b;
	unsigned int used;		/* bits of defs[] referred to */
};

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

static json_object *field_schema(struct builder *bd, const struct render_schema_field *f);

static json_object *object_schema(struct builder *bd, const struct render_schema_field *fields,
				  unsigned int sections, unsigned int flags)
{
	struct json_build *b = &bd->b;
	json_object *o = json_object_new_object(), *props = json_object_new_object();
	json_object *req = json_object_new_array();
	const struct render_schema_field *f;

	json_build_put(b, o, "type", str("object"));
	for (f = fields; f->name; f++) {
		if (f->sections && !(f->sections & sections))
			continue;
		json_build_put(b, props, f->name, field_schema(bd, f));
		if (!(f->flags & SCHEMA_OPTIONAL) && !(flags & SCHEMA_OPEN))
			json_build_push(b, req, str(f->name));
	}
	json_build_put(b, o, "properties", props);
	json_build_put(b, o, "required", req);
	json_build_put(b, o, "additionalProperties", json_object_new_boolean(flags & SCHEMA_EXTRA));
	return o;
}

static json_object *typed(struct json_build *b, const char *type)
{
	json_object *o = json_object_new_object();

	json_build_put(b, o, "type", str(type));
	return o;
}

/* The object of @f's fields, or a reference to its definition. */
static json_object *sub_schema(struct builder *bd, const struct render_schema_field *f)
{
	char ref[64];
	unsigned int i;

	for (i = 0; i < NR_DEFS && !f->description && !(f->flags & (SCHEMA_OPEN | SCHEMA_EXTRA)); i++) {
		if (defs[i].fields == f->sub) {
			json_object *o = json_object_new_object();

			bd->used |= 1u << i;
			snprintf(ref, sizeof(ref), "#/$defs/%s", defs[i].name);
			json_build_put(&bd->b, o, "$ref", str(ref));
			return o;
		}
	}
	return object_schema(bd, f->sub, SECTION_ALL, f->flags);
}

static json_object *field_schema(struct builder *bd, const struct render_schema_field *f)
{
	struct json_build *b = &bd->b;
	json_object *o = NULL, *t;

	switch (f->type) {
	case SCHEMA_INT:
		o = typed(b, "integer");
		break;
	case SCHEMA_NUM:
		o = json_object_new_object();
		t = json_object_new_array();
		json_build_push(b, t, str("number"));
		json_build_push(b, t, str("null"));
		json_build_put(b, o, "type", t);
		break;
	case SCHEMA_STR:
		o = typed(b, "string");
		break;
	case SCHEMA_BOOL:
		o = typed(b, "boolean");
		break;
	case SCHEMA_OBJ:
		o = sub_schema(bd, f);
		break;
	case SCHEMA_ARR:
		o = typed(b, "array");
		json_build_put(b, o, "items", sub_schema(bd, f));
		break;
	case SCHEMA_COUNTS:
		o = typed(b, "object");
		json_build_put(b, o, "additionalProperties", typed(b, "integer"));
		break;
	case SCHEMA_STRS:
		o = typed(b, "array");
		json_build_put(b, o, "items", typed(b, "string"));
		break;
	case SCHEMA_ANY:
		o = json_object_new_object();
		break;
	}
	if (o && f->description)
		json_build_put(b, o, "description", str(f->description));
	return o;
}

/* $defs: each definition referred to, and those they refer to. */
static void add_defs(struct builder *bd, json_object *root)
{
	json_object *d = json_object_new_object();
	unsigned int done = 0, i;

	while (bd->used != done) {
		for (i = 0; i < NR_DEFS; i++) {
			if ((bd->used & ~done) & (1u << i)) {
				done |= 1u << i;
				json_build_put(&bd->b, d, defs[i].name,
					       object_schema(bd, defs[i].fields, SECTION_ALL, 0));
			}
		}
	}
	json_build_put(&bd->b, root, "$defs", d);
}

struct json_object *render_schema_object(const struct render_schema_field *fields,
					 unsigned int sections, unsigned int flags)
{
	struct builder bd = { { 0 }, 0 };
	json_object *o = object_schema(&bd, fields, sections, flags);

	if (bd.used)
		add_defs(&bd, o);
	if (bd.b.nomem) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *render_schema_report(unsigned int sections)
{
	return render_schema_object(report_doc, sections, 0);
}

struct json_object *render_schema_diff(void)
{
	return render_schema_object(diff_doc, SECTION_ALL, 0);
}
