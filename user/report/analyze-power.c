// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-format.h"
#include "report/analyze-cpu.h"
#include "report/analyze-power.h"
#include "report/render.h"
#include "util/array.h"
#include "util/text.h"

/* --- The pass --- */

static const struct topology_cpu *topo_of(const struct report *r, uint32_t cpu)
{
	const struct model *m = r->model;
	unsigned int i;

	for (i = 0; i < m->nr_topo; i++)
		if (m->topo[i].cpu == cpu)
			return &m->topo[i];
	return NULL;
}

static struct power_cpu *cpu_of(struct analyze_power *a, uint32_t cpu)
{
	const struct topology_cpu *t;
	uint32_t i;

	if (cpu >= KTPC_MAX_CPUS)
		return NULL;
	if (cpu >= a->nr_cpus) {
		if (array_reserve((void **)&a->cpus, &a->cap_cpus, cpu, sizeof(*a->cpus), 8)) {
			a->error = -ENOMEM;
			return NULL;
		}
		for (i = a->nr_cpus; i <= cpu; i++) {
			memset(&a->cpus[i], 0, sizeof(a->cpus[i]));
			/* The frequency the recorder read at the start holds until a change. */
			t = topo_of(a->r, i);
			a->cpus[i].khz = t ? t->cur_khz : 0;
			a->cpus[i].min_khz = a->cpus[i].max_khz = a->cpus[i].khz;
		}
		a->nr_cpus = cpu + 1;
	}
	return &a->cpus[cpu];
}

static uint32_t slot(uint32_t state)
{
	return state < POWER_STATES - 1 ? state : POWER_STATES - 1;
}

/* The idle period of @c that ends at @ts, if one is open. */
static void idle_close(struct power_cpu *c, uint64_t ts)
{
	if (!c->since)
		return;
	if (ts > c->since) {
		c->state_ns[slot(c->state)] += ts - c->since;
		c->idle_ns += ts - c->since;
	}
	c->since = 0;
}

static void on_idle(struct analyze_power *a, const struct event *ev)
{
	struct power_cpu *c = cpu_of(a, ev->cpu);
	struct ktp_idle r;

	if (!c)
		return;
	memcpy(&r, ev->rec, sizeof(r));
	if (r.state == KTP_IDLE_EXIT) {
		/* An exit whose entry was before the window, or lost. */
		if (!c->since)
			c->unpaired++;
		idle_close(c, ev->ts);
		return;
	}
	if (c->since) {
		c->unpaired++;	/* its exit was lost: the period ends here */
		idle_close(c, ev->ts);
	}
	c->state = r.state;
	c->since = ev->ts;
	c->entries[slot(r.state)]++;
}

/* The frequency of @c up to @ts, at what it was. */
static void freq_close(struct analyze_power *a, struct power_cpu *c, uint64_t ts)
{
	uint64_t since = c->khz_since ? c->khz_since : a->r->model->from;

	if (c->khz && ts > since) {
		c->khz_area += (double)c->khz * (ts - since);
		c->khz_ns += ts - since;
	}
	c->khz_since = ts;
}

static void on_freq(struct analyze_power *a, const struct event *ev)
{
	struct ktp_freq r;
	struct power_cpu *c;

	memcpy(&r, ev->rec, sizeof(r));
	c = cpu_of(a, r.cpu);
	if (!c)
		return;
	freq_close(a, c, ev->ts);
	c->khz = r.khz;
	c->changes++;
	if (!c->min_khz || r.khz < c->min_khz)
		c->min_khz = r.khz;
	if (r.khz > c->max_khz)
		c->max_khz = r.khz;
}

static int on_event(void *ctx, const struct event *ev)
{
	struct analyze_power *a = ctx;
	struct power_cpu *c;

	if (ev->type == KTP_REC_IDLE) {
		a->records++;
		on_idle(a, ev);
	} else if (ev->type == KTP_REC_FREQ) {
		a->records++;
		on_freq(a, ev);
	} else if (ev->type == EVENT_LOST && (c = cpu_of(a, ev->cpu)) && c->since) {
		/* Records lost: where the open idle period ended is not known. */
		c->since = 0;
		c->unpaired++;
	} else if (ev->type == KTP_REC_CPU && (c = cpu_of(a, ev->cpu)) && c->since) {
		struct ktp_cpu_mark m;

		/*
		 * The CPU's data ends (stop, offline; the window's end): a
		 * period open then ends there. CPUs stop milliseconds apart
		 * under load, and the time after is not the idle task's.
		 */
		memcpy(&m, ev->rec, sizeof(m));
		if (m.reason == KTP_CPU_STOP || m.reason == KTP_CPU_OFFLINE)
			idle_close(c, ev->ts);
	}
	return 0;
}

