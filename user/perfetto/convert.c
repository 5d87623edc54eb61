// SPDX-License-Identifier: GPL-2.0
/*
 * The conversion loop: events in time order go first to the task table and
 * the symbolizer (so that every view sees who a pid is at that moment),
 * then to each enabled view, then update which task runs on each CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "perfetto/convert.h"

uint32_t convert_current(const struct convert_ctx *c, uint32_t cpu)
{
	return cpu < c->nr_cpus ? c->cpu_current[cpu] : CONVERT_PID_UNKNOWN;
}

static int pid_listed(const struct convert_config *o, uint32_t tgid)
{
	unsigned int i;

	for (i = 0; i < o->nr_pids; i++)
		if (o->pids[i] == tgid)
			return 1;
	return 0;
}

int convert_selected(const struct convert_ctx *c, uint32_t pid)
{
	const struct task_info *ti, *leader;
	uint32_t tgid;

	if (!c->opt.nr_pids && !c->opt.comm)
		return 1;
	if (!pid || pid == CONVERT_PID_UNKNOWN)
		return 0;
	ti = task_table_get(c->tasks, pid);
	tgid = ti && ti->tgid ? ti->tgid : pid;
	if (pid_listed(&c->opt, tgid))
		return 1;
	if (!c->opt.comm)
		return 0;
	leader = tgid == pid ? ti : task_table_get(c->tasks, tgid);
	return leader && !strncmp(leader->comm, c->opt.comm, KTP_COMM_LEN);
}

const char *convert_comm(const struct convert_ctx *c, uint32_t pid, uint32_t cpu,
			 char *buf, unsigned int len)
{
	if (!pid) {
		if (cpu < c->nr_cpus)
			return c->idle_names[cpu];
		snprintf(buf, len, "swapper/%u", cpu);
		return buf;
	}
	return task_table_comm(c->tasks, pid, buf, len);
}

static void take_irq_name(struct convert_ctx *c, const struct event *ev)
{
	struct ktp_irq_name r;
	size_t n = ev->size - sizeof(r);

	memcpy(&r, ev->rec, sizeof(r));
	if (r.irq >= CONVERT_MAX_IRQS)
		return;
	if (n >= KTP_IRQ_NAME_MAX)
		n = KTP_IRQ_NAME_MAX - 1;
	memcpy(c->irq_names[r.irq], (const char *)ev->rec + sizeof(r), n);
	c->irq_names[r.irq][n] = '\0';
}

/* After every view saw @ev: who runs on its CPU now. */
static void track_current(struct convert_ctx *c, const struct event *ev)
{
	uint32_t *cur = &c->cpu_current[ev->cpu];

	switch (ev->type) {
	case KTP_REC_SWITCH: {
		struct ktp_switch r;

		memcpy(&r, ev->rec, sizeof(r));
		*cur = r.next_pid;
		break;
	}
	case KTP_REC_CPU: {
		struct ktp_cpu_mark m;

		memcpy(&m, ev->rec, sizeof(m));
		*cur = m.reason == KTP_CPU_START || m.reason == KTP_CPU_ONLINE ?
			m.pid : CONVERT_PID_UNKNOWN;
		break;
	}
	case EVENT_LOST:
	case EVENT_GARBAGE:
		/* Switches may be among what was lost. */
		*cur = CONVERT_PID_UNKNOWN;
		break;
	}
}

struct run {
	struct convert_ctx *c;
	const struct convert_view *views[3];
	void *state[3];
	unsigned int nviews;
	struct convert_stats *stats;
};

static int to_views(struct run *r, const struct event *ev)
{
	unsigned int i;
	int ret;

	for (i = 0; i < r->nviews; i++) {
		ret = r->views[i]->event(r->state[i], ev);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A window's edges as CPU marks, so that views open and close what runs
 * there as they do at a session's start and stop.
 */
static int window_edge(struct run *r, uint64_t ts, uint16_t reason)
{
	struct convert_ctx *c = r->c;
	struct ktp_cpu_mark m;
	struct event ev;
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		if (c->cpu_current[cpu] == CONVERT_PID_UNKNOWN)
			continue;
		memset(&m, 0, sizeof(m));
		m.h.type = KTP_REC_CPU;
		m.h.size = sizeof(m);
		m.pid = c->cpu_current[cpu];
		m.reason = reason;
		memset(&ev, 0, sizeof(ev));
		ev.ts = ts;
		ev.cpu = cpu;
		ev.type = KTP_REC_CPU;
		ev.size = sizeof(m);
		ev.rec = &m;
		ret = to_views(r, &ev);
		if (ret)
			return ret;
	}
	return 0;
}

/* Records that describe the session rather than happen at a time. */
static int timeless(uint16_t type)
{
	return type == KTP_REC_TASK || type == KTP_REC_IRQ_NAME;
}

static int run_loop(struct run *r, struct merge *m)
{
	struct convert_ctx *c = r->c;
	const struct convert_config *o = &c->opt;
	int in_window = !o->from_ns, ret;
	struct event ev;

	while ((ret = merge_next(m, &ev)) > 0) {
		r->stats->events++;
		if (ev.cpu >= c->nr_cpus) {
			r->stats->outside_cpus++;
			continue;
		}
		if (o->to_ns && ev.ts > o->to_ns)
			return window_edge(r, o->to_ns, KTP_CPU_STOP);
		if ((ret = task_table_on_event(c->tasks, &ev)) ||
		    (ret = symbolizer_on_event(c->sym, &ev)))
			return ret;
		if (ev.type == KTP_REC_IRQ_NAME)
			take_irq_name(c, &ev);
		if (!in_window && ev.ts >= o->from_ns) {
			in_window = 1;
			ret = window_edge(r, o->from_ns, KTP_CPU_START);
			if (ret)
				return ret;
		}
		if (in_window || timeless(ev.type)) {
			ret = to_views(r, &ev);
			if (ret)
				return ret;
		}
		if (ev.type == EVENT_LOST)
			r->stats->lost += ev.lost;
		track_current(c, &ev);
	}
	return ret;
}

int convert_run(struct convert_ctx *c, struct merge *m, struct convert_stats *stats)
{
	struct run r = { .c = c, .stats = stats };
	unsigned int i;
	int ret = 0;

	memset(stats, 0, sizeof(*stats));
	if (c->opt.view_sched)
		r.views[r.nviews++] = &pf_sched_view;
	if (c->opt.view_threads)
		r.views[r.nviews++] = &pf_threads_view;
	if (c->opt.view_samples)
		r.views[r.nviews++] = &pf_samples_view;
	c->cpu_current = malloc(c->nr_cpus * sizeof(*c->cpu_current));
	c->idle_names = malloc(c->nr_cpus * sizeof(*c->idle_names));
	if (!c->cpu_current || !c->idle_names) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c->nr_cpus; i++) {
		c->cpu_current[i] = CONVERT_PID_UNKNOWN;
		snprintf(c->idle_names[i], sizeof(c->idle_names[i]), "swapper/%u", i);
	}
	for (i = 0; i < r.nviews; i++) {
		r.state[i] = r.views[i]->create(c);
		if (!r.state[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = run_loop(&r, m);
	for (i = 0; !ret && i < r.nviews; i++)
		ret = r.views[i]->finish(r.state[i]);
out:
	for (i = 0; i < r.nviews; i++)
		if (r.state[i])
			r.views[i]->destroy(r.state[i]);
	free(c->cpu_current);
	free(c->idle_names);
	c->cpu_current = NULL;
	c->idle_names = NULL;
	return ret;
}
