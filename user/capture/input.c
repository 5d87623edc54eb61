// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture/capture-format.h"
#include "capture/capture-read.h"
#include "capture/input.h"
#include "capture/rawdir.h"
#include "capture/sched-ext.h"
#include "capture/topology.h"
#include "capture/tracedat.h"
#include "ktprof_abi.h"
#include "ktprof_capture.pb-c.h"
#include "util/byte-queue.h"

/* Bytes of a trace.dat's translated stream, read by the merge. */
struct mem_stream {
	const uint8_t *buf;
	size_t len, off;
};

/* A raw dump directory, a capture file or a trace.dat. */
struct input {
	char *path;
	struct rawdir *rd;
	struct capture_reader *cap;
	struct tracedat *td;
	struct mem_stream *mem;
	struct capture_stream **streams;
	unsigned int nstreams;
	struct meta meta;
	int have_meta;
	char *kallsyms;
	int kallsyms_loaded;
	int kallsyms_ret;	/* why it could not be read */
	struct error kallsyms_err;
	uint64_t stop_ns;
	struct sched_ext scx[2];	/* at start, at stop */
	char *schedstat[2];		/* /proc/schedstat's text, or NULL */
	int schedstats;			/* kernel.sched_schedstats, -1: not recorded */
	char *cgroups[2];		/* the cgroup2 id -> path table, or NULL */
	char *cgroup_cpu[2];		/* each cgroup's cpu.stat, or NULL */
	char *probes, *probe_stats;	/* --probe's list and counts, or NULL */
	char *spans;			/* --span's list, or NULL */
	char *hostname;			/* the recording host's, or NULL */
	/* A live session's streams (input_live_new()): queues, by CPU. */
	struct byte_queue **live;
	unsigned int nr_live;
};

static void sched_ext_from(struct sched_ext *s, const Ktprof__SchedExt *m)
{
	memset(s, 0, sizeof(*s));
	if (!m)
		return;
	s->present = 1;
	snprintf(s->state, sizeof(s->state), "%s", m->state ? m->state : "");
	snprintf(s->ops, sizeof(s->ops), "%s", m->ops ? m->ops : "");
	s->enable_seq = m->enable_seq;
	snprintf(s->events, sizeof(s->events), "%s", m->events ? m->events : "");
	s->switch_all = m->switch_all;
	s->nr_rejected = m->nr_rejected;
}

static void meta_from_capture(struct meta *m, const Ktprof__CaptureMeta *cm)
{
	memset(m, 0, sizeof(*m));
	m->abi_major = cm->abi_major;
	m->abi_minor = cm->abi_minor;
	snprintf(m->version, sizeof(m->version), "%s",
		 cm->module_version ? cm->module_version : "");
	snprintf(m->kernel, sizeof(m->kernel), "%s",
		 cm->kernel_release ? cm->kernel_release : "");
	snprintf(m->machine, sizeof(m->machine), "%s", cm->machine ? cm->machine : "");
	m->nr_cpus = cm->nr_cpus;
	snprintf(m->cpus_online, sizeof(m->cpus_online), "%s",
		 cm->cpus_online ? cm->cpus_online : "");
	snprintf(m->state, sizeof(m->state), "stopped");
	m->have_session = cm->has_session_id;
	m->session_id = cm->session_id;
	m->clock_boot = cm->clock_boottime_ns;
	m->clock_mono = cm->clock_monotonic_ns;
	m->clock_real = cm->clock_realtime_ns;
	m->events = cm->events;
	m->events_unavailable = cm->events_unavailable;
	m->subbuf_size = cm->subbuf_size;
	m->n_subbufs = cm->n_subbufs;
	m->overwrite = cm->overwrite;
	snprintf(m->cpus, sizeof(m->cpus), "%s", cm->cpus ? cm->cpus : "");
	snprintf(m->samples, sizeof(m->samples), "%s", cm->samples ? cm->samples : "");
	snprintf(m->counters, sizeof(m->counters), "%s",
		 cm->counters ? cm->counters : "");
	snprintf(m->stacks, sizeof(m->stacks), "%s", cm->stacks ? cm->stacks : "");
	snprintf(m->scx_hooks, sizeof(m->scx_hooks), "%s", cm->scx_hooks ? cm->scx_hooks : "");
	snprintf(m->clock, sizeof(m->clock), "%s", cm->clock ? cm->clock : "");
}