static const struct sched_ops power_ops = {
	.event = on_event,
	.event_types = SCHED_TYPE(KTP_REC_IDLE) | SCHED_TYPE(KTP_REC_FREQ) | SCHED_TYPE(KTP_REC_CPU),
};

static int power_init(void *state, struct report *r)
{
	struct analyze_power *a = state;

	a->r = r;
	return model_add_client(r->model, &power_ops, a, MODEL_WINDOWED);
}

static void power_fini(void *state)
{
	struct analyze_power *a = state;

	free(a->cpus);
}

static int power_derive(void *state, struct report *r)
{
	struct analyze_power *a = state;
	uint32_t i;

	for (i = 0; i < a->nr_cpus; i++) {
		idle_close(&a->cpus[i], r->model->to);
		freq_close(a, &a->cpus[i], r->model->to);
	}
	return a->error;
}

const struct analyze_power *analyze_power(const struct report *r)
{
	return report_state(r, &analyzer_power);
}

/* --- Figures --- */

static double mean_khz(const struct power_cpu *c)
{
	return c->khz_ns ? c->khz_area / c->khz_ns : NAN;
}

const char *analyze_power_state_name(const struct report *r, uint32_t cpu, uint32_t s,
				     char *buf, size_t len)
{
	const struct topology_cpu *t = topo_of(r, cpu);

	if (s == POWER_STATES - 1)
		snprintf(buf, len, "state %u+", s);
	else if (t && s < t->nr_idle && t->idle[s].name[0])
		snprintf(buf, len, "%s", t->idle[s].name);
	else
		snprintf(buf, len, "state %u", s);
	return buf;
}

static int shown(const struct analyze_power *a, uint32_t cpu)
{
	const struct power_cpu *c = &a->cpus[cpu];

	return report_cpu_shown(a->r, cpu) && (c->idle_ns || c->khz_ns || c->unpaired);
}

/* --- Text --- */

int analyze_power_recorded(const struct report *r)
{
	return analyze_power(r)->records || (r->model->meta.events & KTP_EV_POWER);
}

const char *analyze_power_cpu_line(const struct report *r, uint32_t cpu, char *buf,
				   size_t len)
{
	const struct analyze_power *a = analyze_power(r);
	const struct analyze_cpu *k = analyze_cpu(r);
	const struct power_cpu *c;
	const char *sep = ":";
	char name[32];
	size_t n = 0;
	uint32_t s;

	if (cpu >= a->nr_cpus || !shown(a, cpu))
		return NULL;
	c = &a->cpus[cpu];
	n += snprintf(buf + n, len - n, "in states %.1f%% of idle",
		      render_pct(c->idle_ns, cpu < k->nr_cpus ? k->cpus[cpu].idle_ns : 0));
	for (s = 0; s < POWER_STATES && n < len; s++)
		if (c->state_ns[s]) {
			n += snprintf(buf + n, len - n, "%s %s %.1f%%", sep,
				      text_esc(analyze_power_state_name(r, cpu, s, name, sizeof(name))),
				      render_pct(c->state_ns[s], c->idle_ns));
			sep = ",";
		}
	if (n < len)
		snprintf(buf + n, len - n, c->khz_ns ? "; %.1f MHz" : "; MHz unknown",
			 mean_khz(c) / 1000);
	return buf;
}

