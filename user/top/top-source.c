// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/input.h"
#include "capture/sched-ext.h"
#include "decode/meta.h"
#include "top/top-source.h"
#include "util/byte-queue.h"

struct top_source {
	struct top_source_config cfg;
	struct model *m;
	struct top_stats stats;
	int stats_ready;
	struct recorder *rec;
	struct byte_queue *queues;	/* live: one a CPU */
	struct byte_queue **qptr;
	uint32_t nr_queues;
	uint64_t last;			/* the end of the last interval */
	int ended;			/* replay: the capture's end was reached */
	int stopped;
	char name[600];
};

static const struct model_config top_model = {
	.sched = 1,
	.symbols = MODEL_SYMBOLS_KERNEL,
	.tolerant = 1,
	.session_cpus = 1,
};

static int open_replay(struct top_source *s, struct error *err)
{
	struct model_config c = top_model;

	s->m = model_open(s->cfg.replay, &c, err);
	if (!s->m)
		return err->code;
	if (!s->m->have_meta || !s->m->meta.have_session)
		return error_set(err, -ERROR_NO_META,
				 "%s: replaying needs the session's start time, and it has no session metadata",
				 s->cfg.replay);
	snprintf(s->name, sizeof(s->name), "replay of %s", s->cfg.replay);
	return 0;
}

static int make_queues(struct top_source *s, uint32_t n)
{
	uint32_t i;

	s->queues = calloc(n, sizeof(*s->queues));
	s->qptr = calloc(n, sizeof(*s->qptr));
	if (!s->queues || !s->qptr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		byte_queue_init(&s->queues[i]);
		s->qptr[i] = &s->queues[i];
	}
	s->nr_queues = n;
	return 0;
}

static int open_live(struct top_source *s, struct error *err)
{
	struct model_config c = top_model;
	struct meta before;
	struct input *in;
	int ret;

	/* The CPUs the module may trace (possible ones), known before the start. */
	ret = control_client_get_meta(s->cfg.ctl, &before);
	if (ret)
		return error_set(err, ret, "module metadata: %s", error_str(ret));
	if (make_queues(s, before.nr_cpus ? before.nr_cpus : 1))
		return error_set(err, -ENOMEM, NULL);
	s->cfg.rec.queues = s->qptr;
	s->cfg.rec.nr_queues = s->nr_queues;
	s->rec = recorder_new(&s->cfg.rec, s->cfg.ctl);
	if (!s->rec)
		return error_set(err, -ENOMEM, NULL);
	if ((ret = recorder_prepare(s->rec)) || (ret = recorder_start(s->rec)))
		return error_set(err, ret, "%s", recorder_strerror(s->rec));
	in = input_live_new(recorder_meta(s->rec), s->qptr, s->nr_queues, err);
	if (!in)
		return err->code;
	c.symbols = MODEL_SYMBOLS_NONE;	/* no kallsyms snapshot to read */
	s->m = model_open_input(in, "the live session", &c, err);
	if (!s->m)
		return err->code;
	snprintf(s->name, sizeof(s->name), "live: %u CPUs%s%s", s->m->nr_cpus,
		 s->cfg.rec.output ? ", writing " : "",
		 s->cfg.rec.output ? s->cfg.rec.output : "");
	return 0;
}

struct top_source *top_source_open(const struct top_source_config *cfg, struct error *err)
{
	struct top_source *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	s->cfg = *cfg;
	ret = cfg->replay ? open_replay(s, err) : open_live(s, err);
	if (!ret && (ret = top_stats_init(&s->stats, s->m, cfg->replay ? 0 : cfg->own_tgid)))
		error_set(err, ret, NULL);
	s->stats_ready = !ret;
	if (!ret && cfg->replay)
		top_stats_set_scx(&s->stats, &s->m->sched_ext[0]);
	if (!ret)
		ret = model_start(s->m, err);
	if (ret) {
		top_source_close(s);
		return NULL;
	}
	s->last = s->m->session_start;
	return s;
}

