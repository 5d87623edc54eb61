/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An analysis of `ktprof report`, whole in one entry: its section (the
 * option that asks for it, its help), its state and the hooks that fill it
 * in the model's pass and derive from it after, what it writes in the text
 * report, the summary, the HTML page and the JSON document (whose field
 * tables give the schema too), the findings rules it judges, the figures
 * `ktprof diff` compares, and its MCP tool. The table of entries
 * (analyzers.c) is the only list of them: options, --help, the man page,
 * the completion, the renderers, the schema, diff and the MCP tools all
 * follow from it. Adding an analysis is one file and one line there.
 */
#ifndef KTPROF_ANALYZER_H
#define KTPROF_ANALYZER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/json-doc.h"

struct report;
struct report_view;
struct findings;
struct diff_metric;

enum report_entity { ENTITY_CPU, ENTITY_THREAD, ENTITY_PROCESS, REPORT_NR_ENTITIES };

/* A findings rule: its threshold's name, unit, default, and what it judges. */
struct findings_rule {
	const char *name;	/* for --threshold NAME=VALUE */
	const char *unit;	/* of the threshold */
	double def;		/* default threshold */
	const char *what;	/* one line for the help and the docs */
	/* Add the findings of @r; @threshold in force. 0 or -ENOMEM. */
	int (*judge)(struct findings *f, const struct report *r, double threshold);
};

/* How an analysis is offered as an MCP tool (mcp/mcp-tools.c). */
enum analyzer_args { ARGS_ANALYSIS, ARGS_CPUS, ARGS_IRQS, ARGS_FINDINGS, ARGS_OUTLIERS,
		     ARGS_PROFILE };

struct analyzer_tool {
	const char *name, *title, *description;
	enum analyzer_args args;
	unsigned int needs;	/* record types (1 << KTP_REC_*) without which it finds nothing */
	const char *order;	/* threads and processes by this field, largest first
				 * ("latency.wakeup.p99_ns"); NULL: runtime */
	/* Whether it finds anything in @r, where no record type says
	 * (@needs 0: it reads the capture's metadata); NULL: by @needs. */
	int (*applies)(const struct report *r);
};

struct analyzer {
	const char *name;	/* "wakers": its option (--wakers), its JSON key */
	const char *help;	/* the option's help */

	/* Its state, @size bytes, zeroed, at report_state(r, index). */
	size_t size;
	int (*init)(void *a, struct report *r);		/* register with the model */
	void (*fini)(void *a);
	int (*derive)(void *a, struct report *r);	/* after the pass */
	int late;		/* derive after every other analysis */

	/* Output of its section, when asked for (NULL: none). */
	void (*text)(FILE *out, const struct report *r, const struct report_view *v);
	void (*summary)(FILE *out, const struct report *r, const struct report_view *v);
	void (*html)(FILE *out, const struct report *r, const struct report_view *v);
	const char *nav;	/* its HTML anchor's label; NULL: none */

	/* JSON: its section of the document (@doc: one field), and its fields
	 * of each CPU, thread and process object (with the others'). */
	const struct json_field *doc;
	const struct json_field *fields[REPORT_NR_ENTITIES];

	const struct findings_rule *rules;	/* ends with a NULL name */
	const struct diff_metric *metrics;	/* ends with a NULL name */
	struct analyzer_tool tool;
};

/* The table: every analysis, in the order of the report. */
extern const struct analyzer *const analyzers[];
extern const unsigned int nr_analyzers;

/* The section bit of analysis @name (1 << its index), or 0. */
unsigned int analyzer_section(const char *name);

/* Every section's bit. */
unsigned int analyzer_sections_all(void);

/* The analysis whose section bit is @bit, or NULL. */
const struct analyzer *analyzer_of_section(unsigned int bit);

#endif