static void power_text(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_power *a = analyze_power(r);
	char name[32], ns[16], pct[16];
	uint32_t cpu, s;

	(void)v;
	render_heading(out, "power (idle states: time in each, by power:cpu_idle; frequency: "
		       "time-weighted mean)");
	if (!analyze_power_recorded(r)) {
		fprintf(out, "  not recorded: record -e ...,power\n");
		return;
	}
	fprintf(out, "  %-4s %-12s %10s %7s %9s %12s\n", "cpu", "state", "time", "of idle",
		"entries", "exit latency");
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct power_cpu *c = &a->cpus[cpu];
		const struct topology_cpu *t = topo_of(r, cpu);

		if (!shown(a, cpu))
			continue;
		for (s = 0; s < POWER_STATES; s++) {
			if (!c->entries[s] && !c->state_ns[s])
				continue;
			snprintf(pct, sizeof(pct), "%.1f%%", render_pct(c->state_ns[s], c->idle_ns));
			fprintf(out, "  %-4u %-12s %10s %7s %9" PRIu64, cpu,
				text_esc(analyze_power_state_name(r, cpu, s, name, sizeof(name))),
				render_ns(c->state_ns[s], ns, sizeof(ns)), pct, c->entries[s]);
			if (t && s < t->nr_idle)
				fprintf(out, " %9u us\n", t->idle[s].exit_us);
			else
				fprintf(out, " %12s\n", "-");
		}
		if (c->unpaired)
			fprintf(out, "  %-4u %" PRIu64 " entries or exits without their pair (before the "
				"window, or lost)\n", cpu, c->unpaired);
	}
	fprintf(out, "\n  %-4s %10s %10s %10s %8s\n", "cpu", "mean MHz", "min MHz", "max MHz",
		"changes");
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct power_cpu *c = &a->cpus[cpu];

		if (!shown(a, cpu))
			continue;
		if (!c->khz_ns)
			fprintf(out, "  %-4u %10s %10s %10s %8" PRIu64 "\n", cpu, "-", "-", "-",
				c->changes);
		else
			fprintf(out, "  %-4u %10.1f %10.1f %10.1f %8" PRIu64 "\n", cpu,
				mean_khz(c) / 1000, c->min_khz / 1000.0, c->max_khz / 1000.0,
				c->changes);
	}
}

static void power_summary(FILE *out, const struct report *r, const struct report_view *v)
{
	const struct analyze_power *a = analyze_power(r);
	uint64_t idle = 0;
	uint32_t cpu;

	(void)v;
	if (!a->records)
		return;
	for (cpu = 0; cpu < a->nr_cpus; cpu++)
		idle += a->cpus[cpu].idle_ns;
	fprintf(out, "power: %" PRIu64 " idle and frequency records; %.1f ms in idle states\n",
		a->records, idle / 1e6);
}

static void power_html(FILE *f, const struct report *r, const struct report_view *v)
{
	const struct analyze_power *a = analyze_power(r);
	char name[32], ns[16];
	uint32_t cpu, s;

	(void)v;
	fputs("<h2 id=power>Power</h2>\n<table><tr><th>cpu</th><th class=l>idle state</th>"
	      "<th>time</th><th>of idle</th><th>entries</th></tr>\n", f);
	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct power_cpu *c = &a->cpus[cpu];

		if (!shown(a, cpu))
			continue;
		for (s = 0; s < POWER_STATES; s++) {
			if (!c->entries[s] && !c->state_ns[s])
				continue;
			fprintf(f, "<tr><td>%u</td><td class=l>", cpu);
			html_esc(f, analyze_power_state_name(r, cpu, s, name, sizeof(name)));
			fprintf(f, "</td><td>%s</td><td>%.1f%%</td><td>%" PRIu64 "</td></tr>\n",
				render_ns(c->state_ns[s], ns, sizeof(ns)),
				render_pct(c->state_ns[s], c->idle_ns), c->entries[s]);
		}
	}
	fputs("</table>\n", f);
}

/* --- JSON: the fields of each CPU object, and the section --- */

static const struct power_cpu *power_of(const struct json_ctx *c)
{
	const struct analyze_power *a = analyze_power(render_report(c));

	return c->id < a->nr_cpus ? &a->cpus[c->id] : NULL;
}

static int next_state(struct json_ctx *c, size_t *pos)
{
	const struct power_cpu *p = c->aux;

	while (*pos < POWER_STATES && !p->entries[*pos] && !p->state_ns[*pos])
		(*pos)++;
	if (*pos >= POWER_STATES)
		return 0;
	c->item = (const void *)(uintptr_t)(*pos)++;
	return 1;
}

/* A CPU's states: the list's context is the CPU's (c->id), its item the state. */
static json_object *get_state(const struct json_field *f, struct json_ctx *c)
{
	const struct report *r = render_report(c);
	const struct power_cpu *p = c->aux;
	uint32_t s = (uint32_t)(uintptr_t)c->item;
	const struct topology_cpu *t = topo_of(r, (uint32_t)c->id);
	char name[32];

	if (!strcmp(f->name, "state"))
		return json_doc_u64(s);
	if (!strcmp(f->name, "name"))
		return json_doc_str(analyze_power_state_name(r, (uint32_t)c->id, s, name, sizeof(name)));
	if (!strcmp(f->name, "exit_latency_us"))
		return t && s < t->nr_idle ? json_doc_u64(t->idle[s].exit_us) : NULL;
	if (!strcmp(f->name, "entries"))
		return json_doc_u64(p->entries[s]);
	return json_doc_u64(p->state_ns[s]);
}