/* Replay: the events of [last, last + interval), or to the capture's end. */
static int next_replay(struct top_source *s, uint64_t *to, struct error *err)
{
	uint64_t d = s->cfg.interval_ns, until = s->last + d, next;
	int ret;

	if (s->ended)
		return 0;
	/*
	 * Intervals without events are one, up to the last boundary before
	 * the next event: what a replay prints grows with its events, not
	 * with its span over -d (a damaged timestamp can be 2^63 ns away).
	 */
	ret = model_next_ts(s->m, &next);
	if (ret < 0)
		return error_set(err, ret, "reading %s: %s", s->cfg.replay, error_str(ret));
	if (ret && next > s->last && (next - s->last) / d > 1)
		until = s->last + (next - s->last) / d * d;
	/* At the clock's end (a damaged timestamp), the rest is the last interval. */
	if (d > UINT64_MAX - 1 - s->last)
		until = UINT64_MAX;
	ret = model_step(s->m, until, err);
	if (ret < 0)
		return ret;
	if (!ret && until != UINT64_MAX) {
		model_cut(s->m, until);
		*to = until;
		return 1;
	}
	/* The end: every interval closed where the capture's data ends. */
	s->ended = 1;
	ret = model_finish(s->m, err);
	if (ret)
		return ret;
	/* Nothing but the end's marks after the last interval: none more. */
	if (s->m->to <= s->last)
		return 0;
	*to = s->m->to;
	return 1;
}

/* The scheduler now: a kernel without sched_ext (no directory) has none. */
static void live_scx(struct top_source *s)
{
	struct sched_ext now;

	memset(&now, 0, sizeof(now));
	if (s->cfg.rec.sched_ext_dir)
		sched_ext_read(s->cfg.rec.sched_ext_dir, &now);
	top_stats_set_scx(&s->stats, &now);
}

static int next_live(struct top_source *s, uint64_t *to, struct error *err)
{
	int ret = recorder_reader_error(s->rec);

	/* The sync starts readers for CPUs that came online, and waits for them. */
	if (!ret)
		ret = recorder_sync(s->rec, to);
	/* A reader that ended in the sync left its CPU's records out: no interval. */
	if (!ret)
		ret = recorder_reader_error(s->rec);
	if (ret)
		return error_set(err, ret, "%s", recorder_strerror(s->rec));
	ret = model_step(s->m, *to, err);
	if (ret < 0)
		return ret;
	model_cut(s->m, *to);
	live_scx(s);
	return 1;
}

int top_source_next(struct top_source *s, struct top_interval **iv, struct error *err)
{
	uint64_t to = 0;
	int ret = s->cfg.replay ? next_replay(s, &to, err) : next_live(s, &to, err);

	if (ret <= 0)
		return ret;
	ret = top_stats_take(&s->stats, s->last, to, iv);
	if (ret)
		return error_set(err, ret, NULL);
	s->last = to;
	return 1;
}

int top_source_stop(struct top_source *s, struct error *err)
{
	uint32_t i;
	int ret;

	if (!s->rec || s->stopped)
		return 0;
	s->stopped = 1;
	ret = recorder_stop(s->rec);
	for (i = 0; i < s->nr_queues; i++)
		byte_queue_close(&s->queues[i]);
	return ret ? error_set(err, ret, "%s", recorder_strerror(s->rec)) : 0;
}

void top_source_close(struct top_source *s)
{
	uint32_t i;

	if (!s)
		return;
	/* The readers stop before the queues they fill go. */
	recorder_free(s->rec);
	if (s->stats_ready)
		top_stats_fini(&s->stats);
	model_close(s->m);
	for (i = 0; i < s->nr_queues; i++)
		byte_queue_fini(&s->queues[i]);
	free(s->queues);
	free(s->qptr);
	free(s);
}

const char *top_source_name(const struct top_source *s)
{
	return s->name;
}

const char *top_source_problem(const struct top_source *s)
{
	return s->ended && (s->m->truncated || s->m->damaged) ? s->m->problem : NULL;
}

uint32_t top_source_nr_cpus(const struct top_source *s)
{
	return s->m->nr_cpus;
}
