// SPDX-License-Identifier: GPL-2.0
/*
 * The full-screen view of `ktprof top`, with ncurses. The screen keeps a
 * copy of the last interval it drew: a pause shows it while intervals go
 * by, a key redraws it in another view or order, and sorting the copy
 * leaves the caller's interval as top_stats gave it.
 *
 * Keys are read by poll() on standard input, then wgetch() without delay
 * until it has none: a signal (the command's SIGINT and SIGTERM, which it
 * installs without SA_RESTART) ends the poll at once, and ncurses's own
 * SIGWINCH handler turns a resize into KEY_RESIZE at the next wgetch().
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "top/top-screen.h"
#include "util/array.h"
#include "util/clock.h"
#include "util/units.h"

/* Past a lone Esc, how long ncurses waits for the rest of a key's sequence. */
#define ESC_DELAY_MS 50
#define CH_ESC 27

#define PROMPT "filter (pid, tgid or name; Enter, Esc): "

/* A key that changes nothing; the others are TOP_SCREEN_QUIT and _REDRAW. */
enum { NO_CHANGE = -1 };

struct top_screen {
	SCREEN *scr;
	struct top_screen_state st;
	int editing;			/* the filter prompt is open */
	/* The interval drawn last, with arrays of its own (@have: one was drawn). */
	struct top_interval last;
	int have;
	uint32_t cap_cpus, cap_threads, cap_irqs, cap_dsqs;
	int nomem;			/* the last copy failed: the one before is shown */
	char source[160];
};

/* --- Text helpers --- */

/* units_fmt_ns()'s three digits without its space: "12.3ms" fits a column of 6. */
static const char *fmt_ns(uint64_t ns, char *buf, size_t len)
{
	char *sp;

	units_fmt_ns(ns, buf, len);
	sp = strchr(buf, ' ');
	if (sp)
		memmove(sp, sp + 1, strlen(sp));
	return buf;
}

