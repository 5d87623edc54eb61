// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof import: a raw dump directory (what a shell-only capture leaves:
 * cpuN files taken with cat, meta, stats, kallsyms), or trace-cmd's
 * trace.dat (translated: capture/tracedat.h), into a capture file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture-meta.h"
#include "capture/cpu-stats.h"
#include "capture/rawdir.h"
#include "capture/tracedat.h"
#include "cmd/cmd.h"

#define IMPORT_CHUNK (1 << 20)

static const struct opt import_opts[] = {
	{ "output", 'o', "FILE", "the capture file to write (mode 0600)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts import_cmd = {
	.cmd = "import",
	.summary = "turn a raw dump directory or a trace.dat into a capture file",
	.synopsis = "DIR|TRACE.DAT -o FILE",
	.description =
		"Turn a raw dump directory into a capture file. DIR holds the cpuN files\n"
		"taken with cat from /sys/kernel/debug/ktprof/, plus meta, stats and a\n"
		"copy of /proc/kallsyms (optional: modules, topology). Only those names\n"
		"are read, and only as regular files: a symlink or a FIFO among them is\n"
		"an error. FILE appears when complete, never written through a symlink.\n"
		"\n"
		"Or turn trace-cmd's trace.dat (trace-cmd record -e sched; -C boot for\n"
		"ktprof's clock) into a capture file: its scheduler, irq, softirq, IPI,\n"
		"workqueue and power events as ktprof's records, read with libtracecmd.\n"
		"What the trace lacks (the task on each CPU at its start, tgids) is kept\n"
		"as the capture's options, which ktprof info shows. report, diff,\n"
		"convert, dump, info and mcp also read a trace.dat directly.",
	.examples =
		"A capture file from files taken with cat in a VM:\n"
		"$ ktprof import dump/ -o cap.ktp\n"
		"A capture file from trace-cmd's recording:\n"
		"$ trace-cmd record -C boot -e sched -e irq -e task -- make -j8\n"
		"$ ktprof import trace.dat -o cap.ktp\n",
	.opts = import_opts,
};

/* What import reads from and writes to, and why it failed. */
struct import_ctx {
	struct rawdir *rd;
	const char *dir, *out;
	struct error err;
};

/* Side file @name into *@text: 0 (*@text NULL when absent), or the error. */
static int side_file(struct import_ctx *x, const char *name, char **text, size_t *len)
{
	int ret = rawdir_read_file(x->rd, name, text, len);

	if (!ret || ret == -ENOENT) {
		if (ret)
			*text = NULL;
		return 0;
	}
	return error_set(&x->err, ret, "%s/%s: %s", x->dir, name, error_str(ret));
}

/* Optional "topology" file: "cpu package core llc node" lines. */
static int import_topology(struct capture_writer *w, struct import_ctx *x)
{
	struct topology_cpu *t = NULL;
	char *text;
	int n, ret = side_file(x, "topology", &text, NULL);

	if (ret || !text)
		return ret;
	n = topology_parse(text, &t);
	ret = n < 0 ? n : n ? capture_meta_write_topology(w, t, n) : 0;
	free(t);
	free(text);
	return ret;
}

/* A copy of /sys/kernel/sched_ext the shell-only capture made, or NULL. */
static int read_sched_ext(struct import_ctx *x, const char *name, struct sched_ext *s,
			  const struct sched_ext **out)
{
	char *text;
	int ret = side_file(x, name, &text, NULL);

	*out = !ret && text && !sched_ext_parse(text, s) ? s : NULL;
	free(text);
	return ret;
}

/* Side file @name as chunks of @type: 1 when absent. */
static int import_text(struct capture_writer *w, struct import_ctx *x, const char *name,
		       enum ktpc_chunk_type type)
{
	size_t len, off;
	char *text;
	int ret = side_file(x, name, &text, &len);

	if (ret || !text)
		return ret ? ret : 1;
	for (off = 0; !ret && off < len; off += KTPC_CHUNK_MAX / 2)
		ret = capture_writer_add(w, type, 0, text + off,
					 len - off < KTPC_CHUNK_MAX / 2 ?
					 len - off : KTPC_CHUNK_MAX / 2, 1);
	free(text);
	return ret;
}

static int import_streams(struct capture_writer *w, struct rawdir *rd)
{
	char *buf = malloc(IMPORT_CHUNK);
	unsigned int i;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (i = 0; !ret && i < rawdir_nr_cpu_files(rd); i++) {
		ssize_t n;

		while ((n = rawdir_cpu_read(rd, i, buf, IMPORT_CHUNK)) > 0) {
			ret = capture_writer_add(w, KTPC_STREAM, rawdir_cpu(rd, i),
						 buf, n, 1);
			if (ret)
				break;
		}
		if (n < 0)
			ret = n;
	}
	free(buf);
	return ret;
}

/* The session's metadata, which a capture file must have. */
static int read_meta(struct import_ctx *x, struct meta *meta)
{
	char *text;
	int ret = side_file(x, "meta", &text, NULL);

	if (ret)
		return ret;
	if (!text)
		return error_set(&x->err, -ENOENT,
				 "%s/meta: %s (copy /sys/kernel/debug/ktprof/meta)",
				 x->dir, strerror(ENOENT));
	ret = meta_parse(text, meta);
	free(text);
	if (ret == -EPROTONOSUPPORT)
		return error_set(&x->err, -ERROR_ABI,
				 "%s/meta: record ABI %u.%u; this ktprof reads %u.x",
				 x->dir, meta->abi_major, meta->abi_minor, KTP_ABI_MAJOR);
	if (ret)
		return error_set(&x->err, -ERROR_BAD_META, "%s/meta: malformed", x->dir);
	if (meta->nr_cpus > KTPC_MAX_CPUS)
		return error_set(&x->err, -ERROR_BAD_META,
				 "%s/meta: the session claims %u CPUs; ktprof reads at most %u",
				 x->dir, meta->nr_cpus, KTPC_MAX_CPUS);
	return 0;
}

/* The module's counters: optional, but their absence is worth a warning. */
static int read_stats(struct import_ctx *x, struct cpu_stats **stats)
{
	char *text;
	int n = side_file(x, "stats", &text, NULL);

	if (n)
		return n;
	n = text ? cpu_stats_parse(text, stats) : 0;
	free(text);
	if (n <= 0)
		fprintf(stderr, "ktprof import: warning: no usable %s/stats: the capture will lack the module's loss counts\n",
			x->dir);
	return n > 0 ? n : 0;
}

/* The chunks of the capture; 0 or the error, in x->err. */
static int write_capture(struct capture_writer *w, struct import_ctx *x,
			 const struct meta *meta, const struct cpu_stats *stats, int nstats)
{
	struct capture_meta_info info = { .recorder = "ktprof import", .meta = meta };
	struct sched_ext scx[2];
	int ret;

	ret = read_sched_ext(x, "sched_ext.start", &scx[0], &info.sched_ext_start);
	if (!ret)
		ret = read_sched_ext(x, "sched_ext.stop", &scx[1], &info.sched_ext_stop);
	if (!ret)
		ret = capture_meta_write(w, &info);
	if (!ret)
		ret = import_topology(w, x);
	if (!ret) {
		ret = import_text(w, x, "kallsyms", KTPC_KALLSYMS);
		if (ret == 1) {
			fprintf(stderr, "ktprof import: warning: no %s/kallsyms: kernel frames will not be symbolized\n",
				x->dir);
			ret = 0;
		}
	}
	if (!ret) {
		ret = import_text(w, x, "modules", KTPC_MODULES);
		ret = ret == 1 ? 0 : ret;
	}
	if (!ret)
		ret = import_streams(w, x->rd);
	if (!ret && nstats > 0)
		ret = capture_meta_write_stats(w, stats, nstats, NULL);
	if (ret && !x->err.code)
		error_set(&x->err, ret, "writing %s: %s", x->out, error_str(ret));
	return ret;
}

/* The lines of @text as options "lacks=LINE", for info to show. */
static int lacks_options(const char *text, char ***out, unsigned int *n)
{
	char **opts = NULL, **grown;
	size_t len;

	*n = 0;
	while (*text) {
		len = strcspn(text, "\n");
		grown = realloc(opts, (*n + 1) * sizeof(*opts));
		if (!grown)
			goto nomem;
		opts = grown;
		if (asprintf(&opts[*n], "lacks=%.*s", (int)len, text) < 0)
			goto nomem;
		(*n)++;
		text += len + (text[len] == '\n');
	}
	*out = opts;
	return 0;
nomem:
	while (*n)
		free(opts[--*n]);
	free(opts);
	return -ENOMEM;
}

/* A trace.dat, translated, as a capture file. */
static int import_tracedat(struct import_ctx *x)
{
	struct capture_meta_info info = { .recorder = "ktprof import (trace-cmd trace.dat)" };
	struct capture_writer *w = NULL;
	struct tracedat *td;
	const uint8_t *buf;
	const char *syms;
	char **opts = NULL;
	unsigned int i, nopts = 0;
	uint32_t cpu;
	size_t len, off, n;
	int ret;

	td = tracedat_open(x->dir, &x->err);
	if (!td)
		return x->err.code ? x->err.code : -EINVAL;
	info.meta = tracedat_meta(td);
	info.stop_ns = tracedat_stop_ns(td);
	ret = lacks_options(tracedat_lacks(td), &opts, &nopts);
	info.options = opts;
	info.nr_options = nopts;
	if (!ret) {
		w = capture_writer_open(x->out, 0);
		if (!w)
			ret = error_set(&x->err, -errno, "%s: %s", x->out, error_str(errno));
	}
	if (w && !ret)
		ret = capture_meta_write(w, &info);
	syms = tracedat_kallsyms(td);
	for (off = 0, len = syms ? strlen(syms) : 0; w && !ret && off < len;
	     off += KTPC_CHUNK_MAX / 2)
		ret = capture_writer_add(w, KTPC_KALLSYMS, 0, syms + off,
					 len - off < KTPC_CHUNK_MAX / 2 ? len - off :
					 KTPC_CHUNK_MAX / 2, 1);
	for (i = 0; w && !ret && i < tracedat_nr_streams(td); i++) {
		tracedat_stream(td, i, &cpu, &buf, &len);
		for (off = 0; !ret && off < len; off += n) {
			n = len - off < IMPORT_CHUNK ? len - off : IMPORT_CHUNK;
			ret = capture_writer_add(w, KTPC_STREAM, cpu, buf + off, n, 1);
		}
	}
	if (w && ret)
		capture_writer_abort(w);
	else if (w && (ret = capture_writer_close(w)))
		error_set(&x->err, ret, "writing %s: %s", x->out, error_str(ret));
	if (ret && !x->err.code)
		error_set(&x->err, ret, "writing %s: %s", x->out, error_str(ret));
	while (nopts)
		free(opts[--nopts]);
	free(opts);
	tracedat_close(td);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	struct import_ctx x = { 0 };
	struct cpu_stats *stats = NULL;
	struct capture_writer *w;
	struct meta meta;
	struct opts_parser p = { 0 };
	struct stat st;
	int c, ret, nstats = 0;

	while ((c = opts_next(&import_cmd, &p, argc, argv)) != -1) {
		if (c != 'o')
			return cmd_usage(&import_cmd, c);
		x.out = optarg;
	}
	if (optind != argc - 1 || !x.out)
		return cmd_usage(&import_cmd, '?');
	x.dir = argv[optind];
	if (!stat(x.dir, &st) && !S_ISDIR(st.st_mode)) {
		ret = tracedat_probe(x.dir);
		if (ret == 1)
			ret = import_tracedat(&x);
		else if (ret)
			error_set(&x.err, ret, "%s: %s", x.dir, error_str(ret));
		else
			ret = error_set(&x.err, -ERROR_FORMAT,
					"%s: neither a raw dump directory nor a trace.dat", x.dir);
		if (ret)
			cmd_error("import", "%s", error_msg(&x.err));
		return ret ? 1 : 0;
	}
	x.rd = rawdir_open(x.dir, &x.err);
	if (!x.rd) {
		cmd_error("import", "%s", error_msg(&x.err));
		return 1;
	}
	ret = read_meta(&x, &meta);
	if (!ret) {
		nstats = read_stats(&x, &stats);
		ret = nstats < 0 ? nstats : 0;
	}
	if (!ret) {
		/* Appears under the name only when complete (util/outfile.h). */
		w = capture_writer_open(x.out, 0);
		if (!w)
			ret = error_set(&x.err, -errno, "%s: %s", x.out, error_str(errno));
		else if ((ret = write_capture(w, &x, &meta, stats, nstats)))
			capture_writer_abort(w);
		else if ((ret = capture_writer_close(w)))
			error_set(&x.err, ret, "writing %s: %s", x.out, error_str(ret));
	}
	free(stats);
	rawdir_close(x.rd);
	if (ret)
		cmd_error("import", "%s", error_msg(&x.err));
	return ret ? 1 : 0;
}
