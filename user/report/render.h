/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Renderers of a report: text (aligned tables), JSON (a versioned
 * document, docs/report.md) and HTML (one self-contained page with SVG
 * plots). Each writes what the view selects; none re-scans events.
 */
#ifndef KTPROF_RENDER_H
#define KTPROF_RENDER_H

#include <stdio.h>

#include "report/report.h"

enum report_section {
	SECTION_CPU = 1 << 0,
	SECTION_RUNTIME = 1 << 1,
	SECTION_LATENCY = 1 << 2,
	SECTION_STATES = 1 << 3,
	SECTION_MIGRATIONS = 1 << 4,
	SECTION_PREEMPTION = 1 << 5,
	SECTION_WAKERS = 1 << 6,
	SECTION_IRQ = 1 << 7,
	SECTION_FINDINGS = 1 << 8,
	SECTION_OUTLIERS = 1 << 9,
	SECTION_PROFILE = 1 << 10,
	SECTION_ALL = (1 << 11) - 1,
};

#define REPORT_JSON_VERSION "1.1"

struct report_view {
	unsigned int sections;	/* enum report_section bits */
	int summary;		/* no section asked for: one screen of each */
	unsigned int top;	/* rows per table */
};

/* The JSON document as a json-c tree (the caller puts it); NULL on ENOMEM. */
struct json_object;
struct json_object *render_json_object(const struct report *r, const struct report_view *v);

/* Each returns 0 or a negative error (the output's write error). */
int render_text(const struct report *r, const struct report_view *v, FILE *out);
int render_json(const struct report *r, const struct report_view *v, FILE *out);
int render_html(const struct report *r, const struct report_view *v, FILE *out);

/* "12.3 ms", "850 ns", "1.234 s": three significant digits and a unit. */
const char *render_ns(uint64_t ns, char *buf, size_t len);

#endif