/* A latency figure, where 0 means none was seen: "-". */
static const char *fmt_lat(uint64_t ns, char *buf, size_t len)
{
	if (!ns) {
		snprintf(buf, len, "-");
		return buf;
	}
	return fmt_ns(ns, buf, len);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Seconds of @t since the session's start (never negative). */
static double rel_s(const struct top_interval *iv, uint64_t t)
{
	return t > iv->session_start ? (double)(t - iv->session_start) / 1e9 : 0.0;
}

/*
 * Decimals of seconds that show @iv's length to a tenth or better: 3 for
 * intervals of 10 ms or more, more for a scripted capture's microseconds.
 */
static int rel_decimals(const struct top_interval *iv)
{
	uint64_t len = iv->to - iv->from, unit = 10000000;	/* 10 ms: 3 decimals */
	int d = 3;

	while (len < unit && d < 9) {
		unit /= 10;
		d++;
	}
	return d;
}

/* Write @str at (@y, @x), cut at the right edge: ncurses would wrap it. */
static void put(int y, int x, const char *str)
{
	if (x < COLS && y < LINES)
		mvaddnstr(y, x, str, COLS - x);
}

/* A whole line in attribute @attr, blanks to the right edge. */
static void put_line(int y, attr_t attr, const char *str)
{
	attron(attr);
	mvhline(y, 0, ' ', COLS);
	put(y, 0, str);
	attroff(attr);
}

/* --- Columns: each view's table, narrowed to the terminal's width --- */

#define NR(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX_COLS 12
#define CELL 48

struct col {
	const char *name;
	int width;		/* a flex column's least */
	int drop;		/* 0: always shown; else the largest goes first when narrow */
	unsigned int left:1;	/* names: left-aligned */
	unsigned int flex:1;	/* takes the width the others leave */
	unsigned int bar:1;	/* a bar of the row's fraction, not text */
};

struct layout {
	const struct col *cols;
	int n;
	int w[MAX_COLS];	/* 0: not shown */
};

/* Drop columns, least wanted first, until the rest fit in @width; the flex one takes what is left. */
static void layout(struct layout *l, const struct col *cols, int n, int width)
{
	int i, total = -1, worst;

	l->cols = cols;
	l->n = n;
	for (i = 0; i < n; i++) {
		l->w[i] = cols[i].width;
		total += cols[i].width + 1;
	}
	while (total > width) {
		worst = -1;
		for (i = 0; i < n; i++)
			if (l->w[i] && cols[i].drop && (worst < 0 || cols[i].drop > cols[worst].drop))
				worst = i;
		if (worst < 0)
			break;		/* what must stay is cut at the edge */
		total -= l->w[worst] + 1;
		l->w[worst] = 0;
	}
	for (i = 0; i < n; i++)
		if (l->w[i] && cols[i].flex && total < width) {
			l->w[i] += width - total;
			break;
		}
}

/* "[|||||     ]" in @w columns: the share of @frac (0 to 1). */
static void put_bar(int y, int x, int w, double frac)
{
	char bar[256];
	int inner = w - 2, full, i;

	if (inner < 1 || w >= (int)sizeof(bar))
		return;
	full = (int)(frac * inner + 0.5);
	full = full < 0 ? 0 : full > inner ? inner : full;
	bar[0] = '[';
	for (i = 0; i < inner; i++)
		bar[i + 1] = i < full ? '|' : ' ';
	bar[w - 1] = ']';
	bar[w] = '\0';
	put(y, x, bar);
}

static void put_row(const struct layout *l, int y, char cells[][CELL], double frac)
{
	char buf[256];
	int i, x = 0;

	for (i = 0; i < l->n; i++) {
		if (!l->w[i])
			continue;
		if (l->cols[i].bar && frac >= 0) {
			put_bar(y, x, l->w[i], frac);
		} else {
			snprintf(buf, sizeof(buf), l->cols[i].left ? "%-*.*s" : "%*.*s",
				 l->w[i], l->w[i], cells[i]);
			put(y, x, buf);
		}
		x += l->w[i] + 1;
	}
}

/* The column names, in reverse video across the screen. */
static void put_head(const struct layout *l, int y)
{
	char cells[MAX_COLS][CELL];
	int i;

	for (i = 0; i < l->n; i++)
		snprintf(cells[i], CELL, "%s", l->cols[i].name);
	attron(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	put_row(l, y, cells, -1);
	attroff(A_REVERSE);
}

/* --- The views --- */

/* Where a view's rows go: from @y, @rows of them. */
struct body {
	int y, rows;
	char info[160];		/* what the view says of itself on the tab line */
};

static const struct col cpu_cols[] = {
	{ "CPU", 4, 0, 0, 0, 0 },
	{ "BUSY", 12, 9, 1, 1, 1 },
	{ "BUSY%", 6, 0, 0, 0, 0 },
	{ "HIRQ%", 6, 3, 0, 0, 0 },
	{ "SIRQ%", 6, 4, 0, 0, 0 },
	{ "SW/s", 8, 1, 0, 0, 0 },
	{ "MIGIN", 6, 5, 0, 0, 0 },
	{ "RQ", 3, 6, 0, 0, 0 },
	{ "LOST", 7, 2, 0, 0, 0 },
	{ "UNKNOWN", 8, 7, 0, 0, 0 },
};

/* One CPU's row (@name: "3", or "all" for the sums); the busy share of known time. */
static double cpu_cells(const struct top_cpu *c, const char *name, double secs,
			char cells[][CELL])
{
	uint64_t known = c->busy_ns + c->idle_ns;
	char t[32];

	snprintf(cells[0], CELL, "%s", name);
	cells[1][0] = '\0';
	snprintf(cells[2], CELL, "%5.1f", pct(c->busy_ns, known));
	snprintf(cells[3], CELL, "%5.1f", pct(c->hardirq_ns, known));
	snprintf(cells[4], CELL, "%5.1f", pct(c->softirq_ns, known));
	snprintf(cells[5], CELL, "%.0f", secs > 0 ? c->switches / secs : (double)c->switches);
	snprintf(cells[6], CELL, "%" PRIu32, c->migrations_in);
	if (c->depth < 0)
		snprintf(cells[7], CELL, "-");
	else
		snprintf(cells[7], CELL, "%d", c->depth);
	snprintf(cells[8], CELL, "%" PRIu64, c->lost);
	snprintf(cells[9], CELL, "%s", c->unknown_ns ? fmt_ns(c->unknown_ns, t, sizeof(t)) : "-");
	return known ? (double)c->busy_ns / (double)known : 0.0;
}

static void draw_cpus(const struct top_interval *iv, struct body *b)
{
	char cells[MAX_COLS][CELL], name[16];
	double secs = (double)(iv->to - iv->from) / 1e9, frac;
	struct top_cpu all = { .depth = 0 };
	struct layout l;
	uint32_t i;
	int row = 0;

	layout(&l, cpu_cols, NR(cpu_cols), COLS);
	put_head(&l, b->y);
	for (i = 0; i < iv->nr_cpus; i++) {
		const struct top_cpu *c = &iv->cpus[i];

		all.busy_ns += c->busy_ns;
		all.idle_ns += c->idle_ns;
		all.unknown_ns += c->unknown_ns;
		all.hardirq_ns += c->hardirq_ns;
		all.softirq_ns += c->softirq_ns;
		all.switches += c->switches;
		all.migrations_in += c->migrations_in;
		all.lost += c->lost;
		if (c->depth >= 0)
			all.depth += c->depth;
		if (row < b->rows - 1) {
			snprintf(name, sizeof(name), "%" PRIu32, c->cpu);
			frac = cpu_cells(c, name, secs, cells);
			if (c->lost)
				attron(A_BOLD);
			put_row(&l, b->y + 1 + row++, cells, frac);
			attroff(A_BOLD);
		}
	}
	/* The whole machine last, where the eye ends. */
	frac = cpu_cells(&all, "all", secs, cells);
	attron(A_BOLD);
	put_row(&l, b->y + 1 + row, cells, frac);
	attroff(A_BOLD);
	snprintf(b->info, sizeof(b->info), "%" PRIu32 " CPUs%s", iv->nr_cpus,
		 row < (int)iv->nr_cpus ? ", not all shown" : "");
}

static const struct col thread_cols[] = {
	{ "PID", 7, 0, 0, 0, 0 },
	{ "TGID", 7, 9, 0, 0, 0 },
	{ "COMM", 16, 0, 1, 0, 0 },
	{ "RUN%", 5, 0, 0, 0, 0 },
	{ "WAKE99", 6, 1, 0, 0, 0 },
	{ "WAKEMX", 6, 4, 0, 0, 0 },
	{ "RQ99", 6, 2, 0, 0, 0 },
	{ "RQMAX", 6, 5, 0, 0, 0 },
	{ "VOL", 5, 6, 0, 0, 0 },
	{ "INVOL", 5, 7, 0, 0, 0 },
	{ "MIG", 4, 8, 0, 0, 0 },
	{ "CPU", 3, 3, 0, 0, 0 },
};

static void thread_cells(const struct top_thread *th, uint64_t len, char cells[][CELL])
{
	char t[32];

	snprintf(cells[0], CELL, "%" PRIu32, th->pid);
	snprintf(cells[1], CELL, "%" PRIu32, th->tgid);
	/* As --batch shows them: the recorder's threads are ktprof's, whatever their names. */
	snprintf(cells[2], CELL, "%.*s", KTP_COMM_LEN, th->own ? "[ktprof]" : th->comm);
	snprintf(cells[3], CELL, "%.1f", pct(th->runtime_ns, len));
	snprintf(cells[4], CELL, "%s", fmt_lat(th->wakeup_p99_ns, t, sizeof(t)));
	snprintf(cells[5], CELL, "%s", fmt_lat(th->wakeup_max_ns, t, sizeof(t)));
	snprintf(cells[6], CELL, "%s", fmt_lat(th->runqueue_p99_ns, t, sizeof(t)));
	snprintf(cells[7], CELL, "%s", fmt_lat(th->runqueue_max_ns, t, sizeof(t)));
	snprintf(cells[8], CELL, "%" PRIu32, th->voluntary);
	snprintf(cells[9], CELL, "%" PRIu32, th->involuntary);
	snprintf(cells[10], CELL, "%" PRIu32, th->migrations);
	if (th->cpu < 0)
		snprintf(cells[11], CELL, "-");
	else
		snprintf(cells[11], CELL, "%" PRId32, th->cpu);
}

/* The threads, sorted and filtered as the keys say (the copy is sorted, not the caller's). */
static void draw_threads(struct top_screen *s, struct body *b)
{
	struct top_interval *iv = &s->last;
	char cells[MAX_COLS][CELL];
	struct layout l;
	uint32_t i, matched = 0;
	int row = 0;

	top_interval_sort(iv, s->st.sort);
	layout(&l, thread_cols, NR(thread_cols), COLS);
	put_head(&l, b->y);
	for (i = 0; i < iv->nr_threads; i++) {
		const struct top_thread *th = &iv->threads[i];

		if (!top_thread_matches(th, s->st.filter))
			continue;
		matched++;
		if (row >= b->rows)
			continue;
		thread_cells(th, iv->to - iv->from, cells);
		put_row(&l, b->y + 1 + row++, cells, -1);
	}
	snprintf(b->info, sizeof(b->info), "sort %s%s%s%s  %d of %" PRIu32 " threads",
		 top_sort_name(s->st.sort), s->st.filter[0] ? "  filter \"" : "", s->st.filter,
		 s->st.filter[0] ? "\"" : "", row, matched);
}

static const struct col wait_cols[] = {
	{ "PID", 7, 0, 0, 0, 0 },
	{ "COMM", 16, 0, 1, 0, 0 },
	{ "KIND", 8, 1, 1, 0, 0 },
	{ "CPU", 3, 3, 0, 0, 0 },
	{ "LATENCY", 7, 0, 0, 0, 0 },
	{ "START s", 10, 4, 0, 0, 0 },
	{ "RAN INSTEAD", 12, 2, 1, 1, 0 },
};

/* A wait matches the filter as its thread would. */
static int wait_matches(const struct top_wait *w, const char *filter)
{
	struct top_thread th = { .pid = w->pid, .tgid = w->tgid };

	memcpy(th.comm, w->comm, sizeof(th.comm));
	return top_thread_matches(&th, filter);
}

static void wait_cells(const struct top_interval *iv, const struct top_wait *w,
		       char cells[][CELL])
{
	char t[32];

	snprintf(cells[0], CELL, "%" PRIu32, w->pid);
	snprintf(cells[1], CELL, "%.*s", KTP_COMM_LEN, w->comm);
	snprintf(cells[2], CELL, "%s", w->kind == SCHED_WAKEUP ? "wakeup" : "runqueue");
	snprintf(cells[3], CELL, "%" PRIu32, w->cpu);
	snprintf(cells[4], CELL, "%s", fmt_ns(w->latency_ns, t, sizeof(t)));
	snprintf(cells[5], CELL, "%.*f", rel_decimals(iv), rel_s(iv, w->start));
	if (w->ran_pid == 0)
		snprintf(cells[6], CELL, "idle");
	else if (w->ran_pid == UINT32_MAX)
		snprintf(cells[6], CELL, "?");
	else
		snprintf(cells[6], CELL, "%" PRIu32 " %.*s", w->ran_pid, KTP_COMM_LEN, w->ran_comm);
}

static void draw_waits(struct top_screen *s, struct body *b)
{
	const struct top_interval *iv = &s->last;
	char cells[MAX_COLS][CELL];
	struct layout l;
	uint32_t i;
	int row = 0;

	layout(&l, wait_cols, NR(wait_cols), COLS);
	put_head(&l, b->y);
	for (i = 0; i < iv->nr_waits && row < b->rows; i++) {
		if (!wait_matches(&iv->waits[i], s->st.filter))
			continue;
		wait_cells(iv, &iv->waits[i], cells);
		put_row(&l, b->y + 1 + row++, cells, -1);
	}
	snprintf(b->info, sizeof(b->info), "the longest waits that ended%s%s%s",
		 s->st.filter[0] ? "  filter \"" : "", s->st.filter, s->st.filter[0] ? "\"" : "");
}

static const struct col irq_cols[] = {
	{ "NAME", 20, 0, 1, 1, 0 },
	{ "COUNT", 8, 0, 0, 0, 0 },
	{ "COUNT/s", 9, 1, 0, 0, 0 },
	{ "TIME", 7, 0, 0, 0, 0 },
	{ "%CPU", 6, 0, 0, 0, 0 },
};

static void draw_irqs(const struct top_interval *iv, struct body *b)
{
	uint64_t len = iv->to - iv->from;
	char cells[MAX_COLS][CELL], t[32];
	struct layout l;
	uint32_t i;
	int row = 0;

	layout(&l, irq_cols, NR(irq_cols), COLS);
	put_head(&l, b->y);
	for (i = 0; i < iv->nr_irqs && row < b->rows; i++) {
		const struct top_irq *q = &iv->irqs[i];

		snprintf(cells[0], CELL, "%s", q->name);
		snprintf(cells[1], CELL, "%" PRIu32, q->count);
		snprintf(cells[2], CELL, "%.0f", len ? q->count * 1e9 / (double)len : 0.0);
		snprintf(cells[3], CELL, "%s", fmt_ns(q->time_ns, t, sizeof(t)));
		snprintf(cells[4], CELL, "%.1f", pct(q->time_ns, len));
		put_row(&l, b->y + 1 + row++, cells, -1);
	}
	snprintf(b->info, sizeof(b->info), "%" PRIu32 " irqs, softirqs, works; %%CPU of one",
		 iv->nr_irqs);
}

static const struct col dsq_cols[] = {
	{ "DSQ", 18, 0, 1, 1, 0 },
	{ "UID", 10, 4, 0, 0, 0 },
	{ "CPU", 4, 2, 0, 0, 0 },
	{ "DEPTH", 6, 0, 0, 0, 0 },
	{ "MAX", 6, 0, 0, 0, 0 },
	{ "INS/s", 9, 1, 0, 0, 0 },
	{ "REM/s", 9, 3, 0, 0, 0 },
};

static const struct col event_cols[] = {
	{ "EVENT", 40, 0, 1, 1, 0 },
	{ "GREW", 12, 0, 0, 0, 0 },
};

/* The kernel's builtin DSQ ids (SCX_DSQ_FLAG_BUILTIN, _LOCAL_ON) by name, the others in hex. */
#define DSQ_BUILTIN ((uint64_t)1 << 63)
#define DSQ_LOCAL_ON ((uint64_t)1 << 62)

static void dsq_name(uint64_t id, char *buf, size_t len)
{
	if (id == (DSQ_BUILTIN | 1))
		snprintf(buf, len, "GLOBAL");
	else if (id == (DSQ_BUILTIN | 2))
		snprintf(buf, len, "LOCAL");
	else if ((id & (DSQ_BUILTIN | DSQ_LOCAL_ON)) == (DSQ_BUILTIN | DSQ_LOCAL_ON))
		snprintf(buf, len, "LOCAL_ON|%" PRIu64, id & ~(DSQ_BUILTIN | DSQ_LOCAL_ON));
	else
		snprintf(buf, len, "%#" PRIx64, id);
}

/* enum scx_exit_kind by name, else its number. */
static const char *exit_kind_name(int64_t kind, char *buf, size_t len)
{
	static const struct {
		int64_t kind;
		const char *name;
	} kinds[] = {
		{ 0, "NONE" }, { 1, "DONE" }, { 64, "UNREG" }, { 65, "UNREG_BPF" },
		{ 66, "UNREG_KERN" }, { 67, "SYSRQ" }, { 1024, "ERROR" }, { 1025, "ERROR_BPF" },
		{ 1026, "ERROR_STALL" },
	};
	int i;

	for (i = 0; i < NR(kinds); i++)
		if (kinds[i].kind == kind)
			return kinds[i].name;
	snprintf(buf, len, "%" PRId64, kind);
	return buf;
}

/* @n per second of an interval @len ns long: a decimal when small, for 1 in 2 s is not 0. */
static void fmt_rate(uint64_t n, uint64_t len, char *buf, size_t size)
{
	double r = len ? (double)n * 1e9 / (double)len : (double)n;

	snprintf(buf, size, n && r < 10 ? "%.1f" : "%.0f", r);
}

/* The scheduler's line: which, in what state, or why there is none. */
static void scx_line(const struct top_interval *iv, char *line, size_t len)
{
	const struct top_scx *x = &iv->scx;
	const char *state = x->state[0] ? x->state : "?";

	if (x->ops[0])
		snprintf(line, len, "scheduler %s (%s, enable_seq %" PRIu64 ")", x->ops, state,
			 x->enable_seq);
	else if (x->present)
		snprintf(line, len, "no BPF scheduler (sched_ext %s, enable_seq %" PRIu64 ")", state,
			 x->enable_seq);
	else if (iv->nr_dsqs || x->enables || x->exits || x->nr_events)
		snprintf(line, len, "scheduler unknown: the source has no sched_ext state");
	else
		snprintf(line, len, "this kernel has no sched_ext");
}

/*
 * sched_ext: the scheduler, its transitions in the interval, the DSQs that
 * changed (by largest depth, as top_stats gives them), then the event
 * counters that grew, when there is room.
 */
static void draw_scx(const struct top_interval *iv, struct body *b)
{
	const struct top_scx *x = &iv->scx;
	uint64_t len = iv->to - iv->from;
	char cells[MAX_COLS][CELL], line[256], k[32];
	int y = b->y, last = b->y + b->rows, shown = 0, n;
	struct layout l;
	uint32_t i;

	scx_line(iv, line, sizeof(line));
	put_line(y++, A_BOLD, line);
	if (x->enables || x->exits || x->bypass >= 0) {
		n = snprintf(line, sizeof(line), "in the interval:");
		if (x->enables)
			n += snprintf(line + n, sizeof(line) - n, " enabled %" PRIu32 "x", x->enables);
		if (x->exits)
			n += snprintf(line + n, sizeof(line) - n, "%s exited %" PRIu32 "x (%s)",
				      x->enables ? "," : "", x->exits,
				      exit_kind_name(x->exit_kind, k, sizeof(k)));
		if (x->bypass >= 0)
			snprintf(line + n, sizeof(line) - n, "%s bypass %s",
				 x->enables || x->exits ? "," : "", x->bypass ? "on" : "off");
		put_line(y++, x->exits ? A_BOLD : A_NORMAL, line);
	}
	layout(&l, dsq_cols, NR(dsq_cols), COLS);
	put_head(&l, y++);
	for (i = 0; i < iv->nr_dsqs && y <= last; i++, shown++) {
		const struct top_dsq *d = &iv->dsqs[i];

		dsq_name(d->id, cells[0], CELL);
		snprintf(cells[1], CELL, "%" PRIu32, d->uid);
		snprintf(cells[2], CELL, "%" PRIu32, d->cpu);
		snprintf(cells[3], CELL, "%" PRIu32, d->depth);
		snprintf(cells[4], CELL, "%" PRIu32, d->max_depth);
		fmt_rate(d->inserts, len, cells[5], CELL);
		fmt_rate(d->removes, len, cells[6], CELL);
		put_row(&l, y++, cells, -1);
	}
	/* The counters under a blank line, when at least one fits. */
	if (x->nr_events && y + 2 <= last) {
		layout(&l, event_cols, NR(event_cols), COLS);
		put_head(&l, ++y);
		y++;
		for (i = 0; i < x->nr_events && y <= last; i++) {
			snprintf(cells[0], CELL, "%s", x->events[i].name);
			snprintf(cells[1], CELL, "%+" PRId64, x->events[i].grew);
			put_row(&l, y++, cells, -1);
		}
	}
	snprintf(b->info, sizeof(b->info), "%" PRIu32 " DSQs changed%s", iv->nr_dsqs,
		 shown < (int)iv->nr_dsqs ? ", not all shown" : "");
}

/* --- The frame: header, tabs, loss, footer, help --- */

static const char *const view_names[TOP_NR_VIEWS] = {
	[TOP_VIEW_CPUS] = "CPUs", [TOP_VIEW_THREADS] = "threads",
	[TOP_VIEW_LATENCY] = "latency", [TOP_VIEW_IRQS] = "irqs", [TOP_VIEW_SCX] = "scx",
};

static void draw_header(struct top_screen *s)
{
	const struct top_interval *iv = &s->last;
	char line[256];

	snprintf(line, sizeof(line), "ktprof top  %s", s->source);
	put_line(0, A_BOLD, line);
	if (s->st.paused) {
		attron(A_REVERSE | A_BOLD);
		put(0, COLS - 8, " PAUSED ");
		attroff(A_REVERSE | A_BOLD);
	}
	if (!s->have) {
		put_line(1, A_NORMAL, "waiting for the first interval...");
		return;
	}
	snprintf(line, sizeof(line), "interval %" PRIu64 " [%.*f, %.*f) s  events %" PRIu64 "%s",
		 iv->index, rel_decimals(iv), rel_s(iv, iv->from), rel_decimals(iv),
		 rel_s(iv, iv->to), iv->events,
		 s->nomem ? "  OUT OF MEMORY: an older interval" : "");
	put_line(1, A_NORMAL, line);
}

/* The views' names, the current one in reverse; then what the view says of itself. */
static void draw_tabs(struct top_screen *s, int y, const char *info)
{
	int v, x = 0;

	move(y, 0);
	clrtoeol();
	for (v = 0; v < TOP_NR_VIEWS; v++) {
		if (v == (int)s->st.view)
			attron(A_REVERSE);
		put(y, x, view_names[v]);
		attroff(A_REVERSE);
		x += strlen(view_names[v]) + 1;
	}
	put(y, x + 1, info);
}

/*
 * Records lost: in the interval CPU by CPU, in reverse video, for loss must
 * not go unseen ("LOST cpu1: 2813  (2813 in the interval, 5626 in all)");
 * else the session's, in bold when there were any.
 */
static void draw_loss(const struct top_interval *iv, int y)
{
	char line[512];
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < iv->nr_cpus && n < sizeof(line) - 80; i++)
		if (iv->cpus[i].lost)
			n += snprintf(line + n, sizeof(line) - n, "%scpu%" PRIu32 ": %" PRIu64,
				      n ? "  " : "LOST ", iv->cpus[i].cpu, iv->cpus[i].lost);
	if (n || iv->lost) {
		snprintf(line + n, sizeof(line) - n, "%s(%" PRIu64 " in the interval, %" PRIu64 " in all)",
			 n ? "  " : "LOST ", iv->lost, iv->lost_total);
		put_line(y, A_REVERSE | A_BOLD, line);
		return;
	}
	snprintf(line, sizeof(line), "lost 0 (%" PRIu64 " in all)", iv->lost_total);
	put_line(y, iv->lost_total ? A_BOLD : A_NORMAL, line);
}

static void draw_footer(struct top_screen *s)
{
	char line[160];

	if (s->editing) {
		snprintf(line, sizeof(line), PROMPT "%s", s->st.filter);
		put_line(LINES - 1, A_NORMAL, line);
		return;
	}
	put_line(LINES - 1, A_REVERSE,
		 s->st.paused ? "paused: space resumes  q quit  h help" :
		 "q quit  ctlix views  s sort  f filter  space pause  h help");
}

static const char *const help_lines[] = {
	"q          quit",
	"c t l i x  CPUs, threads, latency, irqs, sched_ext",
	"Tab        the next view",
	"s          the next thread sort",
	"R W Q      sort by runtime, wakeup p99, runqueue p99",
	"X M N      sort by switches, migrations, pid",
	"f /        filter: pid, tgid or name (Esc clears)",
	"space      pause: the figures stay",
	"h ?        this help; any key closes it",
	"[ktprof]   a thread of this ktprof (the recorder)",
};

/* The keys in a box over the view (cut to the terminal when it is small). */
static void draw_help(void)
{
	int h = NR(help_lines) + 2, w = 56, i;
	WINDOW *win;

	h = h > LINES ? LINES : h;
	w = w > COLS ? COLS : w;
	win = derwin(stdscr, h, w, (LINES - h) / 2, (COLS - w) / 2);
	if (!win)
		return;
	werase(win);
	box(win, 0, 0);
	mvwaddstr(win, 0, 2, " keys ");
	for (i = 0; i < NR(help_lines) && i + 1 < h - 1; i++)
		mvwaddnstr(win, i + 1, 2, help_lines[i], w - 4);
	delwin(win);
}

static void paint(struct top_screen *s)
{
	struct body b = { .y = 4, .rows = LINES - 6 };

	erase();
	if (COLS < TOP_SCREEN_MIN_COLS || LINES < TOP_SCREEN_MIN_ROWS) {
		char msg[96];

		snprintf(msg, sizeof(msg), "terminal too small: %dx%d, ktprof top needs %dx%d",
			 COLS, LINES, TOP_SCREEN_MIN_COLS, TOP_SCREEN_MIN_ROWS);
		put(0, 0, msg);
		refresh();
		return;
	}
	draw_header(s);
	if (s->have) {
		draw_loss(&s->last, 2);
		switch (s->st.view) {
		case TOP_VIEW_THREADS:
			draw_threads(s, &b);
			break;
		case TOP_VIEW_LATENCY:
			draw_waits(s, &b);
			break;
		case TOP_VIEW_IRQS:
			draw_irqs(&s->last, &b);
			break;
		case TOP_VIEW_SCX:
			draw_scx(&s->last, &b);
			break;
		default:
			draw_cpus(&s->last, &b);
			break;
		}
	}
	draw_tabs(s, 3, b.info);
	draw_footer(s);
	if (s->st.help)
		draw_help();
	/* The cursor shows only where the filter is typed. */
	if (s->editing)
		move(LINES - 1, (int)(strlen(PROMPT) + strlen(s->st.filter)));
	curs_set(s->editing ? 1 : 0);
	refresh();
}

/* --- Keeping the interval drawn --- */

static int reserve(void **v, uint32_t *cap, uint32_t n, size_t size)
{
	return n ? array_reserve(v, cap, n - 1, size, 16) : 0;
}

/* Copy @iv into the screen's own interval; -ENOMEM leaves the one before. */
static int keep(struct top_screen *s, const struct top_interval *iv)
{
	struct top_interval *k = &s->last;
	struct top_cpu *cpus;
	struct top_thread *threads;
	struct top_irq *irqs;
	struct top_dsq *dsqs;

	if (reserve((void **)&k->cpus, &s->cap_cpus, iv->nr_cpus, sizeof(*k->cpus)) ||
	    reserve((void **)&k->threads, &s->cap_threads, iv->nr_threads, sizeof(*k->threads)) ||
	    reserve((void **)&k->irqs, &s->cap_irqs, iv->nr_irqs, sizeof(*k->irqs)) ||
	    reserve((void **)&k->dsqs, &s->cap_dsqs, iv->nr_dsqs, sizeof(*k->dsqs)))
		return -ENOMEM;
	cpus = k->cpus;
	threads = k->threads;
	irqs = k->irqs;
	dsqs = k->dsqs;
	*k = *iv;
	k->cpus = cpus;
	k->threads = threads;
	k->irqs = irqs;
	k->dsqs = dsqs;
	if (iv->nr_cpus)
		memcpy(cpus, iv->cpus, iv->nr_cpus * sizeof(*cpus));
	if (iv->nr_threads)
		memcpy(threads, iv->threads, iv->nr_threads * sizeof(*threads));
	if (iv->nr_irqs)
		memcpy(irqs, iv->irqs, iv->nr_irqs * sizeof(*irqs));
	if (iv->nr_dsqs)
		memcpy(dsqs, iv->dsqs, iv->nr_dsqs * sizeof(*dsqs));
	return 0;
}

void top_screen_draw(struct top_screen *s, const struct top_interval *iv, const char *source)
{
	if (!s)
		return;
	if (source)
		snprintf(s->source, sizeof(s->source), "%s", source);
	if (iv && !s->st.paused) {
		s->nomem = keep(s, iv) < 0;
		s->have |= !s->nomem;
	}
	paint(s);
}

/* --- Keys --- */

static int set_view(struct top_screen *s, enum top_view v)
{
	s->st.view = v;
	return TOP_SCREEN_REDRAW;
}

/* A sort shows in the thread view: picking one goes there. */
static int set_sort(struct top_screen *s, enum top_sort sort)
{
	s->st.sort = sort;
	return set_view(s, TOP_VIEW_THREADS);
}

/* A key typed at the filter prompt: the filter changes as it is typed. */
static int obey_prompt(struct top_screen *s, int ch)
{
	size_t n = strlen(s->st.filter);

	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		s->editing = 0;
		break;
	case CH_ESC:
		s->editing = 0;
		s->st.filter[0] = '\0';
		break;
	case KEY_BACKSPACE:
	case 127:
	case '\b':
		if (n)
			s->st.filter[n - 1] = '\0';
		break;
	default:
		if (ch < ' ' || ch > '~' || n + 1 >= sizeof(s->st.filter))
			return NO_CHANGE;
		s->st.filter[n] = (char)ch;
		s->st.filter[n + 1] = '\0';
		break;
	}
	return TOP_SCREEN_REDRAW;
}

