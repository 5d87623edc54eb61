// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof info: what a capture holds: session, configuration, topology,
 * per-CPU counts and losses, and whether the file is complete.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/capture-read.h"
#include "capture/cgroup-table.h"
#include "capture/cpu-stats.h"
#include "capture/tracedat.h"
#include "cmd/cmd.h"
#include "decode/probe-spec.h"
#include "decode/span-spec.h"
#include "model/model.h"
#include "report/analyze-schedstat.h"
#include "ktprof_capture.pb-c.h"
#include "util/text.h"

static const struct opt info_opts[] = {
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts info_cmd = {
	.cmd = "info",
	.summary = "session, config, per-CPU counts, losses, truncation",
	.synopsis = "FILE|DIR",
	.description =
		"Print a capture's session, configuration, CPU topology, per-CPU record\n"
		"counts and losses, and whether the file is complete (every chunk's\n"
		"checksum is verified). Exit status 1 when the file is damaged.\n"
		"\n"
		"Of a trace-cmd trace.dat, what its translation into ktprof's records\n"
		"shows, and what the trace lacks (\"lacks\" lines): ftrace records no\n"
		"task on each CPU at the start, no tgids, no exit codes.",
	.examples =
		"Check a capture for losses and damage:\n"
		"$ ktprof info cap.ktp\n",
	.opts = info_opts,
};

static const char *const rec_names[] = KTP_REC_NAMES;

static void print_session(const struct meta *m, const Ktprof__CaptureMeta *cm)
{
	char buf[128];
	time_t t = m->clock_real / 1000000000;
	struct tm tm;
	size_t i;

	printf("session\n");
	/* The capture's own strings: escaped (util/text.h). */
	printf("  kernel          %s (%s)\n", text_esc(m->kernel), text_esc(m->machine));
	if (cm && cm->hostname)
		printf("  host            %s\n", text_esc(cm->hostname));
	printf("  record ABI      %u.%u, module %s\n", m->abi_major, m->abi_minor,
	       m->version[0] ? text_esc(m->version) : "?");
	printf("  session id      %" PRIu64 "\n", m->session_id);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm);
	/* A trace.dat says no wall-clock time. */
	printf("  started         %s (boottime %.6f s)\n", m->clock_real ? buf : "?",
	       m->clock_boot / 1e9);
	if (cm && cm->has_stop_boottime_ns && cm->stop_boottime_ns > m->clock_boot)
		printf("  duration        %.3f s\n",
		       (cm->stop_boottime_ns - m->clock_boot) / 1e9);
	printf("config\n");
	printf("  events          %s", meta_events_str(m->events, buf, sizeof(buf)));
	if (m->events_unavailable)
		printf(" (not on this kernel: %s)",
		       meta_events_str(m->events_unavailable, buf, sizeof(buf)));
	printf("\n");
	printf("  samples         %s\n", m->samples[0] ? text_esc(m->samples) : "none");
	printf("  counters        %s\n", m->counters[0] ? text_esc(m->counters) : "none");
	printf("  stacks          %s\n", m->stacks[0] ? text_esc(m->stacks) : "none");
	printf("  clock           %s\n", m->clock[0] ? text_esc(m->clock) : "boot");
	if (m->events & KTP_EV_SCX)
		printf("  scx hooks       %s\n", m->scx_hooks[0] ? text_esc(m->scx_hooks) : "none");
	printf("  cpus            %s of %u (online %s)\n", text_esc(m->cpus), m->nr_cpus,
	       text_esc(m->cpus_online));
	printf("  buffers         %u x %u bytes per CPU, %s\n", m->n_subbufs,
	       m->subbuf_size, m->overwrite ? "overwrite" : "drop new when full");
	if (cm && cm->recorder)
		printf("  recorded by     %s\n", text_esc(cm->recorder));
	for (i = 0; cm && i < cm->n_options; i++)
		printf("  option          %s\n", text_esc(cm->options[i]));
}