static const struct json_field state_fields[] = {
	{ .name = "state", .type = JSON_INT, .get = get_state,
	  .description = "cpuidle's index (the last slot takes every state past the table)" },
	{ .name = "name", .type = JSON_STR, .get = get_state },
	{ .name = "exit_latency_us", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_state },
	{ .name = "entries", .type = JSON_INT, .get = get_state },
	{ .name = "ns", .type = JSON_INT, .get = get_state },
	JSON_END
};

static json_object *get_cpu_power(const struct json_field *f, struct json_ctx *c)
{
	const struct power_cpu *p = power_of(c);
	struct json_ctx sub = *c;
	size_t pos = 0;
	json_object *arr;

	if (!p)
		return NULL;
	if (!strcmp(f->name, "idle_states")) {
		arr = json_object_new_array();
		sub.aux = p;
		while (next_state(&sub, &pos))
			json_build_push(c->b, arr, json_doc_object(state_fields, &sub));
		return arr;
	}
	if (!strcmp(f->name, "idle_state_ns"))
		return json_doc_u64(p->idle_ns);
	if (!strcmp(f->name, "frequency_mean_khz"))
		return p->khz_ns ? json_doc_num(c, mean_khz(p), 1) : NULL;
	if (!strcmp(f->name, "frequency_min_khz"))
		return p->khz_ns ? json_doc_u64(p->min_khz) : NULL;
	if (!strcmp(f->name, "frequency_max_khz"))
		return p->khz_ns ? json_doc_u64(p->max_khz) : NULL;
	if (!strcmp(f->name, "frequency_changes"))
		return json_doc_u64(p->changes);
	return json_doc_u64(p->unpaired);
}

static const struct json_field cpu_fields[] = {
	{ .name = "idle_states", .type = JSON_ARR, .sub = state_fields, .flags = JSON_OPTIONAL,
	  .get = get_cpu_power,
	  .description = "time in each idle state (power:cpu_idle entry to exit; -e power)" },
	{ .name = "idle_state_ns", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cpu_power },
	{ .name = "idle_unpaired", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cpu_power,
	  .description = "idle entries or exits without their pair (before the window, or lost)" },
	{ .name = "frequency_mean_khz", .type = JSON_NUM, .flags = JSON_OPTIONAL,
	  .get = get_cpu_power,
	  .description = "time-weighted, over the time its frequency was known" },
	{ .name = "frequency_min_khz", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cpu_power },
	{ .name = "frequency_max_khz", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cpu_power },
	{ .name = "frequency_changes", .type = JSON_INT, .flags = JSON_OPTIONAL, .get = get_cpu_power },
	JSON_END
};

static json_object *get_records(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(analyze_power(render_report(c))->records);
}

static const struct json_field section_fields[] = {
	{ .name = "records", .type = JSON_INT, .get = get_records,
	  .description = "cpu_idle and cpu_frequency records in the window; the figures are "
			 "in each CPU's object (cpus[])" },
	JSON_END
};

static const struct json_field power_doc[] = {
	{ .name = "power", .type = JSON_OBJ, .sub = section_fields,
	  .description = "idle states and frequency (-e power)" },
	JSON_END
};

const struct analyzer analyzer_power = {
	.name = "power",
	.help = "per CPU: time in each idle state, time-weighted frequency\n(record -e ...,power)",
	.size = sizeof(struct analyze_power),
	.init = power_init,
	.fini = power_fini,
	.derive = power_derive,
	.text = power_text,
	.summary = power_summary,
	.html = power_html,
	.nav = "power",
	.doc = power_doc,
	.fields = { [ENTITY_CPU] = cpu_fields },
	.tool = {
		"analyze_power", "Idle states and frequency per CPU",
		"Per CPU: the time spent in each idle state (with its name and exit latency) "
		"and the time-weighted frequency, from a capture recorded with -e power.",
		ARGS_ANALYSIS, 1u << KTP_REC_IDLE, NULL,
	},
};