/* The filter applies to threads and waits: from another view it goes to the threads. */
static int start_prompt(struct top_screen *s)
{
	s->editing = 1;
	s->st.filter[0] = '\0';
	if (s->st.view != TOP_VIEW_THREADS && s->st.view != TOP_VIEW_LATENCY)
		s->st.view = TOP_VIEW_THREADS;
	return TOP_SCREEN_REDRAW;
}

static int obey(struct top_screen *s, int ch)
{
	int had_help = s->st.help;

	if (ch == KEY_RESIZE)
		return TOP_SCREEN_REDRAW;
	if (s->editing)
		return obey_prompt(s, ch);
	/* Any key closes the help; its own keys only close it. */
	if (had_help) {
		s->st.help = 0;
		if (ch == 'h' || ch == '?' || ch == CH_ESC)
			return TOP_SCREEN_REDRAW;
	}
	switch (ch) {
	case 'q':
		return TOP_SCREEN_QUIT;
	case 'c':
		return set_view(s, TOP_VIEW_CPUS);
	case 't':
		return set_view(s, TOP_VIEW_THREADS);
	case 'l':
		return set_view(s, TOP_VIEW_LATENCY);
	case 'i':
		return set_view(s, TOP_VIEW_IRQS);
	case 'x':
		return set_view(s, TOP_VIEW_SCX);
	case '\t':
		return set_view(s, (s->st.view + 1) % TOP_NR_VIEWS);
	case 's':
		return set_sort(s, (s->st.sort + 1) % TOP_NR_SORTS);
	case 'R':
		return set_sort(s, TOP_SORT_RUNTIME);
	case 'W':
		return set_sort(s, TOP_SORT_WAKEUP);
	case 'Q':
		return set_sort(s, TOP_SORT_RUNQUEUE);
	case 'X':
		return set_sort(s, TOP_SORT_SWITCHES);
	case 'M':
		return set_sort(s, TOP_SORT_MIGRATIONS);
	case 'N':
		return set_sort(s, TOP_SORT_PID);
	case 'f':
	case '/':
		return start_prompt(s);
	case ' ':
		s->st.paused = !s->st.paused;
		return TOP_SCREEN_REDRAW;
	case 'h':
	case '?':
		s->st.help = 1;
		return TOP_SCREEN_REDRAW;
	}
	/* An unknown key does nothing, but close the help. */
	return had_help ? TOP_SCREEN_REDRAW : NO_CHANGE;
}

