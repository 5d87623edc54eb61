// SPDX-License-Identifier: GPL-2.0
/*
 * A command's man page sections in roff, from its option table, so that the
 * page cannot drift from `ktprof CMD --help` (ktprof help --man CMD).
 */
#include <stdbool.h>
#include <string.h>

#include "util/opts.h"

void opts_man_text(FILE *out, const char *text)
{
	const char *s;

	/* A control character at the start of a line would be a request. */
	if (*text == '.' || *text == '\'')
		fputs("\\&", out);
	for (s = text; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-' && (s == text || strchr(" ([|-", s[-1])))
			fputs("\\-", out);	/* an option or a sign, not a hyphen */
		else
			fputc(*s, out);
	}
}

/*
 * Each line of @text; an empty one starts a paragraph. Indented lines keep
 * their indent and a line of their own, as in the usage (convert --view).
 */
/*
 * The next line of *@text into @line (cut to fit), and *@text past it;
 * false at the end of the text.
 */
static bool next_line(const char **text, char *line, size_t size)
{
	const char *start = *text, *nl;
	size_t n;

	if (!*start)
		return false;
	nl = strchr(start, '\n');
	n = nl ? (size_t)(nl - start) : strlen(start);
	*text = nl ? nl + 1 : start + n;
	if (n >= size)
		n = size - 1;
	memcpy(line, start, n);
	line[n] = '\0';
	return true;
}

static void man_lines(FILE *out, const char *text)
{
	char line[512];

	while (next_line(&text, line, sizeof(line))) {
		if (!*line)
			fputs(".PP", out);
		else
			opts_man_text(out, line);
		fputc('\n', out);
	}
}

static void man_opt(FILE *out, const struct opt *op)
{
	fputs(".TP\n", out);
	if (op->key < OPTS_LONG_ONLY)
		fprintf(out, "\\fB\\-%c\\fR, ", op->key);
	fputs("\\fB\\-\\-", out);
	opts_man_text(out, op->name);
	fputs("\\fR", out);
	if (op->arg) {
		fputs(" \\fI", out);
		opts_man_text(out, op->arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	man_lines(out, op->help);
}

/* "what:\n$ command\n": the description, then the command as typed. */
void opts_man_examples(const struct opts *o, FILE *out)
{
	const char *text = o->examples;
	char line[512];

	if (!text)
		return;
	fputs(".SH EXAMPLES\n", out);
	while (next_line(&text, line, sizeof(line))) {
		if (!strncmp(line, "$ ", 2)) {
			fputs(".PP\n.RS 4\n.EX\n", out);
			opts_man_text(out, line + 2);
			fputs("\n.EE\n.RE\n", out);
		} else {
			fputs(".PP\n", out);
			opts_man_text(out, line);
			fputc('\n', out);
		}
	}
}

void opts_man(const struct opts *o, FILE *out)
{
	const struct opt *op;

	fputs(".SH SYNOPSIS\n.B ktprof ", out);
	opts_man_text(out, o->cmd);
	fputc('\n', out);
	if (*o->synopsis)
		man_lines(out, o->synopsis);
	if (o->description) {
		fputs(".SH DESCRIPTION\n", out);
		man_lines(out, o->description);
	}
	fputs(".SH OPTIONS\n", out);
	for (op = opts_table(o); op->name; op++)
		man_opt(out, op);
}
