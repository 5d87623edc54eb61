// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-schedstat.h"
#include "report/diff.h"
#include "report/render.h"
#include "util/text.h"

/* --- The change --- */

void analyze_schedstat_free(struct analyze_schedstat *a)
{
	schedstat_free(&a->delta);
	free(a->levels);
	a->levels = NULL;
	a->nr_levels = 0;
	a->present = 0;
}

int analyze_schedstat_of(const struct input *in, struct analyze_schedstat *a)
{
	const char *text[2] = { input_schedstat(in, 0), input_schedstat(in, 1) };
	struct schedstat s[2] = { { 0 }, { 0 } };
	uint32_t l;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->enabled = input_schedstats_enabled(in);
	/* Not recorded, or not schedstat: no figures. */
	if (!text[0] || !text[1] || schedstat_parse(text[0], &s[0]) ||
	    schedstat_parse(text[1], &s[1]))
		goto out;
	ret = schedstat_delta(&s[0], &s[1], &a->delta, &a->restarted);
	if (ret)
		goto out;
	a->version = s[1].version;
	a->nr_levels = schedstat_nr_levels(&a->delta);
	a->levels = calloc(a->nr_levels ? a->nr_levels : 1, sizeof(*a->levels));
	if (!a->levels) {
		ret = -ENOMEM;
		goto out;
	}
	for (l = 0; l < a->nr_levels; l++)
		a->levels[l].cpus = schedstat_level_sum(&a->delta, l, &a->levels[l].sum);
	a->present = 1;
out:
	schedstat_free(&s[0]);
	schedstat_free(&s[1]);
	if (ret)
		analyze_schedstat_free(a);
	return ret;
}

static int schedstat_init(void *state, struct report *r)
{
	(void)state;
	(void)r;
	return 0;
}

static void schedstat_fini(void *state)
{
	analyze_schedstat_free(state);
}

static int schedstat_derive(void *state, struct report *r)
{
	return analyze_schedstat_of(r->model->in, state);
}

const struct analyze_schedstat *analyze_schedstat(const struct report *r)
{
	return report_state(r, &analyzer_schedstat);
}

/* --- Text --- */

static const enum schedstat_field cpu_shown[] = {
	SCHEDSTAT_SCHED_COUNT, SCHEDSTAT_SCHED_GOIDLE, SCHEDSTAT_TTWU_COUNT, SCHEDSTAT_TTWU_LOCAL,
	SCHEDSTAT_YLD_COUNT, SCHEDSTAT_TIMESLICES, SCHEDSTAT_RUN_NS, SCHEDSTAT_DELAY_NS,
};
static const enum schedstat_lb lb_shown[] = {
	SCHEDSTAT_LB_COUNT, SCHEDSTAT_LB_BALANCED, SCHEDSTAT_LB_FAILED, SCHEDSTAT_LB_GAINED,
};
static const enum schedstat_dom dom_shown[] = {
	SCHEDSTAT_ALB_PUSHED, SCHEDSTAT_TTWU_WAKE_REMOTE, SCHEDSTAT_TTWU_MOVE_AFFINE,
};
#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void print_levels(FILE *out, const struct analyze_schedstat *a)
{
	uint32_t l;
	size_t k;
	int t;

	if (!a->nr_levels)
		return;
	fprintf(out, "  load balancing per domain level, summed over its CPUs\n  %5s %-6s %4s %-8s",
		"level", "name", "cpus", "when");
	for (k = 0; k < NR(lb_shown); k++)
		fprintf(out, " %10s", schedstat_lb_name(lb_shown[k]));
	for (k = 0; k < NR(dom_shown); k++)
		fprintf(out, " %15s", schedstat_dom_name(dom_shown[k]));
	fprintf(out, "\n");
	for (l = 0; l < a->nr_levels; l++) {
		const struct schedstat_level *lv = &a->levels[l];

		if (!lv->cpus)
			continue;
		for (t = 0; t < SCHEDSTAT_NR_IDLE; t++) {
			if (!t)
				fprintf(out, "  %5u %-6s %4u", l,
					lv->sum.name[0] ? text_esc(lv->sum.name) : "-", lv->cpus);
			else
				fprintf(out, "  %5s %-6s %4s", "", "", "");
			fprintf(out, " %-8s", schedstat_idle_name(t));
			for (k = 0; k < NR(lb_shown); k++)
				fprintf(out, " %10" PRIu64, lv->sum.lb[t][lb_shown[k]]);
			for (k = 0; !t && k < NR(dom_shown); k++)
				fprintf(out, " %15" PRIu64, lv->sum.v[dom_shown[k]]);
			fprintf(out, "\n");
		}
	}
}