/* Which BPF scheduler ran, on kernels with sched_ext. */
static void print_sched_ext(const struct model *m)
{
	const struct sched_ext *start = &m->sched_ext[0], *stop = &m->sched_ext[1];
	char a[128], b[128];

	if (!start->present && !stop->present)
		return;
	printf("  sched_ext       start: %s; stop: %s\n", text_esc(sched_ext_str(start, a, sizeof(a))),
	       stop->present ? text_esc(sched_ext_str(stop, b, sizeof(b))) : "(not recorded)");
}

/*
 * /proc/schedstat's counters, their change from the session's start to its
 * stop (the scheduler's own view: perf sched stats diff), as report
 * --schedstat prints them.
 */
static int print_schedstat(const struct model *m)
{
	struct analyze_schedstat a;
	int ret;

	if (!input_schedstat(m->in, 0) || !input_schedstat(m->in, 1))
		return 0;
	ret = analyze_schedstat_of(m->in, &a);
	if (ret)
		return ret;
	if (a.present)
		analyze_schedstat_print(stdout, &a);
	else
		printf("schedstat         (unreadable)\n");
	analyze_schedstat_free(&a);
	return 0;
}

/* How many cgroups the recorder found at the session's start and stop. */
static void print_cgroups(const struct model *m)
{
	const char *text[2] = { input_cgroups(m->in, 0), input_cgroups(m->in, 1) };
	char count[2][32];
	int i;

	if (!text[0] && !text[1]) {
		printf("cgroups           none recorded\n");
		return;
	}
	for (i = 0; i < 2; i++) {
		struct cgroup_table t;

		if (!text[i])
			snprintf(count[i], sizeof(count[i]), "none");
		else if (cgroup_table_parse(text[i], &t))
			snprintf(count[i], sizeof(count[i]), "(unreadable)");
		else
			snprintf(count[i], sizeof(count[i]), "%zu", t.nr);
		if (text[i])
			cgroup_table_free(&t);
	}
	printf("cgroups           %s at start, %s at stop\n", count[0], count[1]);
}

static void print_topology(const struct model *m)
{
	unsigned int i;

	if (!m->nr_topo) {
		printf("topology          (not recorded)\n");
		return;
	}
	printf("topology\n  %4s %8s %6s %6s %6s\n", "cpu", "package", "core", "llc", "node");
	for (i = 0; i < m->nr_topo; i++)
		printf("  %4u %8d %6d %6d %6d%s\n", m->topo[i].cpu, m->topo[i].package,
		       m->topo[i].core, m->topo[i].llc, m->topo[i].node,
		       m->topo[i].online ? "" : " (offline)");
}

/* Drops by record type, when the module counted any. */
static void print_drops(const struct cpu_stats *cs)
{
	const char *sep = "       dropped:";
	size_t j;

	for (j = 0; cs && j < KTP_REC_NR_TYPES; j++) {
		if (!cs->dropped[j])
			continue;
		printf("%s %s=%" PRIu64, sep, rec_names[j], cs->dropped[j]);
		sep = "";
	}
	if (!*sep)
		printf("\n");
	/* Not lost records: samples that may name fewer symbols. */
	if (cs && (cs->unresolved || cs->files_deferred))
		printf("       symbolization: %" PRIu64 " samples without their mappings"
		       " (mmap lock busy), %" PRIu64 " FILE records deferred"
		       " (queue full) or given up at stop\n",
		       cs->unresolved, cs->files_deferred);
}

/*
 * Kernel stacks (-S offcpu, waker) the module took from a kept walk rather
 * than unwinding, and, with its stack_check knob, those a walk contradicted.
 */
static void print_stack_cache(const struct cpu_stats *st, int nst)
{
	uint64_t cached = 0, mismatch = 0;
	int i;

	for (i = 0; i < nst; i++) {
		cached += st[i].stack_cached;
		mismatch += st[i].stack_mismatch;
	}
	if (cached || mismatch)
		printf("kept stack walks  %" PRIu64 " kernel stacks taken from one, not unwound\n",
		       cached);
	if (mismatch)
		printf("stack_check       %" PRIu64 " of them differed from the unwinder's (a module defect)\n",
		       mismatch);
}

