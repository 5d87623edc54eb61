// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report: one self-contained page (no scripts, no network, no
 * fonts from elsewhere) with inline SVG plots, each with axes, units and a
 * legend, and the tables of the text report. Every plot is a
 * <figure class="plot" data-plot="NAME"> so tests can find it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-cpu.h"
#include "report/render.h"

static const char style[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
	"margin:0;background:#fafafa}"
	"main{max-width:960px;margin:0 auto;padding:16px 24px 48px;background:#fff}"
	"h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #ddd;padding-bottom:4px}"
	"nav a{margin-right:10px;color:#2563eb;text-decoration:none}"
	"table{border-collapse:collapse;margin:8px 0;font-size:13px}"
	"th,td{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}"
	"th{background:#f3f4f6}td.l,th.l{text-align:left}"
	".bar{display:inline-block;height:10px;background:#4e79a7;vertical-align:middle}"
	"figure{margin:12px 0}figcaption{font-size:12px;color:#555}"
	".axis{stroke:#333;stroke-width:1}.grid{stroke:#e5e7eb;stroke-width:1}"
	"svg text{font:11px system-ui,sans-serif;fill:#333}svg text.title{font-size:12px}"
	"svg text.flame{font-size:10px;fill:#111}"
	".warn{background:#fff7ed;border-left:4px solid #f97316;padding:6px 10px}"
	".finding{margin:4px 0}.rule{display:inline-block;min-width:90px;font-weight:600;"
	"color:#b91c1c}.note{color:#555;font-size:12px}";

void html_esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

void html_figure_open(FILE *f, const char *name, int w, int h, const char *label)
{
	fprintf(f, "<figure class=\"plot\" data-plot=\"%s\">\n", name);
	svg_open(f, w, h, label);
}

void html_figure_close(FILE *f, const char *caption)
{
	svg_close(f);
	fputs("<figcaption>", f);
	html_esc(f, caption);
	fputs("</figcaption></figure>\n", f);
}

/* --- Header --- */

static void header(FILE *f, const struct report *r)
{
	unsigned int i;
	char a[32];
	uint32_t cpu;
	int g;

	fputs("<h1>ktprof report</h1>\n<table>", f);
	fputs("<tr><th class=l>capture</th><td class=l>", f);
	html_esc(f, r->model->path);
	fputs("</td></tr>", f);
	if (r->model->have_meta) {
		fputs("<tr><th class=l>kernel</th><td class=l>", f);
		html_esc(f, r->model->meta.kernel);
		fputs(" (", f);
		html_esc(f, r->model->meta.machine);
		fputs(")</td></tr>", f);
	}
	fprintf(f, "<tr><th class=l>CPUs</th><td class=l>%u</td></tr>", r->nr_cpus);
	fprintf(f, "<tr><th class=l>window</th><td class=l>%s</td></tr>",
		render_ns(r->model->window_ns, a, sizeof(a)));
	fprintf(f, "<tr><th class=l>events</th><td class=l>%" PRIu64 "</td></tr>", r->model->events);
	fprintf(f, "<tr><th class=l>lost records</th><td class=l>%" PRIu64 "</td></tr></table>\n",
		r->model->lost);
	for (cpu = 0; cpu < analyze_cpu(r)->nr_cpus; cpu++) {
		const struct cpu_result *c = &analyze_cpu(r)->cpus[cpu];
		static const char *const what[] = { "no data", "lost records", "offline" };

		if (!report_cpu_shown(r, cpu))
			continue;
		for (g = 0; g < SCHED_NR_GAPS; g++)
			if (c->gap_ns[g])
				fprintf(f, "<p class=warn>CPU %u: %s of %s, left out of every figure</p>\n",
					cpu, render_ns(c->gap_ns[g], a, sizeof(a)), what[g]);
	}
	if (r->model->truncated || r->model->damaged) {
		fprintf(f, "<p class=warn>The capture is %s (", r->model->damaged ? "damaged" : "cut short");
		html_esc(f, r->model->problem);
		fputs("): figures cover what was read.</p>\n", f);
	}
	fputs("<nav>", f);
	for (i = 0; i < nr_analyzers; i++)
		if (analyzers[i]->nav)
			fprintf(f, "<a href=\"#%s\">%s</a>", analyzers[i]->name, analyzers[i]->nav);
	fputs("</nav>\n", f);
}

int render_html(const struct report *r, const struct report_view *v, FILE *f)
{
	unsigned int i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" HTML_CSP
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>ktprof report: ", f);
	html_esc(f, r->model->path);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body><main>\n", style);
	header(f, r);
	for (i = 0; i < nr_analyzers; i++)
		if ((v->sections & (1u << i)) && analyzers[i]->html)
			analyzers[i]->html(f, r, v);
	fprintf(f, "<p class=note>ktprof %s; definitions of every figure: docs/report.md.</p>\n"
		"</main></body></html>\n", KTP_VERSION_STRING);
	return ferror(f) ? -EIO : 0;
}
