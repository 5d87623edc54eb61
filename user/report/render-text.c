// SPDX-License-Identifier: GPL-2.0
/*
 * The text report: a header (the capture, what is unknown), then the
 * section of each analysis asked for, or the summary: one screen of each.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/render.h"
#include "util/text.h"	/* names from the capture: text_esc() */

void render_heading(FILE *out, const char *title)
{
	fprintf(out, "\n%s\n", title);
}

static void print_unknown(FILE *out, const struct report *r)
{
	const char *what[SCHED_NR_GAPS] = { "no data", "lost records", "offline" };
	const struct analyze_cpu *a = analyze_cpu(r);
	char b[32];
	uint32_t cpu;
	int g, any = 0;

	for (cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct cpu_result *c = &a->cpus[cpu];
		const char *sep = "";

		if (!report_cpu_shown(r, cpu) ||
		    !(c->gap_ns[0] + c->gap_ns[1] + c->gap_ns[2]))
			continue;
		if (!any++)
			fprintf(out, "excluded (unknown) time, per CPU:\n");
		fprintf(out, "  CPU %-3u", cpu);
		for (g = 0; g < SCHED_NR_GAPS; g++) {
			if (!c->gap_ns[g])
				continue;
			fprintf(out, "%s %s %s", sep, render_ns(c->gap_ns[g], b, sizeof(b)), what[g]);
			sep = ",";
		}
		fputc('\n', out);
	}
	if (!any)
		fprintf(out, "excluded (unknown) time: none\n");
}

static void print_header(FILE *out, const struct report *r)
{
	const struct model *m = r->model;
	char a[32], b[128], c[128];

	fprintf(out, "ktprof report: %s\n", m->path);
	if (m->have_meta)
		fprintf(out, "kernel %s (%s), ", text_esc(m->meta.kernel), text_esc(m->meta.machine));
	fprintf(out, "%u CPUs, window %s", r->nr_cpus, render_ns(m->window_ns, a, sizeof(a)));
	if (m->session_start)
		fprintf(out, " (+%s to +%s)",
			render_ns(m->from - m->session_start, b, sizeof(b)),
			render_ns(m->to - m->session_start, c, sizeof(c)));
	fprintf(out, ", %" PRIu64 " events\n", m->events);
	if (m->sched_ext[0].present)
		fprintf(out, "sched_ext: %s at start, %s at stop\n",
			text_esc(sched_ext_str(&m->sched_ext[0], b, sizeof(b))),
			m->sched_ext[1].present ? text_esc(sched_ext_str(&m->sched_ext[1], c, sizeof(c))) : "?");
	fprintf(out, "lost records: %" PRIu64 "%s", m->lost,
		m->lost ? " (their time is excluded from every figure)\n" : "\n");
	print_unknown(out, r);
	if (m->sched.latency_excluded[0] || m->sched.latency_excluded[1])
		fprintf(out, "latencies excluded (overlapping unknown time): %" PRIu64
			" wakeup, %" PRIu64 " runqueue\n", m->sched.latency_excluded[0],
			m->sched.latency_excluded[1]);
	if (m->sched.inconsistent)
		fprintf(out, "warning: %" PRIu64 " switch records contradict the ones before (damaged capture?)\n",
			m->sched.inconsistent);
	if (m->truncated || m->damaged)
		fprintf(out, "warning: the capture is %s (%s): figures cover what was read before\n",
			m->damaged ? "damaged" : "cut short", m->problem);
}

/* "more: --findings --cpu ...": every section's option, two lines at most. */
static void print_more(FILE *out)
{
	int col = fprintf(out, "\nmore:") - 1;
	unsigned int i;

	for (i = 0; i < nr_analyzers; i++) {
		if (col + 3 + (int)strlen(analyzers[i]->name) > 78) {
			fprintf(out, "\n     ");
			col = 5;
		}
		col += fprintf(out, " --%s", analyzers[i]->name);
	}
	fprintf(out, ", --json, --html FILE\n");
}

int render_text(const struct report *r, const struct report_view *v, FILE *out)
{
	unsigned int i;

	/* --profile alone prints what it always printed. */
	if (v->sections != analyzer_section("profile"))
		print_header(out, r);
	for (i = 0; i < nr_analyzers; i++) {
		void (*section)(FILE *, const struct report *, const struct report_view *) =
			v->summary ? analyzers[i]->summary : analyzers[i]->text;

		if ((v->sections & (1u << i)) && section)
			section(out, r, v);
	}
	if (v->summary)
		print_more(out);
	return ferror(out) ? -EIO : 0;
}