/* Module counters, and what the streams decode to (the model's pass), per CPU. */
/* Probe records by probe id, counted in the model's pass. */
struct probe_counts {
	uint64_t records[KTP_MAX_PROBES];
	uint64_t marks;
};

static int count_probe(void *ctx, const struct event *ev)
{
	struct probe_counts *c = ctx;
	struct ktp_probe_hit h;

	if (ev->type == KTP_REC_MARK) {
		c->marks++;
	} else if (ev->type == KTP_REC_PROBE) {
		memcpy(&h, ev->rec, sizeof(h));
		if (h.id < KTP_MAX_PROBES)
			c->records[h.id]++;
	}
	return 0;
}

static const struct sched_ops probe_count_ops = { .event = count_probe };

/* record --span's spans, as the capture defines them. */
static void print_spans(const struct model *m, const struct probe_table *t)
{
	char line[3 * PROBE_NAME_MAX + 4];
	struct span_table s;
	struct error err;
	unsigned int i;

	if (!input_spans(m->in))
		return;
	if (span_table_parse(input_spans(m->in), t, &s, &err)) {
		printf("spans             (unreadable: %s)\n", error_msg(&err));
		return;
	}
	printf("spans             name=begin,end (two probes)\n");
	for (i = 0; i < s.n; i++)
		printf("  span %s\n", text_esc(span_spec_format(&s.spans[i], line, sizeof(line))));
	span_table_fini(&s);
}

/*
 * record --probe's probes: each one's records in the capture beside the
 * module's count of its hits and misses (a hit without its record was
 * lost, and counted with the CPU's losses).
 */
static void print_probes(const struct model *m, const struct probe_counts *c)
{
	const char *stats = input_probe_stats(m->in);
	struct probe_table t;
	struct error err;
	char line[2048];
	unsigned int i;

	if (c->marks)
		printf("markers           %" PRIu64 "\n", c->marks);
	if (!input_probes(m->in))
		return;
	if (probe_table_parse(input_probes(m->in), &t, &err)) {
		printf("probes            (unreadable: %s)\n", error_msg(&err));
		return;
	}
	printf("probes            name, kind, records, hits, misses (the module's), spec\n");
	for (i = 0; i < t.n; i++) {
		uint64_t hits, missed;
		int found = probe_stats_get(stats, i, &hits, &missed);

		printf("  probe %s %s %" PRIu64, text_esc(t.probes[i].name),
		       probe_spec_kind(&t.probes[i]), c->records[i]);
		if (found)
			printf(" %" PRIu64 " %" PRIu64, hits, missed);
		else
			printf(" ? ?");
		printf(" %s\n", text_esc(probe_spec_format(&t.probes[i], line, sizeof(line))));
	}
	print_spans(m, &t);
	probe_table_fini(&t);
}