/* Obey every key already typed: TOP_SCREEN_QUIT, TOP_SCREEN_REDRAW, or NO_CHANGE. */
static int take_keys(struct top_screen *s)
{
	int ch, r, ret = NO_CHANGE;

	while ((ch = wgetch(stdscr)) != ERR) {
		r = obey(s, ch);
		if (r == TOP_SCREEN_QUIT)
			return r;
		if (r == TOP_SCREEN_REDRAW)
			ret = r;
	}
	return ret;
}

int top_screen_wait(struct top_screen *s, int ms)
{
	uint64_t end = clock_ns(CLOCK_MONOTONIC) + (ms > 0 ? ms : 0) * 1000000ull, now;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	int r;

	for (;;) {
		r = take_keys(s);
		if (r != NO_CHANGE)
			return r;
		now = clock_ns(CLOCK_MONOTONIC);
		if (now >= end)
			return TOP_SCREEN_TIMEOUT;
		r = poll(&pfd, 1, (int)((end - now + 999999) / 1000000));
		if (r < 0) {
			/* A signal: the caller looks why; a resize is a key to take. */
			r = take_keys(s);
			return r != NO_CHANGE ? r : TOP_SCREEN_TIMEOUT;
		}
		/* The terminal is gone: nobody is left to press q. */
		if (r > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) &&
		    !(pfd.revents & POLLIN))
			return TOP_SCREEN_QUIT;
	}
}