static int open_capture(struct input *in, const char *path, struct error *err)
{
	Ktprof__CaptureMeta *cm;
	size_t len;
	void *buf;

	in->cap = capture_reader_open(path, err);
	if (!in->cap)
		return err ? err->code : -EINVAL;
	/* Metadata is small: check it all now (streams are checked as read). */
	if (capture_reader_verify_meta(in->cap))
		return error_set(err, -EBADMSG, "%s: %s", path,
				 capture_reader_status(in->cap)->problem);
	buf = capture_reader_section(in->cap, KTPC_META, &len);
	if (!buf) {
		if (errno == ENOENT)
			return error_set(err, -ERROR_NO_META,
					 "%s: no session metadata (the capture stopped before it began)",
					 path);
		return error_set(err, errno == ERROR_TOO_LARGE ? -ERROR_TOO_LARGE : -EBADMSG,
				 "%s: %s", path, capture_reader_status(in->cap)->problem);
	}
	/* An empty message would unpack to all defaults: record ABI 0.0. */
	cm = len ? ktprof__capture_meta__unpack(NULL, len, buf) : NULL;
	free(buf);
	if (!cm)
		return error_set(err, -ERROR_BAD_META, "%s: damaged session metadata", path);
	if (cm->nr_cpus > KTPC_MAX_CPUS) {
		error_set(err, -ERROR_BAD_META,
			  "%s: the session claims %u CPUs; ktprof reads at most %u: damaged metadata?",
			  path, cm->nr_cpus, KTPC_MAX_CPUS);
		ktprof__capture_meta__free_unpacked(cm, NULL);
		return err ? err->code : -ERROR_BAD_META;
	}
	meta_from_capture(&in->meta, cm);
	if (cm->has_stop_boottime_ns)
		in->stop_ns = cm->stop_boottime_ns;
	sched_ext_from(&in->scx[0], cm->sched_ext_start);
	sched_ext_from(&in->scx[1], cm->sched_ext_stop);
	in->schedstat[0] = cm->schedstat_start ? strdup(cm->schedstat_start) : NULL;
	in->schedstat[1] = cm->schedstat_stop ? strdup(cm->schedstat_stop) : NULL;
	in->schedstats = cm->has_sched_schedstats ? (int)(cm->sched_schedstats != 0) : -1;
	in->cgroups[0] = cm->cgroups_start ? strdup(cm->cgroups_start) : NULL;
	in->cgroups[1] = cm->cgroups_stop ? strdup(cm->cgroups_stop) : NULL;
	in->cgroup_cpu[0] = cm->cgroup_cpu_start ? strdup(cm->cgroup_cpu_start) : NULL;
	in->cgroup_cpu[1] = cm->cgroup_cpu_stop ? strdup(cm->cgroup_cpu_stop) : NULL;
	in->probes = cm->probes ? strdup(cm->probes) : NULL;
	in->probe_stats = cm->probe_stats ? strdup(cm->probe_stats) : NULL;
	in->spans = cm->spans ? strdup(cm->spans) : NULL;
	in->hostname = cm->hostname && cm->hostname[0] ? strdup(cm->hostname) : NULL;
	ktprof__capture_meta__free_unpacked(cm, NULL);
	if (in->meta.abi_major != KTP_ABI_MAJOR)
		return error_set(err, -ERROR_ABI, "%s: record ABI %u.%u; this ktprof reads %u.x",
				 path, in->meta.abi_major, in->meta.abi_minor, KTP_ABI_MAJOR);
	in->have_meta = 1;
	return 0;
}

/* A raw dump directory's side file @name, absent (*@text NULL) or whole. */
static int side_file(struct input *in, const char *name, char **text,
		     struct error *err)
{
	int ret = rawdir_read_file(in->rd, name, text, NULL);

	*text = ret ? NULL : *text;
	if (ret == -ENOENT)
		return 0;
	return ret ? error_set(err, ret, "%s/%s: %s", in->path, name, error_str(ret)) : 0;
}

/* The shell-only capture's copies of /sys/kernel/sched_ext, if any. */
static int load_sched_ext(struct input *in, struct error *err)
{
	static const char *const names[2] = { "sched_ext.start", "sched_ext.stop" };
	char *text;
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = side_file(in, names[i], &text, err);
		if (ret)
			return ret;
		if (text)
			sched_ext_parse(text, &in->scx[i]);
		free(text);
	}
	return 0;
}

