// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof record: capture a session into one self-describing file.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/cgroup-table.h"
#include "cmd/cmd.h"
#include "decode/meta.h"
#include "decode/span-spec.h"
#include "record/control-client.h"
#include "record/probe-set.h"
#include "record/recorder.h"
#include "util/clock.h"
#include "util/units.h"
#include "util/when.h"

#define DEFAULT_SUBBUF (256u << 10)
#define DEFAULT_BUFFER (2u << 20)
#define MAX_COUNTERS 4

struct record_opts {
	const char *output;
	uint64_t duration_ns;		/* 0: until CMD exits or a signal */
	uint32_t events;
	int scx_named;		/* -e named scx: the kernel must have it */
	const char *samples;
	char samples_buf[256];		/* -S without its stack kinds */
	uint32_t stacks;		/* KTP_STACKS_* of -S */
	char counters[256];
	unsigned int nr_counters;
	const char *cpus;
	uint32_t pids[KTP_MAX_SAMPLE_PIDS];
	unsigned int nr_pids;
	const char *comm;
	const char *cgroup;		/* -G as given */
	char *cgroup_path;		/* its path from the cgroup2 root */
	uint64_t cgroup_id;
	uint64_t buffer_size, subbuf_size;
	int overwrite;
	uint32_t clock;			/* enum ktp_clock_id */
	int reader_cpu;
	const char *prepare, *activate;
	const char *load;
	int snapshots;
	int schedstats;			/* --schedstats */
	struct probe_set probes;	/* --probe */
	char *probes_text;		/* their list for the capture */
	struct span_spec spans[SPAN_TABLE_MAX];	/* --span */
	unsigned int nr_spans;
	const char *span_args[SPAN_TABLE_MAX];	/* as given, for errors */
	char *spans_text;		/* their list for the capture */
	int quiet;
	char **cmd;			/* after "--" */
};

enum {
	OPT_PMU = OPTS_LONG_ONLY, OPT_COMM, OPT_SUBBUF, OPT_OVERWRITE,
	OPT_READER_CPU, OPT_PREPARE, OPT_ACTIVATE, OPT_LOAD, OPT_NO_SNAPSHOTS, OPT_SCHEDSTATS,
	OPT_PROBE, OPT_SPAN, OPT_CLOCK,
};

