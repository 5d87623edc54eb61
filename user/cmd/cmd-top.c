// SPDX-License-Identifier: GPL-2.0
/*
 * ktprof top: the scheduler live, interval by interval, in a full-screen
 * view (top/top-screen), or as text or JSON blocks (--batch, --json); the
 * figures of each interval are those of `ktprof report --from --to` over
 * it (top/top-stats). Live from the module, writing the capture too with
 * -o, or a capture replayed (--replay).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "ktprof_abi.h"
#include "record/control-client.h"
#include "top/top-print.h"
#include "top/top-screen.h"
#include "top/top-source.h"
#include "util/clock.h"
#include "util/units.h"

#define TOP_DEFAULT_BUFFER (4u << 20)
#define TOP_SUBBUF (256u << 10)
#define TOP_MIN_LIVE_NS 10000000ull

struct top_opts {
	uint64_t interval_ns;
	long count;			/* -n: intervals; 0: until stopped */
	int batch, json;
	const char *output;
	const char *replay;
	const char *load;
	const char *cpus;
	uint64_t buffer_size;
	enum top_sort sort;
	const char *filter;
	long max_threads;
};

enum { OPT_JSON = OPTS_LONG_ONLY, OPT_REPLAY, OPT_SORT, OPT_FILTER, OPT_LOAD, OPT_THREADS };

static const struct opt top_opts_table[] = {
	{ "delay", 'd', "SECS", "each interval SECS long (default 1; a duration such as 500ms\n"
	  "too; live: 10ms at least)" },
	{ "iterations", 'n', "N", "stop after N intervals (default: at q, SIGINT or SIGTERM)" },
	{ "batch", 'b', NULL, "plain text, one block an interval, no terminal needed" },
	{ "json", OPT_JSON, NULL, "one JSON document an interval, a line each (docs/top.md)" },
	{ "output", 'o', "FILE", "write the capture of the session to FILE as well" },
	{ "replay", OPT_REPLAY, "CAPTURE", "show a capture interval by interval instead of the live "
	  "system (no module needed)" },
	{ "sort", OPT_SORT, "KEY", "threads by runtime (default), wakeup, runqueue (their p99), "
	  "switches, migrations or pid" },
	{ "filter", OPT_FILTER, "TEXT", "only threads whose pid or tgid is TEXT, or whose name "
	  "holds it" },
	{ "threads", OPT_THREADS, "N", "--batch: at most N threads an interval (default all)" },
	{ "cpus", 'C', "LIST", "CPUs to trace, e.g. 0-3,6 (default all)" },
	{ "buffer-size", 'm', "SIZE", "relay buffer per CPU (default 4M)" },
	{ "load", OPT_LOAD, "PATH", "insmod PATH if the module is not loaded" },
	{ "help", 'h', NULL, "this text" },
	{ NULL },
};