void analyze_schedstat_print(FILE *out, const struct analyze_schedstat *a)
{
	uint32_t i;
	size_t k;

	fprintf(out, "schedstat         version %u, the change from start to stop\n", a->version);
	if (!a->enabled)
		fprintf(out, "  kernel.sched_schedstats was 0: only run_ns, delay_ns and timeslices "
			"counted (record --schedstats turns it on for the session)\n");
	if (a->restarted)
		fprintf(out, "  %u CPUs or domains restarted their counts (domains rebuilt): left out\n",
			a->restarted);
	fprintf(out, "  %4s", "cpu");
	for (k = 0; k < NR(cpu_shown); k++)
		fprintf(out, " %13s", schedstat_field_name(cpu_shown[k]));
	fprintf(out, "\n");
	for (i = 0; i < a->delta.nr_cpus; i++) {
		fprintf(out, "  %4u", a->delta.cpus[i].cpu);
		for (k = 0; k < NR(cpu_shown); k++)
			fprintf(out, " %13" PRIu64, a->delta.cpus[i].v[cpu_shown[k]]);
		fprintf(out, "\n");
	}
	print_levels(out, a);
}

static void schedstat_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_schedstat *a = analyze_schedstat(r);

	(void)v;
	render_heading(out, "schedstat (/proc/schedstat: the kernel's own counters, over the "
		       "session)");
	if (!a->present) {
		fprintf(out, "  not recorded (a kernel without CONFIG_SCHEDSTATS, or a capture "
			"from before it was read)\n");
		return;
	}
	analyze_schedstat_print(out, a);
}

/* --- HTML --- */

