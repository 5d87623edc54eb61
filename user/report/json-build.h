/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building JSON documents with json-c, for the report and the diff: every
 * addition goes through here, and one failed allocation anywhere marks the
 * whole document failed (nomem) instead of leaving a hole in it.
 */
#ifndef KTPROF_JSON_BUILD_H
#define KTPROF_JSON_BUILD_H

#include <json.h>

#include "report/hist.h"

struct json_build {
	int nomem;
};

/* Add @val under @key of @o / at the end of @a; NULL @val: the build failed. */
void json_build_put(struct json_build *b, json_object *o, const char *key, json_object *val);
void json_build_push(struct json_build *b, json_object *a, json_object *val);

/* @v with @decimals digits after the point; NaN or infinite: null. */
void json_build_num(struct json_build *b, json_object *o, const char *key, double v,
		    int decimals);

/* A distribution: count, min_ns, mean_ns, p50..p99_9_ns, max_ns, exact. */
json_object *json_build_dist(struct json_build *b, const struct hist *h);

#endif