const struct opts top_cmd = {
	.cmd = "top",
	.summary = "watch the scheduler live, interval by interval",
	.synopsis = "[OPTIONS]",
	.description =
		"Trace the scheduler as `ktprof record` does and show, each interval,\n"
		"what it did: per CPU utilization, interrupt time, switches, migrations,\n"
		"runqueue depth and records lost (at once, per CPU); per thread runtime,\n"
		"switches, migrations, wakeup and runqueue latency (p99 and max); the\n"
		"worst waits with who ran before them; the interrupts. Runtimes,\n"
		"switches and migrations are those `ktprof report --from A --to B`\n"
		"gives for the interval [A, B); latencies are those that ended in it.\n"
		"ktprof's own threads are marked [ktprof]. Needs root and the module,\n"
		"except with --replay.\n"
		"\n"
		"Keys: q quit; c CPUs, t threads, l latency, i interrupts, x sched_ext\n"
		"(Tab: the next view); s the next sort, or R runtime, W wakeup p99, Q\n"
		"runqueue p99, X switches, M migrations, N pid; f or / filter threads\n"
		"(Enter ends it, Esc clears it); space pause; h or ? help.",
	.examples =
		"watch the system, each second:\n"
		"$ sudo ktprof top\n"
		"three intervals of 2 s as text, and the capture to check them with report:\n"
		"$ sudo ktprof top --batch -n 3 -d 2 -o cap.ktp\n"
		"a capture replayed as JSON, one document each 100 ms of it:\n"
		"$ ktprof top --replay cap.ktp --json -d 100ms\n",
	.opts = top_opts_table,
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int take(void *ctx, int key, const char *arg)
{
	struct top_opts *o = ctx;
	int s;

	switch (key) {
	case 'd':
		if (units_parse_duration(arg, &o->interval_ns) || !o->interval_ns ||
		    o->interval_ns > 3600000000000ull) {
			cmd_error("top", "-d %s: want a duration up to 1h", arg);
			return 2;
		}
		return 0;
	case 'n':
		if (cmd_number(arg, 1, 1000000000, &o->count)) {
			cmd_error("top", "-n %s: want a number of intervals, 1 or more", arg);
			return 2;
		}
		return 0;
	case OPT_THREADS:
		if (cmd_number(arg, 1, 1000000000, &o->max_threads)) {
			cmd_error("top", "--threads %s: want a number, 1 or more", arg);
			return 2;
		}
		return 0;
	case 'b':
		o->batch = 1;
		return 0;
	case OPT_JSON:
		o->json = 1;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_REPLAY:
		o->replay = arg;
		return 0;
	case OPT_SORT:
		s = top_sort_of(arg);
		if (s < 0) {
			cmd_error("top", "--sort %s: want runtime, wakeup, runqueue, switches, migrations or pid", arg);
			return 2;
		}
		o->sort = s;
		return 0;
	case OPT_FILTER:
		o->filter = arg;
		return 0;
	case 'C':
		o->cpus = arg;
		return 0;
	case 'm':
		if (units_parse_size(arg, &o->buffer_size) || o->buffer_size < TOP_SUBBUF * 2 ||
		    o->buffer_size > (1ull << 30)) {
			cmd_error("top", "-m %s: want a size from 512K to 1G", arg);
			return 2;
		}
		return 0;
	case OPT_LOAD:
		o->load = arg;
		return 0;
	default:
		return cmd_usage(&top_cmd, key);
	}
}

static int check_opts(const struct top_opts *o)
{
	/* Live, each interval flushes the module's buffers on every CPU. */
	if (!o->replay && o->interval_ns < TOP_MIN_LIVE_NS) {
		cmd_error("top", "-d: a live interval is 10ms at least");
		return 2;
	}
	if (o->batch && o->json) {
		cmd_error("top", "--batch and --json: one of them");
		return 2;
	}
	if (o->replay && (o->output || o->cpus || o->load)) {
		cmd_error("top", "--replay shows a capture: -o, -C and --load are for a live session");
		return 2;
	}
	return 0;
}

/* --- The interval loop --- */

struct top_run {
	const struct top_opts *o;
	struct top_source *src;
	struct top_screen *screen;	/* NULL: --batch or --json */
	struct top_interval *last;
	int ended;			/* a replay's end: the view stays until q */
};

/* Sleep until @at (CLOCK_MONOTONIC), waking for keys; 1 when asked to quit. */
static int wait_until(struct top_run *run, uint64_t at)
{
	uint64_t now;
	int r;

	while (!stop_signal && (now = clock_ns(CLOCK_MONOTONIC)) < at) {
		if (!run->screen) {
			struct timespec ts = { (at - now) / 1000000000ull, (at - now) % 1000000000ull };

			nanosleep(&ts, NULL);
			continue;
		}
		r = top_screen_wait(run->screen, (int)((at - now + 999999) / 1000000));
		if (r == TOP_SCREEN_QUIT)
			return 1;
		if (r == TOP_SCREEN_REDRAW)
			top_screen_draw(run->screen, run->last, top_source_name(run->src));
	}
	return stop_signal != 0;
}

static int show(struct top_run *run, struct top_interval *iv)
{
	struct top_print_opts p = {
		.sort = run->o->sort, .filter = run->o->filter ? run->o->filter : "",
		.max_threads = run->o->max_threads, .source = top_source_name(run->src),
	};

	run->last = iv;
	if (run->screen) {
		top_screen_draw(run->screen, iv, top_source_name(run->src));
		return 0;
	}
	return run->o->json ? top_print_json(stdout, iv, &p) : top_print_text(stdout, iv, &p);
}

/* Interval after interval until -n, q, a signal or a replay's end; the exit status. */
static int loop(struct top_run *run)
{
	const struct top_opts *o = run->o;
	uint64_t next = clock_ns(CLOCK_MONOTONIC);
	struct top_interval *iv;
	struct error err = { 0 };
	long k;
	int ret;

	for (k = 0; (!o->count || k < o->count) && !stop_signal; k++) {
		/* A replay for a script does not wait; for people it goes at -d's pace. */
		next += o->interval_ns;
		if ((!o->replay || run->screen) && wait_until(run, next))
			return 0;
		ret = top_source_next(run->src, &iv, &err);
		if (ret < 0) {
			top_screen_close(run->screen);
			run->screen = NULL;
			cmd_error("top", "%s", error_msg(&err));
			return 1;
		}
		if (!ret)
			break;
		if (show(run, iv)) {
			cmd_error("top", "writing the output: %s", strerror(errno));
			return 1;
		}
	}
	/* A replay's end in the view: it stays until q. */
	while (run->screen && !o->count && !stop_signal && !wait_until(run, UINT64_MAX))
		;
	return 0;
}

static struct recorder_config recorder_of(const struct top_opts *o)
{
	return (struct recorder_config){
		.output = o->output,
		.debugfs_dir = "/sys/kernel/debug/ktprof",
		.sched_ext_dir = "/sys/kernel/sched_ext",
		.reader_cpu = -1,
		.snapshots = o->output != NULL,
		.cgroups = o->output != NULL,
		.session = {
			.events = KTP_EV_DEFAULT,
			.subbuf_size = TOP_SUBBUF,
			.n_subbufs = o->buffer_size / TOP_SUBBUF,
			.cpus = o->cpus,
			.stop_with_owner = true,
		},
	};
}

static int run_top(struct top_opts *o, struct control_client *ctl)
{
	struct top_source_config sc = {
		.replay = o->replay, .interval_ns = o->interval_ns, .ctl = ctl,
		.own_tgid = getpid(), .rec = recorder_of(o),
	};
	struct top_screen_state st = { .view = TOP_VIEW_CPUS, .sort = o->sort };
	struct top_run run = { .o = o };
	struct error err = { 0 };
	int status = 1;

	if (o->filter)
		snprintf(st.filter, sizeof(st.filter), "%s", o->filter);
	/* The terminal first: no session is started for a view that cannot show. */
	if (!o->batch && !o->json && !(run.screen = top_screen_open(&st, &err))) {
		cmd_error("top", "%s", error_msg(&err));
		return 1;
	}
	run.src = top_source_open(&sc, &err);
	if (!run.src) {
		top_screen_close(run.screen);
		cmd_error("top", "%s", error_msg(&err));
		return 1;
	}
	if (run.screen)
		top_screen_draw(run.screen, NULL, top_source_name(run.src));
	status = loop(&run);
	top_screen_close(run.screen);
	/* As report: what was shown covers only what was readable. */
	if (top_source_problem(run.src)) {
		cmd_error("top", "%s: %s; the intervals end there", o->replay,
			  top_source_problem(run.src));
		status = 1;
	}
	if (top_source_stop(run.src, &err)) {
		cmd_error("top", "%s", error_msg(&err));
		status = 1;
	} else if (o->output) {
		fprintf(stderr, "wrote %s\n", o->output);
	}
	top_source_close(run.src);
	return status;
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o = {
		.interval_ns = 1000000000ull, .buffer_size = TOP_DEFAULT_BUFFER,
		.sort = TOP_SORT_RUNTIME,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	struct control_client *ctl = NULL;
	int ret, loaded = 0, status;

	ret = cmd_parse(&top_cmd, argc, argv, 0, take, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = check_opts(&o);
	if (ret)
		return ret;
	/* No SA_RESTART: a signal ends the wait for keys or the sleep at once. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!o.replay) {
		ctl = cmd_module_connect("top", o.load, &loaded);
		if (!ctl || cmd_module_check("top", ctl, 0)) {
			control_client_close(ctl);
			return 1;
		}
	}
	status = run_top(&o, ctl);
	control_client_close(ctl);
	if (loaded && syscall(SYS_delete_module, "ktprof", O_NONBLOCK))
		cmd_error("top", "cannot remove the module: %s", strerror(errno));
	return status;
}