const struct top_screen_state *top_screen_state(const struct top_screen *s)
{
	return &s->st;
}

/* --- Taking and giving back the terminal --- */

/* The size of the terminal on @fd before ncurses takes it; 0 when it does not say. */
static int term_size(int fd, int *cols, int *rows)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) || !ws.ws_col || !ws.ws_row)
		return -1;
	*cols = ws.ws_col;
	*rows = ws.ws_row;
	return 0;
}

static int too_small(int cols, int rows, struct error *err)
{
	if (cols >= TOP_SCREEN_MIN_COLS && rows >= TOP_SCREEN_MIN_ROWS)
		return 0;
	return error_set(err, -ERANGE, "the terminal is %dx%d: ktprof top needs %dx%d at least (or use --batch)",
			 cols, rows, TOP_SCREEN_MIN_COLS, TOP_SCREEN_MIN_ROWS);
}

/* Whether the view can be shown here, before anything is written to the terminal. */
static int check_terminal(struct error *err)
{
	const char *term = getenv("TERM");
	int cols, rows;

	if (!isatty(STDIN_FILENO))
		return error_set(err, -ENOTTY, "standard input is not a terminal: use --batch");
	if (!isatty(STDOUT_FILENO))
		return error_set(err, -ENOTTY, "standard output is not a terminal: use --batch");
	if (!term || !*term)
		return error_set(err, -EINVAL, "TERM is not set: the terminal's type is unknown (or use --batch)");
	if (!term_size(STDOUT_FILENO, &cols, &rows))
		return too_small(cols, rows, err);
	return 0;
}

