/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command's options, written once as a table from which the parser
 * (getopt_long), the usage text, the man page and the shell completion
 * are all made, so that none of them can drift from the others.
 */
#ifndef KTPROF_OPTS_H
#define KTPROF_OPTS_H

#include <getopt.h>
#include <stdio.h>

#define OPTS_MAX 48		/* options of one command */
#define OPTS_LONG_ONLY 256	/* keys from here on have no short form */

struct opt {
	const char *name;	/* long name, without "--"; NULL ends a table */
	int key;		/* the short option's letter, or >= OPTS_LONG_ONLY */
	const char *arg;	/* the argument as help names it ("FILE"); NULL: none */
	const char *help;	/* what it does; '\n' starts another line */
};

struct opts {
	const char *cmd;	/* "record" */
	const char *summary;	/* one line, for `ktprof --help` and man NAME */
	const char *synopsis;	/* after "ktprof CMD "; '\n' starts another line */
	const char *description;	/* paragraphs, '\n'-wrapped */
	const char *examples;	/* man page only: "what:\n$ command\n"... */
	const struct opt *opts;
	/*
	 * Instead of @opts, a table made on first use: options that follow
	 * from another table (report's sections, from its analyses').
	 */
	const struct opt *(*table)(void);
	int in_order;		/* stop at the first operand (record -- CMD) */
};

/* The options of @o: @opts, or what @table makes. */
static inline const struct opt *opts_table(const struct opts *o)
{
	return o->table ? o->table() : o->opts;
}

/* getopt_long's arrays for one table, built on first use. */
struct opts_parser {
	struct option longopts[OPTS_MAX + 1];
	char shortopts[3 * OPTS_MAX + 3];
	int ready;
};

/*
 * The next option of @argv, as getopt_long() returns it: its key, '?' for
 * an unknown option or a missing argument, -1 after the last (optind is
 * then the first operand). The argument is in optarg.
 */
int opts_next(const struct opts *o, struct opts_parser *p, int argc, char **argv);

/* The usage text: synopsis, description, one line or more per option. */
void opts_usage(const struct opts *o, FILE *out);

/*
 * The man page's SYNOPSIS, DESCRIPTION and OPTIONS in roff, made from the
 * same table as the usage (opts-man.c); the caller writes the header, NAME
 * and the sections no table holds.
 */
void opts_man(const struct opts *o, FILE *out);

/* The EXAMPLES section, if the table has examples. */
void opts_man_examples(const struct opts *o, FILE *out);

/* @text as roff: backslashes escaped, '-' that starts a word a minus. */
void opts_man_text(FILE *out, const char *text);

#endif