static void schedstat_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_schedstat *a = analyze_schedstat(r);
	uint32_t i, l;
	size_t k;
	int t;

	(void)v;
	fputs("<h2 id=schedstat>schedstat</h2>\n", f);
	if (!a->present) {
		fputs("<p>not recorded (a kernel without CONFIG_SCHEDSTATS)</p>\n", f);
		return;
	}
	fprintf(f, "<p>/proc/schedstat version %u, the change over the session%s</p>\n",
		a->version, !a->enabled ? "; kernel.sched_schedstats was 0: only run, delay and "
		"timeslices counted" : "");
	fputs("<table><tr><th>cpu</th>", f);
	for (k = 0; k < NR(cpu_shown); k++)
		fprintf(f, "<th>%s</th>", schedstat_field_name(cpu_shown[k]));
	fputs("</tr>\n", f);
	for (i = 0; i < a->delta.nr_cpus; i++) {
		fprintf(f, "<tr><td>%u</td>", a->delta.cpus[i].cpu);
		for (k = 0; k < NR(cpu_shown); k++)
			fprintf(f, "<td>%" PRIu64 "</td>", a->delta.cpus[i].v[cpu_shown[k]]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<table><tr><th>level</th><th class=l>name</th><th>cpus</th>"
	      "<th class=l>when</th>", f);
	for (k = 0; k < NR(lb_shown); k++)
		fprintf(f, "<th>%s</th>", schedstat_lb_name(lb_shown[k]));
	fputs("</tr>\n", f);
	for (l = 0; l < a->nr_levels; l++) {
		const struct schedstat_level *lv = &a->levels[l];

		for (t = 0; lv->cpus && t < SCHEDSTAT_NR_IDLE; t++) {
			fprintf(f, "<tr><td>%u</td><td class=l>", l);
			html_esc(f, lv->sum.name[0] ? lv->sum.name : "-");
			fprintf(f, "</td><td>%u</td><td class=l>%s</td>", lv->cpus,
				schedstat_idle_name(t));
			for (k = 0; k < NR(lb_shown); k++)
				fprintf(f, "<td>%" PRIu64 "</td>", lv->sum.lb[t][lb_shown[k]]);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

/* --- JSON --- */

static int next_cpu(struct json_ctx *c, size_t *pos)
{
	const struct analyze_schedstat *a = analyze_schedstat(render_report(c));

	if (*pos >= a->delta.nr_cpus)
		return 0;
	c->item = &a->delta.cpus[(*pos)++];
	return 1;
}

static json_object *get_cpu(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(((const struct schedstat_cpu *)c->item)->cpu);
}

#define CPU_FIELD(n, f, d) { .name = n, .type = JSON_INT, \
	.off = offsetof(struct schedstat_cpu, v) + (f) * sizeof(uint64_t), .description = d }

static const struct json_field cpu_fields[] = {
	{ .name = "cpu", .type = JSON_INT, .get = get_cpu, .description = "the CPU" },
	CPU_FIELD("schedules", SCHEDSTAT_SCHED_COUNT, "schedule() calls"),
	CPU_FIELD("went_idle", SCHEDSTAT_SCHED_GOIDLE, "... that left the CPU idle"),
	CPU_FIELD("wakeups", SCHEDSTAT_TTWU_COUNT, "try_to_wake_up() calls made on it"),
	CPU_FIELD("wakeups_local", SCHEDSTAT_TTWU_LOCAL, "... that woke a task onto it"),
	CPU_FIELD("yields", SCHEDSTAT_YLD_COUNT, "sched_yield() calls"),
	CPU_FIELD("timeslices", SCHEDSTAT_TIMESLICES, "tasks switched in"),
	CPU_FIELD("run_ns", SCHEDSTAT_RUN_NS, "time tasks ran on it"),
	CPU_FIELD("delay_ns", SCHEDSTAT_DELAY_NS, "time tasks waited to run on it"),
	JSON_END
};

static int next_level(struct json_ctx *c, size_t *pos)
{
	const struct analyze_schedstat *a = analyze_schedstat(render_report(c));

	while (*pos < a->nr_levels && !a->levels[*pos].cpus)
		(*pos)++;
	if (*pos >= a->nr_levels)
		return 0;
	c->id = *pos;
	c->item = &a->levels[(*pos)++];
	return 1;
}

static json_object *get_lb(const struct json_field *f, struct json_ctx *c)
{
	const uint64_t *lb = c->aux;

	return json_doc_u64(lb[f->off]);
}

static const struct json_field lb_fields[] = {
	{ .name = "balances", .type = JSON_INT, .off = SCHEDSTAT_LB_COUNT, .get = get_lb,
	  .description = "load_balance() runs" },
	{ .name = "balanced", .type = JSON_INT, .off = SCHEDSTAT_LB_BALANCED, .get = get_lb,
	  .description = "... that found the domain balanced" },
	{ .name = "failed", .type = JSON_INT, .off = SCHEDSTAT_LB_FAILED, .get = get_lb,
	  .description = "... that moved no task though unbalanced" },
	{ .name = "pulled", .type = JSON_INT, .off = SCHEDSTAT_LB_GAINED, .get = get_lb,
	  .description = "tasks they moved here" },
	{ .name = "pulled_hot", .type = JSON_INT, .off = SCHEDSTAT_LB_HOT_GAINED, .get = get_lb,
	  .description = "... of them cache-hot" },
	{ .name = "no_busy_rq", .type = JSON_INT, .off = SCHEDSTAT_LB_NOBUSYQ, .get = get_lb },
	{ .name = "no_busy_group", .type = JSON_INT, .off = SCHEDSTAT_LB_NOBUSYG, .get = get_lb },
	JSON_END
};

static json_object *get_level(const struct json_field *f, struct json_ctx *c)
{
	const struct schedstat_level *lv = c->item;
	struct json_ctx k = *c;

	if (!strcmp(f->name, "level"))
		return json_doc_u64(c->id);
	if (!strcmp(f->name, "name"))
		return lv->sum.name[0] ? json_doc_str(lv->sum.name) : NULL;
	if (!strcmp(f->name, "cpus"))
		return json_doc_u64(lv->cpus);
	if (f->type == JSON_OBJ) {
		k.aux = lv->sum.lb[f->off];
		return json_doc_object(lb_fields, &k);
	}
	return json_doc_u64(lv->sum.v[f->off]);
}

static const struct json_field level_fields[] = {
	{ .name = "level", .type = JSON_INT, .get = get_level, .description = "N of domainN" },
	{ .name = "name", .type = JSON_STR, .flags = JSON_OPTIONAL, .get = get_level,
	  .description = "SMT, MC, PKG, NUMA... (schedstat version 17)" },
	{ .name = "cpus", .type = JSON_INT, .get = get_level,
	  .description = "CPUs with a domain at this level" },
	{ .name = "busy", .type = JSON_OBJ, .sub = lb_fields, .def = "schedstat_lb",
	  .off = SCHEDSTAT_BUSY, .get = get_level,
	  .description = "balances run while the CPU had work" },
	{ .name = "idle", .type = JSON_OBJ, .sub = lb_fields, .def = "schedstat_lb",
	  .off = SCHEDSTAT_IDLE, .get = get_level,
	  .description = "periodic balances of an idle CPU" },
	{ .name = "newidle", .type = JSON_OBJ, .sub = lb_fields, .def = "schedstat_lb",
	  .off = SCHEDSTAT_NEWIDLE, .get = get_level,
	  .description = "balances of a CPU about to go idle" },
	{ .name = "active_balances", .type = JSON_INT, .off = SCHEDSTAT_ALB_COUNT,
	  .get = get_level },
	{ .name = "active_pushed", .type = JSON_INT, .off = SCHEDSTAT_ALB_PUSHED, .get = get_level,
	  .description = "running tasks pushed away by active balancing" },
	{ .name = "wakeups_remote", .type = JSON_INT, .off = SCHEDSTAT_TTWU_WAKE_REMOTE,
	  .get = get_level, .description = "wakeups of a task last on another CPU of the domain" },
	{ .name = "wakeups_affine", .type = JSON_INT, .off = SCHEDSTAT_TTWU_MOVE_AFFINE,
	  .get = get_level, .description = "... moved to the waker's CPU (wake affine)" },
	JSON_END
};

static json_object *get_section(const struct json_field *f, struct json_ctx *c)
{
	const struct analyze_schedstat *a = analyze_schedstat(render_report(c));

	if (!strcmp(f->name, "version"))
		return json_doc_u64(a->version);
	if (!strcmp(f->name, "restarted"))
		return json_doc_u64(a->restarted);
	if (a->enabled < 0)
		return NULL;
	return json_object_new_boolean(a->enabled);
}

static int section_present(const struct json_ctx *c)
{
	return analyze_schedstat(render_report(c))->present;
}

static const struct json_field section_fields[] = {
	{ .name = "version", .type = JSON_INT, .get = get_section,
	  .description = "of /proc/schedstat's format" },
	{ .name = "schedstats_enabled", .type = JSON_BOOL, .flags = JSON_OPTIONAL,
	  .get = get_section,
	  .description = "kernel.sched_schedstats in the session (off: only run_ns, delay_ns "
			 "and timeslices count)" },
	{ .name = "restarted", .type = JSON_INT, .get = get_section,
	  .description = "CPUs or domains whose counts went back (left out)" },
	{ .name = "cpus", .type = JSON_ARR, .sub = cpu_fields, .next = next_cpu },
	{ .name = "levels", .type = JSON_ARR, .sub = level_fields, .next = next_level,
	  .description = "the load balancer per domain level, summed over its CPUs" },
	JSON_END
};

static const struct json_field schedstat_doc[] = {
	{ .name = "schedstat", .type = JSON_OBJ, .sub = section_fields, .flags = JSON_OPTIONAL,
	  .present = section_present,
	  .description = "/proc/schedstat's change over the session (kernels with SCHEDSTATS)" },
	JSON_END
};

static int schedstat_applies(const struct report *r)
{
	return analyze_schedstat(r)->present;
}

/* --- diff --- */

static uint64_t lb_total(const struct report *r, enum schedstat_lb k)
{
	const struct analyze_schedstat *a = analyze_schedstat(r);
	uint64_t n = 0;
	uint32_t l;
	int t;

	for (l = 0; l < a->nr_levels; l++)
		for (t = 0; t < SCHEDSTAT_NR_IDLE; t++)
			n += a->levels[l].sum.lb[t][k];
	return n;
}

static uint64_t dom_total(const struct report *r, enum schedstat_dom k)
{
	const struct analyze_schedstat *a = analyze_schedstat(r);
	uint64_t n = 0;
	uint32_t l;

	for (l = 0; l < a->nr_levels; l++)
		n += a->levels[l].sum.v[k];
	return n;
}

static double balances(const struct report *r, uint32_t id)
{
	(void)id;
	return lb_total(r, SCHEDSTAT_LB_COUNT);
}

static double balance_failures(const struct report *r, uint32_t id)
{
	(void)id;
	return lb_total(r, SCHEDSTAT_LB_FAILED);
}

static double pulled(const struct report *r, uint32_t id)
{
	(void)id;
	return lb_total(r, SCHEDSTAT_LB_GAINED) + dom_total(r, SCHEDSTAT_ALB_PUSHED);
}

static double wakeups_affine(const struct report *r, uint32_t id)
{
	(void)id;
	return dom_total(r, SCHEDSTAT_TTWU_MOVE_AFFINE);
}

static double cpu_delay(const struct report *r, uint32_t cpu)
{
	const struct schedstat_cpu *c = schedstat_cpu(&analyze_schedstat(r)->delta, cpu);

	return c ? c->v[SCHEDSTAT_DELAY_NS] : 0;
}

static const struct diff_metric metrics[] = {
	{ .name = "load balances", .entity = DIFF_MACHINE, .kind = METRIC_COUNT,
	  .value = balances },
	{ .name = "load balances failed", .entity = DIFF_MACHINE, .kind = METRIC_COUNT,
	  .value = balance_failures },
	{ .name = "tasks moved by balancing", .entity = DIFF_MACHINE, .kind = METRIC_COUNT,
	  .value = pulled },
	{ .name = "wake-affine wakeups", .entity = DIFF_MACHINE, .kind = METRIC_COUNT,
	  .value = wakeups_affine },
	{ .name = "wait to run (schedstat)", .entity = DIFF_CPU, .kind = METRIC_TIME,
	  .value = cpu_delay },
	{ NULL }
};

const struct analyzer analyzer_schedstat = {
	.name = "schedstat",
	.help = "the kernel's /proc/schedstat over the session: per CPU,\nand the load "
		"balancer per domain level",
	.size = sizeof(struct analyze_schedstat),
	.init = schedstat_init,
	.fini = schedstat_fini,
	.derive = schedstat_derive,
	.text = schedstat_text,
	.html = schedstat_html,
	.nav = "schedstat",
	.doc = schedstat_doc,
	.metrics = metrics,
	.tool = {
		"analyze_schedstat", "The kernel's scheduler statistics",
		"/proc/schedstat's change over the whole session (kernels with SCHEDSTATS): per "
		"CPU the schedules, wakeups, run and wait time; per scheduling-domain level the "
		"load balancer's runs, failures and tasks moved, by idle type, and wake-affine "
		"and remote wakeups. Not narrowed by the window or filters.",
		ARGS_ANALYSIS, 0, NULL, schedstat_applies,
	},
};