static int load_meta(struct input *in, const char *path, struct error *err)
{
	char *text;
	int ret = load_sched_ext(in, err);

	if (!ret)
		ret = side_file(in, "meta", &text, err);
	if (ret || !text)
		return ret;	/* meta is optional: streams decode without it */
	ret = meta_parse(text, &in->meta);
	free(text);
	if (ret == -EPROTONOSUPPORT)
		return error_set(err, -ERROR_ABI,
				 "%s/meta: record ABI %u.%u; this ktprof reads %u.x",
				 path, in->meta.abi_major, in->meta.abi_minor,
				 KTP_ABI_MAJOR);
	if (ret)
		return error_set(err, -ERROR_BAD_META, "%s/meta: malformed", path);
	if (in->meta.nr_cpus > KTPC_MAX_CPUS)
		return error_set(err, -ERROR_BAD_META,
				 "%s/meta: the session claims %u CPUs; ktprof reads at most %u",
				 path, in->meta.nr_cpus, KTPC_MAX_CPUS);
	in->have_meta = 1;
	return 0;
}

struct input *input_open(const char *path, struct error *err)
{
	struct input *in;
	struct stat st;

	if (stat(path, &st)) {
		error_set(err, -errno, "%s: %s", path, strerror(errno));
		return NULL;
	}
	in = calloc(1, sizeof(*in));
	if (!in || !(in->path = strdup(path))) {
		free(in);
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	in->schedstats = -1;
	if (!S_ISDIR(st.st_mode) && tracedat_probe(path) == 1) {
		in->td = tracedat_open(path, err);
		if (!in->td) {
			input_close(in);
			return NULL;
		}
		in->meta = *tracedat_meta(in->td);
		in->have_meta = 1;
		in->stop_ns = tracedat_stop_ns(in->td);
		return in;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (open_capture(in, path, err)) {
			input_close(in);
			return NULL;
		}
		return in;
	}
	in->rd = rawdir_open(path, err);
	if (!in->rd || load_meta(in, path, err)) {
		input_close(in);
		return NULL;
	}
	return in;
}

void input_close(struct input *in)
{
	unsigned int i;

	if (!in)
		return;
	for (i = 0; i < in->nstreams; i++)
		capture_stream_close(in->streams[i]);
	free(in->streams);
	free(in->mem);
	tracedat_close(in->td);
	capture_reader_close(in->cap);
	rawdir_close(in->rd);
	free(in->kallsyms);
	free(in->schedstat[0]);
	free(in->schedstat[1]);
	free(in->cgroups[0]);
	free(in->cgroups[1]);
	free(in->cgroup_cpu[0]);
	free(in->cgroup_cpu[1]);
	free(in->probes);
	free(in->probe_stats);
	free(in->spans);
	free(in->hostname);
	free(in->live);
	free(in->path);
	free(in);
}

struct input *input_live_new(const struct meta *meta, struct byte_queue **queues,
			     unsigned int n, struct error *err)
{
	struct input *in = calloc(1, sizeof(*in));

	if (!in || !(in->path = strdup("live session")) ||
	    !(in->live = calloc(n ? n : 1, sizeof(*in->live)))) {
		input_close(in);
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	in->schedstats = -1;
	in->meta = *meta;
	in->have_meta = 1;
	memcpy(in->live, queues, n * sizeof(*queues));
	in->nr_live = n;
	return in;
}

const struct meta *input_meta(const struct input *in)
{
	return in->have_meta ? &in->meta : NULL;
}

uint64_t input_stop_ns(const struct input *in)
{
	return in->stop_ns;
}

const struct sched_ext *input_sched_ext(const struct input *in, int at_stop)
{
	return &in->scx[!!at_stop];
}

const char *input_schedstat(const struct input *in, int at_stop)
{
	return in->schedstat[!!at_stop];
}

int input_schedstats_enabled(const struct input *in)
{
	return in->schedstats;
}

const char *input_cgroups(const struct input *in, int at_stop)
{
	return in->cgroups[!!at_stop];
}

const char *input_probes(const struct input *in)
{
	return in->probes;
}

const char *input_probe_stats(const struct input *in)
{
	return in->probe_stats;
}

const char *input_spans(const struct input *in)
{
	return in->spans;
}

const char *input_hostname(const struct input *in)
{
	return in->hostname;
}

const char *input_cgroup_cpu(const struct input *in, int at_stop)
{
	return in->cgroup_cpu[!!at_stop];
}

int input_topology(struct input *in, struct topology_cpu **out)
{
	size_t len;
	char *buf;
	int n;

	*out = NULL;
	if (in->td || in->live)
		return 0;
	if (in->rd) {
		n = side_file(in, "topology", &buf, NULL);
		if (!n && buf)
			n = topology_parse(buf, out);
	} else {
		buf = capture_reader_section(in->cap, KTPC_TOPOLOGY, &len);
		n = buf ? topology_unpack(buf, len, out) : 0;
	}
	free(buf);
	return n;
}

unsigned int input_nr_cpus(const struct input *in)
{
	unsigned int n = in->have_meta ? in->meta.nr_cpus : 0, i, nfiles;
	const uint32_t *cpus;

	/*
	 * Streams of CPUs beyond nr_cpus would be damage; count them anyway.
	 * Both are below KTPC_MAX_CPUS (checked when opened): no overflow.
	 */
	if (in->live) {
		return n > in->nr_live ? n : in->nr_live;
	} else if (in->td) {
		return n;	/* the trace's CPU count: every stream is below */
	} else if (in->rd) {
		nfiles = rawdir_nr_cpu_files(in->rd);
		for (i = 0; i < nfiles; i++)
			if (rawdir_cpu(in->rd, i) >= n)
				n = rawdir_cpu(in->rd, i) + 1;
	} else {
		nfiles = capture_reader_cpus(in->cap, &cpus);
		for (i = 0; i < nfiles; i++)
			if (cpus[i] >= n)
				n = cpus[i] + 1;
	}
	return n;
}

static ssize_t mem_stream_read(void *ctx, void *buf, size_t len)
{
	struct mem_stream *s = ctx;

	if (len > s->len - s->off)
		len = s->len - s->off;
	memcpy(buf, s->buf + s->off, len);
	s->off += len;
	return len;
}

static int add_tracedat_streams(struct input *in, struct merge *m)
{
	unsigned int n = tracedat_nr_streams(in->td), i;
	uint32_t cpu;
	int ret;

	free(in->mem);
	in->mem = calloc(n ? n : 1, sizeof(*in->mem));
	if (!in->mem)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		tracedat_stream(in->td, i, &cpu, &in->mem[i].buf, &in->mem[i].len);
		ret = merge_add(m, cpu, mem_stream_read, &in->mem[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int input_add_streams(struct input *in, struct merge *m)
{
	const uint32_t *cpus;
	unsigned int n, i;
	int ret;

	if (in->live) {
		for (i = 0; i < in->nr_live; i++)
			if (in->live[i] && (ret = merge_add(m, i, byte_queue_take, in->live[i])))
				return ret;
		return 0;
	}
	if (in->td)
		return add_tracedat_streams(in, m);
	if (in->rd)
		return rawdir_add_streams(in->rd, m);
	n = capture_reader_cpus(in->cap, &cpus);
	in->streams = calloc(n ? n : 1, sizeof(*in->streams));
	if (!in->streams)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		in->streams[i] = capture_stream_open(in->cap, cpus[i]);
		if (!in->streams[i])
			return -ENOMEM;
		in->nstreams++;
		ret = merge_add(m, cpus[i], capture_stream_read, in->streams[i]);
		if (ret)
			return ret;
	}
	return 0;
}

const char *input_problem(const struct input *in)
{
	return in->cap ? capture_reader_status(in->cap)->problem : "";
}

struct capture_reader *input_capture(struct input *in)
{
	return in->cap;
}

struct tracedat *input_tracedat(struct input *in)
{
	return in->td;
}

int input_kallsyms(struct input *in, const char **text, struct error *err)
{
	if (!in->kallsyms_loaded) {
		if (in->live) {
			/* No snapshot: kernel addresses stay numbers. */
		} else if (in->td) {
			const char *syms = tracedat_kallsyms(in->td);

			if (syms && !(in->kallsyms = strdup(syms)))
				in->kallsyms_ret = error_set(&in->kallsyms_err, -ENOMEM, NULL);
		} else if (in->rd) {
			in->kallsyms_ret = side_file(in, "kallsyms", &in->kallsyms,
						     &in->kallsyms_err);
		} else {
			in->kallsyms = capture_reader_section(in->cap, KTPC_KALLSYMS, NULL);
			if (!in->kallsyms && errno != ENOENT)
				in->kallsyms_ret = error_set(&in->kallsyms_err,
							     errno == ERROR_TOO_LARGE ?
							     -ERROR_TOO_LARGE : -EBADMSG,
							     "%s: %s", in->path,
							     capture_reader_status(in->cap)->problem);
		}
		in->kallsyms_loaded = 1;
	}
	*text = in->kallsyms;
	if (in->kallsyms_ret && err)
		*err = in->kallsyms_err;
	return in->kallsyms_ret;
}
