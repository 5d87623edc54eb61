// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof import: a raw dump directory (what a shell-only capture leaves:
 * cpuN files taken with cat, meta, stats, kallsyms) into a capture file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture-meta.h"
#include "capture/cpu-stats.h"
#include "capture/rawdir.h"
#include "cmd/cmd.h"

#define IMPORT_CHUNK (1 << 20)

static const struct opt import_opts[] = {
	{ "output", 'o', "FILE", "the capture file to write (mode 0600)" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts import_cmd = {
	.cmd = "import",
	.summary = "turn a raw dump directory into a capture file",
	.synopsis = "DIR -o FILE",
	.description =
		"Turn a raw dump directory into a capture file. DIR holds the cpuN files\n"
		"taken with cat from /sys/kernel/debug/ktprof/, plus meta, stats and a\n"
		"copy of /proc/kallsyms (optional: modules, topology). Only those names\n"
		"are read; symlinks are not followed.",
	.opts = import_opts,
};

/* Optional "topology" file: "cpu package core llc node" lines. */
static int import_topology(struct capture_writer *w, struct rawdir *rd)
{
	char *text = rawdir_read_file(rd, "topology", NULL);
	struct topology_cpu *t = NULL;
	int n, ret;

	if (!text)
		return 0;
	n = topology_parse(text, &t);
	ret = n < 0 ? n : n ? capture_meta_write_topology(w, t, n) : 0;
	free(t);
	free(text);
	return ret;
}

/* A copy of /sys/kernel/sched_ext the shell-only capture made, or NULL. */
static const struct sched_ext *read_sched_ext(struct rawdir *rd, const char *name,
					      struct sched_ext *s)
{
	char *text = rawdir_read_file(rd, name, NULL);
	int ret = text ? sched_ext_parse(text, s) : -ENOENT;

	free(text);
	return ret ? NULL : s;
}

static int import_text(struct capture_writer *w, struct rawdir *rd,
		       const char *name, enum ktpc_chunk_type type)
{
	size_t len, off;
	char *text = rawdir_read_file(rd, name, &len);
	int ret = 0;

	if (!text)
		return errno == ENOENT ? 1 : -errno;
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

int cmd_import(int argc, char **argv)
{
	struct capture_meta_info info = { .recorder = "ktprof import" };
	struct cpu_stats *stats = NULL;
	const char *out = NULL, *dir;
	struct capture_writer *w;
	struct sched_ext scx[2];
	struct meta meta;
	struct rawdir *rd;
	struct opts_parser p = { 0 };
	char *text, tmp[4096];
	int c, ret, nstats = 0;

	while ((c = opts_next(&import_cmd, &p, argc, argv)) != -1) {
		if (c != 'o')
			return cmd_usage(&import_cmd, c);
		out = optarg;
	}
	if (optind != argc - 1 || !out)
		return cmd_usage(&import_cmd, '?');
	dir = argv[optind];
	rd = rawdir_open(dir);
	if (!rd) {
		fprintf(stderr, "ktprof import: %s: %s\n", dir, errno == ENODATA ?
			"no cpuN files (a raw dump directory is expected)" : strerror(errno));
		return 1;
	}
	text = rawdir_read_file(rd, "meta", NULL);
	if (!text) {
		fprintf(stderr, "ktprof import: %s/meta: %s (copy /sys/kernel/debug/ktprof/meta)\n",
			dir, strerror(errno));
		rawdir_close(rd);
		return 1;
	}
	ret = meta_parse(text, &meta);
	free(text);
	if (ret) {
		if (ret == -EPROTONOSUPPORT)
			fprintf(stderr, "ktprof import: %s/meta: record ABI %u.%u; this ktprof reads %u.x\n",
				dir, meta.abi_major, meta.abi_minor, KTP_ABI_MAJOR);
		else
			fprintf(stderr, "ktprof import: %s/meta: malformed\n", dir);
		rawdir_close(rd);
		return 1;
	}
	text = rawdir_read_file(rd, "stats", NULL);
	if (text) {
		nstats = cpu_stats_parse(text, &stats);
		free(text);
	}
	if (nstats <= 0)
		fprintf(stderr, "ktprof import: warning: no usable %s/stats: the capture will lack the module's loss counts\n",
			dir);

	/* Written aside and renamed when complete: no half file under @out. */
	snprintf(tmp, sizeof(tmp), "%s.part", out);
	w = capture_writer_open(tmp);
	if (!w) {
		fprintf(stderr, "ktprof import: %s: %s\n", tmp, strerror(errno));
		free(stats);
		rawdir_close(rd);
		return 1;
	}
	info.meta = &meta;
	info.sched_ext_start = read_sched_ext(rd, "sched_ext.start", &scx[0]);
	info.sched_ext_stop = read_sched_ext(rd, "sched_ext.stop", &scx[1]);
	ret = capture_meta_write(w, &info);
	if (!ret)
		ret = import_topology(w, rd);
	if (!ret) {
		ret = import_text(w, rd, "kallsyms", KTPC_KALLSYMS);
		if (ret == 1) {
			fprintf(stderr, "ktprof import: warning: no %s/kallsyms: kernel frames will not be symbolized\n",
				dir);
			ret = 0;
		}
	}
	if (!ret && import_text(w, rd, "modules", KTPC_MODULES) < 0)
		ret = -EIO;
	if (!ret)
		ret = import_streams(w, rd);
	if (!ret && nstats > 0)
		ret = capture_meta_write_stats(w, stats, nstats, NULL);
	if (!ret)
		ret = capture_writer_close(w);
	else
		capture_writer_abort(w);
	if (!ret && rename(tmp, out))
		ret = -errno;
	free(stats);
	rawdir_close(rd);
	if (ret) {
		unlink(tmp);
		fprintf(stderr, "ktprof import: writing %s: %s\n", out, strerror(-ret));
		return 1;
	}
	return 0;
}
