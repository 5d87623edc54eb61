// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>

#include "report/json-build.h"

void json_build_put(struct json_build *b, json_object *o, const char *key, json_object *val)
{
	if (!val || !o || json_object_object_add(o, key, val)) {
		b->nomem = 1;
		json_object_put(val);
	}
}

void json_build_push(struct json_build *b, json_object *a, json_object *val)
{
	if (!val || !a || json_object_array_add(a, val)) {
		b->nomem = 1;
		json_object_put(val);
	}
}

void json_build_num(struct json_build *b, json_object *o, const char *key, double v,
		    int decimals)
{
	char buf[64];

	if (isnan(v) || isinf(v)) {
		if (!o || json_object_object_add(o, key, NULL))	/* null */
			b->nomem = 1;
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	json_build_put(b, o, key, json_object_new_double_s(v, buf));
}

json_object *json_build_dist(struct json_build *b, const struct hist *h)
{
	json_object *o = json_object_new_object();

	if (!h)
		return o;
	json_build_put(b, o, "count", json_object_new_uint64(h->count));
	json_build_put(b, o, "min_ns", json_object_new_uint64(h->min));
	json_build_num(b, o, "mean_ns", hist_mean(h), 1);
	json_build_put(b, o, "p50_ns", json_object_new_uint64(hist_percentile(h, 50)));
	json_build_put(b, o, "p90_ns", json_object_new_uint64(hist_percentile(h, 90)));
	json_build_put(b, o, "p99_ns", json_object_new_uint64(hist_percentile(h, 99)));
	json_build_put(b, o, "p99_9_ns", json_object_new_uint64(hist_percentile(h, 99.9)));
	json_build_put(b, o, "max_ns", json_object_new_uint64(h->max));
	json_build_put(b, o, "exact", json_object_new_boolean(hist_is_exact(h)));
	return o;
}
