// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mcp/mcp-call.h"
#include "report/json-build.h"
#include "util/units.h"

struct mcp_trace *mcp_call_trace(struct mcp_call *c, const char *name)
{
	return mcp_traces_find(c->traces, mcp_args_str(c->args, name), &c->err);
}

static int take_time(struct mcp_call *c, const char *name, uint64_t *ns, int *have)
{
	const char *s = mcp_args_str(c->args, name);

	if (!s)
		return 0;
	if (units_parse_time(s, ns))
		return error_set(&c->err, -EINVAL,
				 "%s wants a time from the capture's start with a unit, such as 500ms, 2s or 1500us, not '%.64s'",
				 name, s);
	*have = 1;
	return 0;
}

static int take_thresholds(struct mcp_call *c, struct findings_config *f)
{
	json_object *t = mcp_args_get(c->args, "thresholds");

	if (!t)
		return 0;
	json_object_object_foreach(t, rule, v) {
		double x = json_object_get_double(v);

		if (findings_set_threshold(f, rule, x))
			return error_set(&c->err, -EINVAL,
					 "thresholds.%s: %g is not a threshold it takes (a positive number; min-samples: a whole one)",
					 rule, x);
	}
	return 0;
}

/* A string argument through the filter's parser (its bounds, its messages). */
static int take_filter(struct mcp_call *c, struct filter *f, const char *name, int key)
{
	const char *s = mcp_args_str(c->args, name);

	return s && filter_take(f, key, s, &c->err) < 0 ? c->err.code : 0;
}

int mcp_call_config(struct mcp_call *c, struct report_config *cfg)
{
	const char *method = mcp_args_str(c->args, "method");
	struct filter *f = &cfg->filter;

	mcp_traces_default_config(cfg);
	if (take_time(c, "from", &f->from_rel, &f->have_from) ||
	    take_time(c, "to", &f->to_rel, &f->have_to))
		return c->err.code;
	if (f->have_from && f->have_to && f->from_rel >= f->to_rel)
		return error_set(&c->err, -EINVAL, "from must come before to");
	if (mcp_args_get(c->args, "pid"))
		f->pids[f->nr_pids++] = mcp_args_int(c->args, "pid", 0);
	if (mcp_args_get(c->args, "tid"))
		f->tids[f->nr_tids++] = mcp_args_int(c->args, "tid", 0);
	if (take_filter(c, f, "comm", FILTER_KEY_COMM) ||
	    take_filter(c, f, "cgroup", FILTER_KEY_CGROUP) ||
	    take_filter(c, f, "cpus", FILTER_KEY_CPUS))
		return c->err.code;
	if (method)
		cfg->findings.method = strcasecmp(method, "mad") ? OUTLIER_IQR : OUTLIER_MAD;
	return take_thresholds(c, &cfg->findings);
}

int mcp_call_text(struct mcp_call *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	free(c->text);
	va_start(ap, fmt);
	n = vasprintf(&c->text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->text = NULL;
		return error_set(&c->err, -ENOMEM, NULL);
	}
	return 0;
}

int mcp_call_text_from(struct mcp_call *c, int (*write)(const void *ctx, FILE *out),
		       const void *ctx)
{
	size_t len;
	FILE *f;
	int ret;

	free(c->text);
	c->text = NULL;
	f = open_memstream(&c->text, &len);
	if (!f)
		return error_set(&c->err, -ENOMEM, NULL);
	ret = write(ctx, f);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(c->text);
		c->text = NULL;
		return error_set(&c->err, ret, NULL);
	}
	return 0;
}

int mcp_call_put(struct mcp_call *c, const char *key, json_object *val)
{
	struct json_build b = { 0 };

	json_build_put(&b, c->doc, key, val);
	return b.nomem ? error_set(&c->err, -ENOMEM, NULL) : 0;
}

json_object *mcp_call_schema_extend(json_object *schema, const struct json_field *extra)
{
	json_object *more = json_doc_schema(extra, 0), *props, *req, *mprops, *mreq;
	struct json_build b = { 0 };
	size_t i;

	if (!schema || !more ||
	    !json_object_object_get_ex(schema, "properties", &props) ||
	    !json_object_object_get_ex(schema, "required", &req) ||
	    !json_object_object_get_ex(more, "properties", &mprops) ||
	    !json_object_object_get_ex(more, "required", &mreq)) {
		json_object_put(schema);
		json_object_put(more);
		return NULL;
	}
	json_object_object_foreach(mprops, key, val)
		json_build_put(&b, props, key, json_object_get(val));
	for (i = 0; i < json_object_array_length(mreq); i++)
		json_build_push(&b, req, json_object_get(json_object_array_get_idx(mreq, i)));
	json_object_put(more);
	if (b.nomem) {
		json_object_put(schema);
		return NULL;
	}
	return schema;
}
