// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof help CMD: a command's usage, made from its option table; and from
 * the same tables its man page (--man) and the shell completion
 * (--completion bash), which the build installs (make man, make install).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "ktprof_abi.h"

enum { OPT_MAN = OPTS_LONG_ONLY, OPT_COMPLETION };

static const struct opt help_opts[] = {
	{ "man", OPT_MAN, NULL, "print the man page of COMMAND (of ktprof\n"
	  "without one) in roff" },
	{ "completion", OPT_COMPLETION, "SHELL", "print the completion script for SHELL (bash)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts help_cmd = {
	.cmd = "help",
	.summary = "describe a command",
	.synopsis = "[--man] [COMMAND] | --completion bash",
	.description = "Print the usage of COMMAND, or the list of commands.",
	.opts = help_opts,
};

static const struct cmd *find_cmd(const char *name)
{
	unsigned int i;

	for (i = 0; i < cmd_table_len; i++)
		if (!strcmp(name, cmd_table[i].name))
			return &cmd_table[i];
	return NULL;
}

/* Pages of commands with no man page of their own go in ktprof(1). */
static int has_page(const struct cmd *c)
{
	return strcmp(c->name, "help") && strcmp(c->name, "version");
}

/* .TH with the date of SOURCE_DATE_EPOCH (reproducible builds), or none. */
static void man_header(FILE *out, const char *title)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	char date[16] = "";
	time_t t;

	if (epoch && *epoch) {
		t = (time_t)strtoll(epoch, NULL, 10);
		strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&t));
	}
	fprintf(out, ".TH %s 1 \"%s\" \"ktprof %s\" \"ktprof Manual\"\n",
		title, date, KTP_VERSION_STRING);
	/* No hyphens in options and page names (HY: each paragraph's .hy). */
	fputs(".nr HY 0\n.nh\n.ad l\n", out);
}

static void man_see_also(FILE *out, const char *self)
{
	unsigned int i;

	fputs(".SH SEE ALSO\n", out);
	if (strcmp(self, "ktprof"))
		fputs(".BR ktprof (1),\n", out);
	for (i = 0; i < cmd_table_len; i++)
		if (has_page(&cmd_table[i]) && strcmp(self, cmd_table[i].name))
			fprintf(out, ".BR ktprof\\-%s (1),\n", cmd_table[i].name);
	fputs(".BR ktprof.ko (4),\n.BR perf (1)\n", out);
}

static void man_exit_status(FILE *out)
{
	fputs(".SH EXIT STATUS\n"
	      ".TP\n0\nSuccess.\n"
	      ".TP\n1\nFailure; also a capture cut short or damaged, whose output\n"
	      "covers only what was readable.\n"
	      ".TP\n2\nA usage error: an unknown option, a bad value, a missing operand.\n",
	      out);
}

/* ktprof(1): the commands, the workflow, the files. */
static void man_main(FILE *out)
{
	unsigned int i;

	man_header(out, "KTPROF");
	fputs(".SH NAME\nktprof \\- BPF\\-free scheduler tracing and CPU profiling for Linux\n"
	      ".SH SYNOPSIS\n.B ktprof\n.I COMMAND\n[\\fIoptions\\fR] [\\fIARGS\\fR]\n"
	      ".br\n.B ktprof help\n[\\fICOMMAND\\fR]\n"
	      ".SH DESCRIPTION\n"
	      "ktprof shows what the Linux scheduler and the CPUs did: context switches,\n"
	      "wakeups, migrations, forks, execs and exits, hard and soft interrupts,\n"
	      "IPIs, workqueue items, and CPU samples with kernel and user stacks,\n"
	      "on kernels and machines where BPF tools cannot run.\n"
	      "The kernel module\n.BR ktprof.ko (4)\n"
	      "writes compact binary records into per\\-CPU relay files under\n"
	      ".IR /sys/kernel/debug/ktprof/ ;\n"
	      ".B ktprof\nrecords, decodes, symbolizes and analyses them, and converts\n"
	      "them to a Perfetto trace.\n"
	      ".SH COMMANDS\n", out);
	for (i = 0; i < cmd_table_len; i++) {
		fprintf(out, ".TP\n.B %s\n", cmd_table[i].name);
		opts_man_text(out, cmd_table[i].opts->summary);
		if (has_page(&cmd_table[i]))
			fprintf(out, "; see\n.BR ktprof\\-%s (1)", cmd_table[i].name);
		fputs(".\n", out);
		if (!strcmp(cmd_table[i].name, "help"))
			fputs("\\fB\\-\\-man\\fR [\\fICOMMAND\\fR] prints its man page\n"
			      "(this one without COMMAND), \\fB\\-\\-completion bash\\fR\n"
			      "the bash completion script.\n", out);
	}
	fputs(".SH OPTIONS\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"
	      "The list of commands; after a command, its usage.\n", out);
	man_exit_status(out);
	fputs(".SH FILES\n.TP\n.I /sys/kernel/debug/ktprof/\n"
	      "The module's control files and per\\-CPU relay files; see\n.BR ktprof.ko (4).\n"
	      ".SH EXAMPLES\n.PP\n.RS 4\n.EX\n"
	      "modprobe ktprof\n"
	      "ktprof record \\-o cap.ktp \\-\\- ./my\\-workload\n"
	      "ktprof info cap.ktp\n"
	      "ktprof report cap.ktp\n"
	      "ktprof convert cap.ktp\n"
	      "ktprof diff before.ktp after.ktp\n"
	      ".EE\n.RE\n", out);
	man_see_also(out, "ktprof");
}

