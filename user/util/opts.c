// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "util/opts.h"

#define HELP_COLUMN 26	/* where help text starts in the usage */

static void build(const struct opts *o, struct opts_parser *p)
{
	const struct opt *op;
	char *s = p->shortopts;
	int n = 0;

	/* '+': stop at the first operand; ':' is not used, errors print. */
	if (o->in_order)
		*s++ = '+';
	for (op = opts_table(o); op->name && n < OPTS_MAX; op++, n++) {
		p->longopts[n] = (struct option){
			.name = op->name,
			.has_arg = op->arg ? required_argument : no_argument,
			.val = op->key,
		};
		if (op->key < OPTS_LONG_ONLY) {
			*s++ = (char)op->key;
			if (op->arg)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&p->longopts[n], 0, sizeof(p->longopts[n]));
	p->ready = 1;
}

int opts_next(const struct opts *o, struct opts_parser *p, int argc, char **argv)
{
	if (!p->ready)
		build(o, p);
	return getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
}

/* Each line of @text after @indent spaces (the first line has none). */
static void print_lines(FILE *out, const char *text, int indent)
{
	const char *nl;

	for (;;) {
		nl = strchr(text, '\n');
		fprintf(out, "%.*s\n", nl ? (int)(nl - text) : (int)strlen(text), text);
		if (!nl || !nl[1])
			return;
		text = nl + 1;
		fprintf(out, "%*s", indent, "");
	}
}

static void print_opt(FILE *out, const struct opt *op)
{
	int n;

	if (op->key < OPTS_LONG_ONLY)
		n = fprintf(out, "  -%c, --%s", op->key, op->name);
	else
		n = fprintf(out, "      --%s", op->name);
	if (op->arg)
		n += fprintf(out, " %s", op->arg);
	if (n + 2 > HELP_COLUMN) {
		fprintf(out, "\n");
		n = 0;
	}
	fprintf(out, "%*s", HELP_COLUMN - n, "");
	print_lines(out, op->help, HELP_COLUMN);
}

void opts_usage(const struct opts *o, FILE *out)
{
	const struct opt *op;
	int n;

	n = fprintf(out, "usage: ktprof %s%s", o->cmd, *o->synopsis ? " " : "");
	print_lines(out, o->synopsis, n);
	if (o->description) {
		fprintf(out, "\n");
		print_lines(out, o->description, 0);
	}
	fprintf(out, "\n");
	for (op = opts_table(o); op->name; op++)
		print_opt(out, op);
}
