/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Renderers of a report: text (aligned tables), JSON (a versioned
 * document, docs/report.md) and HTML (one self-contained page with SVG
 * plots). Each frames the sections of the analyses the view selects
 * (analyzer.h); none re-scans events. What the analyses' own sections
 * share is here: the view, units, and the page's pieces.
 */
#ifndef KTPROF_RENDER_H
#define KTPROF_RENDER_H

#include <stdio.h>

#include "report/report.h"
#include "report/svg.h"
#include "util/units.h"

#define REPORT_JSON_VERSION "1.2"

struct report_view {
	unsigned int sections;	/* analyzer_section() bits */
	int summary;		/* no section asked for: one screen of each */
	unsigned int top;	/* rows per table */
};

#define SUMMARY_ROWS 5

/*
 * The JSON document as a json-c tree (the caller puts it), its lists cut
 * by @cut if not NULL (report/json-doc.h); NULL on ENOMEM.
 */
struct json_object;
struct json_cut;
struct json_object *render_json_object(const struct report *r, const struct report_view *v,
				       const struct json_cut *cut);

/* The JSON Schema of the document holding @sections; NULL on ENOMEM. */
struct json_object *render_json_schema(unsigned int sections);

/* The document's fields, for readers that walk it (the MCP tools' lists). */
const struct json_field *render_json_fields(unsigned int sections);

/* Each returns 0 or a negative error (the output's write error). */
int render_text(const struct report *r, const struct report_view *v, FILE *out);
int render_json(const struct report *r, const struct report_view *v, FILE *out);
int render_html(const struct report *r, const struct report_view *v, FILE *out);

/* "12.3 ms", "850 ns", "1.234 s": three significant digits and a unit. */
static inline const char *render_ns(uint64_t ns, char *buf, size_t len)
{
	return units_fmt_ns(ns, buf, len);
}

static inline double render_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static inline double render_per_s(uint64_t n, uint64_t ns)
{
	return ns ? n / (ns / 1e9) : 0;
}

/* Text: the rows of a table (a few in the summary), a section's heading. */
static inline unsigned int render_rows(const struct report_view *v)
{
	return v->summary ? SUMMARY_ROWS : v->top;
}

void render_heading(FILE *out, const char *title);

/* HTML: plots' geometry, escaping, figures. */
/*
 * The pages hold no script and load nothing: a policy that says so, so
 * that a name that slipped past the escaping still could not run.
 */
#define HTML_CSP "<meta http-equiv=\"Content-Security-Policy\" " \
	"content=\"default-src 'none'; style-src 'unsafe-inline'\">"

#define HTML_W 900		/* plot width */
#define HTML_LEFT 70		/* room for the y axis */
#define HTML_RIGHT 20

void html_esc(FILE *f, const char *s);
void html_figure_open(FILE *f, const char *name, int w, int h, const char *label);
void html_figure_close(FILE *f, const char *caption);

/* JSON: a thread as others refer to it (pid, tgid, comm); the idle task is pid 0. */
extern const struct json_field render_thread_ref[];
struct json_object *render_thread_ref_of(struct json_ctx *c, uint32_t t);

/* JSON getters' context: the report. */
static inline const struct report *render_report(const struct json_ctx *c)
{
	return c->doc;
}

#endif
