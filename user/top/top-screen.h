/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `ktprof top`'s full-screen terminal view (ncurses): a header (the
 * source, the interval, events, loss per CPU at once), then one of the
 * views, switched by keys: CPUs, threads, latency (the worst waits of the
 * interval, with who ran instead), interrupts, sched_ext (the BPF
 * scheduler, its DSQs, its event counters). Keys as top(1)'s: the
 * command's loop waits in top_screen_wait(), which reads and obeys them.
 * The terminal is restored by top_screen_close(), which the command calls
 * on every way out (quit, SIGINT, SIGTERM, an error). The command catches
 * SIGINT and SIGTERM before top_screen_open(), without SA_RESTART (ncurses
 * would otherwise install handlers of its own that exit), and leaves
 * SIGWINCH to ncurses: a resize comes as a key.
 */
#ifndef KTPROF_TOP_SCREEN_H
#define KTPROF_TOP_SCREEN_H

#include "top/top-stats.h"
#include "util/error.h"

enum top_view { TOP_VIEW_CPUS, TOP_VIEW_THREADS, TOP_VIEW_LATENCY, TOP_VIEW_IRQS,
		TOP_VIEW_SCX, TOP_NR_VIEWS };

/* The smallest terminal the view is drawn in. */
#define TOP_SCREEN_MIN_COLS 60
#define TOP_SCREEN_MIN_ROWS 12

struct top_screen;

/* What the view shows and how, as the keys left it. */
struct top_screen_state {
	enum top_view view;
	enum top_sort sort;
	char filter[64];	/* threads: "" all, a pid or tgid, or part of a name */
	int paused;		/* the figures stay; intervals still go by */
	int help;		/* the keys' help is shown */
};

/*
 * Take the terminal (stdin and stdout must be one; TERM known): NULL with
 * the reason in @err ("standard output is not a terminal: use --batch",
 * "the terminal is 20x10: ktprof top needs 60x12 at least (or --batch)").
 */
struct top_screen *top_screen_open(const struct top_screen_state *initial, struct error *err);

/* Give the terminal back as it was. NULL: nothing. */
void top_screen_close(struct top_screen *s);

/*
 * Draw @iv (NULL: none yet) under the header line @source ("live: 2 CPUs,
 * writing cap.ktp", "replay of cap.ktp"). Not while paused: the last one
 * drawn stays, with "paused".
 */
void top_screen_draw(struct top_screen *s, const struct top_interval *iv, const char *source);

enum { TOP_SCREEN_TIMEOUT, TOP_SCREEN_QUIT, TOP_SCREEN_REDRAW };

/*
 * Wait up to @ms milliseconds for keys and obey them: q quits; c, t, l, i,
 * x (and Tab) switch views; s cycles the thread sort, or R, W, Q, X, M, N
 * pick runtime, wakeup p99, runqueue p99, switches, migrations, pid; f or
 * / reads a filter (Enter ends it, Esc drops it); space pauses; h or ?
 * shows the keys; a resize redraws. Returns at the timeout, on a key that changes the view
 * (TOP_SCREEN_REDRAW: draw again now), on q (TOP_SCREEN_QUIT), or early
 * when a signal interrupts the wait (TOP_SCREEN_TIMEOUT).
 */
int top_screen_wait(struct top_screen *s, int ms);

/* The view's state now. */
const struct top_screen_state *top_screen_state(const struct top_screen *s);

#endif
