// SPDX-License-Identifier: GPL-2.0
/*
 * The conversion: the enabled views as one client of the model, which
 * hands them the window's events after it took each (so that every view
 * sees who a pid is, and who runs on each CPU, as of that event).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto/convert.h"

const char *convert_comm(const struct convert_ctx *c, uint32_t pid, uint32_t cpu,
			 char *buf, unsigned int len)
{
	if (!pid) {
		if (cpu < c->nr_cpus)
			return c->idle_names[cpu];
		snprintf(buf, len, "swapper/%u", cpu);
		return buf;
	}
	return task_table_comm(&c->model->tasks, pid, buf, len);
}

struct run {
	struct convert_ctx *c;
	const struct convert_view *views[3];
	void *state[3];
	unsigned int nviews;
};

static int to_views(void *ctx, const struct event *ev)
{
	struct run *r = ctx;
	unsigned int i;
	int ret;

	if (ev->cpu >= r->c->nr_cpus)
		return 0;
	for (i = 0; i < r->nviews; i++) {
		ret = r->views[i]->event(r->state[i], ev);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct sched_ops views_ops = { .event = to_views };

int convert_run(struct convert_ctx *c, struct error *err)
{
	struct run r = { .c = c };
	unsigned int i;
	int ret = 0;

	if (c->opt.view_sched)
		r.views[r.nviews++] = &pf_sched_view;
	if (c->opt.view_threads)
		r.views[r.nviews++] = &pf_threads_view;
	if (c->opt.view_samples)
		r.views[r.nviews++] = &pf_samples_view;
	c->idle_names = malloc((c->nr_cpus + 1) * sizeof(*c->idle_names));
	if (!c->idle_names) {
		ret = error_set(err, -ENOMEM, NULL);
		goto out;
	}
	for (i = 0; i < c->nr_cpus; i++)
		snprintf(c->idle_names[i], sizeof(c->idle_names[i]), "swapper/%u", i);
	for (i = 0; i < r.nviews; i++) {
		r.state[i] = r.views[i]->create(c);
		if (!r.state[i]) {
			ret = error_set(err, -ENOMEM, NULL);
			goto out;
		}
	}
	ret = model_add_client(c->model, &views_ops, &r, MODEL_WINDOWED);
	if (ret)
		error_set(err, ret, NULL);
	else
		ret = model_run(c->model, err);
	for (i = 0; !ret && i < r.nviews; i++)
		if ((ret = r.views[i]->finish(r.state[i])))
			error_set(err, ret, NULL);
out:
	for (i = 0; i < r.nviews; i++)
		if (r.state[i])
			r.views[i]->destroy(r.state[i]);
	free(c->idle_names);
	c->idle_names = NULL;
	return ret;
}