static int print_counts(struct model *m, struct capture_reader *r, struct error *err)
{
	struct probe_counts pc = { { 0 }, 0 };
	struct cpu_stats *st = NULL;
	uint64_t total_lost = 0;
	int ret, nst = -ENOENT;
	size_t len, i;
	void *buf;

	buf = r ? capture_reader_section(r, KTPC_STATS, &len) : NULL;
	if (buf) {
		nst = cpu_stats_unpack(buf, len, &st);
		free(buf);
	}
	ret = model_add_client(m, &probe_count_ops, &pc, 0);
	if (!ret)
		ret = model_run(m, err);
	print_probes(m, &pc);
	printf("per CPU\n  %4s %10s %12s %10s %8s %9s %8s %8s\n", "cpu", "records",
	       "bytes", "lost", "samples", "throttled", "garbage", "missing");
	for (i = 0; i < m->nr_streams; i++) {
		const struct model_stream *ds = &m->streams[i];
		const struct cpu_stats *cs = NULL;
		int j;

		for (j = 0; j < nst; j++)
			if (st[j].cpu == ds->cpu)
				cs = &st[j];
		printf("  %4u %10" PRIu64 " %12" PRIu64 " %10" PRIu64 " %8" PRIu64
		       " %9" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
		       ds->cpu, cs ? cs->records : ds->records,
		       cs ? cs->bytes : 0, cs ? cs->lost : ds->lost,
		       cs ? cs->samples : 0, cs ? cs->throttled : 0,
		       ds->garbage_bytes, ds->lost_subbufs);
		total_lost += cs ? cs->lost : ds->lost;
		print_drops(cs);
	}
	if (nst < 0)
		printf("  (no module statistics in this capture: counts are what the streams decode to)\n");
	printf("lost records      %" PRIu64 "%s\n", total_lost,
	       total_lost ? " (increase the buffer size, or read faster)" : "");
	print_stack_cache(st, nst);
	free(st);
	return ret;
}

/* What a trace.dat's translation could not say, a line each. */
static void print_lacks(const char *text)
{
	char line[1024];
	size_t n;

	printf("input lacks\n");
	while (*text) {
		n = strcspn(text, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		/* The trace's own strings (its clock's name): escaped. */
		printf("  %s\n", text_esc(line));
		text += n + (text[n] == '\n');
	}
}

int cmd_info(int argc, char **argv)
{
	Ktprof__CaptureMeta *cm = NULL;
	struct model_config mc = { 0 };
	struct capture_reader *r;
	struct error err = { 0 };
	struct opts_parser p = { 0 };
	struct tracedat *td;
	struct model *model;
	const char *path;
	int c, ret = 0;
	size_t len;
	void *buf;

	while ((c = opts_next(&info_cmd, &p, argc, argv)) != -1)
		return cmd_usage(&info_cmd, c);
	if (optind != argc - 1)
		return cmd_usage(&info_cmd, '?');
	path = argv[optind];
	model = model_open(path, &mc, &err);
	if (!model) {
		cmd_error("info", "%s", error_msg(&err));
		return 1;
	}
	r = input_capture(model->in);
	if (r) {
		buf = capture_reader_section(r, KTPC_META, &len);
		if (buf) {
			cm = ktprof__capture_meta__unpack(NULL, len, buf);
			free(buf);
		}
	}
	td = input_tracedat(model->in);
	printf("%s: %s\n", path, r ? "capture file" : td ? "trace-cmd trace.dat (translated)" :
	       "raw dump directory");
	if (model->have_meta) {
		print_session(&model->meta, cm);
		print_sched_ext(model);
	} else
		printf("session           (no meta: times and configuration unknown)\n");
	if (td)
		print_lacks(tracedat_lacks(td));
	if (r) {
		print_topology(model);
		print_cgroups(model);
		print_schedstat(model);
	}
	if (print_counts(model, r, &err)) {
		/* Said once: the check of every chunk below finds the same damage. */
		cmd_error("info", "%s", error_msg(&err));
		ret = 1;
	}
	if (r) {
		const struct capture_status *st = capture_reader_status(r);

		if (capture_reader_verify(r)) {
			printf("file              DAMAGED: %s\n", st->problem);
			if (!ret)
				cmd_error("info", "%s: %s", path, st->problem);
			ret = 1;
		} else if (st->complete) {
			printf("file              complete: format %u.%u, %" PRIu64 " chunks, %" PRIu64 " bytes\n",
			       st->major, st->minor, st->chunks, st->file_size);
		} else {
			printf("file              TRUNCATED: %s; readable up to offset %" PRIu64
			       " of %" PRIu64 " (%" PRIu64 " complete chunks)\n",
			       st->problem, st->end_offset, st->file_size, st->chunks);
			ret = cmd_input_truncation("info", model->in, path);
		}
	}
	if (cm)
		ktprof__capture_meta__free_unpacked(cm, NULL);
	model_close(model);
	return ret;
}
