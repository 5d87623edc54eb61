/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where `ktprof top`'s intervals come from: a live session (the module, the
 * recorder's readers, each CPU's bytes handed to the model through a
 * queue, and the capture written too with -o), or a capture replayed
 * interval by interval. Either way one model and one pass: each interval
 * the model takes every event before the interval's end, closes what is
 * open there (model_cut()), and top-stats gives its figures.
 *
 * Live, an interval ends at the time T read just before the recorder
 * flushes the module's buffers and its readers drain them
 * (recorder_sync()): every record stamped before T is then in the queues,
 * and the merge may pass T's watermark on every CPU, idle ones included.
 */
#ifndef KTPROF_TOP_SOURCE_H
#define KTPROF_TOP_SOURCE_H

#include <stdint.h>

#include "record/recorder.h"
#include "top/top-stats.h"
#include "util/error.h"

struct top_source_config {
	const char *replay;		/* a capture to replay; NULL: live */
	uint64_t interval_ns;		/* replay: each interval's length */
	/* Live: the recorder's (its queues are the source's), an open
	 * control connection (the caller's), and this ktprof's pid. */
	struct recorder_config rec;
	struct control_client *ctl;
	uint32_t own_tgid;
};

struct top_source;

/* Live: the session started. NULL with the reason in @err. */
struct top_source *top_source_open(const struct top_source_config *cfg, struct error *err);

/*
 * The next interval, ended now (live) or @interval_ns after the last
 * (replay; the last one ends with the capture): 1 with *@iv (valid until
 * the next call), 0 when a replay has no more, or a negative error (@err
 * says what: a module gone, a reader failed, a damaged capture).
 */
int top_source_next(struct top_source *s, struct top_interval **iv, struct error *err);

/*
 * Live: stop the session, the capture (-o) written whole. 0 or a negative
 * error (@err). Replay: nothing.
 */
int top_source_stop(struct top_source *s, struct error *err);

/* Free it (a live session not stopped is aborted). */
void top_source_close(struct top_source *s);

/* "live: 4 CPUs, writing cap.ktp", "replay of cap.ktp": the view's header. */
const char *top_source_name(const struct top_source *s);

/* After a replay's end: why the capture's readable part ended early, or NULL. */
const char *top_source_problem(const struct top_source *s);

/* The session's CPUs. */
uint32_t top_source_nr_cpus(const struct top_source *s);

#endif