static void man_cmd(FILE *out, const struct cmd *c)
{
	char title[32];
	unsigned int i;

	snprintf(title, sizeof(title), "KTPROF-%s", c->name);
	for (i = 0; title[i]; i++)
		if (title[i] >= 'a' && title[i] <= 'z')
			title[i] = (char)(title[i] - 'a' + 'A');
	man_header(out, title);
	fprintf(out, ".SH NAME\nktprof\\-%s \\- ", c->name);
	opts_man_text(out, c->opts->summary);
	fputc('\n', out);
	opts_man(c->opts, out);
	man_exit_status(out);
	opts_man_examples(c->opts, out);
	man_see_also(out, c->name);
}

enum { ARG_NONE, ARG_FILE, ARG_OTHER };

/* What an option's argument is, for completion: a path, or anything else. */
static int arg_kind(const struct opt *op)
{
	static const char *const paths[] = { "FILE", "DIR", "OUT", "PATH" };
	unsigned int i;

	if (!op->arg)
		return ARG_NONE;
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(op->arg, paths[i]))
			return ARG_FILE;
	return ARG_OTHER;
}

/* Words for bash's compgen: the options of @o, long and short, of @kind. */
static void completion_opts(FILE *out, const struct opts *o, int kind)
{
	const struct opt *op;
	const char *sep = "";

	for (op = opts_table(o); op->name; op++) {
		if (arg_kind(op) != kind)
			continue;
		fprintf(out, "%s--%s", sep, op->name);
		if (op->key < OPTS_LONG_ONLY)
			fprintf(out, " -%c", op->key);
		sep = " ";
	}
}

/*
 * A bash completion function that needs nothing but bash: commands, each
 * command's options, files for operands and option arguments, a command
 * after record's "--".
 */
static void completion_bash(FILE *out)
{
	unsigned int i;

	fputs("# bash completion for ktprof: ktprof help --completion bash\n"
	      "_ktprof() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]} opts= fileopts= argopts= i\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '", out);
	for (i = 0; i < cmd_table_len; i++)
		fprintf(out, "%s%s", i ? " " : "", cmd_table[i].name);
	fputs(" --help' -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase $cmd in\n", out);
	for (i = 0; i < cmd_table_len; i++) {
		fprintf(out, "\t%s)\n\t\topts='", cmd_table[i].name);
		completion_opts(out, cmd_table[i].opts, ARG_NONE);
		fputs("'\n\t\tfileopts='", out);
		completion_opts(out, cmd_table[i].opts, ARG_FILE);
		fputs("'\n\t\targopts='", out);
		completion_opts(out, cmd_table[i].opts, ARG_OTHER);
		fputs("' ;;\n", out);
	}
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [ \"$cmd\" = help ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts $fileopts $argopts ", out);
	for (i = 0; i < cmd_table_len; i++)
		fprintf(out, "%s%s", i ? " " : "", cmd_table[i].name);
	fputs("\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\tfor ((i = 2; i < COMP_CWORD; i++)); do\n"
	      "\t\tif [ \"$cmd\" = record ] && [ \"${COMP_WORDS[i]}\" = -- ]; then\n"
	      "\t\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n"
	      "\tdone\n"
	      "\tcase \" $fileopts \" in\n"
	      "\t*\" $prev \"*)\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\t\treturn ;;\n"
	      "\tesac\n"
	      "\tcase \" $argopts \" in\n"
	      "\t*\" $prev \"*) return ;;\n"
	      "\tesac\n"
	      "\tcase $cur in\n"
	      "\t-*) COMPREPLY=($(compgen -W \"$opts $fileopts $argopts\" -- \"$cur\")) ;;\n"
	      "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	      "\tesac\n"
	      "}\n"
	      "complete -o filenames -F _ktprof ktprof\n", out);
}

int cmd_help(int argc, char **argv)
{
	struct opts_parser p = { 0 };
	const char *shell = NULL;
	const struct cmd *c;
	int man = 0, ch;

	while ((ch = opts_next(&help_cmd, &p, argc, argv)) != -1) {
		if (ch == OPT_MAN)
			man = 1;
		else if (ch == OPT_COMPLETION)
			shell = optarg;
		else
			return cmd_usage(&help_cmd, ch);
	}
	if (shell) {
		if (man || optind != argc || strcmp(shell, "bash"))
			return cmd_usage(&help_cmd, '?');
		completion_bash(stdout);
		return 0;
	}
	if (man && optind == argc) {
		man_main(stdout);
		return 0;
	}
	if (optind != argc - 1)
		return cmd_usage(&help_cmd, '?');
	c = find_cmd(argv[optind]);
	if (!c) {
		cmd_error("help", "unknown command '%s'", argv[optind]);
		return 2;
	}
	if (!man)
		opts_usage(c->opts, stdout);
	else if (has_page(c))
		man_cmd(stdout, c);
	else
		man_main(stdout);
	return 0;
}
