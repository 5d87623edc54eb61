/* SPDX-License-Identifier: GPL-2.0 */
/* Renderers of a diff: text, JSON (schema "ktprof-diff"), HTML. */
#ifndef KTPROF_RENDER_DIFF_H
#define KTPROF_RENDER_DIFF_H

#include <stdio.h>

#include "report/diff.h"
#include "report/render.h"

#define DIFF_JSON_VERSION "1.5"

/* The JSON document as a json-c tree (the caller puts it); NULL on ENOMEM. */
struct json_object;
struct json_cut;
struct json_object *render_diff_json_object(const struct diff *d, const struct report_view *v,
					    const struct json_cut *cut);

/* The document's fields, and its JSON Schema (NULL on ENOMEM). */
const struct json_field *render_diff_json_fields(void);
struct json_object *render_diff_json_schema(void);

/* Each returns 0 or a negative error. */
int render_diff_text(const struct diff *d, const struct report_view *v, FILE *out);
int render_diff_json(const struct diff *d, const struct report_view *v, FILE *out);
int render_diff_html(const struct diff *d, const struct report_view *v, FILE *out);

#endif