static const struct opt record_opts_table[] = {
	{ "output", 'o', "FILE", "capture file (default ktprof.ktp, mode 0600)" },
	{ "duration", 'd', "DUR", "stop after DUR (500ms, 10s, 2m)" },
	{ "events", 'e', "LIST", "sched,irq,softirq,ipi,wq,scx,power,wakeup or all (default all "
	  "but power and wakeup: each group this kernel has)" },
	{ "samples", 'S', "SPECS", "sample sources EVENT[@NHz|@period=N],... or none\n"
		"(default cpu-clock@999hz; cycles, instructions,\n"
		"cache-misses, branch-misses, task-clock, rNNNN),\n"
		"and stacks: offcpu (where a task leaves its CPU\n"
		"asleep), waker (who wakes a task), user (their user\n"
		"stacks too); -S offcpu keeps the default samples" },
	{ "pmu", OPT_PMU, "EVENT", "count EVENT per context switch (repeatable, 4)" },
	{ "cpus", 'C', "LIST", "CPUs to trace, e.g. 0-3,6 (default all)" },
	{ "pid", 'p', "PID", "keep samples of this process only (repeatable)" },
	{ "comm", OPT_COMM, "NAME", "keep samples of tasks named NAME\n"
		"(scheduler events are always kept whole)" },
	{ "cgroup", 'G', "PATH", "keep samples of tasks in this cgroup v2 and\n"
		"below it only (with -p or --comm: of those, the\n"
		"ones in it); PATH from the cgroup2 root, or under\n"
		"its mount point" },
	{ "probe", OPT_PROBE, "SPEC", "a probe of your choosing, each hit a record\n"
		"(repeatable, 16):\n"
		"[NAME=]k:FUNC[+OFF] [ARG...]   kprobe (CAP_SYS_ADMIN)\n"
		"[NAME=]kr:FUNC [ARG...]        FUNC's return\n"
		"[NAME=]u:PATH:SYMBOL[+OFF] [ARG...]  uprobe (SYMBOL\n"
		"  may be 0xOFFSET in the file)\n"
		"[NAME=]ur:PATH:SYMBOL [ARG...] its return\n"
		"[NAME=]usdt:PATH:PROVIDER:PROBE [ARG...]  a USDT\n"
		"  probe (<sys/sdt.h>): all its sites, its semaphore\n"
		"  set; without ARGs all its arguments, arg1..argN\n"
		"ARG is ANAME=SRC[:TYPE]: SRC arg1..arg6 (USDT:\n"
		"arg1..arg12), %REG (%di, %ax, ...) or ret (return\n"
		"probes); TYPE u8..u64, s8..s64, x8..x64 (default\n"
		"x64; USDT: its note's), str (kernel string; user\n"
		"string in a uprobe) or ustr (user string), strings\n"
		"up to 128 bytes; or stack[=k|u|ku]: each hit's\n"
		"kernel and/or user stack (stack: a kprobe's\n"
		"kernel, a uprobe's user stack). -p, --comm and -G\n"
		"keep their tasks' hits only" },
	{ "span", OPT_SPAN, "NAME=BEGIN,END", "spans of two probes (their --probe names):\n"
		"on each thread a hit of BEGIN opens a span NAME,\n"
		"one of END closes the innermost open one\n"
		"(repeatable, 32; report --probes, convert)" },
	{ "buffer-size", 'b', "SIZE", "relay buffer per CPU (default 2M)" },
	{ "subbuf-size", OPT_SUBBUF, "SIZE", "relay sub-buffer size (default 256K)" },
	{ "overwrite", OPT_OVERWRITE, NULL, "flight recorder: keep the newest when full" },
	{ "clock", OPT_CLOCK, "CLOCK", "the records' time stamps: auto (default: the TSC\n"
		"where constant and nonstop, else boot), boot\n"
		"(CLOCK_BOOTTIME read at each record) or tsc (the\n"
		"TSC, converted to CLOCK_BOOTTIME when read)" },
	{ "reader-cpu", OPT_READER_CPU, "N", "pin the reader threads to CPU N" },
	{ "prepare", OPT_PREPARE, "WHEN", "when to set up: @now, @HH:MM[:SS], +30s, /10s" },
	{ "activate", OPT_ACTIVATE, "WHEN", "when to start recording (same forms)" },
	{ "load", OPT_LOAD, "PATH", "insmod PATH if the module is not loaded\n"
		"(and remove it at exit)" },
	{ "no-snapshots", OPT_NO_SNAPSHOTS, NULL, "no kallsyms, module list or process maps" },
	{ "schedstats", OPT_SCHEDSTATS, NULL, "turn kernel.sched_schedstats on for the session\n"
		"(and off after), so that /proc/schedstat's counts\n"
		"of schedules, wakeups and load balancing move" },
	{ "quiet", 'q', NULL, "no progress line" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts record_cmd = {
	.cmd = "record",
	.summary = "record scheduler events and CPU samples (root)",
	.synopsis = "[options] [-- CMD [ARGS...]]",
	.description =
		"Record scheduler events and CPU samples into a capture file, until\n"
		"-d elapses, CMD exits, or SIGINT/SIGTERM. Needs root and ktprof.ko.",
	.examples =
		"Record the machine while a workload runs, until it exits:\n"
		"$ ktprof record -o cap.ktp -- ./my-workload\n"
		"Record 10 seconds of CPUs 0 to 3, sampling cycles at 4 kHz:\n"
		"$ ktprof record -d 10s -C 0-3 -S cycles@4000hz -o cap.ktp\n"
		"A flight recorder, stopped with Ctrl-C, loading the module first:\n"
		"$ ktprof record --overwrite --load /path/to/ktprof.ko\n"
		"Who opens which files, and the descriptors they get:\n"
		"$ ktprof record --probe 'open=k:do_sys_openat2 dfd=arg1:s32 path=arg2:ustr' \\\n"
		"    --probe 'kr:do_sys_openat2 fd=ret:s64' -d 10s\n"
		"Calls of a program's function, with its first argument:\n"
		"$ ktprof record --probe 'u:./server:handle_request id=arg1:u64' -- ./server\n"
		"A program's USDT probes, and where the kernel's open is called from:\n"
		"$ ktprof record --probe 'usdt:./server:app:req_begin' \\\n"
		"    --probe 'k:do_sys_openat2 path=arg2:ustr stack=k' -- ./server\n"
		"Its requests as spans, from the function's entry to its return:\n"
		"$ ktprof record --probe 'req_begin=u:./server:handle_request' \\\n"
		"    --probe 'req_end=ur:./server:handle_request' --span req=req_begin,req_end \\\n"
		"    -- ./server\n"
		"Leave a marker (as root) while recording: ktprof mark TEXT\n",
	.opts = record_opts_table,
	.in_order = 1,
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int bad_arg(const char *fmt, const char *arg)
{
	fprintf(stderr, "ktprof record: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

static int add_counter(struct record_opts *o, const char *ev)
{
	size_t used = strlen(o->counters);

	if (o->nr_counters == MAX_COUNTERS || strchr(ev, ',') ||
	    used + strlen(ev) + 2 > sizeof(o->counters)) {
		fprintf(stderr, "ktprof record: --pmu: one event each, at most %d\n",
			MAX_COUNTERS);
		return 2;
	}
	snprintf(o->counters + used, sizeof(o->counters) - used, "%s%s",
		 o->nr_counters++ ? "," : "", ev);
	return 0;
}

static int add_pid(struct record_opts *o, const char *arg)
{
	char *end;
	unsigned long pid = strtoul(arg, &end, 10);

	if (*end || !pid || pid > UINT32_MAX || o->nr_pids == KTP_MAX_SAMPLE_PIDS) {
		fprintf(stderr, "ktprof record: -p %s: want a process id (at most %d)\n",
			arg, KTP_MAX_SAMPLE_PIDS);
		return 2;
	}
	o->pids[o->nr_pids++] = pid;
	return 0;
}

/*
 * -S: the stack kinds (offcpu, waker, user) out of the list, the rest
 * sample sources; a list of stack kinds alone leaves the sources as
 * they were.
 */
static int take_samples(struct record_opts *o, const char *arg)
{
	static const char *const kinds[] = { "offcpu", "waker", "user" };
	char list[256], *p = list, *tok;
	size_t used = 0;
	unsigned int k;

	if (strlen(arg) >= sizeof(list))
		return bad_arg("-S %s: too long", arg);
	strcpy(list, arg);
	o->samples_buf[0] = '\0';
	while ((tok = strsep(&p, ",")) != NULL) {
		for (k = 0; k < 3 && strcmp(tok, kinds[k]); k++)
			;
		if (k < 3) {
			o->stacks |= 1u << k;
			continue;
		}
		used += snprintf(o->samples_buf + used, sizeof(o->samples_buf) - used, "%s%s",
				 used ? "," : "", tok);
	}
	if (o->stacks == KTP_STACKS_USER)
		return bad_arg("-S %s: user stacks go with offcpu or waker", arg);
	if (o->samples_buf[0])
		o->samples = o->samples_buf;
	return 0;
}

/* One option of the table: 0, or 2 after saying what is wrong. */
/* Whether the -e list names the scx group itself (not through "all"). */
static int names_scx(const char *list)
{
	size_t n;

	for (; *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		if (n == 3 && !strncmp(list, "scx", 3))
			return 1;
	}
	return 0;
}

static int take_opt(struct record_opts *o, int key, char *arg)
{
	char *end;

	switch (key) {
	case 'o':
		o->output = arg;
		return 0;
	case 'd':
		if (units_parse_duration(arg, &o->duration_ns) || !o->duration_ns)
			return bad_arg("-d %s: want a duration such as 500ms, 10s, 2m", arg);
		return 0;
	case 'e':
		if (meta_parse_events(arg, &o->events) || !o->events)
			return bad_arg("-e %s: want sched,irq,softirq,ipi,wq,scx,power,wakeup or all", arg);
		o->scx_named = names_scx(arg);
		/* Its task state comes with the scheduler's own events. */
		if ((o->events & KTP_EV_SCX) && !(o->events & KTP_EV_SCHED))
			return bad_arg("-e %s: scx needs sched (the task state is read at the switches "
				       "and wakings)", arg);
		return 0;
	case 'S':
		return take_samples(o, arg);
	case OPT_PMU:
		return add_counter(o, arg);
	case 'C':
		o->cpus = arg;
		return 0;
	case 'p':
		return add_pid(o, arg);
	case OPT_COMM:
		if (strlen(arg) >= KTP_COMM_LEN) {
			fprintf(stderr, "ktprof record: --comm %s: names have at most %d characters\n",
				arg, KTP_COMM_LEN - 1);
			return 2;
		}
		o->comm = arg;
		return 0;
	case 'G':
		o->cgroup = arg;
		return 0;
	case OPT_SCHEDSTATS:
		o->schedstats = 1;
		return 0;
	case OPT_PROBE: {
		struct error err;

		if (probe_set_add(&o->probes, arg, &err)) {
			fprintf(stderr, "ktprof record: --probe '%s': %s\n", arg, error_msg(&err));
			return 2;
		}
		return 0;
	}
	case OPT_SPAN: {
		struct error err;

		if (o->nr_spans == SPAN_TABLE_MAX)
			return bad_arg("--span %s: at most 32 spans", arg);
		if (span_spec_parse(arg, &o->spans[o->nr_spans], &err)) {
			fprintf(stderr, "ktprof record: --span '%s': %s\n", arg, error_msg(&err));
			return 2;
		}
		o->span_args[o->nr_spans++] = arg;
		return 0;
	}
	case 'b':
		if (units_parse_size(arg, &o->buffer_size))
			return bad_arg("-b %s: want a size such as 256K or 4M", arg);
		return 0;
	case OPT_SUBBUF:
		if (units_parse_size(arg, &o->subbuf_size))
			return bad_arg("--subbuf-size %s: want a size such as 256K or 4M", arg);
		return 0;
	case OPT_OVERWRITE:
		o->overwrite = 1;
		return 0;
	case OPT_CLOCK:
		if (!strcmp(arg, "auto"))
			o->clock = KTP_CLOCK_AUTO;
		else if (!strcmp(arg, "boot"))
			o->clock = KTP_CLOCK_BOOT;
		else if (!strcmp(arg, "tsc"))
			o->clock = KTP_CLOCK_TSC;
		else
			return bad_arg("--clock %s: want auto, boot or tsc", arg);
		return 0;
	case OPT_READER_CPU:
		o->reader_cpu = strtol(arg, &end, 10);
		if (*end || o->reader_cpu < 0)
			return bad_arg("--reader-cpu %s: want a CPU number", arg);
		return 0;
	case OPT_PREPARE:
		o->prepare = arg;
		return 0;
	case OPT_ACTIVATE:
		o->activate = arg;
		return 0;
	case OPT_LOAD:
		o->load = arg;
		return 0;
	case OPT_NO_SNAPSHOTS:
		o->snapshots = 0;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	}
	return cmd_usage(&record_cmd, key);
}

/* -G's cgroup by its id, as the module takes it; 0, or -1 after saying why. */
static int resolve_cgroup(struct record_opts *o)
{
	int ret = cgroup_table_lookup(o->cgroup, &o->cgroup_id, &o->cgroup_path);

	if (!ret)
		return 0;
	fprintf(stderr, "ktprof record: -G %s: %s\n", o->cgroup,
		ret == -ENOTDIR ? "not a cgroup v2 directory" :
		ret == -EINVAL ? "want a path without . or .. components" :
		ret == -ENOENT ? "no such cgroup v2 (is cgroup2 mounted?)" : strerror(-ret));
	return -1;
}

/*
 * --span's probes by name among --probe's, whatever the order the options
 * came in, and its list for the capture; 0, or 2 after saying why.
 */
static int resolve_spans(struct record_opts *o)
{
	struct probe_table probes = { o->probes.n, o->probes.specs };
	size_t size = 1, used = 0;
	char line[3 * PROBE_NAME_MAX + 4];
	struct error err;
	unsigned int i, k;

	for (i = 0; i < o->nr_spans; i++) {
		if (span_spec_resolve(&o->spans[i], &probes, &err)) {
			fprintf(stderr, "ktprof record: --span '%s': %s%s\n", o->span_args[i],
				error_msg(&err), err.code == -ENOENT ? " (a probe is named by "
				"--probe NAME=..., or its default name)" : "");
			return 2;
		}
		for (k = 0; k < i; k++)
			if (!strcmp(o->spans[k].name, o->spans[i].name))
				return bad_arg("--span: two spans named %s", o->spans[i].name);
		size += strlen(span_spec_format(&o->spans[i], line, sizeof(line))) + 1;
	}
	if (!o->nr_spans)
		return 0;
	o->spans_text = malloc(size);
	if (!o->spans_text) {
		fprintf(stderr, "ktprof record: %s\n", strerror(ENOMEM));
		return 2;
	}
	for (i = 0; i < o->nr_spans; i++)
		used += snprintf(o->spans_text + used, size - used, "%s\n",
				 span_spec_format(&o->spans[i], line, sizeof(line)));
	return 0;
}

/* 0; -1 after --help; 2 (usage) after saying why. */
static int parse_args(int argc, char **argv, struct record_opts *o)
{
	struct opts_parser p = { 0 };
	int c, ret;

	while ((c = opts_next(&record_cmd, &p, argc, argv)) != -1) {
		ret = take_opt(o, c, optarg);
		if (ret || c == 'h')
			return c == 'h' ? -1 : ret;
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (o->cgroup && resolve_cgroup(o))
		return 2;
	if (o->probes.n && !(o->probes_text = probe_set_text(&o->probes))) {
		fprintf(stderr, "ktprof record: %s\n", strerror(ENOMEM));
		return 2;
	}
	ret = resolve_spans(o);
	if (ret)
		return ret;
	if (o->subbuf_size < 4096 || o->buffer_size < 2 * o->subbuf_size) {
		fprintf(stderr, "ktprof record: the buffer (%" PRIu64 ") must hold at least 2 sub-buffers of at least 4K (%" PRIu64 ")\n",
			o->buffer_size, o->subbuf_size);
		return 2;
	}
	return 0;
}

/* Sleep until CLOCK_REALTIME @at_ns; 0, or -EINTR on a stop signal. */
static int wait_until(uint64_t at_ns, const char *what, int quiet)
{
	uint64_t now = clock_ns(CLOCK_REALTIME);

	if (at_ns > now + 500000000ull && !quiet)
		fprintf(stderr, "ktprof record: %s in %.1f s\n", what, (at_ns - now) / 1e9);
	while (!stop_signal && (now = clock_ns(CLOCK_REALTIME)) < at_ns) {
		uint64_t d = at_ns - now;
		struct timespec ts = { d / 1000000000ull, d % 1000000000ull };

		if (ts.tv_sec > 0) {
			ts.tv_sec = 0;
			ts.tv_nsec = 200000000;
		}
		nanosleep(&ts, NULL);
	}
	return stop_signal ? -EINTR : 0;
}

/* KEY=VALUE strings of the effective options, for the capture. */
static unsigned int effective_options(const struct record_opts *o, char **v)
{
	char ev[64];
	unsigned int n = 0, i;

	if (asprintf(&v[n], "output=%s", o->output) > 0)
		n++;
	if (o->duration_ns && asprintf(&v[n], "duration_ns=%" PRIu64, o->duration_ns) > 0)
		n++;
	if (asprintf(&v[n], "events=%s", meta_events_str(o->events, ev, sizeof(ev))) > 0)
		n++;
	if (asprintf(&v[n], "samples=%s", o->samples) > 0)
		n++;
	if (o->nr_counters && asprintf(&v[n], "pmu=%s", o->counters) > 0)
		n++;
	if (o->stacks && asprintf(&v[n], "stacks=%s%s%s",
				  o->stacks & KTP_STACKS_OFFCPU ? "offcpu," : "",
				  o->stacks & KTP_STACKS_WAKER ? "waker," : "",
				  o->stacks & KTP_STACKS_USER ? "user," : "") > 0) {
		v[n][strlen(v[n]) - 1] = '\0';	/* the last comma */
		n++;
	}
	if (o->cpus && asprintf(&v[n], "cpus=%s", o->cpus) > 0)
		n++;
	for (i = 0; i < o->nr_pids; i++)
		if (asprintf(&v[n], "pid=%u", o->pids[i]) > 0)
			n++;
	if (o->comm && asprintf(&v[n], "comm=%s", o->comm) > 0)
		n++;
	if (o->cgroup_path && asprintf(&v[n], "cgroup=%s", o->cgroup_path) > 0)
		n++;
	if (asprintf(&v[n], "buffer_size=%" PRIu64, o->buffer_size) > 0)
		n++;
	if (asprintf(&v[n], "subbuf_size=%" PRIu64, o->subbuf_size) > 0)
		n++;
	if (o->overwrite && asprintf(&v[n], "overwrite=1") > 0)
		n++;
	if (o->clock && asprintf(&v[n], "clock=%s", o->clock == KTP_CLOCK_TSC ? "tsc" : "boot") > 0)
		n++;
	if (o->reader_cpu >= 0 && asprintf(&v[n], "reader_cpu=%d", o->reader_cpu) > 0)
		n++;
	if (o->schedstats && asprintf(&v[n], "schedstats=1") > 0)
		n++;
	if (o->cmd) {
		char *cmd = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&cmd, &len);

		for (i = 0; f && o->cmd[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", o->cmd[i]);
		if (f) {
			fclose(f);
			if (asprintf(&v[n], "command=%s", cmd) > 0)
				n++;
			free(cmd);
		}
	}
	return n;
}

static pid_t run_command(char **cmd)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "ktprof record: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

static void print_progress(struct recorder *r, uint64_t start, uint64_t *last_records,
			   uint64_t *last_t)
{
	struct recorder_progress p;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	double dt = (now - *last_t) / 1e9;

	recorder_progress(r, &p);
	fprintf(stderr, "\r  %6.1f s  %9.0f records/s  %8.2f MB  lost %" PRIu64 "  \033[K",
		(now - start) / 1e9, dt > 0 ? (p.records - *last_records) / dt : 0,
		p.file_bytes / 1e6, p.lost);
	*last_records = p.records;
	*last_t = now;
}

static int print_summary(struct recorder *r, const struct record_opts *o)
{
	unsigned int n, i, j;
	const struct cpu_stats *st = recorder_final_stats(r, &n);
	uint64_t records = 0, lost = 0, bytes = 0;
	static const char *const names[] = KTP_REC_NAMES;

	fprintf(stderr, "ktprof record: %s\n", o->output);
	fprintf(stderr, "  %4s %12s %12s %10s %8s\n", "cpu", "records", "bytes", "lost",
		"samples");
	for (i = 0; i < n; i++) {
		fprintf(stderr, "  %4u %12" PRIu64 " %12" PRIu64 " %10" PRIu64 " %8" PRIu64 "\n",
			st[i].cpu, st[i].records, st[i].bytes, st[i].lost, st[i].samples);
		if (st[i].lost) {
			fprintf(stderr, "       dropped:");
			for (j = 0; j < KTP_REC_NR_TYPES; j++)
				if (st[i].dropped[j])
					fprintf(stderr, " %s=%" PRIu64, names[j], st[i].dropped[j]);
			fprintf(stderr, "\n");
		}
		records += st[i].records;
		lost += st[i].lost;
		bytes += st[i].bytes;
	}
	fprintf(stderr, "  %4s %12" PRIu64 " %12" PRIu64 " %10" PRIu64 "\n", "all", records,
		bytes, lost);
	if (lost && o->overwrite)
		fprintf(stderr, "ktprof record: %" PRIu64 " older records were overwritten (flight recorder mode keeps the newest)\n",
			lost);
	else if (lost)
		fprintf(stderr, "ktprof record: %" PRIu64 " records lost: increase --buffer-size (now %" PRIu64
			" per CPU), or give the readers a CPU of their own (--reader-cpu, isolcpus=)\n",
			lost, o->buffer_size);
	return lost && !o->overwrite;
}

/* The module's side of the options: what the session records. */
static struct session_config session_of(const struct record_opts *o)
{
	return (struct session_config){
		.events = o->events,
		.subbuf_size = o->subbuf_size,
		.n_subbufs = o->buffer_size / o->subbuf_size,
		.cpus = o->cpus,
		.overwrite = o->overwrite,
		.clock = o->clock,
		.samples = o->samples,
		.counters = o->counters,
		.sample_pids = o->pids,
		.nr_sample_pids = o->nr_pids,
		.sample_comm = o->comm,
		.sample_cgroup = o->cgroup_id,
		.stacks = o->stacks,
		.probes = o->probes.k,
		.nr_probes = o->probes.nk,
		.stop_with_owner = true,
	};
}

/*
 * Record until a stop signal, the end of -d or the exit of CMD. Returns 1
 * when it should stop at once (CMD could not start), else 0.
 */
static int record_until_done(struct recorder *r, const struct record_opts *o,
			     pid_t *child)
{
	uint64_t start, last_t, last_records = 0;
	int progress = !o->quiet && isatty(STDERR_FILENO);
	struct timespec tick = { 0, 100000000 };
	int wstatus;

	start = last_t = clock_ns(CLOCK_MONOTONIC);
	if (o->cmd) {
		*child = run_command(o->cmd);
		if (*child < 0) {
			fprintf(stderr, "ktprof record: fork: %s\n", strerror(errno));
			return 1;
		}
	}
	while (!stop_signal) {
		/* From the session's own start, not from when start returned. */
		if (o->duration_ns && clock_ns(CLOCK_BOOTTIME) >=
		    recorder_session_start_ns(r) + o->duration_ns)
			break;
		if (*child > 0 && waitpid(*child, &wstatus, WNOHANG) == *child) {
			*child = 0;
			if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus))
				fprintf(stderr, "ktprof record: %s exited with status %d\n",
					o->cmd[0], WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) :
					128 + WTERMSIG(wstatus));
			break;
		}
		if (recorder_poll(r))
			fprintf(stderr, "ktprof record: %s\n", recorder_strerror(r));
		if (progress && clock_ns(CLOCK_MONOTONIC) - last_t >= 1000000000ull)
			print_progress(r, start, &last_records, &last_t);
		nanosleep(&tick, NULL);
	}
	if (progress)
		fprintf(stderr, "\r\033[K");
	return 0;
}

/* A session from set-up to summary; the exit status. */
static int record_session(struct control_client *ctl, const struct record_opts *o,
			  uint64_t activate_at)
{
	struct recorder_config cfg = {
		.debugfs_dir = "/sys/kernel/debug/ktprof",
		.sched_ext_dir = "/sys/kernel/sched_ext",
		.schedstat_path = "/proc/schedstat",
		.schedstats_sysctl = "/proc/sys/kernel/sched_schedstats",
		.schedstats_on = o->schedstats,
		.cgroups = 1,
		.require_scx = o->scx_named,
	};
	char *options[32 + KTP_MAX_SAMPLE_PIDS];
	unsigned int nr_options, i;
	struct recorder *r;
	int status = 1;
	pid_t child = 0;

	nr_options = effective_options(o, options);
	cfg.output = o->output;
	cfg.reader_cpu = o->reader_cpu;
	cfg.options = options;
	cfg.nr_options = nr_options;
	cfg.snapshots = o->snapshots;
	cfg.session = session_of(o);
	cfg.probes = o->probes_text;
	cfg.spans = o->spans_text;
	r = recorder_new(&cfg, ctl);
	if (!r) {
		fprintf(stderr, "ktprof record: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (recorder_prepare(r) ||
	    (!wait_until(activate_at, "recording starts", o->quiet) && recorder_start(r))) {
		fprintf(stderr, "ktprof record: %s\n", recorder_strerror(r));
		goto out;
	}
	if (stop_signal || record_until_done(r, o, &child))
		goto out;
	if (recorder_stop(r)) {
		fprintf(stderr, "ktprof record: %s\n", recorder_strerror(r));
		goto out;
	}
	status = print_summary(r, o);
out:
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	/* Whatever happened, the module does not go on tracing. */
	recorder_free(r);
	for (i = 0; i < nr_options; i++)
		free(options[i]);
	return status;
}


int cmd_record(int argc, char **argv)
{
	struct record_opts o = {
		.output = "ktprof.ktp", .events = KTP_EV_DEFAULT,
		.samples = "cpu-clock@999hz", .buffer_size = DEFAULT_BUFFER,
		.subbuf_size = DEFAULT_SUBBUF, .reader_cpu = -1,
		.prepare = "@now", .activate = "@now", .snapshots = 1,
	};
	uint64_t launch = clock_ns(CLOCK_REALTIME), prepare_at, activate_at;
	struct sigaction sa = { .sa_handler = on_signal };
	struct control_client *ctl;
	int ret, loaded = 0, status = 1;

	ret = parse_args(argc, argv, &o);
	if (ret) {
		free(o.cgroup_path);
		free(o.probes_text);
		free(o.spans_text);
		return ret < 0 ? 0 : ret;
	}
	if (when_parse(o.prepare, launch, &prepare_at) ||
	    when_parse(o.activate, launch, &activate_at)) {
		fprintf(stderr, "ktprof record: --prepare/--activate: want @now, @HH:MM[:SS], +DUR or /DUR\n");
		return 2;
	}
	if (activate_at < prepare_at)
		activate_at = prepare_at;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (wait_until(prepare_at, "preparing", o.quiet))
		return 1;
	ctl = cmd_module_connect("record", o.load, &loaded);
	if (ctl && !cmd_module_check("record", ctl, o.probes.n > 0))
		status = record_session(ctl, &o, activate_at);
	control_client_close(ctl);
	if (loaded && syscall(SYS_delete_module, "ktprof", O_NONBLOCK))
		fprintf(stderr, "ktprof record: cannot remove the module: %s\n",
			strerror(errno));
	free(o.cgroup_path);
	free(o.probes_text);
	free(o.spans_text);
	return status;
}