/* The modes of the view: keys one at a time, unechoed, without waiting, no cursor. */
static void set_modes(void)
{
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(ESC_DELAY_MS);
	curs_set(0);
}

struct top_screen *top_screen_open(const struct top_screen_state *initial, struct error *err)
{
	const char *term = getenv("TERM");
	struct top_screen *s;
	char *cup;

	if (check_terminal(err))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	if (initial)
		s->st = *initial;
	s->st.view %= TOP_NR_VIEWS;
	s->st.sort %= TOP_NR_SORTS;
	s->st.filter[sizeof(s->st.filter) - 1] = '\0';
	fflush(stdout);
	/* newterm(), not initscr(): an unknown TERM is NULL here, not an exit. */
	s->scr = newterm(NULL, stdout, stdin);
	if (!s->scr) {
		error_set(err, -EINVAL, "the terminal type TERM=%s is unknown to terminfo (or use --batch)",
			  term);
		free(s);
		return NULL;
	}
	/* A terminal that cannot place its cursor ("dumb") cannot hold a view. */
	cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		error_set(err, -EINVAL, "the terminal TERM=%s cannot move its cursor (or use --batch)", term);
		goto fail;
	}
	/* LINES and COLUMNS in the environment override the terminal's own size. */
	if (too_small(COLS, LINES, err))
		goto fail;
	set_modes();
	return s;
fail:
	endwin();
	delscreen(s->scr);
	free(s);
	return NULL;
}

void top_screen_close(struct top_screen *s)
{
	if (!s)
		return;
	/* endwin() shows the cursor again and leaves the alternate screen. */
	curs_set(1);
	endwin();
	delscreen(s->scr);
	fflush(stdout);
	free(s->last.cpus);
	free(s->last.threads);
	free(s->last.irqs);
	free(s->last.dsqs);
	free(s);
}
